"""How a judge cites a clause aloud: the entry, the section, and the clause's number or place.

"Heal, How to Play, ¶3" for a clause the publisher did not number (the third paragraph of
its section), "Keyword Abilities, Definition, 702.1" for one it did, and "..., 702.1, example"
for an unnumbered clause under a numbered rule. The site's permalinks,
the printout, the players' notice and the JSON Lines export say the same words, so that a
citation read on one is found on the others. Clause ids (slugs) are for the editors: they
stay in the editors' pages, the diff and the URLs.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Clause, Edition, Section, Term
from .numbers import cited
from .sections import section_title


@dataclass(frozen=True)
class Citation:
    """The parts of a citation: what a reader says, in order."""

    entry: str  # the term's name as printed
    section: str  # the section's heading as readers see it
    label: str  # the printed number ("702.1"); "702.1, example" under it; else "¶N", its place in the section

    def __str__(self) -> str:
        return f"{self.entry}, {self.section}, {self.label}"


def label(section: Section, clause: Clause) -> str:
    """The clause's short label: its printed number; else, after a numbered rule, that rule's number
    and what the clause is under it ("702.15a, example", "702.15a, ¶2"); else its place in the
    section ("¶3", from 1)."""
    if clause.number is not None:
        return cited(clause.number)
    at = next(i for i, c in enumerate(section.clauses) if c.id == clause.id)
    head = next((i for i in range(at - 1, -1, -1) if section.clauses[i].number is not None), None)
    if head is None:
        return f"¶{at + 1}"
    number = cited(section.clauses[head].number or "")
    under = section.clauses[head + 1:at + 1]
    if clause.text.lstrip().lower().startswith("example"):
        examples = sum(c.text.lstrip().lower().startswith("example") for c in under)
        return f"{number}, example" + (f" {examples}" if examples > 1 else "")
    return f"{number}, ¶{len(under) + 1}"


def of_clause(term: Term, clause_id: str) -> Citation | None:
    """The citation of ``term``'s clause ``clause_id``, or None when the term has no such clause."""
    for section in term.sections:
        for clause in section.clauses:
            if clause.id == clause_id:
                return Citation(term.name, section_title(section), label(section, clause))
    return None


def of_ref(edition: Edition, ref: str) -> Citation | None:
    """The citation of ``TERM#CLAUSE`` in ``edition``, or None where the edition has no such clause."""
    term_id, _, clause_id = ref.partition("#")
    term = edition.term_by_id.get(term_id)
    return of_clause(term, clause_id) if term is not None and clause_id else None


def of_joined_ref(edition: Edition, ref: str) -> str | None:
    """``TERM#A+B`` (a split or merge names its clauses so) as one citation: "Heal, How to Play, ¶1
    and ¶4", each section named once; None unless the edition has every clause named."""
    term_id, _, clauses = ref.partition("#")
    found = [of_ref(edition, f"{term_id}#{cid}") for cid in clauses.split("+")] if clauses else []
    if not found or any(c is None for c in found):
        return None
    parts: list[str] = []
    for at, cite in enumerate(found):
        assert cite is not None
        before = found[at - 1] if at else None
        parts.append(cite.label if before is not None and before.section == cite.section
                     else (str(cite) if at == 0 else f"{cite.section}, {cite.label}"))
    return " and ".join(parts) if len(parts) < 3 else ", ".join(parts[:-1]) + " and " + parts[-1]
