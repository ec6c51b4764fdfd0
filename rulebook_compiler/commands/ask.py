"""``rulebook ask``: one decision answered for some facts, with the rules and clauses that give it
(the answer is ``rulebook_compiler.ask``'s; this module reads the options and prints it)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..diagnostics import printable
from .common import base_url, edition_or_exit, load_or_exit
from .options import edition_option, rulebook_option


@click.command()
@rulebook_option()
@edition_option()
@click.argument("decision")
@click.option("--fact", "facts", multiple=True, metavar="NAME=VALUE",
              help="A fact of the situation (repeat for each); bool facts take true or false.")
@click.option("--situation", "situation_path", type=click.Path(path_type=Path, dir_okay=False),
              help="A JSON object of facts and their values (JSON true/false for bool facts).")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON (docs/ask.md).")
@click.option("--base-url", callback=base_url,
              help="The site's URL, for each clause's permalink (default: links relative to the site).")
def ask(root: Path | None, edition_id: str | None, decision: str, facts: tuple[str, ...],
        situation_path: Path | None, as_json: bool, base_url: str | None) -> None:
    """Answer DECISION for some facts, with the rules and clauses that give the answer.

    Facts left out are open: the answer is given when every situation the constraints
    allow gives the same one, else the facts still needed are listed. Exit 1 when the
    constraints rule the facts out."""
    from .. import ask as asking

    book = load_or_exit(root)
    edition = edition_or_exit(book, edition_id)
    try:
        from_file = {}
        if situation_path is not None:
            try:
                text = situation_path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise asking.AskUsageError(f"{situation_path}: cannot be read ({exc})", "--situation") from None
            from_file = asking.situation_file(str(situation_path), text)
        given = asking.situation(edition, from_file, facts)
        answer = asking.ask(edition, decision, given, base_url or "")
    except asking.AskUsageError as exc:
        raise click.BadParameter(printable(str(exc)), param_hint=f"'{exc.param}'") from None
    if as_json:
        from ..diagnostics import write_utf8
        from ..jsonform import dumps

        write_utf8(dumps(asking.to_json(answer)))
    else:
        click.echo(asking.render_text(answer), nl=False)
    if answer.status == "impossible":
        sys.exit(1)
