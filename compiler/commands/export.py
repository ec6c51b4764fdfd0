"""``rulebook export``: the resolved edition as JSON, or one JSON record per clause."""

from __future__ import annotations

from pathlib import Path

import click

from ..diagnostics import printable
from ..where import default_root
from .common import ROOT_OPTION, edition_or_exit, load_or_exit


def _base_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An http(s) URL of the site's root, ending in "/" (so that the same site gives the same bytes)."""
    if value is None:
        return None
    from urllib.parse import urlsplit

    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise click.BadParameter(printable(f"'{value}' is not an http(s) URL (such as https://rules.example.org/)"))
    return value.rstrip("/") + "/"


@click.command()
@ROOT_OPTION
@click.option("--edition", "edition_id", help="Edition id (default: the latest).")
@click.option("--format", "fmt", type=click.Choice(["json", "jsonl"]), default="json", show_default=True,
              help="json: the whole edition; jsonl: one record per clause, for search indexes.")
@click.option("--base-url", callback=_base_url,
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
