"""What the commands share: the problem report, a checked rulebook or exit 1, an edition or a
usage error, and the group that turns an unwritable output and a usage error into error lines
(the options themselves: ``options``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn, Sequence

import click

from ..diagnostics import Diagnostic, printable

__all__ = ["RulebookGroup", "edition_or_exit", "fail", "load_or_exit", "report"]


def fail(problems: list[Diagnostic]) -> NoReturn:
    """Print the problems and their count, then exit 1."""
    report(problems)
    sys.exit(1)


def load_or_exit(root: Path | None, locked: bool = True):
    """The checked rulebook, or exit 1 after printing its problems (its lock's too, unless
    ``locked`` is False: ``build.check``)."""
    from ..loading import LoadError, load
    from .options import default_rulebook_or_exit

    if root is None:
        default_rulebook_or_exit()
    try:
        return load(root, locked=locked)
    except LoadError as exc:
        fail(exc.problems)


def edition_or_exit(book, edition_id: str | None):
    """The edition named (None: the latest), or the usage error of an unknown edition (exit 2)."""
    if edition_id is not None and edition_id not in book.edition_by_id:
        from .options import unknown_edition

        raise unknown_edition(edition_id, [e.id for e in book.editions])
    return book.edition(edition_id)


def report(problems: Sequence[Diagnostic]) -> None:
    """The problems and their count on standard error; under ``-q``, the errors only."""
    from ..diagnostics import report as show
    from .options import quiet

    show(problems if not quiet() else [p for p in problems if p.severity == "error"])


class _UsageShown(click.ClickException):
    """A usage error, shown in the one format (``options.usage_lines``), exit 2."""

    exit_code = 2

    def __init__(self, exc: click.UsageError) -> None:
        from .options import usage_lines

        super().__init__(exc.format_message())
        self.lines = usage_lines(exc)

    def show(self, file=None) -> None:
        for line in self.lines:
            click.echo(line, err=True)


class RulebookGroup(click.Group):
    """Reports an output that cannot be written, and a usage error, as ``rulebook: error:`` lines, not
    a traceback or click's usage block."""

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            raise _UsageShown(exc) from None

    def main(self, *args, **kwargs):
        from ..diagnostics import survive_any_encoding

        survive_any_encoding()
        return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context):
        from ..fileio import OutputError
        from ..progress import display

        try:
            with display():  # bars on a terminal for the long loops, then a summary line (rulebook_compiler.progress)
                return super().invoke(ctx)
        except click.UsageError as exc:
            raise _UsageShown(exc) from None
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
