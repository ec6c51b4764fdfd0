"""The reference evaluator, piece by piece: situations, each kind of rule, overrides, outcomes.

Small rulebooks written here (one edition, one term) with exact answers; see also
tests/test_evaluate.py for the minimal fixture and the logic checks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.conditions import Ref
from rulebook_compiler.evaluate import CONFLICT, EMPTY, DecisionModel, Evaluator, Result, show_state

VOCABULARY = (
    "facts:\n"
    "  - {name: a, type: bool, meaning: A.}\n"
    "  - {name: b, type: bool, meaning: B.}\n"
    "  - {name: c, type: bool, meaning: C.}\n"
    "  - {name: phase, type: enum, values: [setup, battle, discard], meaning: P.}\n"
    "constraints: {constraints}\n")


def rulebook(root: Path, clauses: str, *, decisions: str = "  - {name: t.q, type: bool, meaning: Q.}\n",
             constraints: str = "[]"):
    (root / "editions" / "e1").mkdir(parents=True)
    (root / "rulebook.yaml").write_text(
        "title: T\npublisher: P\neditions:\n  - {id: e1, title: E, date: null, status: draft}\n")
    (root / "vocabulary.yaml").write_text(VOCABULARY.replace("{constraints}", constraints))
    (root / "editions" / "e1" / "t.yaml").write_text(
        "id: t\nname: T\ndecisions:\n" + decisions
        + "sections:\n  - key: s\n    kind: definition\n    clauses:\n" + clauses)
    return load_rulebook(root)


def model(book, name: str = "t.q") -> DecisionModel:
    return Evaluator(book, book.latest).model(name)


def test_situations_come_in_a_fixed_order_facts_by_name_false_first_enum_values_as_declared(tmp_path):
    book = rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, requires: {all: [b, {is: {phase: battle}}]}}]}\n")
    m = model(book)
    assert m.facts == ("b", "phase")
    assert m.space.size == 6
    assert [show_state(s) for s in m.states()] == [
        "b=false, phase=setup", "b=false, phase=battle", "b=false, phase=discard",
        "b=true, phase=setup", "b=true, phase=battle", "b=true, phase=discard"]


def test_constraints_on_the_decisions_own_facts_remove_situations(tmp_path):
    book = rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, requires: {any: [a, b]}}]}\n",
                    constraints="[{id: k, text: K., never: {all: [a, {not: b}]}}]")
    m = model(book)
    assert (m.space.extra, m.space.size) == ((), 4)
    assert [show_state(s) for s in m.states()] == ["a=false, b=false", "a=false, b=true", "a=true, b=true"]


def test_constraints_on_other_facts_only_are_not_consulted(tmp_path):
    book = rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, requires: a}]}\n",
                    constraints="[{id: k, text: K., never: {all: [b, c]}}]")
    m = model(book)
    assert (m.space.constraints, m.space.extra) == ([], ())
    assert [show_state(s) for s in m.states()] == ["a=false", "a=true"]


def test_a_constraint_tying_to_an_outside_fact_allows_a_situation_some_value_of_it_saves(tmp_path):
    # never (a and c) and never (a and not c): no value of c saves a=true
    book = rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, requires: {any: [a, b]}}]}\n",
                    constraints="[{id: k1, text: K1., never: {all: [a, c]}},"
                                " {id: k2, text: K2., never: {all: [a, {not: c}]}}]")
    m = model(book)
    assert m.space.extra == ("c",)
    assert [show_state(s) for s in m.states()] == ["a=false, b=false", "a=false, b=true"]


def test_a_given_scopes_the_situations_and_its_facts_are_the_decisions(tmp_path):
    book = rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, requires: a}]}\n",
                    decisions="  - {name: t.q, type: bool, meaning: Q., given: {not: c}}\n")
    m = model(book)
    assert m.facts == ("a", "c")
    assert m.space.size == 4
    assert [show_state(s) for s in m.states()] == ["a=false, c=false", "a=true, c=false"]
    assert m.space.allowed({"a": True, "c": True}) is False


@pytest.mark.parametrize("rule, answers", [
    # answers in a=false, a=true
    ("{decision: t.q, value: true}", [True, True]),
    ("{decision: t.q, value: false, when: a}", [EMPTY, False]),
    ("{decision: t.q, requires: a}", [False, True]),
    ("{decision: t.q, forbids: a}", [EMPTY, False]),
    ("{decision: t.q, permits: a}", [EMPTY, True]),
    ("{decision: t.q, permits: a, when: {not: a}}", [EMPTY, EMPTY]),
    ("{decision: t.q, requires: a, when: a}", [EMPTY, True]),
])
def test_each_kind_of_rule_answers_where_it_applies(tmp_path, rule, answers):
    book = rulebook(tmp_path, f"      - {{id: x, text: X., rules: [{rule}]}}\n")
    m = DecisionModel(book.latest.vocabulary, book.latest, "t.q")
    assert [m.outcome({"a": False}), m.outcome({"a": True})] == answers


def test_an_enum_decision_answers_its_values(tmp_path):
    book = rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.mode, value: slow}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.mode, value: fast, when: a, exception_to: ['t#x']}]}\n"),
        decisions="  - {name: t.mode, type: enum, values: [slow, fast], meaning: M.}\n")
    ev = Evaluator(book, book.latest)
    assert (ev.decide("t.mode", {"a": False}), ev.decide("t.mode", {"a": True})) == ("slow", "fast")
    assert ev.model("t.mode").evaluate({"a": True}).describe() == "t#y says fast"


THREE = (
    "      - {id: x, text: X., rules: [{decision: t.q, value: true}]}\n"
    "      - {id: y, text: Y., rules: [{decision: t.q, forbids: a}]}\n"
    "      - {id: z, text: Z., rules: [{decision: t.q, permits: b}]}\n")


def test_conflict_empty_and_answer_as_outcomes_and_results(tmp_path):
    m = model(rulebook(tmp_path, THREE))
    conflict = m.evaluate({"a": True, "b": False})
    assert (conflict.conflict, conflict.empty, conflict.answer) == (True, False, None)
    assert conflict.describe() == "t#x says true; t#y says false"
    assert conflict.clauses == ("t#x", "t#y")
    assert m.outcome({"a": True, "b": False}) is CONFLICT
    agree = m.evaluate({"a": False, "b": True})
    assert (agree.conflict, agree.empty, agree.answer, agree.clauses) == (False, False, True, ("t#x", "t#z"))
    assert m.outcome({"a": False, "b": True}) is True
    assert (repr(CONFLICT), repr(EMPTY)) == ("CONFLICT", "EMPTY")
    none = Result(())
    assert (none.empty, none.conflict, none.answer, none.clauses, none.describe()) == (True, False, None, (), "")


def test_decide_says_why_there_is_no_answer(tmp_path):
    book = rulebook(tmp_path, THREE)
    ev = Evaluator(book, book.latest)
    with pytest.raises(ValueError) as err:
        ev.decide("t.q", {"a": True, "b": False})
    assert str(err.value) == "decision 't.q' is in conflict here: t#x says true; t#y says false"
    with pytest.raises(ValueError) as err:
        ev.decide("t.q", {})
    assert str(err.value) == "decision 't.q' needs facts: a, b"
    with pytest.raises(ValueError) as err:
        ev.decide("t.q", {"b": True})
    assert str(err.value) == "decision 't.q' needs facts: a"
    with pytest.raises(KeyError) as err:
        ev.decide("t.nope", {})
    assert err.value.args == ("edition 'e1' has no decision 't.nope'",)


def test_decide_with_no_rule_standing(tmp_path):
    book = rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, permits: a}]}\n")
    ev = Evaluator(book, book.latest)
    assert ev.decide("t.q", {"a": True}) is True
    with pytest.raises(ValueError) as err:
        ev.decide("t.q", {"a": False})
    assert str(err.value) == "decision 't.q' has no answer here"


def test_an_evaluator_builds_each_decisions_model_once(tmp_path):
    book = rulebook(tmp_path, THREE)
    ev = Evaluator(book, book.latest)
    assert ev.model("t.q") is ev.model("t.q")


def test_overrides_reach_every_rule_of_the_named_clause_and_through_it(tmp_path):
    book = rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: true, when: c},"
        " {decision: t.q, requires: {not: c}}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, forbids: a, exception_to: ['t#x']}]}\n"
        "      - {id: z, text: Z., rules: [{decision: t.q, permits: b, exception_to: ['t#y']}]}\n"))
    m = model(book)
    # rules: 0 and 1 of x, 2 = y, 3 = z (z overrides x's rules through y)
    assert m.overrides == {0: frozenset(), 1: frozenset(), 2: frozenset({0, 1}), 3: frozenset({0, 1, 2})}
    assert m.evaluate({"a": True, "b": False, "c": True}).describe() == "t#y says false"
    assert m.evaluate({"a": True, "b": True, "c": False}).describe() == "t#z says true"
    assert m.evaluate({"a": False, "b": False, "c": False}).describe() == "t#x says true"


def test_rules_and_predicates_can_be_replaced(tmp_path):
    book = rulebook(tmp_path, (
        "      - {id: p, text: P., defines: {name: pp, as: a}}\n"
        "      - {id: x, text: X., rules: [{decision: t.q, requires: pp}]}\n"))
    own = model(book)
    assert own.facts == ("a",)
    other = DecisionModel(book.latest.vocabulary, book.latest, "t.q", predicates={"pp": Ref("b")})
    assert (other.facts, other.predicates) == (("b",), {"pp": Ref("b")})
    assert other.outcome({"b": True}) is True
    none = DecisionModel(book.latest.vocabulary, book.latest, "t.q", rules=())
    assert (none.rules, none.facts, none.outcome({})) == ((), (), EMPTY)


def test_show_state():
    assert show_state({}) == "(any situation)"
    assert show_state({"a": True, "phase": "battle", "b": False}) == "a=true, phase=battle, b=false"
