"""A decision's outcomes as sets of situations, over the facts its cases name, and how a variant's differ.

Case generation and mutant scoring ask the same two questions of a decision
and a variant of it (a mutant, or the decision with one condition negated):
do they give every allowed situation the same outcome (the same answer, or
both a conflict, or both no answer), and where do they not. Both are answered
on the decision's BDDs (``decision_sets``), never by listing situations, so
they are exact at any size: two variants are equivalent when their outcome
regions are the same diagrams, and a case kills a mutant when its situation
lies in the difference.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from ..conditions import Condition
from ..decision_sets import DecisionSets, allowed_space
from ..evaluate import DecisionModel
from ..model import Answer, Rule
from ..symbolic import Core, Node, vocabulary_core

CONFLICT_KEY = ("conflict",)
EMPTY_KEY = ("empty",)


@dataclass(frozen=True)
class Outcomes:
    """Outcome key (an answer's key, CONFLICT_KEY or EMPTY_KEY) -> the allowed situations with it; none empty."""

    regions: Mapping[tuple, Node]

    def answered(self, core: Core) -> Node:
        out = core.false
        for key, region in self.regions.items():
            if key not in (CONFLICT_KEY, EMPTY_KEY):
                out |= region
        return out

    def difference(self, other: "Outcomes", allowed: Node) -> Node:
        """The allowed situations where the two give different outcomes."""
        same = allowed & ~allowed  # false, from the same manager
        for key, region in self.regions.items():
            if key in other.regions:
                same |= region & other.regions[key]
        return allowed & ~same


def outcomes(sets: DecisionSets, allowed: Node) -> Outcomes:
    """The decision's outcome regions within ``allowed`` (which may name more facts than the decision's own)."""
    core = sets.core
    conflict = sets.disagree
    regions = {key: sets.said[key] & allowed & ~conflict for key in sets.said}
    regions[CONFLICT_KEY] = conflict & allowed
    regions[EMPTY_KEY] = allowed & ~sets.answered
    return Outcomes({k: v for k, v in regions.items() if v != core.false})


class DecisionSpace:
    """One decision over the facts of its cases: the allowed situations and the outcome regions.

    ``facts`` may hold more facts than the decision's own (those of earlier
    editions, which its cases also name); constraints tie them as they tie the
    decision's own. Variants (``variant``) share the core and this allowed
    space, so their outcomes compare with the decision's by diagram equality.
    """

    def __init__(self, model: DecisionModel, facts: Sequence[str], core: Core | None = None):
        self.model = model
        self.core = core if core is not None else vocabulary_core(model.vocabulary)
        self.facts = tuple(facts)
        self.sets = DecisionSets(model, self.core)
        # Sifting once the rules are built: every variant below is made of these diagrams, and
        # the order of first use can make them large (a 40-fact decision: 1.9 s -> 0.7 s).
        # The diagrams are canonical, so the cases found do not depend on the order.
        self.core.bdd.reorder()
        self.allowed = allowed_space(self.core, model.vocabulary, set(self.facts), self.sets.given)
        self.outcomes = outcomes(self.sets, self.allowed)
        self.answered = self.outcomes.answered(self.core)
        self._variants: dict[tuple, Outcomes] = {}

    def variant(self, rules: Sequence[Rule] | None = None,
                predicates: Mapping[str, Condition] | None = None) -> Outcomes:
        """The outcomes of the decision with these rules and predicates instead (a mutant)."""
        key = (tuple(self.model.rules if rules is None else rules),
               None if predicates is None else tuple(sorted(predicates.items())))
        if key not in self._variants:  # the same mutant is asked for by generate and by the score
            self._variants[key] = outcomes(_VariantSets(self.sets, key[0], predicates), self.allowed)
        return self._variants[key]

    def first_telling(self, states: Sequence[Mapping[str, Answer]], rules: Sequence[Rule] | None = None,
                      predicates: Mapping[str, Condition] | None = None) -> int | None:
        """The index of the first situation in which the variant's outcome differs, evaluated one by one.

        The same answer as asking which lies in the difference of the outcome
        regions (tests/conformance/test_symbolic_mutants.py), without building
        the variant's diagrams: most mutants are killed by a case already
        chosen, and a variant's diagrams cost as much as the decision's.
        """
        model = self.model
        variant = DecisionModel(model.vocabulary, _One(model), model.decision.name,
                                rules=tuple(model.rules if rules is None else rules),
                                predicates=model.predicates if predicates is None else predicates)
        return next((k for k, state in enumerate(states) if model.outcome(state) != variant.outcome(state)), None)

    def contains(self, region: Node, state: Mapping[str, Answer]) -> bool:
        return (region & self.core.situation(state)) != self.core.false

    def count(self, region: Node) -> int:
        return self.core.count(region, self.facts)


class _VariantSets(DecisionSets):
    """A variant's sets, sharing the base decision's: a mutant changes one rule (or one predicate), and
    the rules it keeps keep their diagrams; the allowed space is the base's (so is not made again)."""

    def __init__(self, base: DecisionSets, rules: tuple[Rule, ...], predicates: Mapping[str, Condition] | None):
        model = base.model
        same = [i < len(model.rules) and rule is model.rules[i] for i, rule in enumerate(rules)]
        if len(rules) == len(model.rules) and all(
                s or (r.clause, r.exception_to) == (model.rules[i].clause, model.rules[i].exception_to)
                for i, (s, r) in enumerate(zip(same, rules))):
            overrides = model._override_bits
        else:  # an exception removed: the override table is the variant's own
            overrides = DecisionModel(model.vocabulary, _One(model), model.decision.name, rules=rules,
                                      predicates=model.predicates)._override_bits
        self.model = _Rules(rules, model.predicates if predicates is None else predicates, overrides)
        self.core = base.core
        memo: dict[str, Node] = {}
        self.answers = [base.answers[i] if same[i] and predicates is None else self._rule_answers(i, memo)
                        for i in range(len(rules))]
        self.applies = []
        for answers in self.answers:
            out = self.core.false
            for region in answers.values():
                out |= region
            self.applies.append(out)


@dataclass(frozen=True)
class _Rules:
    """What DecisionSets reads of a model to make a variant's sets."""

    rules: tuple[Rule, ...]
    predicates: Mapping[str, Condition]
    _override_bits: list[int]


class _One:
    """Just enough of an Edition for DecisionModel: the one decision, by name."""

    def __init__(self, model: DecisionModel):
        self.decisions = {model.decision.name: model.decision}
        self.rules = {model.decision.name: model.rules}
        self.predicates: dict = {}

