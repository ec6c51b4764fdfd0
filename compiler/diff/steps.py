"""Where a clause stands in its term's procedure, and whether a change only renumbered it.

A step that keeps its place in the rules but gains a step before it is
printed with a new number ("1. Determine ..." becomes "2. Determine ..."),
often under a new id with declared lineage. Reviewers need to see that as
renumbering, with the old and new numbers, not as a rewording.
"""

from __future__ import annotations

import re
from typing import Mapping

from ..model import Clause, Term

# A printed step number at the start of a clause: "2. ", "2) ", "Step 2: ".
_NUMBER = re.compile(r"\A\s*(?:step\s+)?\d+[.):]?\s*", re.IGNORECASE)


def step_numbers(term: Term | None) -> Mapping[str, tuple[str, int]]:
    """Each step clause's ref -> (procedure, its 1-based place in that procedure's order)."""
    if term is None:
        return {}
    return {ref: (c.steps.procedure, n) for c in term.clauses if c.steps
            for n, ref in enumerate(c.steps.order, start=1)}


def renumbering(old_numbers: Mapping[str, tuple[str, int]], new_numbers: Mapping[str, tuple[str, int]],
                old: Clause, new: Clause) -> dict | None:
    """``{"procedure", "old", "new"}`` when the clause is a step of the same procedure on both sides at
    another place; None otherwise."""
    was, now = old_numbers.get(old.ref), new_numbers.get(new.ref)
    if was is None or now is None or was[0] != now[0] or was[1] == now[1]:
        return None
    return {"procedure": now[0], "old": was[1], "new": now[1]}


def only_number_changed(old_text: str, new_text: str) -> bool:
    """The two texts are the same words after their printed step numbers."""
    return _NUMBER.sub("", old_text, count=1) == _NUMBER.sub("", new_text, count=1)


def renumbered(old: Clause, new: Clause) -> bool:
    """The clause's rule number changed: its printed ``number`` ("704.5k" -> "704.5j"), or, where none is
    given, its id when both ids are rule numbers (they hold a digit: ``r704-5k``, ``3-2a``)."""
    if old.number is not None or new.number is not None:
        return old.number != new.number
    return old.id != new.id and any(ch.isdigit() for ch in old.id) and any(ch.isdigit() for ch in new.id)
