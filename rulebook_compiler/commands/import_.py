"""The ``rulebook import`` command."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import click

from ..diagnostics import printable
from ..importer.layouts import LAYOUTS
from .options import RULEBOOK_IMPORT_HELP, deprecated_alias, rulebook_option, say, unknown_edition

COMMAND = "rulebook import"


@click.command("import")
@click.argument("source", type=click.Path(path_type=Path, dir_okay=True, exists=False))
@click.option("--layout", "layout_name", type=click.Choice(sorted(LAYOUTS)), required=True,
              help="How the document is laid out: " + "; ".join(f"{k}: {v.description}"
                                                                 for k, v in sorted(LAYOUTS.items())))
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Folder to write the term files into (replaced whole, atomically; never an input).")
@click.option("--only", "only", multiple=True, metavar="NAME",
              help="Import only the entry with this printed name (repeatable).")
@rulebook_option(RULEBOOK_IMPORT_HELP)
@click.option("--edition", "edition", metavar="NEW", default=None,
              help="With --rulebook, instead of --out: write the import as edition NEW of the rulebook "
                   "(editions/NEW/, and its entry in rulebook.yaml).")
@click.option("--after", "base", metavar="ID", default=None,
              help="With --rulebook: the edition the import follows (default: the latest).")
@deprecated_alias("--base", "--after", "base")
def import_command(source: Path, layout_name: str, out: Path | None, only: tuple[str, ...], root: Path | None,
                   base: str | None, edition: str | None) -> None:
    """Import term files from SOURCE, a document's plain text in a publisher's layout.

    Prints every line it could not place as path:line:col: warning, and exits 1
    if SOURCE cannot be read."""
    from .common import report
    from ..outputs import Input, rulebook_input, staged_folder
    from ..importer.run import run_import

    _usage(out, root, edition)
    inputs = [Input("the source", source)] + ([rulebook_input(root)] if root is not None else [])
    previous, earlier = None, ()
    if root is not None:
        from .common import load_or_exit

        book = load_or_exit(root)
        if base is not None and base not in book.edition_by_id:
            raise unknown_edition(base, [e.id for e in book.editions])
        previous = book.edition(base)
        earlier = book.editions[:book.editions.index(previous) + 1]
        if edition is not None and edition in book.edition_by_id:
            raise click.BadParameter(printable(f"edition '{edition}' is already in the rulebook"),
                                     param_hint="'--edition'")
    elif base is not None:
        raise click.BadParameter("--after needs --rulebook", param_hint="'--after'")
    result = run_import(source, LAYOUTS[layout_name], only, previous, earlier)
    if result.fatal:
        report(result.problems)
        sys.exit(1)
    if edition is not None:
        assert root is not None  # _usage
        _write_edition(result, root, edition, source)
        return
    assert out is not None  # _usage
    with staged_folder(out, COMMAND, inputs) as staging:
        result.write(staging)
    report(result.problems)
    for line in result.summary(out):
        say(printable(line))
    if root is not None:
        from ..importer.edition import edition_entry

        say(printable(f"to make it edition NEW, copy its files into {root / 'editions' / 'NEW'} and add to "
                             f"the editions in {root / 'rulebook.yaml'}:"))
        say(printable(edition_entry("NEW", source.name, _inside(source, root))))


def _usage(out: Path | None, root: Path | None, edition: str | None) -> None:
    if edition is not None and root is None:
        raise click.BadParameter("--edition needs --rulebook", param_hint="'--edition'")
    if edition is not None and out is not None:
        raise click.BadParameter("give --out or --edition, not both", param_hint="'--out'")
    if edition is None and out is None:
        raise click.UsageError("Missing option '--out' (or, with --rulebook, '--edition').")


def _inside(source: Path, root: Path) -> str | None:
    """The source's path relative to the rulebook folder, as an edition's ``sources`` names it; None outside."""
    real, top = source.resolve(), root.resolve()
    return real.relative_to(top).as_posix() if real.is_relative_to(top) else None


def _write_edition(result, root: Path, edition: str, source: Path) -> None:
    """The import as editions/EDITION/ (built aside, renamed in) and its entry added to rulebook.yaml."""
    from .common import report
    from ..fileio import OutputError, remove_stale_staging, replace_dir, staging_dir, write_text
    from ..importer.edition import add_edition, edition_entry

    rel = _inside(source, root)
    if rel is None:
        raise click.BadParameter(printable(f"the source must lie inside the rulebook folder with --edition, as an "
                                           f"edition's sources do; copy '{source}' into {root / 'sources'} first"),
                                 param_hint="SOURCE")
    folder, manifest = root / "editions" / edition, root / "rulebook.yaml"
    if folder.exists():
        raise click.BadParameter(printable(f"'{folder}' already exists"), param_hint="'--edition'")
    entry = edition_entry(edition, source.name, rel)
    text = add_edition(manifest.read_text(encoding="utf-8"), entry)
    staging = None
    try:
        remove_stale_staging(folder, COMMAND)
        staging = staging_dir(folder, COMMAND)
        result.write(staging)
        replace_dir(staging, folder)
        staging = folder  # new, and ours: an edition rulebook.yaml does not declare would fail check
        if text is not None:
            write_text(manifest, text)
    except OutputError as exc:
        if staging is not None:  # nothing half-written is left: the rulebook is as it was
            shutil.rmtree(staging, ignore_errors=True)
        click.echo(printable(f"rulebook: error: {exc}"), err=True)
        sys.exit(1)
    report(result.problems)
    for line in result.summary(folder):
        say(printable(line))
    if text is None:
        click.echo(printable(f"rulebook.yaml's editions are not a block list: add this edition to them in "
                             f"{manifest}:"))
        click.echo(printable(entry))
    else:
        say(printable(f"added edition '{edition}' to {manifest}: {entry.strip()}"))
