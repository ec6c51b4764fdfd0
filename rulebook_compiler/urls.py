"""Where the site publishes a term and a clause: the permanent links that the export, ``rulebook ask``
and any other reader of the model cite (core, so that no back end takes them from another)."""

from __future__ import annotations


def permalink(base_url: str, term_id: str, clause_id: str | None = None) -> str:
    """A clause's permanent link on the site: its term's page, anchored at the clause id, which is
    the same in every edition (``rulebook_compiler.site.pages.term_uri`` with mkdocs' directory URLs).
    ``base_url`` is "" (links relative to the site root) or ends in "/"."""
    return f"{base_url}terms/{term_id}/" + (f"#{clause_id}" if clause_id else "")
