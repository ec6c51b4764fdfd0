"""The ``rulebook`` command. Each subcommand imports its back end only when run."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path

import click

from .counts import counted
from .diagnostics import Diagnostic, printable
from .where import default_root, missing_default_rulebook  # noqa: F401 (default_root: imported from here by the back ends)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def report(problems: list[Diagnostic]) -> None:
    """Print every problem and a count to stderr, colour only on a terminal."""
    colour = sys.stderr.isatty() and "NO_COLOR" not in os.environ
    for problem in problems:
        text = str(problem)
        if colour:
            text = text.replace(": error: ", ": \x1b[1;31merror\x1b[0m: ", 1)
        click.echo(text, err=True)
    count = sum(p.severity == "error" for p in problems)
    if count:
        click.echo(f"{counted(count, 'problem')} found", err=True)


def load_or_exit(root: Path | None, locked: bool = True):
    """The checked rulebook, or exit 1 after printing its problems (its lock's too, unless
    ``locked`` is False: ``build.check``)."""
    from .build import check

    missing = missing_default_rulebook() if root is None else None
    book, problems = (None, [missing]) if missing else check(root or default_root(), locked=locked)
    if book is None:
        report(problems)
        sys.exit(1)
    return book


def edition_or_exit(book, edition_id: str | None):
    if edition_id is not None and edition_id not in book.edition_by_id:
        raise click.BadParameter(
            printable(f"unknown edition '{edition_id}'; editions: {', '.join(e.id for e in book.editions)}"),
            param_hint="'--edition'")
    return book.edition(edition_id)


ROOT_OPTION = click.option("--rulebook", "root", type=click.Path(path_type=Path), default=None,
                           help="Rulebook folder (default: ./rulebook, else the current folder).")


class _Group(click.Group):
    """Reports an output that cannot be written as an error line, not a traceback."""

    def main(self, *args, **kwargs):
        from .diagnostics import survive_any_encoding

        survive_any_encoding()
        return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context):
        from .fileio import OutputError
        from .progress import display

        try:
            with display():  # bars on a terminal for the long loops, then a summary line (compiler.progress)
                return super().invoke(ctx)
        except OutputError as exc:
            click.echo(printable(f"rulebook: error: {exc}"), err=True)
            ctx.exit(1)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulebook-compiler")
def main() -> None:
    """Compile a card game's rules glossary: check, export, diff, conformance, site."""


@main.command()
@click.argument("path", required=False, type=click.Path(path_type=Path))
@click.option("--no-cache", is_flag=True,
              help="Neither read nor fill the cache (what earlier checks proved; also set by RULEBOOK_NO_CACHE=1).")
@click.option("--against", metavar="git:REV|FOLDER",
              help="Review mode: also check that the published record (published editions, rulebook.lock, "
                   "corrections.yaml) is append-only against this base revision or folder.")
def check(path: Path | None, no_cache: bool, against: str | None) -> None:
    """Check the rulebook at PATH: schema, names, overlays, rule logic, the lock and the corrections log."""
    from .checking import check_rulebook

    missing = missing_default_rulebook() if path is None else None
    if missing:
        report([missing])
        sys.exit(1)
    root = path or default_root()
    with _base(root, against) as base:
        result = check_rulebook(root, use_cache=not no_cache)
        problems = list(result.problems)
        line = None
        if base is not None and result.summary is not None:
            problems, line = _reviewed(root, base, against, problems)
    if problems:
        report(problems)
    if result.summary is None or any(p.severity == "error" for p in problems):
        sys.exit(1)
    click.echo(result.summary)
    if line is not None:
        click.echo(printable(line))


@contextmanager
def _base(root: Path, against: str | None):
    """The base rulebook of ``--against`` (None without it), read as ``diff`` reads a side: a git
    revision from the object store into a temporary folder, removed after (sources never change)."""
    if against is None:
        yield None
        return
    from .diff.sides import Resolver, SideError

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
    from .build import check as build
    from .review import review

    head, _ = build(root, locked=False)  # its lock's and log's problems are the check's, above
    if head is None:  # pragma: no cover - the check above built it
        return problems, None
    found, line = review(base, head, against)
    return problems + [p for p in found if p not in problems], line


def _base_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An http(s) URL of the site's root, ending in "/" (so that the same site gives the same bytes)."""
    if value is None:
        return None
    from urllib.parse import urlsplit

    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise click.BadParameter(printable(f"'{value}' is not an http(s) URL (such as https://rules.example.org/)"))
    return value.rstrip("/") + "/"


