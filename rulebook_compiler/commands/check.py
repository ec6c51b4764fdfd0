"""``rulebook check``: the rulebook's problems, or its summary; with ``--against``, also the review
of its published record against a base revision or folder (``rulebook_compiler.review``)."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

import click

from ..diagnostics import Diagnostic, printable
from ..where import default_root
from .common import report
from .options import UsageProblem, default_rulebook_or_exit, rulebook_argument, rulebook_option, say


@click.command()
@rulebook_argument()
@rulebook_option()
@click.option("--no-cache", is_flag=True,
              help="Neither read nor fill the cache (what earlier checks proved; also set by RULEBOOK_NO_CACHE=1).")
@click.option("--against", metavar="git:REV|FOLDER",
              help="Review mode: also check that the published record (published editions, rulebook.lock, "
                   "corrections.yaml) is append-only against this base revision or folder.")
def check(path: Path | None, root: Path | None, no_cache: bool, against: str | None) -> None:
    """Check the rulebook at PATH (the same as --rulebook PATH): schema, names, overlays, rule logic,
    the lock and the corrections log."""
    from ..checking import check_rulebook

    if path is not None and root is not None and path != root:
        raise UsageProblem(printable(f"two rulebook folders: '{path}' and --rulebook '{root}'"),
                           "give the rulebook folder once, as PATH or with --rulebook DIR")
    root = path or root
    if root is None:
        default_rulebook_or_exit()
    root = root or default_root()
    with _base(root, against) as base:
        result = check_rulebook(root, use_cache=not no_cache)
        problems = list(result.problems)
        line = None
        if base is not None and against is not None and result.summary is not None:
            problems, line = _reviewed(root, base, against, problems)
    if problems:
        report(problems)
    if result.summary is None or any(p.severity == "error" for p in problems):
        sys.exit(1)
    say(result.summary)
    if line is not None:
        say(printable(line))


@contextmanager
def _base(root: Path, against: str | None):
    """The base rulebook of ``--against`` (None without it), read as ``diff`` reads a side: a git
    revision from the object store into a temporary folder, removed after (sources never change)."""
    if against is None:
        yield None
        return
    from ..diff.sides import Resolver, SideError

    rest = against[len("git:"):] if against.startswith("git:") else None
    if rest is not None and ":" in rest:
        raise click.BadParameter(printable(f"'{against}' names an edition; the base is a whole rulebook: "
                                           "git:REV or a folder"), param_hint="'--against'")
    with Resolver(root) as resolver:
        try:
            side = resolver.resolve(against)
        except SideError as exc:
            if not exc.problems:
                raise click.BadParameter(printable(exc.message), param_hint="'--against'") from None
            click.echo(f"rulebook: {printable(exc.message)}:", err=True)
            report(exc.problems)
            sys.exit(1)
        if side.kind == "edition":
            raise click.BadParameter(printable(f"'{against}' names an edition; the base is a whole rulebook: "
                                               "git:REV or a folder"), param_hint="'--against'")
        if side.problems:  # the base's own lock or log fails check: the review has no record to hold to
            click.echo(f"rulebook: '{printable(against)}' does not pass rulebook check:", err=True)
            report(list(side.problems))
            sys.exit(1)
        yield side.book


def _reviewed(root: Path, base, against: str, problems: list[Diagnostic]) -> tuple[list[Diagnostic], str | None]:
    """The check's problems and the review's after them (those the check gave already once)."""
    from ..build import check as build
    from ..review import review

    head, _ = build(root, locked=False)  # its lock's and log's problems are the check's, above
    if head is None:  # pragma: no cover - the check above built it
        return problems, None
    found, line = review(base, head, against)
    return problems + [p for p in found if p not in problems], line
