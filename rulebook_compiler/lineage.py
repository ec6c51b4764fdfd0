"""Declared lineage while building: read a clause's lineage keys, check them against the edition before.

A clause may say what it was in the edition before the one whose file gives
it: ``formerly: ID`` (renamed in its term), ``split_from: REF`` (a part of
that clause; several parts may name it), ``merged_from: [REF, REF...]`` (it
joins those clauses) or ``moved_from: TERM#CLAUSE`` (it comes from another
term, under the same id or another). A REF is a clause id of the same term or
``TERM#CLAUSE``. Checked here: each named clause exists in the edition before,
and no clause of that edition goes on whole as two clauses of this one (a
clause that keeps its id goes on as itself; ``formerly``, ``merged_from`` and
``moved_from`` take their clauses whole; only ``split_from`` shares one), and
no ``split_from`` names a clause that is still there with the words it had: a
part that leaves takes words with it, and a clause merely worded like another
is new (issue 23: the importer proposed such "splits", and they read as rule
changes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from .diagnostics import Location, did_you_mean, placed
from .model import LINEAGE_KINDS, Clause, Edition, Lineage, clause_ref
from .yamlsource import Document

Report = Callable[..., None]  # (location, message, hint=None)


@dataclass(frozen=True)
class Declared:
    """A clause's lineage with where its key and each named clause stand in the file."""

    lineage: Lineage
    key: Location
    items: tuple[Location, ...]  # one per source


def read(doc: Document, path: tuple, raw: dict, term: str, error: Report) -> Declared | None:
    """The lineage a clause's keys declare (``raw`` passed the schema), or None."""
    keys = [k for k in LINEAGE_KINDS if k in raw]
    if not keys:
        return None
    kind = keys[0]
    if len(keys) > 1:
        error(doc.key_at(path + (keys[1],)),
              f"a clause declares one lineage; this one has both '{kind}' and '{keys[1]}'",
              "a clause made of several says merged_from: [A, B]; one renamed and moved to another "
              "term says moved_from: TERM#CLAUSE")
        return None
    own = clause_ref(term, raw["id"])
    value = raw[kind]
    items = value if isinstance(value, list) else [value]
    places = (tuple(doc.at(path + (kind, i)) for i in range(len(items))) if isinstance(value, list)
              else (doc.at(path + (kind,)),))
    sources = tuple(item if "#" in item else clause_ref(term, item) for item in items)
    ok = True
    for i, (source, where) in enumerate(zip(sources, places)):
        if source in sources[:i]:
            error(where, f"'{items[i]}' is listed twice")
            ok = False
        elif source == own and kind != "merged_from":
            error(where, f"clause '{raw['id']}' cannot be {_PHRASE[kind]} itself",
                  "a clause that keeps its id needs no lineage" + (
                      "; the other parts of a split say split_from" if kind == "split_from" else ""))
            ok = False
        elif kind == "moved_from" and source.split("#", 1)[0] == term:
            error(where, f"'moved_from' names a clause of this clause's own term '{term}'",
                  f"within a term, say formerly: {source.split('#', 1)[1]}")
            ok = False
    if not ok:
        return None
    return Declared(Lineage(own, kind, sources), doc.key_at(path + (kind,)), places)


_PHRASE = {"formerly": "formerly", "split_from": "split from", "merged_from": "merged from",
           "moved_from": "moved from"}


def check_edition(edition: str, previous: Edition | None, declared: Iterable[Declared],
                  now: Callable[[str], Clause | None], error: Report) -> None:
    """Check the lineage an edition's own files declare against the edition before it.

    ``now(ref)`` is the clause of that ref in the edition being built, or None.
    A clause's lineage counts in the edition whose files declare it only (a
    clause an edition carries over keeps the key it was given before).
    """
    declared = list(declared)
    if previous is None:
        for d in declared:
            error(d.key, f"edition '{edition}' is the first edition: no edition before it has clauses for "
                         f"'{d.lineage.kind}' to name", f"drop '{d.lineage.kind}'")
        return
    whole: dict[str, list[tuple[str, str, Location | None]]] = {}  # old ref -> (claimant, how, where)
    for d in declared:
        for source, where in zip(d.lineage.sources, d.items):
            if not _exists(d.lineage.kind, source, where, edition, previous, error):
                continue
            if d.lineage.continues:
                whole.setdefault(source, []).append((d.lineage.clause, d.lineage.kind, where))
            else:
                _still_whole(source, where, edition, previous, now(source), error)
    declaring = {d.lineage.clause for d in declared}
    for source in whole:
        # A clause that keeps its id (and declares nothing) goes on as the old one.
        if now(source) is not None and source not in declaring:
            whole[source].insert(0, (source, "same id", None))
    for source, claims in whole.items():
        if len(claims) < 2:
            continue
        (first, first_how, _), (second, second_how, second_at) = claims[0], claims[1]
        still = first == source
        error(placed(second_at), f"clause '{source}' of edition '{previous.id}' is claimed twice: by '{first}' "
                     f"({first_how}) and by '{second}' ({second_how})",
              (f"'{source}' is still a clause of edition '{edition}'; " if still else "")
              + "if it was split, each part says split_from: " + source.split("#", 1)[1])


def _still_whole(source: str, where: Location, edition: str, previous: Edition, kept: Clause | None,
                 error: Report) -> None:
    """A split from a clause that the edition keeps with the very words it had: nothing left it."""
    if kept is not None and kept.text == previous.clause_by_ref[source].text:
        error(where, f"'split_from' names clause '{source}', which edition '{edition}' still has with the "
                     f"words it had in edition '{previous.id}': no part of it left",
              "a split takes words from the clause it names; a clause worded like another needs no lineage: "
              "drop 'split_from'")


def _exists(kind: str, source: str, where: Location, edition: str, previous: Edition, error: Report) -> bool:
    if source in previous.clause_by_ref:
        return True
    term, clause = source.split("#", 1)
    found = previous.term_by_id.get(term)
    if found is None:
        error(where, f"'{kind}' names term '{term}', which edition '{previous.id}' (the edition before "
                     f"'{edition}') does not have",
              did_you_mean(term, previous.term_by_id)
              or ("a clause that came from another term says moved_from: TERM#CLAUSE"
                  if kind == "formerly" else None))
    else:
        error(where, f"'{kind}' names clause '{source}', which edition '{previous.id}' (the edition before "
                     f"'{edition}') does not have", did_you_mean(clause, [c.id for c in found.clauses]))
    return False
