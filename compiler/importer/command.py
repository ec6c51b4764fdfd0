"""The ``rulebook import`` command."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .layouts import LAYOUTS

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
def import_command(source: Path, layout_name: str, out: Path, only: tuple[str, ...]) -> None:
    """Import term files from SOURCE, a document's plain text in a publisher's layout.

    Prints every line it could not place as path:line:col: warning, and exits 1
    if SOURCE cannot be read."""
    from ..cli import report
    from ..outputs import Input, staged_folder
    from .run import run_import

    result = run_import(source, LAYOUTS[layout_name], only)
    if result.fatal:
        report(result.problems)
        sys.exit(1)
    with staged_folder(out, COMMAND, [Input("the source", source)]) as staging:
        result.write(staging)
    report(result.problems)
    click.echo(result.summary(out))
