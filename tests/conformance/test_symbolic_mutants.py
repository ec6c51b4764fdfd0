"""Mutant equivalence and killing on BDDs against brute-force enumeration, on hundreds of generated decisions.

The decisions are tests/test_symbolic.py's (bool, enum and ordered facts,
every kind of rule, exceptions, constraints tied to a hidden fact, 'given').
For every mutant of each, enumeration with the reference evaluator is the
truth: the situations where the mutant's outcome differs must be exactly the
symbolic difference (so 'equivalent' and 'killed by this case' agree), and the
MC/DC set must kill every mutant that differs where the decision answers.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from rulebook_compiler.conformance.cases import mcdc_states
from rulebook_compiler.conformance.mutants import decision_mutants
from rulebook_compiler.conformance.regions import DecisionSpace
from rulebook_compiler.evaluate import CONFLICT, EMPTY, DecisionModel
from tests.test_symbolic import decision

SEEDS = range(300)


def _edition(model: DecisionModel, rules=None) -> SimpleNamespace:
    return SimpleNamespace(decisions={"t.q": model.decision}, rules={"t.q": model.rules if rules is None else rules},
                           predicates={}, vocabulary=model.vocabulary)


def _differing(model: DecisionModel, rules, states) -> list[dict]:
    mutant = DecisionModel(model.vocabulary, _edition(model, rules), "t.q")
    return [s for s in states if model.outcome(s) != mutant.outcome(s)]


@pytest.mark.parametrize("chunk", range(6))
def test_the_difference_of_every_mutant_is_what_enumeration_finds(chunk):
    checked = 0
    for seed in SEEDS[chunk::6]:
        model = decision(seed)
        space = DecisionSpace(model, model.facts)
        states = list(model.states())
        for mutant in decision_mutants(_edition(model), "t.q"):
            rules = mutant.rules["t.q"]
            difference = space.outcomes.difference(space.variant(rules), space.allowed)
            differing = _differing(model, rules, states)
            assert space.count(difference) == len(differing), (seed, mutant.label)
            assert [s for s in states if space.contains(difference, s)] == differing, (seed, mutant.label)
            assert (difference == space.core.false) == (differing == []), (seed, mutant.label)  # equivalent
            checked += 1
    assert checked > 1000  # every operator, on every decision of the chunk


@pytest.mark.parametrize("chunk", range(6))
def test_the_mcdc_set_kills_every_mutant_that_differs_where_the_decision_answers(chunk):
    for seed in SEEDS[chunk::6]:
        model = decision(seed)
        space = DecisionSpace(model, model.facts)
        states = list(model.states())
        chosen, _ = mcdc_states(_edition(model), space)
        answered = [s for s in states if model.outcome(s) not in (CONFLICT, EMPTY)]
        assert all(s in answered for s in chosen), seed  # every case allowed and answered
        for mutant in decision_mutants(_edition(model), "t.q"):
            killable = [s for s in _differing(model, mutant.rules["t.q"], states) if s in answered]
            if killable:
                assert any(s in killable for s in chosen), (seed, mutant.label)
