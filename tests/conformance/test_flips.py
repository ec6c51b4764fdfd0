"""Every condition's deciding region and every one-node mutant's difference, from one pass of Boolean
differences (rulebook_compiler/conformance/flips.py), against one variant per condition and brute force.

The decisions are tests/test_symbolic.py's (bool, enum and ordered facts,
every kind of rule, exceptions, constraints tied to a hidden fact, 'given'),
half of them with a predicate that some rules use (so a predicate is a leaf
for mutants and inlined for MC/DC). Enumeration with the reference evaluator
is the truth.
"""

from __future__ import annotations

import random
from dataclasses import replace as dc_replace
from types import SimpleNamespace

import pytest

from rulebook_compiler.conditions import All, Any_, Not, Ref, compile_condition
from rulebook_compiler.conformance import condpaths
from rulebook_compiler.conformance.cases import GIVEN, _deciding, _negated, rule_atoms
from rulebook_compiler.conformance.mutants import decision_mutants
from rulebook_compiler.conformance.regions import DecisionSpace
from rulebook_compiler.evaluate import CONFLICT, EMPTY, DecisionModel
from rulebook_compiler.model import Predicate
from tests.test_symbolic import HERE, _condition, decision

SEEDS = range(300)


def _with_predicate(seed: int) -> tuple[DecisionModel, SimpleNamespace]:
    """decision(seed), and for odd seeds a predicate 'p' that some rules' conditions use."""
    model = decision(seed)
    predicates = {}
    rules = model.rules
    if seed % 2:
        rng = random.Random(-seed)
        predicates = {"p": Predicate("p", None, _condition(rng), "t#p", HERE)}
        rules = tuple(dc_replace(r, when=(All if rng.random() < 0.5 else Any_)((r.when, Ref("p"))))
                      if r.when is not None and rng.random() < 0.7 else r for r in rules)
    edition = SimpleNamespace(decisions={"t.q": model.decision}, rules={"t.q": rules}, predicates=predicates,
                              vocabulary=model.vocabulary)
    return DecisionModel(model.vocabulary, edition, "t.q"), edition


def _answered(model: DecisionModel) -> list[dict]:
    return [s for s in model.states() if model.outcome(s) not in (CONFLICT, EMPTY)]


def _flipped_by_enumeration(model: DecisionModel, atom, answered: list[dict]) -> list[dict]:
    """The answered situations whose outcome changes when this one atom is negated, one by one."""
    if atom.rule == GIVEN:
        full = condpaths.inline(model.decision.given, model.predicates)
        given = compile_condition(condpaths.replace(full, atom.path, Not(atom.node)), {},
                                  orders=model.vocabulary.orders)
        return [s for s in answered if not given(s)]  # the situation leaves the question
    variant = DecisionModel(model.vocabulary, SimpleNamespace(decisions={"t.q": model.decision}, rules={},
                                                              predicates={}),
                            "t.q", rules=_negated(model, atom), predicates=model.predicates)
    return [s for s in answered if model.outcome(s) != variant.outcome(s)]


def _per_atom_variant(space: DecisionSpace, atom):
    """The former way: the decision with the atom negated, built whole, and its outcomes compared."""
    core, model = space.core, space.model
    if atom.rule == GIVEN:
        full = condpaths.inline(model.decision.given, model.predicates)
        return space.answered & ~core.condition(condpaths.replace(full, atom.path, Not(atom.node)), {})
    return space.outcomes.difference(space.variant(_negated(model, atom)), space.allowed) & space.answered


@pytest.mark.parametrize("chunk", range(6))
def test_each_atoms_deciding_region_is_what_a_variant_and_enumeration_find(chunk):
    checked = 0
    for seed in SEEDS[chunk::6]:
        model, _ = _with_predicate(seed)
        space = DecisionSpace(model, model.facts)
        answered = _answered(model)
        for atom in rule_atoms(model):
            region = _deciding(space, atom)
            assert region == _per_atom_variant(space, atom), (seed, atom.label)
            assert [s for s in answered if space.contains(region, s)] == \
                _flipped_by_enumeration(model, atom, answered), (seed, atom.label)
            checked += 1
    assert checked > 300


@pytest.mark.parametrize("chunk", range(6))
def test_each_one_node_mutants_difference_is_what_enumeration_finds(chunk):
    checked = 0
    # a predicate's, or an exception removed or an answer changed, is built as a variant: not one node
    for seed, model, space, states, mutant, variant in _mutants_and_variants(SEEDS[chunk::6], lambda m: m.site is not None):
        region = space.local_difference(*mutant.site)
        differing = [s for s in states if model.outcome(s) != variant.outcome(s)]
        assert [s for s in states if space.contains(region, s)] == differing, (seed, mutant.label)
        assert space.count(region) == len(differing), (seed, mutant.label)
        checked += 1
    assert checked > 1000


def _mutants_and_variants(seeds, wanted):
    """Each wanted mutant of t.q in the generated decisions, with the decision's space and its variant."""
    for seed in seeds:
        model, edition = _with_predicate(seed)
        space = DecisionSpace(model, model.facts)
        states = list(model.states())
        for mutant in decision_mutants(edition, "t.q"):
            if wanted(mutant):
                variant = DecisionModel(model.vocabulary, edition, "t.q", rules=mutant.rules["t.q"])
                yield seed, model, space, states, mutant, variant


@pytest.mark.parametrize("chunk", range(3))
def test_a_mutant_of_answers_or_exceptions_is_told_apart_from_the_rules_answers_as_enumeration_does(chunk):
    # such a mutant keeps every condition: first_telling reads each rule's answer once per situation
    checked = 0
    wanted = lambda m: m.site is None and m.operator in ("remove an exception", "change a value")  # noqa: E731
    for seed, model, space, states, mutant, variant in _mutants_and_variants(SEEDS[chunk::3], wanted):
        first = next((k for k, s in enumerate(states) if model.outcome(s) != variant.outcome(s)), None)
        assert space.first_telling(states, mutant.rules["t.q"]) == first, (seed, mutant.label)
        checked += 1
    assert checked > 100
