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

from dataclasses import dataclass, replace as dc_replace
from typing import Any, Mapping, Sequence, cast

from ..conditions import Condition, Not
from ..decision_sets import DecisionSets, allowed_space, answer_key
from ..evaluate import DecisionModel, standing
from ..model import Answer, Edition, Rule
from ..symbolic import Core, Node, vocabulary_core
from . import condpaths
from .flips import Change, Flips

CONFLICT_KEY = ("conflict",)
GIVEN = -1  # the rule index that stands for the decision's ``given``
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
        self._flips: dict[tuple[int, str, bool], Flips] = {}
        self._part_flips: dict[tuple[int, str], Node] = {}
        self._answers: dict[tuple, dict[int, Answer]] = {}

    def variant(self, rules: Sequence[Rule] | None = None,
                predicates: Mapping[str, Condition] | None = None) -> Outcomes:
        """The outcomes of the decision with these rules and predicates instead (a mutant)."""
        key = (tuple(self.model.rules if rules is None else rules),
               None if predicates is None else tuple(sorted(predicates.items())))
        if key not in self._variants:  # the same mutant is asked for by generate and by the score
            self._variants[key] = outcomes(_VariantSets(self.sets, key[0], predicates), self.allowed)
        return self._variants[key]

    def condition(self, rule: int, part: str) -> Condition | None:
        """Rule ``rule``'s ``when`` or ``test`` (the decision's ``given`` for GIVEN)."""
        return self.model.decision.given if rule == GIVEN else getattr(self.model.rules[rule], part)

    def flips(self, rule: int, part: str, inlined: bool) -> Flips:
        """Every node's Boolean difference in a rule's condition, with its predicates as leaves or inlined
        (the nodes mutants name, or the atoms MC/DC shows); made once (``flips``)."""
        key = (rule, part, inlined)
        if key not in self._flips:
            cond = self.condition(rule, part)
            assert cond is not None, "flips are asked of a part that has a condition"
            full = condpaths.inline(cond, self.model.predicates) if inlined else cond
            if inlined and full == cond and (rule, part, False) in self._flips:
                self._flips[key] = self._flips[(rule, part, False)]
            else:
                self._flips[key] = Flips(self.core, full, self.model.predicates)
        return self._flips[key]

    def part_flip(self, rule: int, part: str) -> Node:
        """The allowed situations whose outcome changes when the rule's ``when`` or ``test`` is negated.

        An outcome is a function of each rule's condition values in the one
        situation, so a variant whose condition differs from the rule's in a
        region F has the outcomes of this one there and the decision's
        elsewhere: its difference is ``F & part_flip``, one variant per rule
        part instead of one per node.
        """
        key = (rule, part)
        if key not in self._part_flips:
            rules = list(self.model.rules)
            negated: dict[str, Any] = {part: Not(getattr(rules[rule], part))}
            rules[rule] = dc_replace(rules[rule], **negated)
            self._part_flips[key] = self.outcomes.difference(self.variant(tuple(rules)), self.allowed)
        return self._part_flips[key]

    def local_difference(self, rule: int, part: str, change: Change) -> Node:
        """The allowed situations where the decision with one node of a rule's condition changed
        (predicates as leaves) has another outcome: exact, without building the variant."""
        return self.flips(rule, part, inlined=False).changed(change) & self.part_flip(rule, part)

    def first_telling(self, states: Sequence[Mapping[str, Answer]], rules: Sequence[Rule] | None = None,
                      predicates: Mapping[str, Condition] | None = None) -> int | None:
        """The index of the first situation in which the variant's outcome differs, evaluated one by one.

        The same answer as asking which lies in the difference of the outcome
        regions (tests/conformance/test_symbolic_mutants.py), without building
        the variant's diagrams: most mutants are killed by a case already
        chosen, and a variant's diagrams cost as much as the decision's. A
        variant that keeps every condition (another answer, an exception
        removed) is evaluated from the rules' answers in each situation, read
        once: evaluating a wide condition again per mutant and case is slow.
        """
        model = self.model

        def variant() -> DecisionModel:
            return DecisionModel(model.vocabulary, _One.of(model), model.decision.name,
                                 rules=tuple(model.rules if rules is None else rules),
                                 predicates=model.predicates if predicates is None else predicates)

        if rules is not None and predicates is None and same_conditions(self.sets, rules):
            same_exceptions = all(r.exception_to == old.exception_to for r, old in zip(rules, model.rules))
            overrides = model.override_bits if same_exceptions else variant().override_bits
            for k, state in enumerate(states):
                base = self._answers_at(state)
                new = {i: (v if rules[i].kind == "value" and (v := rules[i].value) is not None else a)
                       for i, a in base.items()}
                if (standing(model.rules, model.override_bits, base).outcome
                        != standing(rules, overrides, new).outcome):
                    return k
            return None
        mutant = variant()
        return next((k for k, state in enumerate(states) if model.outcome(state) != mutant.outcome(state)), None)

    def _answers_at(self, state: Mapping[str, Answer]) -> dict[int, Answer]:
        """Rule index -> its answer in the situation (the rules that answer there), evaluated once."""
        key = tuple(sorted(state.items()))
        if key not in self._answers:
            self._answers[key] = self.model.answers(state)
        return self._answers[key]

    def contains(self, region: Node, state: Mapping[str, Answer]) -> bool:
        return (region & self.core.situation(state)) != self.core.false

    def count(self, region: Node) -> int:
        return self.core.count(region, self.facts)


