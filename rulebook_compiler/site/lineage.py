"""Since when each clause reads as it does, and the versions of each term.

A clause is *since* the first edition of its unbroken run (a term withdrawn and
brought back starts again) and *changed in* the last edition whose file gave it
other wording or another meaning than the edition before it had. A clause that
declares its lineage carries on the run of what it was: renamed or moved, the
mark of its old clause (changed in this edition if its words or meaning
changed); split, since its old clause's edition, changed here; merged, since
the earliest of its old clauses, changed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..model import Clause, Edition, Lineage, Rulebook, Term


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
    # A table stands for its rules (as in the diff's meaning): a row added elsewhere in the
    # term changes the rule of its 'otherwise', not the clause that holds it.
    return (clause.text, clause.defines, tuple(r for r in clause.rules if not r.from_table), clause.steps,
            clause.table)


def clause_marks(book: Rulebook, only: frozenset[str] | None = None) -> Mapping[str, Mapping[str, Mapping[str, ClauseMark]]]:
    """For every edition id: term id -> clause id -> the clause's mark as of that edition.

    ``only``: the marks of these terms alone (with every term their lineage names among them).
    """
    result: dict[str, dict[str, dict[str, ClauseMark]]] = {}
    marks: dict[str, dict[str, ClauseMark]] = {}
    meanings: dict[str, dict[str, tuple]] = {}
    order = {e.id: i for i, e in enumerate(book.editions)}
    for edition in book.editions:
        # As of the edition before: what lineage names (the snapshot's inner dicts are never changed).
        before_marks, before_meanings = dict(marks), dict(meanings)
        for term_id in edition.withdrawn:
            marks.pop(term_id, None)
            meanings.pop(term_id, None)
        declared = {item.clause: item for item in edition.lineage}  # this edition's own, not carried over
        for term_id in edition.changed:
            if only is not None and term_id not in only:
                continue
            # Fresh inner dicts: the snapshots of earlier editions share the old ones.
            old_marks, old_meanings = marks.get(term_id, {}), meanings.get(term_id, {})
            new_marks, new_meanings = {}, {}
            for clause in edition.term_by_id[term_id].clauses:
                meaning = _meaning(clause)
                if clause.ref in declared:
                    new_marks[clause.id] = _declared_mark(declared[clause.ref], meaning, edition.id, before_marks,
                                                          before_meanings, order)
                    new_meanings[clause.id] = meaning
                    continue
                mark = old_marks.get(clause.id)
                if mark is None:
                    mark = ClauseMark(edition.id, None)
                elif old_meanings[clause.id] != meaning:
                    mark = ClauseMark(mark.since, edition.id)
                new_marks[clause.id], new_meanings[clause.id] = mark, meaning
            marks[term_id], meanings[term_id] = new_marks, new_meanings
        result[edition.id] = dict(marks)
    return result


def clause_marks_since(book: Rulebook, earlier: Rulebook, marks: Mapping) -> Mapping:
    """``clause_marks(book)``, from ``marks`` (those of ``earlier``): worked out again only for the terms
    an edit changed and those tied to them by declared lineage (``rulebook serve``).

    ``earlier`` must have the same editions, with the same terms changed, withdrawn and declared in
    each (the site's frame). A term is changed when any edition's own version of it is another
    object than before (the model keeps the object of an unchanged file).
    """
    changed = {term_id for old, new in zip(earlier.editions, book.editions) for term_id in new.changed
               if old.term_by_id.get(term_id) is not new.term_by_id.get(term_id)}
    if not changed:
        return marks
    tied = _lineage_ties(book)
    todo = list(changed)
    while todo:  # the terms the changed ones reach through lineage, either way
        for other in tied.get(todo.pop(), ()):
            if other not in changed:
                changed.add(other)
                todo.append(other)
    again = clause_marks(book, frozenset(changed))
    return {e.id: {**{t: m for t, m in marks[e.id].items() if t not in changed}, **again[e.id]}
            for e in book.editions}


def _lineage_ties(book: Rulebook) -> dict[str, set[str]]:
    """Term id -> the terms whose clauses its declared lineage names, or that name its clauses."""
    tied: dict[str, set[str]] = {}
    for edition in book.editions:
        for declared in edition.lineage:
            term = declared.clause.split("#", 1)[0]
            for source in declared.sources:
                other = source.split("#", 1)[0]
                tied.setdefault(term, set()).add(other)
                tied.setdefault(other, set()).add(term)
    return tied


def _declared_mark(declared: Lineage, meaning: tuple, edition: str, marks: Mapping, meanings: Mapping,
                   order: Mapping[str, int]) -> ClauseMark:
    """The mark of a clause that says what it was (its sources were checked to exist before)."""
    found = []
    for ref in declared.sources:
        term, cid = ref.split("#", 1)
        if cid in marks.get(term, {}):
            found.append((marks[term][cid], meanings[term][cid]))
    if not found:
        return ClauseMark(edition, None)
    since = min((m.since for m, _ in found), key=order.__getitem__)
    if len(found) == 1 and found[0][1] == meaning:
        return ClauseMark(since, found[0][0].changed_in)
    return ClauseMark(since, edition)


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


_WORDS = {"formerly": ("renamed from", "renamed to"), "split_from": ("split from", "split into"),
          "merged_from": ("merged from", "merged into"), "moved_from": ("moved from", "moved to")}


def _short(ref: str, term: str) -> str:
    """A clause ref as read on its term's page: the bare id within the term."""
    return ref.split("#", 1)[1] if ref.split("#", 1)[0] == term else ref


def declared_words(declared: Lineage, term: str) -> str:
    """"renamed from step-1", "merged from a, b", "moved from cure#lost-souls"."""
    return f"{_WORDS[declared.kind][0]} " + ", ".join(_short(ref, term) for ref in declared.sources)


def successors(edition: Edition) -> Mapping[str, str]:
    """Old clause ref -> where the edition's declarations say it went ("renamed to b", "split into a, b")."""
    went: dict[str, tuple[str, list[str]]] = {}
    for declared in edition.lineage:
        for source in declared.sources:
            kind, targets = went.setdefault(source, (declared.kind, []))
            targets.append(declared.clause)
    return {source: f"{_WORDS[kind][1]} " + ", ".join(_short(t, source.split("#", 1)[0]) for t in targets)
            for source, (kind, targets) in went.items()}
