"""The one vocabulary of options that every command speaks (docs/cli.md).

- ``--rulebook DIR``: the rulebook folder, the same option, default and errors in every
  command that reads a rulebook (``check`` also takes it as its PATH, the same value);
- ``--edition ID``: an edition, always by this option (``publish``, ``correct`` and
  ``changelog`` still take it as a positional argument, deprecated, with a warning);
- ``-q/--quiet``: nothing but errors, and the data the command was asked for on standard output
  (a diff, an export, an answer); no summary, no warning, no progress;
- a usage error (an unknown option, a missing folder, a file where a folder is expected, an
  unknown edition) is ``rulebook: error: MESSAGE`` and a ``  hint:`` line, exit 2.

tests/test_cli_vocabulary.py walks the click tree and holds every command to it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, TypeVar

import click

from ..diagnostics import did_you_mean, printable
from ..where import RULEBOOK_FILE, missing_default_rulebook

F = TypeVar("F", bound=Callable[..., Any])

RULEBOOK_HELP = "Rulebook folder (default: ./rulebook if it holds rulebook.yaml, else the current folder)."
RULEBOOK_SITE_HELP = ("Rulebook folder (default: the one ./mkdocs.yml names, else ./rulebook if it holds "
                      "rulebook.yaml, else the current folder).")
RULEBOOK_IMPORT_HELP = ("Rulebook folder to import on top of: keep its clause ids, propose lineage, list "
                        "decisions (default: none, a fresh import).")
EDITION_HELP = "Edition id (default: the latest)."
EDITION_REQUIRED_HELP = "Edition id."
QUIET_HELP = "Print nothing but errors (and the data asked for on standard output): no summary, warning or progress."


class UsageProblem(click.UsageError):
    """A usage error with its own hint line (exit 2, ``rulebook: error: ...``)."""

    def __init__(self, message: str, hint: str | None = None, ctx: click.Context | None = None) -> None:
        super().__init__(message, ctx)
        self.hint = hint


def usage_lines(exc: click.UsageError) -> list[str]:
    """The one format of a usage error: ``rulebook: error: MESSAGE`` and a ``  hint:`` line."""
    if type(exc) is click.BadParameter:  # click's own says "Invalid value for '--x': ..."; name the option once
        where = exc.param_hint if isinstance(exc.param_hint, str) else (
            " / ".join(exc.param_hint) if exc.param_hint else
            (exc.param.get_error_hint(exc.ctx) if exc.param is not None and exc.ctx is not None else None))
        message = f"{where.strip(chr(39)).strip('[]')}: {exc.message}" if where else exc.message
    else:
        message = exc.format_message()
    hint = getattr(exc, "hint", None)
    if hint is None and exc.ctx is not None:
        hint = f"see '{exc.ctx.command_path} --help'"
    return [f"rulebook: error: {message}"] + ([f"  hint: {hint}"] if hint else [])


def _folder(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """A rulebook folder given on the command line, or a usage error: missing, or a file."""
    import stat

    if value is None:
        return None
    try:
        mode = value.stat().st_mode
    except FileNotFoundError:
        raise UsageProblem(printable(f"no such rulebook folder: '{value}'"),
                           f"give the folder that holds {RULEBOOK_FILE}", ctx) from None
    except OSError:  # a folder that cannot be searched, say: the build names it at its place (exit 1)
        return value
    if not stat.S_ISDIR(mode):
        raise UsageProblem(printable(f"'{value}' is a file, not a rulebook folder"),
                           printable(f"give the folder that holds it: {_spelled(ctx, param, value.parent)}"), ctx)
    return value


def _spelled(ctx: click.Context, param: click.Parameter, folder: Path) -> str:
    """How to give ``folder`` to this command, in the form the user chose (``check PATH`` or ``--rulebook``)."""
    name = ctx.command_path
    return f"{name} {folder}" if isinstance(param, click.Argument) else f"{name} --rulebook {folder}"


def default_rulebook_or_exit() -> None:
    """A usage error (exit 2) when no folder was given and neither ./rulebook nor . holds a rulebook."""
    ctx = click.get_current_context(silent=True)
    missing = missing_default_rulebook(ctx.command_path if ctx is not None else "rulebook check")
    if missing is not None:
        raise UsageProblem(missing.message, missing.hint, ctx)


def rulebook_option(help_text: str = RULEBOOK_HELP) -> Callable[[F], F]:
    """``--rulebook DIR`` (parameter ``root``, default None: see ``rulebook_compiler.where``)."""
    return click.option("--rulebook", "root", type=click.Path(path_type=Path), default=None, metavar="DIR",
                        callback=_folder, help=help_text)


def rulebook_argument() -> Callable[[F], F]:
    """``check``'s PATH: the same value as ``--rulebook``, with its errors (the pre-commit hook's ``args``)."""
    return click.argument("path", required=False, type=click.Path(path_type=Path), callback=_folder)


def edition_option(required: bool = False, needed: bool = False) -> Callable[[F], F]:
    """``--edition ID`` (parameter ``edition_id``): optional means the latest; ``needed``: required, but
    also given by the deprecated positional form (``edition_given`` says when it is missing)."""
    return click.option("--edition", "edition_id", required=required, metavar="ID",
                        help=EDITION_REQUIRED_HELP if required or needed else EDITION_HELP)


def deprecated_alias(old: str, new: str, name: str) -> Callable[[F], F]:
    """A hidden ``old`` spelling of option ``new`` (the same parameter ``name``): it works, with a warning."""

    # Its own parameter, not ``name``: click reads a value by parameter name, so sharing it would make
    # the old spelling's callback see (and warn about) a value given with the new one. Given, it hands
    # its value to ``name``; the new option, not given, then leaves it there.
    def said(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value is not None:
            warn(f"{old} is deprecated; use {new}")
            ctx.params[name] = value
        return value

    return click.option(old, f"{name}_deprecated_spelling", hidden=True, default=None, callback=said,
                        expose_value=False)


class _HiddenArgument(click.Argument):
    """A deprecated positional argument: accepted, left out of the usage line."""

    def get_usage_pieces(self, ctx: click.Context) -> list[str]:
        return []


def deprecated_edition_argument() -> Callable[[F], F]:
    """The old positional EDITION of publish, correct and changelog (parameter ``old_edition``)."""
    return click.argument("old_edition", required=False, cls=_HiddenArgument, metavar="")


def edition_given(edition_id: str | None, old_edition: str | None) -> str:
    """The edition of a command that needs one, from ``--edition`` or the deprecated positional form."""
    ctx = click.get_current_context()
    if old_edition is not None:
        if edition_id is not None and edition_id != old_edition:
            raise UsageProblem(printable(f"two editions: '{old_edition}' and --edition '{edition_id}'"),
                               "give the edition once, with --edition ID", ctx)
        warn(printable(f"'{ctx.command_path} EDITION' is deprecated; use '{ctx.command_path} --edition "
                       f"{old_edition}'"))
        return old_edition
    if edition_id is None:
        raise UsageProblem("missing option '--edition'", f"name the edition: {ctx.command_path} --edition ID", ctx)
    return edition_id


def unknown_edition(edition_id: str, known: list[str]) -> UsageProblem:
    """The usage error of an edition id the rulebook does not have (the same in every command)."""
    hint = did_you_mean(edition_id, known)
    return UsageProblem(printable(f"unknown edition '{edition_id}'"),
                        printable((f"{hint} " if hint else "") + f"editions: {', '.join(known)}"),
                        click.get_current_context(silent=True))


def quiet() -> bool:
    """Whether ``-q`` was given to the running command."""
    from ..progress import is_quiet

    return is_quiet()


def say(text: str) -> None:
    """A summary or progress line on standard output, unless ``-q``."""
    if not quiet():
        click.echo(text)


def warn(text: str) -> None:
    """``rulebook: warning: TEXT`` on standard error, unless ``-q``."""
    if not quiet():
        click.echo(f"rulebook: warning: {text}", err=True)
