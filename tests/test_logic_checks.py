"""The logic checks' messages, their once-only reporting, and decisions of any size."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.logic import logic_problems


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # problems name files relative to the working directory


def rulebook(root: Path, clauses: str, *, facts: int = 3, decision: str = "{name: t.q, type: bool, meaning: Q.}",
             constraints: str = "[]"):
    (root / "editions" / "e1").mkdir(parents=True)
    (root / "rulebook.yaml").write_text(
        "title: T\npublisher: P\neditions:\n  - {id: e1, title: E, date: null, status: draft}\n")
    names = [f"f{i:02d}" for i in range(facts)]
    (root / "vocabulary.yaml").write_text(
        "facts:\n" + "".join(f"  - {{name: {n}, type: bool, meaning: F.}}\n" for n in names)
        + f"constraints: {constraints}\n")
    (root / "editions" / "e1" / "t.yaml").write_text(
        f"id: t\nname: T\ndecisions:\n  - {decision}\n"
        "sections:\n  - key: s\n    kind: definition\n    clauses:\n" + clauses)
    return load_rulebook(root)


def shown(book) -> list[str]:
    return [str(d) for d in logic_problems(book)]


def all_of(n: int) -> str:
    return "{all: [" + ", ".join(f"f{i:02d}" for i in range(n)) + "]}"


def test_a_decision_over_more_situations_than_enumeration_could_list_is_checked(tmp_path):
    # 17 facts once went unchecked (over 65,536 situations); 80 facts are 2**80 situations
    book = rulebook(tmp_path, f"      - {{id: x, text: X., rules: [{{decision: t.q, permits: {all_of(80)}}}]}}\n",
                    facts=80)
    assert shown(book) == [
        "editions/e1/t.yaml:4:5: error: decision 't.q' has no answer when "
        + ", ".join(f"f{i:02d}=false" for i in range(80))
        + "\n  hint: add a rule for this situation, a constraint that rules it out, "
          "or a 'given' that puts it out of the question's scope"]


def test_each_conflicting_set_of_rules_is_reported_once_at_its_first_rule(tmp_path):
    # x and y conflict wherever f00 is set, with or without z: each set once, at its first situation
    book = rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, forbids: f00}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, requires: f00}]}\n"
        "      - {id: z, text: Z., rules: [{decision: t.q, value: true, when: f01}]}\n"))
    assert shown(book) == [
        "editions/e1/t.yaml:10:35: error: decision 't.q' is in conflict when f00=false, f01=true: "
        "t#y says false; t#z says true, and no rule is an exception to the other\n"
        "  hint: mark one rule 'exception_to' the other's clause, or narrow a 'when'",
        "editions/e1/t.yaml:9:35: error: decision 't.q' is in conflict when f00=true, f01=false: "
        "t#x says false; t#y says true, and no rule is an exception to the other\n"
        "  hint: mark one rule 'exception_to' the other's clause, or narrow a 'when'",
        "editions/e1/t.yaml:9:35: error: decision 't.q' is in conflict when f00=true, f01=true: "
        "t#x says false; t#y says true; t#z says true, and no rule is an exception to the other\n"
        "  hint: mark one rule 'exception_to' the other's clause, or narrow a 'when'"]


def test_an_empty_decision_is_reported_once_at_its_first_situation(tmp_path):
    book = rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, permits: {all: [f00, f01]}}]}\n")
    assert shown(book) == [
        "editions/e1/t.yaml:4:5: error: decision 't.q' has no answer when f00=false, f01=false\n"
        "  hint: add a rule for this situation, a constraint that rules it out, "
        "or a 'given' that puts it out of the question's scope"]


def test_a_rule_overridden_wherever_it_answers_is_still_live(tmp_path):
    book = rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: true}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, value: false, exception_to: ['t#x']}]}\n"))
    assert shown(book) == []


def test_dead_rules_are_each_named_with_the_hint(tmp_path):
    book = rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: true}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, value: false, when: {all: [f00, f01]},"
        " exception_to: ['t#x']}]}\n"
        "      - {id: z, text: Z., rules: [{decision: t.q, value: false, when: {all: [f01, f00, f02]},"
        " exception_to: ['t#x']}]}\n"),
        constraints="[{id: k, text: K., never: {all: [f00, f01]}}]")
    hint = "\n  hint: check its 'when' against the vocabulary's constraints and the decision's 'given'"
    assert shown(book) == [
        "editions/e1/t.yaml:10:35: error: rule of t#y for 't.q' can never apply in an allowed situation (dead rule)"
        + hint,
        "editions/e1/t.yaml:11:35: error: rule of t#z for 't.q' can never apply in an allowed situation (dead rule)"
        + hint]


def test_a_given_through_a_predicate_scopes_the_check(tmp_path):
    # without the given, f00=false would have no answer; the predicate chain must be followed
    book = rulebook(tmp_path, (
        "      - {id: p, text: P., defines: {name: pp, as: qq}}\n"
        "      - {id: q, text: Q., defines: {name: qq, as: f00}}\n"
        "      - {id: x, text: X., rules: [{decision: t.q, permits: f00}]}\n"),
        decision="{name: t.q, type: bool, meaning: Q., given: pp}")
    assert shown(book) == []
