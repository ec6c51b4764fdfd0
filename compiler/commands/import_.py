"""The ``rulebook import`` command."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..diagnostics import printable
from ..importer.layouts import LAYOUTS
from .options import RULEBOOK_IMPORT_HELP, deprecated_alias, rulebook_option, say

COMMAND = "rulebook import"


@click.command("import")
@click.argument("source", type=click.Path(path_type=Path, dir_okay=True, exists=False))
@click.option("--layout", "layout_name", type=click.Choice(sorted(LAYOUTS)), required=True,
              help="How the document is laid out: " + "; ".join(f"{k}: {v.description}"
                                                                 for k, v in sorted(LAYOUTS.items())))
@click.option("--out", type=click.Path(path_type=Path), required=True,
              help="Folder to write the term files into (replaced whole, atomically; never an input).")
@click.option("--only", "only", multiple=True, metavar="NAME",
              help="Import only the entry with this printed name (repeatable).")
@rulebook_option(RULEBOOK_IMPORT_HELP)
@click.option("--edition", "base", metavar="ID", default=None,
              help="With --rulebook: the edition the import follows (default: the latest).")
@deprecated_alias("--base", "--edition", "base")
def import_command(source: Path, layout_name: str, out: Path, only: tuple[str, ...], root: Path | None,
                   base: str | None) -> None:
    """Import term files from SOURCE, a document's plain text in a publisher's layout.

    Prints every line it could not place as path:line:col: warning, and exits 1
    if SOURCE cannot be read."""
    from .common import report
    from ..outputs import Input, rulebook_input, staged_folder
    from ..importer.run import run_import

    inputs = [Input("the source", source)] + ([rulebook_input(root)] if root is not None else [])
    previous, earlier = None, ()
    if root is not None:
        from .common import load_or_exit

        book = load_or_exit(root)
        if base is not None and base not in book.edition_by_id:
            raise click.BadParameter(printable(f"unknown edition '{base}'; editions: "
                                               f"{', '.join(e.id for e in book.editions)}"), param_hint="'--base'")
        previous = book.edition(base)
        earlier = book.editions[:book.editions.index(previous) + 1]
    elif base is not None:
        raise click.BadParameter("--base needs --rulebook", param_hint="'--base'")
    result = run_import(source, LAYOUTS[layout_name], only, previous, earlier)
    if result.fatal:
        report(result.problems)
        sys.exit(1)
    with staged_folder(out, COMMAND, inputs) as staging:
        result.write(staging)
    report(result.problems)
    for line in result.summary(out):
        say(printable(line))
