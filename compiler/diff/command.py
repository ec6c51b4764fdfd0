"""The ``rulebook diff`` and ``rulebook history`` commands.

Back-end modules (the diff engine, deepdiff) are imported inside the commands,
so that ``rulebook --help`` stays quick.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

FORMATS = ["text", "markdown", "json", "html"]

_root_option = click.option("--rulebook", "root", type=click.Path(path_type=Path), default=None,
                            help="Rulebook folder for edition ids and git: sides (default: ./rulebook, "
                                 "else the current folder).")
_format_option = click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
                              help="text (colour on a terminal), markdown (pull-request comment), json, html.")


def render(result, fmt: str) -> str:
    """The diff in one of the formats; text is coloured only on a terminal without NO_COLOR."""
    if fmt == "json":
        from .render_json import render as out
        return out(result)
    if fmt == "markdown":
        from .render_markdown import render as out
        return out(result)
    if fmt == "html":
        from .render_html import render as out
        return out(result)
    from .render_text import render as out
    return out(result, colour=sys.stdout.isatty() and "NO_COLOR" not in os.environ)


def _fail(message: str, code: int) -> None:
    click.echo(f"rulebook: error: {message}", err=True)
    sys.exit(code)


@click.command("diff")
@click.argument("old")
@click.argument("new")
@_root_option
@_format_option
@click.option("--exit-code", is_flag=True, help="Exit 1 when there are differences, 0 when none (like git diff).")
def diff_command(old: str, new: str, root: Path | None, fmt: str, exit_code: bool) -> None:
    """What changed from OLD to NEW: in words, in structure and in behaviour.

    OLD and NEW are each an edition id, a rulebook folder, or git:REV (the
    rulebook as committed at REV; git:REV:EDITION picks an edition there).
    """
    from ..cli import default_root, report
    from .engine import diff_editions
    from .sides import Resolver, SideError, source_path

    with Resolver(root or default_root()) as resolver:
        try:
            a = resolver.resolve(old)
            b = resolver.resolve(new)
        except SideError as exc:
            if exc.problems:
                click.echo(f"rulebook: {exc.message}:", err=True)
                report(exc.problems)
                sys.exit(1)
            _fail(exc.message, 2)
        result = diff_editions(a.book, a.edition, b.book, b.edition,
                               old_info=a.as_json(), new_info=b.as_json(),
                               old_path=lambda loc: source_path(a, loc), new_path=lambda loc: source_path(b, loc))
    sys.stdout.write(render(result, fmt))
    if exit_code and not result.empty:
        sys.exit(1)


@click.command("history")
@click.argument("term")
@_root_option
@_format_option
def history_command(term: str, root: Path | None, fmt: str) -> None:
    """One term through all editions: each edition that changed it, as a diff."""
    from ..cli import load_or_exit
    from ..diagnostics import did_you_mean
    from .history import term_history

    book = load_or_exit(root)
    known = sorted({t.id for e in book.editions for t in e.terms})
    if term not in known:
        hint = did_you_mean(term, known)
        _fail(f"unknown term '{term}'" + (f" ({hint})" if hint else "") + f"; terms: {', '.join(known)}", 2)
    steps = term_history(book, term)
    if fmt == "json":
        from ..export import dumps
        sys.stdout.write(dumps({"term": term, "steps": [s.as_json() for s in steps]}))
        return
    sys.stdout.write(("\n" if fmt == "text" else "\n\n").join(render(s, fmt) for s in steps))
