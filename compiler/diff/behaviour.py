"""Old and new meaning compared as functions over situations.

A predicate or a decision of each edition is a function of the facts it uses.
Both are evaluated, by the reference evaluator, over every situation of the
union of their facts that the vocabularies' constraints allow; the
situations where they disagree give the direction of the change:

- ``broadened``: the new one says yes in strictly more situations;
- ``narrowed``: in strictly fewer;
- ``changed``: both, or answers that are not yes/no (enums, no answer);
- ``equivalent``: no situation tells them apart.

Editions with different vocabularies are compared over both (facts of both,
enum values joined, the constraints of both): a witness then says which of
its facts and values the old edition does not know (a situation it could not
describe) and which the new one does not (withdrawn).

Witnesses are the smallest disagreeing situations: fewest facts away from
their resting value (false, or an enum's first value), each with both answers
and the clauses that gave them. Spaces larger than ``BUDGET`` situations are
walked in that same order until the budget is spent; the result then says it
is not exhaustive. Each comparison is also bounded in condition steps
(compiler/budget.py, $RULEBOOK_MAX_CHECK_STEPS): constraints that tie the
facts to many others can make a single situation cost millions; past that
budget the name is ``not compared (situation space too large)``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable, Iterator

from ..budget import Budget, OverBudget, decision_budget
from ..conditions import Ref, compile_condition, facts_used, size
from ..evaluate import DecisionModel, Space
from ..model import Answer, Edition, Fact, Rulebook, Vocabulary

#: Most situations evaluated for one name.
BUDGET = 1 << 16
#: Witnesses kept per kind of disagreement (gained yes, lost yes, other).
WITNESSES_PER_KIND = 2

BROADENED, NARROWED, CHANGED, EQUIVALENT = "broadened", "narrowed", "changed", "equivalent"
NOT_COMPARED = "not compared (situation space too large)"  # over the step budget: no direction, no witness


@dataclass(frozen=True)
class Witness:
    """A situation where old and new disagree."""

    facts: tuple[tuple[str, Answer], ...]
    old: Answer | None
    new: Answer | None
    old_clauses: tuple[str, ...]
    new_clauses: tuple[str, ...]
    # What the situation names that an edition's vocabulary lacks: facts ('diseased') and
    # values ('phase=end'); a situation the old edition could not describe, or the new one.
    old_unknown: tuple[str, ...] = ()
    new_unknown: tuple[str, ...] = ()

    def as_json(self) -> dict:
        return {"facts": dict(self.facts), "old": self.old, "new": self.new,
                "old_clauses": list(self.old_clauses), "new_clauses": list(self.new_clauses),
                "old_unknown": list(self.old_unknown), "new_unknown": list(self.new_unknown)}


@dataclass(frozen=True)
class Behaviour:
    """How one predicate or decision changed."""

    name: str
    kind: str  # predicate | decision
    direction: str
    witnesses: tuple[Witness, ...]
    checked: int  # situations evaluated
    exhaustive: bool

    @property
    def compared(self) -> bool:
        return self.direction != NOT_COMPARED

    def as_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "direction": self.direction,
                "witnesses": [w.as_json() for w in self.witnesses],
                "checked": self.checked, "exhaustive": self.exhaustive}


Function = Callable[[dict], tuple[Answer | None, tuple[str, ...]]]


def merged_vocabulary(old: Vocabulary, new: Vocabulary) -> Vocabulary:
    """Facts of both sides (enum values joined) and the constraints of both.

    An ordered fact keeps the new side's order, each value only the old side has
    placed after the value it followed there: where the two orders agree, both
    sides' comparisons read as they do in their own edition.
    """
    if old == new:
        return new
    facts: dict[str, Fact] = {f.name: f for f in old.facts}
    for f in new.facts:
        prev = facts.get(f.name)
        if prev is not None and prev.type == "enum" and f.type == "enum":
            values = _joined_order(prev.values, f.values) if f.ordered else tuple(dict.fromkeys(prev.values + f.values))
            f = Fact(f.name, f.type, values, f.meaning, f.loc, f.ordered)
        facts[f.name] = f
    constraints = {c.id: c for c in old.constraints}
    constraints.update({c.id: c for c in new.constraints})
    return Vocabulary(tuple(facts.values()), tuple(constraints.values()))


def _joined_order(old: tuple[str, ...], new: tuple[str, ...]) -> tuple[str, ...]:
    """``new``'s values in order, with each value only ``old`` has after its predecessor in ``old``."""
    joined = list(new)
    for i, value in enumerate(old):
        if value not in joined:
            joined.insert(joined.index(old[i - 1]) + 1 if i else 0, value)
    return tuple(joined)


