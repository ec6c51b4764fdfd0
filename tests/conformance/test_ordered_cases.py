"""Suites of ordered comparisons: every boundary of a comparison is a case, and boundary mutants are killed.

On tests/fixtures/ordered, o2: "only the abilities up to the current step activate" as
{at_most: {ability_step: {fact: current_step}}}, and the blocked status known
{at_least: {current_step: verify_blocked}}.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.conformance.cases import build_suite, decision_cases
from rulebook_compiler.conformance.engines import DirectAdapter
from rulebook_compiler.conformance.mutants import measure, mutants
from rulebook_compiler.conformance.runner import run_case

ORDERED = Path(__file__).resolve().parent.parent / "fixtures" / "ordered"
STEPS = ("verify_status", "written_abilities", "gained_abilities", "weapon_abilities", "same_side_additions",
         "verify_blocked", "opposite_side_additions", "side_battle_effects", "triggered_effects")
ACTIVATES, KNOWN = "ability_activation.activates", "ability_activation.blocked_status_known"


@pytest.fixture(scope="module")
def book():
    return load_rulebook(ORDERED)


def test_small_decisions_are_exhaustive(book):
    suite = build_suite(book, book.edition("o2"), max_exhaustive=4096)
    assert [(d.decision, d.strategy, len(d.cases)) for d in suite.decisions] == [
        (ACTIVATES, "exhaustive", 81), (KNOWN, "exhaustive", 9)]


def test_an_mcdc_suite_holds_the_values_around_a_constant_bound(book):
    d = decision_cases(book, book.edition("o2"), KNOWN, max_exhaustive=4)
    assert d.strategy == "mcdc"
    assert [(c.facts_dict["current_step"], c.expected) for c in d.cases] == [
        ("verify_status", False), ("same_side_additions", False), ("verify_blocked", True),
        ("opposite_side_additions", True)]


def test_an_mcdc_suite_holds_the_values_around_a_fact_bound(book):
    d = decision_cases(book, book.edition("o2"), ACTIVATES, max_exhaustive=4)
    assert d.strategy == "mcdc"
    # at the bound, the fact just before it, and just after it
    assert [(c.facts_dict["ability_step"], c.facts_dict["current_step"], c.expected) for c in d.cases] == [
        ("verify_status", "verify_status", True), ("verify_status", "written_abilities", True),
        ("written_abilities", "verify_status", False)]


class OffByOne:
    """An engine that reads 'up to the current step' as 'before the current step', and the
    blocked status as known only after its step: the boundary mistakes a suite must catch."""

    def decide(self, decision, facts):
        if decision == ACTIVATES:
            return STEPS.index(facts["ability_step"]) < STEPS.index(facts["current_step"])
        return STEPS.index(facts["current_step"]) > STEPS.index("verify_blocked")


@pytest.mark.parametrize("name", [ACTIVATES, KNOWN])
def test_a_covering_suite_catches_an_engine_off_by_one_at_the_boundary(book, name):
    d = decision_cases(book, book.edition("o2"), name, max_exhaustive=4)
    adapter = DirectAdapter(OffByOne())
    failing = [c.name for c in d.cases if run_case(adapter, c, d.values) is not None]
    assert failing == {ACTIVATES: ["ability_activation.activates[ability_step=verify_status,"
                                   "current_step=verify_status]"],
                       KNOWN: ["ability_activation.blocked_status_known[current_step=verify_blocked]"]}[name]


def test_boundary_mutants_are_made(book):
    found = [(m.operator, m.clause, m.detail) for m in mutants(book, book.edition("o2"))
             if m.operator in ("change a comparison", "shift a bound")]
    assert found == [
        ("change a comparison", "ability-activation-order#up-to-current-step",
         "test: ability_step is at or before current_step becomes ability_step is before current_step"),
        ("change a comparison", "ability-activation-order#blocked-status",
         "test: current_step is at or after verify_blocked becomes current_step is after verify_blocked"),
        ("shift a bound", "ability-activation-order#blocked-status",
         "test: current_step is at or after verify_blocked becomes current_step is at or after same_side_additions"),
        ("shift a bound", "ability-activation-order#blocked-status",
         "test: current_step is at or after verify_blocked becomes current_step is at or after "
         "opposite_side_additions"),
    ]


@pytest.mark.parametrize("max_exhaustive", [4, 4096])
def test_the_suite_kills_every_boundary_mutant(book, max_exhaustive):
    edition = book.edition("o2")
    report = measure(book, edition, build_suite(book, edition, max_exhaustive))
    boundary = {r.mutant.label: r.status for r in report.results
                if r.mutant.operator in ("change a comparison", "shift a bound")}
    assert set(boundary.values()) == {"killed"} and len(boundary) == 4
    assert report.count("survived") == 0 and report.score == 1.0


def test_a_suite_without_the_boundary_lets_the_boundary_mutants_live(book):
    edition = book.edition("o2")
    suite = build_suite(book, edition)
    thin = replace(suite, decisions=tuple(
        replace(d, cases=tuple(c for c in d.cases if c.facts_dict.get("current_step") != "verify_blocked"
                               and c.facts_dict.get("ability_step") != c.facts_dict.get("current_step")))
        for d in suite.decisions))
    survivors = sorted(r.mutant.label for r in measure(book, edition, thin).results if r.status == "survived")
    assert survivors == [
        "ability-activation-order#blocked-status: change a comparison: test: current_step is at or after "
        "verify_blocked becomes current_step is after verify_blocked",
        "ability-activation-order#blocked-status: shift a bound: test: current_step is at or after "
        "verify_blocked becomes current_step is at or after opposite_side_additions",
        "ability-activation-order#up-to-current-step: change a comparison: test: ability_step is at or "
        "before current_step becomes ability_step is before current_step"]
