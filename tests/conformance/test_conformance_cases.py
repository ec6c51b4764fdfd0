"""Case generation: which situations, which answers (checked against the clause texts), stable ids."""

from __future__ import annotations

import json

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.conformance.cases import build_suite, case_id, case_name

from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CONFORMANCE = FIXTURES / "conformance"
ENGINES = CONFORMANCE / "engines"
MINIMAL = FIXTURES / "minimal"
ROOT = Path(__file__).resolve().parent.parent.parent


def _by_name(suite):
    return {c.name: c for c in suite.cases}


def test_minimal_v1_is_exhaustive_and_follows_the_text():
    book = load_rulebook(MINIMAL)
    suite = build_suite(book, book.edition_by_id["v1"], max_exhaustive=4096)
    cases = _by_name(suite)
    # "A character is curable if it is poisoned." + "Targets must be curable."
    assert cases["cure.may_target[poisoned]"].expected is True
    assert cases["cure.may_target[-]"].expected is False
    assert [q.ref for q in cases["cure.may_target[-]"].clauses] == ["cure#targets"]
    assert cases["cure.may_target[-]"].clauses[0].text == "Targets must be curable."
    (d,) = suite.decisions
    assert d.strategy == "exhaustive" and d.allowed == 2 == len(d.cases)


def test_minimal_v2_battle_exception_decides():
    book = load_rulebook(MINIMAL)
    suite = build_suite(book, book.edition_by_id["v2"], max_exhaustive=4096)
    (d,) = suite.decisions
    # v2 depends on paralyzed, phase and poisoned (and v1's poisoned): 2 * 3 * 2 situations
    assert d.facts == ("paralyzed", "phase", "poisoned") and len(d.cases) == 12
    cases = _by_name(suite)
    # "Cure cannot be used in battle." overrides "Targets must be curable."
    battle = cases["cure.may_target[paralyzed,phase=battle,poisoned]"]
    assert battle.expected is False and [q.ref for q in battle.clauses] == ["cure#not-in-battle"]
    # "curable if it is poisoned or paralyzed"
    assert cases["cure.may_target[paralyzed,phase=discard]"].expected is True
    assert cases["cure.may_target[phase=discard]"].expected is False


def test_ids_are_stable_and_derived_from_decision_and_facts():
    book = load_rulebook(MINIMAL)
    first = build_suite(book, book.edition_by_id["v2"], max_exhaustive=4096)
    again = build_suite(load_rulebook(MINIMAL), load_rulebook(MINIMAL).edition_by_id["v2"], max_exhaustive=4096)
    assert [c.id for c in first.cases] == [c.id for c in again.cases]
    ids = [c.id for c in first.cases]
    assert len(set(ids)) == len(ids)
    case = _by_name(first)["cure.may_target[paralyzed,phase=battle]"]
    assert case.id == case_id(case.decision, dict(reversed(case.facts)))  # order of facts does not matter
    assert case.id != case_id("other.decision", case.facts_dict)
    assert case_name("heal.may_target", {"paralyzed": True, "poisoned": False, "phase": "battle"}) == \
        "heal.may_target[paralyzed,phase=battle]"


def test_the_default_set_has_mcdc_pairs_and_exception_pair():
    book = load_rulebook(MINIMAL)
    suite = build_suite(book, book.edition_by_id["v2"])
    (d,) = suite.decisions
    assert (d.strategy, d.allowed, d.uncovered) == ("mcdc", 12, ())
    states = [c.facts_dict for c in d.cases]
    assert [(c.name, c.expected) for c in d.cases] == [  # in enumeration order
        ("cure.may_target[phase=preparation]", False), ("cure.may_target[phase=preparation,poisoned]", True),
        ("cure.may_target[phase=battle,poisoned]", False), ("cure.may_target[paralyzed,phase=preparation]", True)]

    def has_pair(fact):
        return any(a[fact] != b[fact] and all(a[f] == b[f] for f in a if f != fact)
                   and ca.expected != cb.expected
                   for ca, a in zip(d.cases, states) for cb, b in zip(d.cases, states))

    # each condition shown to change the outcome on its own
    assert has_pair("poisoned") and has_pair("paralyzed") and has_pair("phase")
    # the exception, off then on: same situation but for the battle phase
    assert any(c.facts_dict["phase"] == "battle" and c.expected is False for c in d.cases)


def test_wide_decision_gets_an_mcdc_set_far_below_its_situations():
    book = load_rulebook(CONFORMANCE / "wide")
    suite = build_suite(book, book.edition_by_id["w1"])
    (d,) = suite.decisions
    assert d.strategy == "mcdc" and d.uncovered == ()
    assert len(d.facts) == 14 and 0 < len(d.cases) <= 40


def test_steps_become_a_next_step_decision(bundled):
    suite = build_suite(bundled, bundled.edition_by_id["4.0.0-draft"])
    steps = next(d for d in suite.decisions if d.strategy == "steps")
    order = next(c.steps.order for t in bundled.edition_by_id["4.0.0-draft"].terms for c in t.clauses if c.steps)
    answers = {c.facts_dict["current_step"]: c.expected for c in steps.cases}
    assert answers["start"] == order[0]
    assert answers[order[-1]] == "end"
    assert all(answers[a] == b for a, b in zip(order, order[1:]))


# Each fixture's constraints, written out again here so that the check does not use the code under test.
BROKEN_CONSTRAINT = {
    "constrained": ("v2", {"not-both": lambda f: f["poisoned"] and f["paralyzed"]}),
    "wide-constrained": ("w1", {"not-a-and-d": lambda f: f["a"] and f["d"],
                                "not-c-and-g": lambda f: f["c"] and f["g"],
                                "e-not-in-three": lambda f: f["e"] and f["mode"] == "three"}),
}


@pytest.mark.parametrize("fixture", sorted(BROKEN_CONSTRAINT))
def test_mcdc_cases_never_break_a_constraint(cli, tmp_path, fixture):
    """The MC/DC set, its pairs and its mutant killers are all allowed situations (wide-constrained: 3 * 2**13)."""
    edition, constraints = BROKEN_CONSTRAINT[fixture]
    code, _, _ = cli("conformance", "generate", "--rulebook", CONFORMANCE / fixture, "--edition", edition,
                     "--max-exhaustive", "0", "--out", tmp_path)
    assert code == 0
    data = json.loads((tmp_path / "cases.json").read_text())
    assert {d["strategy"] for d in data["decisions"]} == {"mcdc"}
    assert data["cases"]
    broken = [(c["name"], cid) for c in data["cases"] for cid, breaks in constraints.items() if breaks(c["facts"])]
    assert broken == []
