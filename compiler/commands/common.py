"""What the commands share: the problem report, a checked rulebook or exit 1, an edition or a
usage error, the ``--rulebook`` option, and the group that turns an unwritable output into an
error line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import click

from ..diagnostics import Diagnostic, printable, report

__all__ = ["ROOT_OPTION", "RulebookGroup", "edition_or_exit", "fail", "load_or_exit", "report"]


def fail(problems: list[Diagnostic]) -> NoReturn:
    """Print the problems and their count, then exit 1."""
    report(problems)
    sys.exit(1)


def load_or_exit(root: Path | None, locked: bool = True):
    """The checked rulebook, or exit 1 after printing its problems (its lock's too, unless
    ``locked`` is False: ``build.check``)."""
    from ..loading import LoadError, load

    try:
        return load(root, locked=locked)
    except LoadError as exc:
        fail(exc.problems)


def edition_or_exit(book, edition_id: str | None):
    if edition_id is not None and edition_id not in book.edition_by_id:
        raise click.BadParameter(
            printable(f"unknown edition '{edition_id}'; editions: {', '.join(e.id for e in book.editions)}"),
            param_hint="'--edition'")
    return book.edition(edition_id)


ROOT_OPTION = click.option("--rulebook", "root", type=click.Path(path_type=Path), default=None,
                           help="Rulebook folder (default: ./rulebook, else the current folder).")


class RulebookGroup(click.Group):
    """Reports an output that cannot be written as an error line, not a traceback."""

    def main(self, *args, **kwargs):
        from ..diagnostics import survive_any_encoding

        survive_any_encoding()
        return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context):
        from ..fileio import OutputError
        from ..progress import display

        try:
            with display():  # bars on a terminal for the long loops, then a summary line (compiler.progress)
                return super().invoke(ctx)
        except OutputError as exc:
            click.echo(printable(f"rulebook: error: {exc}"), err=True)
            ctx.exit(1)


def base_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An http(s) URL of the site's root, ending in "/" (so that the same site gives the same bytes)."""
    if value is None:
        return None
    from urllib.parse import urlsplit

    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise click.BadParameter(printable(f"'{value}' is not an http(s) URL (such as https://rules.example.org/)"))
    return value.rstrip("/") + "/"
