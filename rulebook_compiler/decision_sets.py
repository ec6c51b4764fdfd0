"""A decision as sets of situations: where each rule answers, stands, and what the decision says.

The symbolic counterpart of ``evaluate.DecisionModel``: the same default logic
(a rule is overridden wherever a rule that is an exception to it answers),
computed on BDDs of the whole situation space at once instead of one situation
at a time. Built from a DecisionModel, so both read a decision the same way.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cached_property

from .conditions import facts_used
from .evaluate import DecisionModel
from .model import Answer, Vocabulary
from .symbolic import Core, Node, vocabulary_core


def allowed_space(core: Core, vocabulary: Vocabulary, facts: Collection[str],
                  given: Node | None = None) -> Node:
    """The situations over ``facts`` that the constraints allow (and ``given`` asks about).

    As ``evaluate.Space`` has it: a constraint counts when it tests one of the
    facts, and a situation is allowed when some values of the other facts those
    constraints test break none of them (an existential over those facts).
    """
    facts = set(facts)
    relevant = [c for c in vocabulary.constraints if facts_used(c.never, {}) & facts]
    extra: set[str] = set()
    for c in relevant:
        extra |= facts_used(c.never, {}) - facts
    ok = core.valid(sorted(facts))
    if relevant:
        kept = core.valid(sorted(extra))
        for c in relevant:
            kept &= ~core.condition(c.never, {})
        ok &= core.exists(sorted(extra), kept) if extra else kept
    if given is not None:
        ok &= given
    return ok


def answer_key(value: Answer) -> tuple[str, Answer]:
    """Answers compared as the evaluator compares them (True and 'true' differ)."""
    return (type(value).__name__, value)


class DecisionSets:
    """One decision's rules as sets of situations, over a core."""

    def __init__(self, model: DecisionModel, core: Core | None = None):
        self.model = model
        self.core = core if core is not None else vocabulary_core(model.vocabulary, model.orders)
        core = self.core
        memo: dict[str, Node] = {}
        given = model.decision.given
        self.given: Node | None = core.condition(given, model.predicates, memo) if given is not None else None
        self.facts: tuple[str, ...] = model.facts
        self.allowed: Node = allowed_space(core, model.vocabulary, set(model.facts), self.given)
        # each rule's answers: answer key -> where the rule gives it
        self.answers: list[dict[tuple, Node]] = [self._rule_answers(i, memo) for i in range(len(model.rules))]
        self.applies: list[Node] = []
        for answers in self.answers:
            out = core.false
            for region in answers.values():
                out |= region
            self.applies.append(out)
        self.values: dict[tuple, Answer] = {}
        for rule in model.rules:
            if rule.kind == "value":
                self.values[answer_key(rule.answer)] = rule.answer
            else:
                self.values[answer_key(True)], self.values[answer_key(False)] = True, False

    def _rule_answers(self, i: int, memo: dict[str, Node]) -> dict[tuple, Node]:
        rule = self.model.rules[i]
        core, preds = self.core, self.model.predicates
        when = core.condition(rule.when, preds, memo) if rule.when is not None else core.true
        if rule.kind == "value":
            return {answer_key(rule.answer): when}
        test = core.condition(rule.tested, preds, memo)
        if rule.kind == "requires":
            return {answer_key(True): when & test, answer_key(False): when & ~test}
        if rule.kind == "forbids":
            return {answer_key(False): when & test}
        return {answer_key(True): when & test}  # permits

    @cached_property
    def standing(self) -> list[Node]:
        """Where each rule answers and no rule that overrides it answers."""
        core = self.core
        # Rules that override the same rules answer as one (a clause's rules, mostly):
        # grouping them keeps this in proportion to rules x clauses, not to the
        # square of the rules (3,600 rules in a chain took 3.6 s one pair at a time).
        by_mask: dict[int, Node] = {}
        for j, mask in enumerate(self.model.override_bits):
            if mask:
                by_mask[mask] = by_mask.get(mask, core.false) | self.applies[j]
        groups = list(by_mask.items())
        union: dict[tuple[int, ...], Node] = {}
        out = []
        for i, applies in enumerate(self.applies):
            beaters = tuple(g for g, (mask, _) in enumerate(groups) if mask >> i & 1)
            if beaters not in union:
                region = core.false
                for g in beaters:
                    region |= groups[g][1]
                union[beaters] = region
            out.append(applies & ~union[beaters])
        return out

    @cached_property
    def said(self) -> dict[tuple, Node]:
        """Answer key -> where some rule left standing gives it."""
        out: dict[tuple, Node] = {}
        for answers, standing in zip(self.answers, self.standing):
            for key, region in answers.items():
                out[key] = out.get(key, self.core.false) | (region & standing)
        return out

    @cached_property
    def disagree(self) -> Node:
        """Where rules left standing give different answers (allowed or not)."""
        out, seen = self.core.false, self.core.false
        for key in sorted(self.said, key=repr):
            region = self.said[key]
            out |= region & seen
            seen |= region
        return out

    @cached_property
    def answered(self) -> Node:
        """Where some rule is left standing (allowed or not)."""
        out = self.core.false
        for region in self.said.values():
            out |= region
        return out

    @cached_property
    def conflict(self) -> Node:
        """Allowed situations where rules left standing give different answers."""
        return self.disagree & self.allowed

    @cached_property
    def empty(self) -> Node:
        """Allowed situations where no rule answers (all overridden counts as none standing)."""
        return self.allowed & ~self.answered

    @cached_property
    def outcomes(self) -> dict[tuple, Node]:
        """Answer key -> the allowed situations where that is the decision's one answer."""
        return {key: (region & self.allowed) & ~self.conflict for key, region in self.said.items()}

    def live(self, i: int) -> bool:
        """Whether rule i answers in some allowed situation (overridden or not)."""
        return (self.applies[i] & self.allowed) != self.core.false

    def standing_exactly(self, rules: frozenset[int]) -> Node:
        """The situations where exactly these rules are left standing."""
        out = self.core.true
        for i, region in enumerate(self.standing):
            out &= region if i in rules else ~region
        return out

    def count(self, u: Node) -> int:
        return self.core.count(u, self.facts)