@main.command()
@ROOT_OPTION
@click.option("--edition", "edition_id", help="Edition id (default: the latest).")
@click.option("--format", "fmt", type=click.Choice(["json", "jsonl"]), default="json", show_default=True,
              help="json: the whole edition; jsonl: one record per clause, for search indexes.")
@click.option("--base-url", callback=_base_url,
              help="The site's URL, for each clause's permalink (jsonl; default: links relative to the site).")
@click.option("--out", type=click.Path(path_type=Path), help="Write here (atomically) instead of stdout.")
def export(root: Path | None, edition_id: str | None, fmt: str, base_url: str | None, out: Path | None) -> None:
    """Export the resolved edition (overlays applied)."""
    from .export import dumps, edition_json, jsonl
    from .fileio import write_text

    if base_url is not None and fmt != "jsonl":
        raise click.UsageError("--base-url applies to --format jsonl only")
    if out:
        from .outputs import output_file, rulebook_input

        output_file(out, [rulebook_input(root or default_root())])
    book = load_or_exit(root)
    edition = edition_or_exit(book, edition_id)
    text = jsonl(edition, base_url or "") if fmt == "jsonl" else dumps(edition_json(book, edition))
    if out:
        write_text(out, text)
    else:
        from .diagnostics import write_utf8

        write_utf8(text)


@main.command()
@ROOT_OPTION
@click.option("--edition", "edition_id", help="Edition id (default: the latest).")
@click.argument("decision")
@click.option("--fact", "facts", multiple=True, metavar="NAME=VALUE",
              help="A fact of the situation (repeat for each); bool facts take true or false.")
@click.option("--situation", "situation_path", type=click.Path(path_type=Path, dir_okay=False),
              help="A JSON object of facts and their values (JSON true/false for bool facts).")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON (docs/ask.md).")
@click.option("--base-url", callback=_base_url,
              help="The site's URL, for each clause's permalink (default: links relative to the site).")
def ask(root: Path | None, edition_id: str | None, decision: str, facts: tuple[str, ...],
        situation_path: Path | None, as_json: bool, base_url: str | None) -> None:
    """Answer DECISION for some facts, with the rules and clauses that give the answer.

    Facts left out are open: the answer is given when every situation the constraints
    allow gives the same one, else the facts still needed are listed. Exit 1 when the
    constraints rule the facts out."""
    from . import ask as asking

    book = load_or_exit(root)
    edition = edition_or_exit(book, edition_id)
    try:
        from_file = {}
        if situation_path is not None:
            try:
                text = situation_path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise asking.AskUsageError(f"{situation_path}: cannot be read ({exc})", "--situation") from None
            from_file = asking.situation_file(str(situation_path), text)
        given = asking.situation(edition, from_file, facts)
        answer = asking.ask(edition, decision, given, base_url or "")
    except asking.AskUsageError as exc:
        raise click.BadParameter(printable(str(exc)), param_hint=f"'{exc.param}'") from None
    if as_json:
        from .diagnostics import write_utf8
        from .export import dumps

        write_utf8(dumps(asking.to_json(answer)))
    else:
        click.echo(asking.render_text(answer), nl=False)
    if answer.status == "impossible":
        sys.exit(1)


@main.command()
@click.option("--kind", type=click.Choice(["rulebook", "vocabulary", "term", "vocabulary-overlay", "term-patch",
                                           "corrections", "rulings"]),
              help="One kind of file (default: every kind, each under $defs).")
def schema(kind: str | None) -> None:
    """Print the JSON Schema of rulebook.yaml, vocabulary.yaml, term files and _rulings.yaml
    (also shipped in compiler/schemas/)."""
    from .schema import schema_text

    click.echo(schema_text(kind), nl=False)


# Subcommands of the back ends: their modules import only click here; each back end's
# libraries (mkdocs, jinja2, deepdiff) load inside the command that needs them.
from .conformance.cli import conformance  # noqa: E402
from .diff.command import diff_command, history_command  # noqa: E402
from .diff.command import changelog_command  # noqa: E402
from .publish import correct, publish  # noqa: E402
from .site.command import build as site_build, serve as site_serve  # noqa: E402
from .starter import init  # noqa: E402
from .progress import add_quiet_option  # noqa: E402

for _command in (conformance, diff_command, history_command, site_build, site_serve, publish, correct, init):
    main.add_command(_command)
main.add_command(changelog_command)
from .importer.command import import_command; main.add_command(import_command)  # noqa: E402,E702
for _command in main.commands.values():
    add_quiet_option(_command)

if __name__ == "__main__":  # pragma: no cover
    main()
