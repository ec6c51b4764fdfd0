"""A term through all editions: each edition that added, changed or withdrew it."""

from __future__ import annotations

import dataclasses

from ..model import Edition, Rulebook
from .engine import diff_editions
from .result import DiffResult, side_info

# The kind of side the first step of a history starts from: no edition at all.
NOTHING = "none"


def term_history(book: Rulebook, term: str) -> list[DiffResult]:
    """One diff per edition in which the term differs from the edition before."""
    steps = []
    previous = _nothing(book.editions[0])
    for edition in book.editions:
        before, now = previous.term_by_id.get(term), edition.term_by_id.get(term)
        if (before is None) != (now is None) or (before and now and before.digest != now.digest):
            old_info = side_info(previous, kind=NOTHING) if previous.id == _NOTHING_ID else None
            steps.append(diff_editions(book, previous, book, edition, terms=[term], old_info=old_info, rulings=False))
        previous = edition
    return steps


_NOTHING_ID = "(none)"  # no edition id can be this (schema.EDITION_ID)


def _nothing(first: Edition) -> Edition:
    """An empty edition before the first, so that the first appearance reads as added."""
    return dataclasses.replace(first, id=_NOTHING_ID, title="before the first edition", date=None,
                               terms=(), changed=(), withdrawn=())