class FirstIn:
    """Situations in the order they were added; the first one in a region, in log time.

    A segment tree of unions: the first situation of a region is found by
    descending to the leftmost half that meets it, so that asking it of every
    condition or mutant is not a scan over every case.
    """

    def __init__(self, core: Core, states: Sequence[Mapping[str, Answer]] = ()):
        self.core = core
        self.size = 1
        self.nodes: list[Node] = []
        self.tree = [core.false, core.false]
        for state in states:
            self.add(core.situation(state))

    @property
    def union(self) -> Node:
        return self.tree[1]

    def add(self, node: Node) -> None:
        self.nodes.append(node)
        if len(self.nodes) > self.size:  # double, and build the tree again (amortized constant per add)
            self.size *= 2
            self.tree = [self.core.false] * (2 * self.size)
            self.tree[self.size:self.size + len(self.nodes)] = self.nodes
            for k in range(self.size - 1, 0, -1):
                self.tree[k] = self.tree[2 * k] | self.tree[2 * k + 1]
            return
        k = self.size + len(self.nodes) - 1
        self.tree[k] = node
        while k > 1:
            k //= 2
            self.tree[k] = self.tree[2 * k] | self.tree[2 * k + 1]

    def first(self, region: Node) -> int | None:
        """The index of the first situation in ``region``, or None."""
        false = self.core.false
        if (self.tree[1] & region) == false:
            return None
        k = 1
        while k < self.size:
            k = 2 * k if (self.tree[2 * k] & region) != false else 2 * k + 1
        return k - self.size


class _VariantSets(DecisionSets):
    """A variant's sets, sharing the base decision's: a mutant changes one rule (or one predicate), and
    the rules it keeps keep their diagrams; the allowed space is the base's (so is not made again)."""

    def __init__(self, base: DecisionSets, rules: tuple[Rule, ...], predicates: Mapping[str, Condition] | None):
        model = base.model
        same = [i < len(model.rules) and rule is model.rules[i] for i, rule in enumerate(rules)]
        if len(rules) == len(model.rules) and all(
                s or (r.clause, r.exception_to) == (model.rules[i].clause, model.rules[i].exception_to)
                for i, (s, r) in enumerate(zip(same, rules))):
            overrides = model.override_bits
        else:  # an exception removed: the override table is the variant's own
            overrides = DecisionModel(model.vocabulary, _One.of(model), model.decision.name, rules=rules,
                                      predicates=model.predicates).override_bits
        # DecisionSets reads only these three of its model
        self.model = cast(DecisionModel, _Rules(rules, model.predicates if predicates is None else predicates,
                                                overrides))
        self.core = base.core
        memo: dict[str, Node] = {}
        # a rule that keeps its conditions (the same rule, another answer, an exception removed) keeps
        # the base's regions; with a predicate changed, any rule may read it: each is made again
        kept = [_same_conditions(base, i, r) if predicates is None else None for i, r in enumerate(rules)]
        self.answers = [a if a is not None else self._rule_answers(i, memo) for i, a in enumerate(kept)]
        self.applies = []
        for answers in self.answers:
            out = self.core.false
            for region in answers.values():
                out |= region
            self.applies.append(out)


def _same_conditions(base: DecisionSets, i: int, rule: Rule) -> dict[tuple, Node] | None:
    """Rule i's answers when the variant's rule i keeps the base rule's conditions (another answer, or an
    exception removed): the base's regions, under the new answer; None when its conditions differ."""
    model = base.model
    if i >= len(model.rules):
        return None
    old = model.rules[i]
    if (rule.kind, rule.when, rule.test) != (old.kind, old.when, old.test):
        return None
    if rule.kind != "value" or rule.value is None:
        return base.answers[i]
    (region,) = base.answers[i].values()
    return {answer_key(rule.value): region}


def same_conditions(base: DecisionSets, rules: Sequence[Rule]) -> bool:
    """Whether a variant's rules keep every condition of the base's (only answers or exceptions differ)."""
    return len(rules) == len(base.model.rules) and all(
        r is base.model.rules[i] or _same_conditions(base, i, r) is not None for i, r in enumerate(rules))


@dataclass(frozen=True)
class _Rules:
    """What DecisionSets reads of a model to make a variant's sets."""

    rules: tuple[Rule, ...]
    predicates: Mapping[str, Condition]
    override_bits: list[int]


class _One:
    """Just enough of an Edition for DecisionModel: the one decision, by name."""

    def __init__(self, model: DecisionModel):
        self.decisions = {model.decision.name: model.decision}
        self.rules = {model.decision.name: model.rules}
        self.predicates: dict = {}

    @classmethod
    def of(cls, model: DecisionModel) -> Edition:
        """The stand-in, as DecisionModel takes it (it reads only these three of an Edition)."""
        return cast(Edition, cls(model))

