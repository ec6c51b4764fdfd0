"""Since when each clause reads as it does, and the versions of each term.

A clause is *since* the first edition of its unbroken run (a term withdrawn and
brought back starts again) and *changed in* the last edition whose file gave it
other wording or another meaning than the edition before it had.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..model import Clause, Edition, Rulebook, Term


@dataclass(frozen=True)
class ClauseMark:
    since: str
    changed_in: str | None  # None while it reads as it did when it came in


@dataclass(frozen=True)
class Version:
    """One edition's own version of a term: ``term`` is None when that edition withdrew it."""

    edition: Edition
    term: Term | None
    previous: Term | None  # the version in force just before


def _meaning(clause: Clause) -> tuple:
    # Conditions and rules compare by value (their locations are excluded from equality).
    return (clause.text, clause.defines, clause.rules, clause.steps, clause.table)


def clause_marks(book: Rulebook) -> Mapping[str, Mapping[str, Mapping[str, ClauseMark]]]:
    """For every edition id: term id -> clause id -> the clause's mark as of that edition."""
    result: dict[str, dict[str, dict[str, ClauseMark]]] = {}
    marks: dict[str, dict[str, ClauseMark]] = {}
    meanings: dict[str, dict[str, tuple]] = {}
    for edition in book.editions:
        for term_id in edition.withdrawn:
            marks.pop(term_id, None)
            meanings.pop(term_id, None)
        for term_id in edition.changed:
            # Fresh inner dicts: the snapshots of earlier editions share the old ones.
            old_marks, old_meanings = marks.get(term_id, {}), meanings.get(term_id, {})
            new_marks, new_meanings = {}, {}
            for clause in edition.term_by_id[term_id].clauses:
                meaning = _meaning(clause)
                mark = old_marks.get(clause.id)
                if mark is None:
                    mark = ClauseMark(edition.id, None)
                elif old_meanings[clause.id] != meaning:
                    mark = ClauseMark(mark.since, edition.id)
                new_marks[clause.id], new_meanings[clause.id] = mark, meaning
            marks[term_id], meanings[term_id] = new_marks, new_meanings
        result[edition.id] = dict(marks)
    return result


def versions(book: Rulebook, term_id: str) -> list[Version]:
    """The editions whose own files added, changed or withdrew the term, oldest first."""
    found: list[Version] = []
    previous: Term | None = None
    for edition in book.editions:
        if term_id in edition.changed:
            term = edition.term_by_id[term_id]
            found.append(Version(edition, term, previous))
            previous = term
        elif term_id in edition.withdrawn:
            found.append(Version(edition, None, previous))
            previous = None
    return found
