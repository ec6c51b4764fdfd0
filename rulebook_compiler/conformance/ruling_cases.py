"""An edition's rulings as named cases of its conformance suite, so that an engine meets them too.

Each ruling that applies to the edition (rulebook_compiler/rulings.py: its own and those
carried over to it) becomes one case of its decision, after the decision's
generated cases: id and name ``ruling:ID``, the ruling's answer, and the
situation over the facts the decision's cases name (``cases.case_facts``, as
``conformance run --cases`` requires of every case) that comes first in
enumeration order among those completing the ruling's facts within the
constraints. ``rulebook check`` holds a ruling to deciding its question
whatever the facts it leaves out, so every completion has the ruling's
answer; taking the first keeps the file the same bytes.

A ruling that fails in the edition (``check`` reports it) makes no case, and
neither do the rulings of a ``_rulings.yaml`` that cannot be read: each is
named in ``RulingCases.left_out``, which ``conformance generate`` prints as a
warning.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Mapping

from ..ask import Asker
from ..decision_sets import allowed_space, answer_key
from ..model import Answer, Edition, Rulebook
from .. import rulings
from .cases import Case, Quote, RulingRef, decision_space, ruling_case_id


@dataclass(frozen=True)
class RulingCases:
    """The rulings' cases by decision (each decision's by ruling id), and the rulings that make none."""

    cases: Mapping[str, tuple[Case, ...]] = field(default_factory=dict)
    left_out: tuple[str, ...] = ()

    def digest(self, edition_digest: str) -> str:
        """The suite's source digest: the edition's alone without rulings (so a suite without them is
        the bytes it was), else a hash of it and of every ruling case's content."""
        if not self.cases:
            return edition_digest
        content = [asdict(c) for d in sorted(self.cases) for c in self.cases[d]]
        blob = json.dumps([edition_digest, content], sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def ruling_cases(book: Rulebook, edition: Edition) -> RulingCases:
    """The cases of the rulings that apply to ``edition``."""
    found = rulings.read(Path(book.root), book)
    left_out = [f"{p.location}: {p.message}: the file's rulings make no conformance case" for p in found.problems]
    applying = dict(found.applying).get(edition.id, ())
    by_decision: dict[str, list[Case]] = {}
    asker = Asker(edition) if applying else None
    for ruling in sorted(applying, key=lambda r: r.id):
        assert asker is not None
        problems = rulings.held(edition, ruling, asker)
        case = None if problems else _case(book, edition, ruling)
        if case is None:
            why = problems[0].message if problems else "no situation of the edition completes its facts"
            left_out.append(f"{ruling.at('id')}: ruling '{ruling.id}' makes no case of edition {edition.id}'s suite: "
                            f"{why}")
            continue
        by_decision.setdefault(ruling.decision, []).append(case)
    return RulingCases({d: tuple(cases) for d, cases in by_decision.items()}, tuple(left_out))


def _case(book: Rulebook, edition: Edition, ruling: rulings.Ruling) -> Case | None:
    """The ruling's case: its facts completed to the first allowed situation over the decision's case facts."""
    facts = rulings.situation(edition, ruling)
    assert facts is not None, "a ruling that holds names only facts and values the edition knows"
    space = decision_space(book, edition, ruling.decision)
    core = space.core
    region = space.answered & core.situation(facts) & allowed_space(
        core, edition.vocabulary, set(space.facts) | set(facts))
    state = core.first(region, space.facts)
    if state is None:
        return None
    result = space.model.evaluate(state)
    if result.answer is None or answer_key(result.answer) != answer_key(ruling.answer):
        return None  # not reached for a ruling that holds: every completion gets its answer
    quotes = tuple(Quote(r, edition.clause_by_ref[r].text) for r in sorted(set(result.clauses)))
    ref = RulingRef(ruling.id, ruling.edition, ruling.question, ruling.status, ruling.cites, ruling.source.who,
                    ruling.source.where, ruling.source.date)
    expected: Answer = result.answer
    return Case(ruling_case_id(ruling.id), ruling_case_id(ruling.id), ruling.decision, tuple(sorted(state.items())),
                expected, quotes, kind="ruling", ruling=ref)
