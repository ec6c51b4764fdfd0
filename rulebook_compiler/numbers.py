"""A clause's printed number (``Clause.number``, "702.1." or "702.1a") as readers cite it.

The number is data, apart from the id: it is shown wherever a clause is shown or cited,
it orders terms as the publisher's document does, and it is an anchor on the site
(``terms/X/#702.1``). This module says how, once, for every output:

- ``cited``: the number as a citation reads it, without the publisher's closing full stop
  ("702.1." is cited "702.1");
- ``anchors``: each numbered clause's extra anchor on its term's page, unique on the page;
- ``groups``: a section's clauses by numbered rule (702.1 with 702.1a, 702.1b ...);
- ``term_key``: a term's place in the document, by the first number it prints.

Numbers are untrusted text: the schema keeps them to letters, digits and ``.)-`` (no
space, so a number is a valid HTML id), and every output escapes them as it escapes
rule text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from .model import Clause, Term

_PARTS = re.compile(r"\d+|\D+")


def cited(number: str) -> str:
    """"702.1." -> "702.1"; "100.1a" as it is. A number that is only stops stays as printed."""
    return number.rstrip(".") or number


def sort_key(number: str) -> tuple:
    """Numbers in the order a reader counts them: 702.9 before 702.10, 702.1 before 702.1a."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in _PARTS.findall(cited(number)))


def term_key(term: Term) -> tuple:
    """A term's place in the document: a term that prints numbers by its first one, before every term
    that prints none (a rules document's glossary after its rules), those by id as the model keeps them."""
    first = next((c.number for c in term.clauses if c.number is not None), None)
    return (0, sort_key(first), term.id) if first is not None else (1, (), term.id)


def in_document_order(terms: Iterable[Term]) -> list[Term]:
    return sorted(terms, key=term_key)


def anchors(term: Term, taken: Iterable[str] = ()) -> dict[str, str]:
    """Clause id -> the id of the anchor its number gives it on the term's page ("702.1").

    Unique on the page by construction: a number that equals a clause id, an id in ``taken`` (the
    page's other anchors) or a number an earlier clause of the term already printed gets none (the
    clause keeps its id's anchor), and so does one with a space, which no HTML id may hold."""
    used = {c.id for c in term.clauses} | set(taken)
    out: dict[str, str] = {}
    for clause in term.clauses:
        if clause.number is None:
            continue
        anchor = cited(clause.number)
        # An id holds no space (HTML); the schema already keeps numbers to letters, digits and .)-
        if anchor in used or any(ch.isspace() for ch in anchor):
            continue
        used.add(anchor)
        out[clause.id] = anchor
    return out


@dataclass(frozen=True)
class Group:
    """A numbered rule and the clauses under it (its subrules, and unnumbered clauses such as examples);
    ``head`` is None for the clauses before a section's first number."""

    head: Clause | None
    clauses: tuple[Clause, ...]


def _under(number: str | None, head: str) -> bool:
    # 702.1a and 702.1b are under 702.1; 702.10 is not (a digit continues the number itself).
    if number is None:
        return True
    rest = cited(number)[len(head):] if cited(number).startswith(head) else None
    return rest is not None and rest != "" and not rest[0].isdigit()


def groups(clauses: Iterable[Clause]) -> list[Group]:
    """A section's clauses by numbered rule, in their order."""
    out: list[tuple[Clause | None, list[Clause]]] = []
    for clause in clauses:
        head = out[-1][0] if out else None
        if out and (head is None and clause.number is None
                    or head is not None and _under(clause.number, cited(head.number or ""))):
            out[-1][1].append(clause)
        else:
            out.append((clause if clause.number is not None else None, [clause]))
    return [Group(h, tuple(cs)) for h, cs in out]
