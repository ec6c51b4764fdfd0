"""``rulebook export``: the resolved edition as JSON, or one JSON record per clause."""

from __future__ import annotations

from pathlib import Path

import click

from ..diagnostics import printable
from ..where import default_root
from .common import base_url, edition_or_exit, load_or_exit
from .options import edition_option, rulebook_option


@click.command()
@rulebook_option()
@edition_option()
@click.option("--format", "fmt", type=click.Choice(["json", "jsonl"]), default="json", show_default=True,
              help="json: the whole edition; jsonl: one record per clause, for search indexes.")
@click.option("--base-url", callback=base_url,
              help="The site's URL, for each clause's permalink (jsonl; default: links relative to the site).")
@click.option("--out", type=click.Path(path_type=Path), help="Write here (atomically) instead of stdout.")
def export(root: Path | None, edition_id: str | None, fmt: str, base_url: str | None, out: Path | None) -> None:
    """Export the resolved edition (overlays applied)."""
    from ..export import dumps, edition_json, jsonl
    from ..fileio import write_text

    if base_url is not None and fmt != "jsonl":
        raise click.UsageError("--base-url applies to --format jsonl only")
    if out:
        from ..outputs import output_file, rulebook_input

        output_file(out, [rulebook_input(root or default_root())])
    book = load_or_exit(root)
    edition = edition_or_exit(book, edition_id)
    text = jsonl(edition, base_url or "") if fmt == "jsonl" else dumps(edition_json(book, edition))
    if out:
        write_text(out, text)
    else:
        from ..diagnostics import write_utf8

        write_utf8(text)
