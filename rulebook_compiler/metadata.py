"""Entry metadata ("Last Updated: 3/13/2026 (v11.0.0) / Released: 8/10/2015 (v3.0.0)")
checked against what the editions show.

A version label names an edition of the rulebook when one carries it (its
``version``, else its id). Where the rulebook holds that edition:

- *last updated in X*: the edition labelled X changes the term (prints it
  otherwise than the edition before it does, or adds it), and no edition after
  X, up to the one whose file declares it, changes it again; X is not later
  than that edition;
- *released in X*: the edition labelled X is the first that has the term.

"Changes" means what the publisher prints: the term's name, its sections'
titles and its clauses' texts; a modelling change (rules, ids, notes) is not
an update. A label that no edition carries is not checked: the rulebook need
not hold every version the publisher issued.
"""

from __future__ import annotations

from typing import Callable, Sequence

from .diagnostics import Location
from .model import Edition, Term

Report = Callable[[Location, str, "str | None"], None]

_UPDATE = "an edition updates a term when it changes its name, a section's title or a clause's text; correct 'updated'"
_RELEASE = "a term is released in the first edition that has it; correct 'released'"


def printed(term: Term | None) -> tuple | None:
    """What the publisher prints of a term (None when the edition lacks it)."""
    if term is None:
        return None
    return term.name, tuple((s.kind, s.title, tuple(c.text for c in s.clauses)) for s in term.sections)


def check(editions: Sequence[Edition], error: Report) -> None:
    """Every term version's declared metadata against the editions, each problem once."""
    index = {e.label: i for i, e in reversed(list(enumerate(editions)))}  # the first edition with a label
    position = {e.id: i for i, e in enumerate(editions)}
    done: set[tuple[str, str]] = set()
    for edition in editions:
        for term in edition.terms:
            if (term.updated is None and term.released is None) or (term.id, term.edition) in done:
                continue
            done.add((term.id, term.edition))
            shown = [printed(e.term_by_id.get(term.id)) for e in editions]
            own = position[term.edition]
            if term.updated is not None and term.updated.version in index:
                _updated(term, editions, shown, index[term.updated.version], own, error)
            if term.released is not None and term.released.version in index:
                _released(term, editions, shown, index[term.released.version], error)
            _dates(term, error)


def _updated(term: Term, editions: Sequence[Edition], shown: list, at: int, own: int, error: Report) -> None:
    assert term.updated is not None  # the caller read it
    said = f"term '{term.id}' is declared last updated in {_version(editions[at])}"
    if at > own:
        error(term.updated.loc, f"{said}, later than {_edition(editions[own])}, whose file declares it",
              "a term file declares what is true of its own edition; correct 'updated'")
    elif shown[at] is None:
        error(term.updated.loc, f"{said}, but that edition does not have it", "correct 'updated'")
    elif at > 0 and shown[at] == shown[at - 1]:
        error(term.updated.loc, f"{said}, but that edition prints it as {_edition(editions[at - 1])} does", _UPDATE)
    else:
        again = next((i for i in range(at + 1, own + 1) if shown[i] != shown[i - 1]), None)
        if again is not None:
            error(term.updated.loc, f"{said}, but {_edition(editions[again])} changes it again", _UPDATE)


def _released(term: Term, editions: Sequence[Edition], shown: list, at: int, error: Report) -> None:
    assert term.released is not None  # the caller read it
    said = f"term '{term.id}' is declared released in {_version(editions[at])}"
    first = next(i for i, s in enumerate(shown) if s is not None)
    if first < at:
        error(term.released.loc, f"{said}, but {_edition(editions[first])} already has it", _RELEASE)
    elif first > at:
        error(term.released.loc, f"{said}, but that edition does not have it; it first appears in "
                                 f"{_edition(editions[first])}", _RELEASE)


def _dates(term: Term, error: Report) -> None:
    """Released no later than last updated, where both dates are given (compared as far as both go)."""
    updated, released = term.updated, term.released
    if updated is None or released is None or not updated.date or not released.date:
        return
    n = min(len(updated.date), len(released.date))
    if released.date[:n] > updated.date[:n]:
        error(released.date_loc or released.loc,
              f"term '{term.id}' is declared released on {released.date}, after it was last updated on "
              f"{updated.date}", None)


def _edition(edition: Edition) -> str:
    """``edition 'a1' (version 1.0.0)``; the version only where it is not the id."""
    return f"edition '{edition.id}'" + (f" (version {edition.label})" if edition.label != edition.id else "")


def _version(edition: Edition) -> str:
    """``version 1.0.0 (edition 'a1')``; the edition only where its id is not the label."""
    return f"version {edition.label}" + (f" (edition '{edition.id}')" if edition.label != edition.id else "")

