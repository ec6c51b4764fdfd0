"""``rulebook schema``: the JSON Schema of the rulebook's files."""

from __future__ import annotations

import click


@click.command()
@click.option("--kind", type=click.Choice(["rulebook", "vocabulary", "term", "vocabulary-overlay", "term-patch",
                                           "corrections", "rulings"]),
              help="One kind of file (default: every kind, each under $defs).")
def schema(kind: str | None) -> None:
    """Print the JSON Schema of rulebook.yaml, vocabulary.yaml, term files and _rulings.yaml
    (also shipped in rulebook_compiler/schemas/)."""
    from ..schema import schema_text

    click.echo(schema_text(kind), nl=False)
