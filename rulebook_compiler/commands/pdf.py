"""``rulebook pdf``: an edition's printed guide (``rulebook_compiler.site.pdf``), written atomically."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from ..diagnostics import printable
from .common import edition_or_exit, load_or_exit
from .options import rulebook_option, say


@click.command("pdf")
@click.option("--edition", "edition_id", metavar="ID", default=None,
              help="The edition to print (default: the one the site shows, the latest published).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The PDF to write (default: ./RULEBOOK-EDITION.pdf).")
@rulebook_option()
def pdf(edition_id: str | None, out: Path | None, root: Path | None) -> None:
    """Print an edition as a PDF: page numbers, entries and sections as bookmarks, the entries' dates."""
    from ..fileio import OutputError, write_bytes
    from ..outputs import output_file, rulebook_input
    from ..site import pages
    from ..site.pdf import PdfError, printed
    from ..where import default_root

    book = load_or_exit(root)
    root = root or default_root()
    edition = pages.current(book) if edition_id is None else edition_or_exit(book, edition_id)
    target = out or Path(f"{root.resolve().name}-{edition.id}.pdf")
    output_file(target, [rulebook_input(root)])
    try:
        with tempfile.TemporaryDirectory(prefix="rulebook-pdf-") as work:
            made = printed(book, edition, Path(work))
        write_bytes(target, made.pdf)
    except PdfError as exc:
        click.echo(f"rulebook: error: {printable(str(exc))}", err=True)
        raise SystemExit(1) from None
    except OutputError as exc:
        click.echo(f"rulebook: error: {printable(str(exc))}", err=True)
        raise SystemExit(1) from None
    say(printable(f"Printed edition {edition.label} to {target}"))
