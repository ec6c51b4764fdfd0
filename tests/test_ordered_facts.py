"""Ordered enum facts end to end on tests/fixtures/ordered: check, model, export, evaluation, logic checks.

Edition o1 writes "only the abilities up to the current step activate" as nine rules with
spelled-out lists (as the bundled rulebook had to); o2 writes it as one rule with a comparison.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.build import check as check_folder, load_rulebook
from rulebook_compiler.cli import main
from rulebook_compiler.evaluate import DecisionModel
from rulebook_compiler.export import edition_json
from rulebook_compiler.logic import logic_problems

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ORDERED = FIXTURES / "ordered"
STEPS = ("verify_status", "written_abilities", "gained_abilities", "weapon_abilities", "same_side_additions",
         "verify_blocked", "opposite_side_additions", "side_battle_effects", "triggered_effects")


@pytest.fixture(scope="module")
def book():
    return load_rulebook(ORDERED)


def test_the_fixture_checks_clean():
    result = CliRunner().invoke(main, ["check", str(ORDERED)])
    assert (result.exit_code, result.output) == (
        0, "Ordered steps: 2 editions (o1, o2), 1 term, latest o2 with 1 term and 2 clauses: no problems\n")


def test_ordered_facts_keep_their_order(book):
    assert book.latest.vocabulary.orders == {"current_step": STEPS, "ability_step": STEPS}
    assert [f.ordered for f in book.latest.vocabulary.facts] == [True, True]


def test_the_export_marks_ordered_facts_and_writes_comparisons_as_written(book):
    data = edition_json(book, book.edition("o2"))
    assert data["facts"][0] == {"name": "current_step", "type": "enum", "values": list(STEPS),
                                "meaning": "The step of Ability Activation Order being carried out.",
                                "ordered": True}
    clauses = {c["id"]: c for c in data["terms"][0]["clauses"]}
    assert clauses["up-to-current-step"]["rules"] == [
        {"decision": "ability_activation.activates", "id": None, "kind": "requires", "when": None,
         "requires": {"at_most": {"ability_step": {"fact": "current_step"}}}, "exception_to": [], "notes": None}]
    assert clauses["blocked-status"]["rules"][0]["requires"] == {"at_least": {"current_step": "verify_blocked"}}


def test_an_unordered_fact_exports_as_before(tmp_path):
    from rulebook_compiler.export import fact_json
    from rulebook_compiler.model import Fact
    from rulebook_compiler.diagnostics import Location

    assert json.dumps(fact_json(Fact("phase", "enum", ("a", "b"), "P.", Location("v.yaml")))) == \
        '{"name": "phase", "type": "enum", "values": ["a", "b"], "meaning": "P."}'


def test_one_comparison_decides_as_the_nine_spelled_out_rules(book):
    nine = DecisionModel(book.edition("o1").vocabulary, book.edition("o1"), "ability_activation.activates")
    one = DecisionModel(book.edition("o2").vocabulary, book.edition("o2"), "ability_activation.activates")
    assert (len(nine.rules), len(one.rules)) == (9, 1)
    states = list(one.states())
    assert len(states) == 81
    assert [nine.outcome(s) for s in states] == [one.outcome(s) for s in states]
    assert sum(one.outcome(s) is True for s in states) == 45
    assert one.decide({"ability_step": "verify_blocked", "current_step": "verify_blocked"}) is True
    assert one.decide({"ability_step": "opposite_side_additions", "current_step": "verify_blocked"}) is False


def test_a_constant_bound(book):
    model = DecisionModel(book.edition("o2").vocabulary, book.edition("o2"), "ability_activation.blocked_status_known")
    assert [s["current_step"] for s in model.states() if model.outcome(s) is True] == list(STEPS[5:])


def _variant(tmp_path: Path, old: str, new: str, vocabulary: tuple[str, str] | None = None) -> Path:
    root = tmp_path / "rb"
    shutil.copytree(ORDERED, root)
    path = root / "editions" / "o2" / "ability-activation-order.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    if vocabulary:
        v = root / "vocabulary.yaml"
        assert vocabulary[0] in v.read_text()
        v.write_text(v.read_text().replace(*vocabulary))
    return root


def test_logic_checks_see_through_comparisons(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = _variant(tmp_path, "requires: {at_least: {current_step: verify_blocked}}",
                    "requires: {at_least: {current_step: verify_blocked}}\n"
                    "          - decision: ability_activation.blocked_status_known\n"
                    "            when: {before: {current_step: verify_status}}\n"
                    "            value: true\n"
                    "          - decision: ability_activation.blocked_status_known\n"
                    "            when: {after: {current_step: side_battle_effects}}\n"
                    "            value: false")
    problems = [str(p) for p in logic_problems(load_rulebook(root))]
    assert problems == [
        "rb/editions/o2/ability-activation-order.yaml:25:13: error: decision 'ability_activation."
        "blocked_status_known' is in conflict when current_step=triggered_effects: ability-activation-order#"
        "blocked-status says true; ability-activation-order#blocked-status says false, and no rule is an "
        "exception to the other\n  hint: mark one rule 'exception_to' the other's clause, or narrow a 'when'",
        "rb/editions/o2/ability-activation-order.yaml:27:13: error: rule of ability-activation-order#blocked-status "
        "for 'ability_activation.blocked_status_known' can never apply in an allowed situation (dead rule)\n"
        "  hint: check its 'when' against the vocabulary's constraints and the decision's 'given'"]


def test_a_constraint_with_a_comparison_narrows_the_situations(tmp_path):
    root = _variant(tmp_path, "x", "x", vocabulary=(
        "constraints: []",
        "constraints:\n  - id: not-yet\n    text: An ability of a later step is not yet in play.\n"
        "    never: {after: {ability_step: {fact: current_step}}}"))
    book = load_rulebook(root)
    model = DecisionModel(book.edition("o2").vocabulary, book.edition("o2"), "ability_activation.activates")
    assert len(list(model.states())) == 45
    assert logic_problems(book) == []


@pytest.mark.parametrize("old, new, expected", [
    ("{at_most: {ability_step: {fact: current_step}}}", "{at_most: {ability_step: weapon_abilitys}}",
     "editions/o2/ability-activation-order.yaml:19:23: error: 'weapon_abilitys' is not a value of fact "
     "'ability_step'\n  hint: did you mean 'weapon_abilities'?"),
    ("{at_least: {current_step: verify_blocked}}", "{at_least: {current_stp: verify_blocked}}",
     "editions/o2/ability-activation-order.yaml:26:23: error: unknown fact 'current_stp'\n"
     "  hint: did you mean 'current_step'?"),
])
def test_check_reports_comparison_errors_at_their_place(tmp_path, old, new, expected, monkeypatch):
    root = _variant(tmp_path, old, new)
    monkeypatch.chdir(root)
    _, problems = check_folder(".")
    assert [str(p) for p in problems] == [expected]


def test_an_ordered_fact_that_is_not_a_boolean_is_refused_by_the_schema(tmp_path, monkeypatch):
    root = _variant(tmp_path, "x", "x", vocabulary=("    ordered: true\n    values: [verify_status",
                                                     "    ordered: yes please\n    values: [verify_status"))
    monkeypatch.chdir(root)
    _, problems = check_folder(".")
    assert [str(p) for p in problems] == [
        "vocabulary.yaml:4:14: error: 'ordered' of fact 'current_step' must be true or false, not a string",
        "vocabulary.yaml:10:14: error: 'ordered' of fact 'ability_step' must be true or false, not a string"]