class Side:
    """One edition's functions: predicates and decisions by name."""

    def __init__(self, book: Rulebook, edition: Edition, vocabulary: Vocabulary, own: Vocabulary | None = None):
        """``vocabulary``: what the comparison ranges over; ``own``: the edition's, when that differs."""
        self.edition = edition
        self.vocabulary = vocabulary
        self.own = own
        self._preds = {n: p.condition for n, p in edition.predicates.items()}
        self._models: dict[str, DecisionModel] = {}
        # Comparisons read in the edition's own order: a value it does not have is before or after nothing.
        self.orders = (own or vocabulary).orders

    def function(self, kind: str, name: str) -> tuple[set[str], Function, int] | None:
        """The facts the name depends on, its function and the steps of one call; None when this side lacks it."""
        if kind == "predicate":
            pred = self.edition.predicates.get(name)
            if pred is None:
                return None
            test = compile_condition(Ref(name), self._preds, orders=self.orders)
            clause = (pred.clause,)
            return facts_used(Ref(name), self._preds), lambda s: (test(s), clause), size(Ref(name), self._preds)
        if name not in self.edition.decisions:
            return None
        model = self._models.get(name)
        if model is None:
            # The predicates once per side, not copied out of the edition for every model.
            model = self._models[name] = DecisionModel(self.vocabulary, self.edition, name,
                                                       predicates=self._preds, orders=self.orders)
        given = model.space.given

        def decide(state: dict) -> tuple[Answer | None, tuple[str, ...]]:
            if given is not None and not given(state):
                return None, ()
            result = model.evaluate(state)
            return result.answer, result.clauses

        return set(model.facts), decide, model.rules_cost + model.space.given_cost


def compare(kind: str, name: str, old: Side, new: Side, vocabulary: Vocabulary) -> Behaviour:
    """Compare ``name`` as old and new define it (see the module docstring)."""
    fo, fn = old.function(kind, name), new.function(kind, name)
    facts = (fo[0] if fo else set()) | (fn[0] if fn else set())
    space = Space(vocabulary, facts)
    f_old = fo[1] if fo else _absent
    f_new = fn[1] if fn else _absent
    cost = (fo[2] if fo else 0) + (fn[2] if fn else 0)
    kinds: dict[str, list[tuple[int, int, Witness]]] = {"gained": [], "lost": [], "other": []}
    budget = decision_budget()
    checked = 0
    exhaustive = True
    try:
        for order, (weight, state) in enumerate(_by_weight(space, budget)):
            if checked >= BUDGET:
                exhaustive = False
                break
            checked += 1
            budget.spend(cost)
            _tell(kinds, order, weight, state, f_old, f_new, old.own, new.own)
    except OverBudget:
        return Behaviour(name, kind, NOT_COMPARED, (), checked, False)
    boolean = all(isinstance(w.old, (bool, type(None))) and isinstance(w.new, (bool, type(None)))
                  for found in kinds.values() for _, _, w in found)
    gained, lost, other = (bool(kinds[k]) for k in ("gained", "lost", "other"))
    if not (gained or lost or other):
        direction = EQUIVALENT
    elif boolean and not other and gained != lost:
        direction = BROADENED if gained else NARROWED
    else:
        direction = CHANGED
    witnesses = sorted((x for found in kinds.values() for x in found), key=lambda x: (x[0], x[1]))
    return Behaviour(name, kind, direction, tuple(w for _, _, w in witnesses), checked, exhaustive)


def _tell(kinds: dict[str, list[tuple[int, int, Witness]]], order: int, weight: int, state: dict,
          f_old: Function, f_new: Function, own_old: Vocabulary | None, own_new: Vocabulary | None) -> None:
    """Evaluate both sides in one situation; keep it as a witness of its kind if they disagree."""
    a, ca = f_old(state)
    b, cb = f_new(state)
    if a == b and type(a) is type(b):
        return
    key = "gained" if b is True and a is not True else "lost" if a is True and b is not True else "other"
    found = kinds[key]
    if len(found) < WITNESSES_PER_KIND:
        found.append((weight, order, Witness(tuple(sorted(state.items())), a, b, ca, cb,
                                             unknown(own_old, state), unknown(own_new, state))))


def unknown(vocabulary: Vocabulary | None, state: dict) -> tuple[str, ...]:
    """What a situation names that the vocabulary lacks: a fact that holds (a false one
    says nothing the edition could not), or a value of an enum, as 'fact=value'."""
    if vocabulary is None:
        return ()
    facts = vocabulary.by_name
    found = []
    for name, value in sorted(state.items()):
        fact = facts.get(name)
        if fact is None:
            if value is not False:
                found.append(name)
        elif fact.type == "enum" and value not in fact.values:
            found.append(f"{name}={value}")
    return tuple(found)


def _absent(state: dict) -> tuple[None, tuple[str, ...]]:
    return None, ()


def _by_weight(space: Space, budget: Budget) -> Iterator[tuple[int, dict]]:
    """Allowed situations, fewest facts away from their resting value first."""
    facts = space.facts
    rest = {f: space.domains[f][0] for f in facts}
    others = {f: space.domains[f][1:] for f in facts}
    for weight in range(len(facts) + 1):
        for moved in itertools.combinations(facts, weight):
            for values in itertools.product(*(others[f] for f in moved)):
                state = dict(rest)
                state.update(zip(moved, values))
                if space.allowed(state, budget):
                    yield weight, state
