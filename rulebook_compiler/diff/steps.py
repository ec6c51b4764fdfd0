"""Where a clause stands in its term's procedure, and whether a change only renumbered it.

A step that keeps its place in the rules but gains a step before it is
printed with a new number ("1. Determine ..." becomes "2. Determine ..."),
often under a new id with declared lineage. Reviewers need to see that as
renumbering, with the old and new numbers, not as a rewording.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..model import Clause, Steps, Term

# A printed step number at the start of a clause: "2. ", "2) ", "Step 2: ".
_NUMBER = re.compile(r"\A\s*(?:step\s+)?\d+[.):]?\s*", re.IGNORECASE)


@dataclass(frozen=True)
class ProcedureChange:
    """How a procedure's steps changed, by step id (1-based places): ``{"procedure", "old_count",
    "new_count", "inserted": [[id, n]], "removed": [[id, n]], "moved": [[id, old n, new n]],
    "renumbered": [[id, old n, new n]]}``."""

    procedure: str
    old_count: int
    new_count: int
    inserted: tuple[tuple[str, int], ...]
    removed: tuple[tuple[str, int], ...]
    moved: tuple[tuple[str, int, int], ...]  # moved among the others
    renumbered: tuple[tuple[str, int, int], ...]  # kept in order at another place

    def as_json(self) -> dict[str, Any]:
        return {"procedure": self.procedure, "old_count": self.old_count, "new_count": self.new_count,
                "inserted": [list(s) for s in self.inserted], "removed": [list(s) for s in self.removed],
                "moved": [list(s) for s in self.moved], "renumbered": [list(s) for s in self.renumbered]}


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


def without_step_number(text: str) -> str:
    """The text after its printed step number ("2. Determine ..." -> "Determine ...")."""
    return _NUMBER.sub("", text, count=1)


def only_number_changed(old_text: str, new_text: str) -> bool:
    """The two texts are the same words after their printed step numbers."""
    return without_step_number(old_text) == without_step_number(new_text)


def renumbered(old: Clause, new: Clause) -> bool:
    """The clause's rule number changed: its printed ``number`` ("704.5k" -> "704.5j"), or, where none is
    given, its id when both ids are rule numbers (they hold a digit: ``r704-5k``, ``3-2a``)."""
    if old.number is not None or new.number is not None:
        return old.number != new.number
    return old.id != new.id and any(ch.isdigit() for ch in old.id) and any(ch.isdigit() for ch in new.id)


def procedure_changes(old: Clause, new: Clause, counterpart: Mapping[str, str] = {}) -> ProcedureChange | None:
    """How a procedure's steps changed, by step id: inserted, removed, moved among the others, renumbered
    (new ids for the steps both have: ``counterpart`` maps an old step's ref to its new one, a renamed step is the
    same step); None when either clause has no steps, the procedure is another one, or the order is
    the same.
    """
    if old.steps is None or new.steps is None or old.steps.procedure != new.steps.procedure:
        return None
    was = [counterpart.get(ref, ref).split("#", 1)[1] for ref in old.steps.order]
    now = [ref.split("#", 1)[1] for ref in new.steps.order]
    if was == now:
        return None
    at_old = {s: i for i, s in enumerate(was, 1)}
    at_new = {s: i for i, s in enumerate(now, 1)}
    old_steps = old.steps
    moved, renumbered = _reordered(was, now, at_old, at_new)
    return ProcedureChange(
        new.steps.procedure, len(was), len(now),
        inserted=tuple((s, at_new[s]) for s in now if s not in at_old),
        removed=tuple((_old_id(old_steps, i), at_old[s]) for i, s in enumerate(was) if s not in at_new),
        moved=moved, renumbered=renumbered)


def _reordered(was: list[str], now: list[str], at_old: Mapping[str, int], at_new: Mapping[str, int]
               ) -> tuple[tuple[tuple[str, int, int], ...], tuple[tuple[str, int, int], ...]]:
    """The steps both orders have that moved among the others, and those kept in order at another place."""
    from .match import lcs  # the same reading of a reordering as the clauses' own

    common = [s for s in was if s in now]
    kept = lcs(common, [s for s in now if s in was])
    return (tuple((s, at_old[s], at_new[s]) for s in now if s in at_old and s not in kept),
            tuple((s, at_old[s], at_new[s]) for s in now if s in kept and at_old[s] != at_new[s]))


def procedure_words(changes: ProcedureChange, ident: Callable[[str], str] = str, words: Callable[[str], str] = str) -> str:
    """"turn.order: 4 steps -> 7; inserted x (step 2), y (step 5); moved c (step 3 -> 2); renumbered d (4 -> 6)".
    ``ident`` writes the procedure and the steps' ids, ``words`` the rest (as in ``present``)."""
    def listed(head: str, items) -> str:
        return words(head + " ") + words(", ").join(ident(s) + words(f" ({said})") for s, said in items)

    parts = [ident(changes.procedure) + words(f": {changes.old_count} steps -> {changes.new_count}")]
    if changes.inserted:
        parts.append(listed("inserted", ((s, f"step {n}") for s, n in changes.inserted)))
    if changes.removed:
        parts.append(listed("removed", ((s, f"was step {n}") for s, n in changes.removed)))
    if changes.moved:
        parts.append(listed("reordered", ((s, f"step {a} -> {b}" if a != b else f"step {a}")
                                          for s, a, b in changes.moved)))
    if changes.renumbered:
        parts.append(listed("renumbered", ((s, f"{a} -> {b}") for s, a, b in changes.renumbered)))
    return words("; ").join(parts)


def _old_id(old: Steps, i: int) -> str:
    """The id a removed step had in the old procedure (the i-th, 0-based)."""
    return old.order[i].split("#", 1)[1]
