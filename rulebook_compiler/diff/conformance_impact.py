"""Which cases of the previous edition's conformance suite flip: a rule change that breaks conformance.

The old edition's suite is generated in memory by the suite's own generator
(``rulebook_compiler.conformance.cases.decision_cases``), for the decisions whose
answers changed only (and those withdrawn): the cost follows the change, not
the rulebook. Each case is then asked of the new edition as a set of
situations: the case names the facts of its decision in the old edition, and
the new edition may ask more (a fact it added), so a case **flips** when the
new edition answers otherwise than the case expects in some allowed situation
that the case describes, or asks nothing there (not asked, no rule, a
conflict), or no longer has the decision ("not defined"). A case whose
situation the new edition's constraints rule out flips too ("not allowed").

Each flip is charged to the changes whose clauses decide it: the clauses the
case quotes (the old edition's deciders), or the new clauses whose rules stand
where it flips (``clause_behaviour.decides``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

from ..conformance.cases import STEP_FACT, STEP_SUFFIX, Case, decision_cases, steps_cases
from ..conformance.reference import next_step
from ..decision_sets import allowed_space
from ..model import Answer, Edition, Rulebook
from ..symbolic import Node
from .behaviour import NOT_DEFINED, Side, shared_core, said
from .clause_behaviour import decides
from .impact import refs
from .result import Conformance, FlippedCase

#: Flipped cases named per change or decision ("a couple of their ids").
EXAMPLES = 2
NOT_ALLOWED = "not allowed"


class OldSuite:
    """The previous edition's suite, one decision at a time.

    ``evaluable(edition, name)``: an edition holding what the decision's
    evaluation reads (a cached side loads only those terms); by default the
    terms of the edition in memory that it reads (``reading``). The suite's
    case facts come from this edition and the ones before it, as ``rulebook
    conformance`` makes them, so the ids match.
    """

    def __init__(self, book: Rulebook, edition: Edition,
                 evaluable: Callable[[Edition, str], Edition] | None = None):
        self.book, self.edition = book, edition
        self._evaluable = evaluable
        self._cases: dict[str, tuple[Case, ...]] = {}

    def cases(self, name: str) -> tuple[Case, ...]:
        if name not in self._cases:
            self._cases[name] = decision_cases(*self._view(name), name).cases
        return self._cases[name]

    def _view(self, name: str) -> tuple[Rulebook, Edition]:
        """The rulebook's editions up to the old one, each with only the terms the decision reads: the
        generator's cases are the same (they depend on the decision's model and its mutants), and its
        mutants of predicates scan every predicate for every decision of the edition it is given
        (a 1,000-term edition: 562 s for 5 decisions, against well under a second so)."""
        evaluable = self._evaluable or reading
        editions = []
        for e in self.book.editions:
            editions.append(evaluable(e, name))
            if e.id == self.edition.id:
                break
        return dataclasses.replace(self.book, editions=tuple(editions)), editions[-1]


def reading(edition: Edition, name: str) -> Edition:
    """The edition with only the terms that decision ``name`` reads: the term that declares it, those
    with rules for it, and those that define the predicates its rules and ``given`` use, transitively."""
    if name not in edition.decisions:
        return dataclasses.replace(edition, terms=())
    decision = edition.decisions[name]
    rules = edition.rules.get(name, ())
    terms = {decision.term} | {r.clause.split("#", 1)[0] for r in rules}
    stack = [c for r in rules for c in (r.when, r.test) if c is not None] + \
        ([decision.given] if decision.given is not None else [])
    seen: set[str] = set()
    predicates = edition.predicates
    while stack:
        for used in refs(stack.pop()):
            if used in predicates and used not in seen:
                seen.add(used)
                terms.add(predicates[used].clause.split("#", 1)[0])
                stack.append(predicates[used].condition)
    return dataclasses.replace(edition, terms=tuple(t for t in edition.terms if t.id in terms))


@dataclass(frozen=True)
class Flip:
    """A case of the old suite that the new edition no longer passes."""

    case: Case
    now: tuple[str, ...]  # what the new edition gives where it flips: "yes", "no rule", "not defined" ...
    region: Node | None  # where it flips (None: everywhere, the decision withdrawn or the situation ruled out)

    def record(self) -> FlippedCase:
        return FlippedCase(self.case.id, self.case.name, self.case.expected, self.now)


@dataclass(frozen=True)
class DecisionFlips:
    name: str
    cases: tuple[Case, ...]
    flips: tuple[Flip, ...]


def decision_flips(suite: OldSuite, name: str, new: Side | None, old: Side | None, vocabulary) -> DecisionFlips:
    """The old suite's cases of ``name`` and those that flip; ``new`` is None when the new edition
    has no such decision (every case flips)."""
    cases = suite.cases(name)
    if new is None:
        return DecisionFlips(name, cases, tuple(Flip(c, (NOT_DEFINED,), None) for c in cases))
    assert old is not None, "a decision the old suite has cases of is on the old side"
    core = shared_core(old, new, vocabulary)
    meaning = new.meaning("decision", name, core)
    facts = sorted(meaning.facts | {f for c in cases for f, _ in c.facts})
    allowed = allowed_space(core, vocabulary, facts)
    flips = []
    for case in cases:
        region = core.situation(dict(case.facts)) & allowed
        if region == core.false:
            flips.append(Flip(case, (NOT_ALLOWED,), None))
            continue
        bad = region & ~meaning.outcomes.get(("answer", type(case.expected).__name__, case.expected), core.false)
        if bad != core.false:
            now = [said(*_outcome(key)) for key, where in meaning.outcomes.items() if (where & bad) != core.false]
            flips.append(Flip(case, tuple(sorted(now)), bad))
    return DecisionFlips(name, cases, tuple(flips))


NOT_A_STEP = "not a step"


def _renamed(counterpart: Mapping[str, str], step: Answer) -> Answer:
    """An old step (a step fact's value, always a string) as the new procedure names it."""
    return counterpart.get(step, step) if isinstance(step, str) else step


def steps_flips(edition: Edition, old, new, counterpart: Mapping[str, str] = {}) -> DecisionFlips:
    """The old suite's next-step cases of a procedure (``old``, a ``Steps``) and those the new order
    (``new``; None when the procedure is gone) answers otherwise. ``edition`` holds the terms of the
    procedure's clause and of its steps (their quotes); ``counterpart`` maps an old step's ref to its
    new one where the diff paired them (a step renamed is the same step, not a flip)."""
    cases = steps_cases(edition, old).cases
    flips = []
    for case in cases:
        if new is None or new.procedure != old.procedure:
            flips.append(Flip(case, (NOT_DEFINED,), None))
            continue
        current = case.facts_dict[STEP_FACT]
        try:
            now = next_step(new.order, {STEP_FACT: _renamed(counterpart, current)})
        except ValueError:  # its current step is no step of the new order: withdrawn
            flips.append(Flip(case, (NOT_A_STEP,), None))
            continue
        if now != _renamed(counterpart, case.expected):
            flips.append(Flip(case, (now,), None))
    return DecisionFlips(old.procedure + STEP_SUFFIX, cases, tuple(flips))


def _outcome(key: tuple):
    return (key[2], None) if key[0] == "answer" else (None, key[1])


def summary(suite: str, found: Iterable[DecisionFlips], keep: Callable[[DecisionFlips, Flip], bool] | None = None
            ) -> Conformance | None:
    """Over these decisions' cases, the flips ``keep`` charges (a couple of them as examples)."""
    found = list(found)
    if not found:
        return None
    flips = [f for d in found for f in d.flips if keep is None or keep(d, f)]
    return Conformance(suite, sum(len(d.cases) for d in found), len(flips),
                       tuple(f.record() for f in flips[:EXAMPLES]))


def charged(d: DecisionFlips, flip: Flip, new: Side | None, core, old_refs: set[str], new_refs: set[str]) -> bool:
    """Whether clauses of a change decide a flipped case: the old clauses the case quotes, or new
    clauses whose rules stand where it flips."""
    if old_refs.intersection(q.ref for q in flip.case.clauses):
        return True
    if flip.region is None or new is None or not new_refs:
        return False
    return (flip.region & decides(new, d.name, core, new_refs)) != core.false


def words(conformance: Conformance | None) -> str | None:
    """'breaks conformance: 1 of 2 cases of v1's suite flip: cure.may_target-c624... (expected no, now yes)'."""
    flips = flips_words(conformance)
    return None if flips is None else f"breaks conformance: {flips}"


def flips_words(conformance: Conformance | None, case: Callable[[str], str] = str,
                words: Callable[[str], str] = str) -> str | None:
    """'1 of 2 cases of v1's suite flip: cure.may_target-c624... (expected no, now yes)': what breaks.
    ``case`` writes a case id and ``words`` the rest (Markdown: a code span, to copy the id exact, and
    escaped prose)."""
    if conformance is None or not conformance.flipped:
        return None
    n, of = conformance.flipped, conformance.of
    verb = "flips" if n == 1 else "flip"
    examples = ", ".join(case(e.id) + words(f" (expected {said(e.expected, None)}, now {' or '.join(e.now)})")
                         for e in conformance.examples)
    more = f", and {n - len(conformance.examples)} more" if n > len(conformance.examples) else ""
    return (words(f"{n} of {of} case{'' if of == 1 else 's'} of {conformance.suite}'s suite {verb}: ")
            + examples + words(more))


def short_words(conformance: Conformance | None) -> str | None:
    """'1 of 2 cases of v1's suite flip', for a summary line."""
    if conformance is None or not conformance.flipped:
        return None
    n, of = conformance.flipped, conformance.of
    return f"{n} of {of} case{'' if of == 1 else 's'} of {conformance.suite}'s suite {'flips' if n == 1 else 'flip'}"
