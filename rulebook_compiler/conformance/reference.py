"""The reference engine of a suite: the evaluator's decisions plus the procedures' next steps.

``overrides`` (rules per decision, predicate conditions, step orders) turn it
into a mutant for measuring a suite's strength.
"""

from __future__ import annotations

from typing import Mapping

from ..conditions import Condition
from ..evaluate import DecisionModel
from ..model import Answer, Edition, Rule, Rulebook, Steps
from .cases import STEP_END, STEP_FACT, STEP_START, STEP_SUFFIX, procedures


class ReferenceEngine:
    """``decide(decision, facts)`` as the edition has it; ValueError where it has no single answer."""

    def __init__(self, book: Rulebook, edition: Edition, *, rules: Mapping[str, tuple[Rule, ...]] | None = None,
                 predicates: Mapping[str, Condition] | None = None,
                 steps: Mapping[str, tuple[str, ...]] | None = None):
        self.book = book
        self.edition = edition
        self.rules = dict(rules or {})
        self.predicates = dict(predicates) if predicates else None
        self.steps: dict[str, tuple[str, ...]] = {s.procedure + STEP_SUFFIX: s.order for s in procedures(edition)}
        self.steps.update(steps or {})
        self.models: dict[str, DecisionModel] = {}

    def model(self, decision: str) -> DecisionModel:
        if decision not in self.models:
            if decision not in self.edition.decisions:
                raise KeyError(f"edition '{self.edition.id}' has no decision '{decision}'")
            preds = None
            if self.predicates is not None:
                preds = {n: p.condition for n, p in self.edition.predicates.items()}
                preds.update(self.predicates)
            self.models[decision] = DecisionModel(self.edition.vocabulary, self.edition, decision,
                                                  rules=self.rules.get(decision), predicates=preds)
        return self.models[decision]

    def decide(self, decision: str, facts: Mapping[str, Answer]) -> Answer:
        if decision in self.steps and decision not in self.edition.decisions:
            return next_step(self.steps[decision], facts)
        return self.model(decision).decide(facts)


def next_step(order: tuple[str, ...], facts: Mapping[str, Answer]) -> str:
    current = facts.get(STEP_FACT)
    sequence = (STEP_START, *order)
    if current not in sequence:
        raise ValueError(f"'{STEP_FACT}' must be '{STEP_START}' or a step of the procedure, not {current!r}")
    i = sequence.index(current)
    return order[i] if i < len(order) else STEP_END


def steps_by_decision(edition: Edition) -> dict[str, Steps]:
    return {s.procedure + STEP_SUFFIX: s for s in procedures(edition)}
