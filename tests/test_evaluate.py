"""The reference evaluator's default logic, on the minimal rulebook and inline ones."""

from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.evaluate import DecisionModel, Evaluator
from rulebook_compiler.logic import logic_problems


def test_base_rule_and_exception(minimal):
    v1, v2 = minimal.edition("v1"), minimal.edition("v2")
    e1, e2 = Evaluator(minimal, v1), Evaluator(minimal, v2)
    # v1: "Targets must be curable"; curable = poisoned
    assert e1.decide("cure.may_target", {"poisoned": True}) is True
    assert e1.decide("cure.may_target", {"poisoned": False}) is False
    # v2: curable = poisoned or paralyzed; not in battle overrides the base rule
    state = {"poisoned": False, "paralyzed": True, "phase": "discard"}
    assert e2.decide("cure.may_target", state) is True
    result = e2.model("cure.may_target").evaluate({**state, "phase": "battle"})
    assert result.answer is False
    assert result.clauses == ("cure#not-in-battle",)


def test_facts_and_space(minimal):
    model = DecisionModel(minimal.edition("v2").vocabulary, minimal.edition("v2"), "cure.may_target")
    assert model.facts == ("paralyzed", "phase", "poisoned")
    assert model.space.size == 12
    assert len(list(model.states())) == 12


def test_missing_fact_is_a_clear_error(minimal):
    with pytest.raises(ValueError, match="needs facts: poisoned"):
        Evaluator(minimal, minimal.edition("v1")).decide("cure.may_target", {})


def messages(root: Path) -> list[str]:
    return [f"{p.location.line}: {p.message}" for p in logic_problems(load_rulebook(root))]


def test_conflict_is_reported_with_its_situation(tmp_path, write_rulebook):
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, requires: a}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, forbids: b}]}\n"))
    assert messages(root) == [
        "9: decision 't.q' is in conflict when a=true, b=true: t#x says true; t#y says false, "
        "and no rule is an exception to the other"]


def test_exception_chain_is_transitive(tmp_path, write_rulebook):
    # z overrides y which overrides x: where z answers, x does not stand either
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: true}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, forbids: a, exception_to: ['t#x']}]}\n"
        "      - {id: z, text: Z., rules: [{decision: t.q, permits: b, exception_to: ['t#y']}]}\n"))
    assert messages(root) == []
    model = Evaluator(load_rulebook(root), load_rulebook(root).latest).model("t.q")
    assert model.evaluate({"a": True, "b": True}).clauses == ("t#z",)
    assert model.evaluate({"a": True, "b": False}).answer is False
    assert model.evaluate({"a": False, "b": False}).answer is True


def test_empty_decision_and_given(tmp_path, write_rulebook):
    root = write_rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, permits: a}]}\n")
    assert messages(root) == ["4: decision 't.q' has no answer when a=false"]
    other = tmp_path / "given"
    root = write_rulebook(other, "      - {id: x, text: X., rules: [{decision: t.q, permits: a}]}\n",
                          given=", given: a")
    assert messages(root) == []


def test_dead_rule_under_constraints(tmp_path, write_rulebook):
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: true}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, when: {all: [a, b]}, value: false,"
        " exception_to: ['t#x']}]}\n"),
        constraints="[{id: not-both, text: Never both., never: {all: [a, b]}}]")
    assert messages(root) == [
        "10: rule of t#y for 't.q' can never apply in an allowed situation (dead rule)"]


def test_constraint_through_a_fact_outside_the_decision(tmp_path, write_rulebook):
    # c is not a fact of the decision, yet the constraints tie a and b through it:
    # a needs c false and b needs c true, so a and b never hold together.
    root = write_rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, requires: {all: [a, b]}}]}\n",
                          constraints="[{id: k1, text: K1., never: {all: [a, c]}},"
                                      " {id: k2, text: K2., never: {all: [b, {not: c}]}}]")
    book = load_rulebook(root)
    model = DecisionModel(book.latest.vocabulary, book.latest, "t.q")
    assert {(s["a"], s["b"]) for s in model.states()} == {(False, False), (False, True), (True, False)}


def test_exception_chain_is_transitive_where_the_middle_rule_is_silent(tmp_path, write_rulebook):
    # z is an exception to y, y to x. Where y does not answer (a false) and z does (b true),
    # z still overrides x through y: only z stands. Read one level deep, x and z would
    # both stand and disagree.
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: false}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, value: true, when: a, exception_to: ['t#x']}]}\n"
        "      - {id: z, text: Z., rules: [{decision: t.q, value: true, when: b, exception_to: ['t#y']}]}\n"))
    assert messages(root) == []
    book = load_rulebook(root)
    model = Evaluator(book, book.latest).model("t.q")
    result = model.evaluate({"a": False, "b": True})
    assert (result.clauses, result.answer) == (("t#z",), True)
    assert model.evaluate({"a": False, "b": False}).clauses == ("t#x",)
    assert model.evaluate({"a": True, "b": False}).clauses == ("t#y",)


def test_the_override_table_follows_every_path(tmp_path, write_rulebook):
    # w over y and z, y and z both over x: w overrides all three, x none
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: false}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, value: true, when: a, exception_to: ['t#x']}]}\n"
        "      - {id: z, text: Z., rules: [{decision: t.q, value: true, when: b, exception_to: ['t#x']}]}\n"
        "      - {id: w, text: W., rules: [{decision: t.q, value: false, when: c,"
        " exception_to: ['t#y', 't#z']}]}\n"))
    book = load_rulebook(root)
    model = Evaluator(book, book.latest).model("t.q")
    clause = {r.clause: i for i, r in enumerate(model.rules)}
    table = {model.rules[i].clause: sorted(model.rules[j].clause for j in model.overrides[i])
             for i in range(len(model.rules))}
    assert table == {"t#x": [], "t#y": ["t#x"], "t#z": ["t#x"], "t#w": ["t#x", "t#y", "t#z"]}
    assert model.override_bits[clause["t#w"]] == sum(1 << clause[c] for c in ("t#x", "t#y", "t#z"))


def test_exception_chain_written_before_its_targets_is_transitive(tmp_path, write_rulebook):
    # The chain of the test above written the other way round (z, then y, then x): z's
    # overrides are made before y's, so they must wait for y's (post-order), or z would
    # override y alone and stand beside x where y does not answer.
    root = write_rulebook(tmp_path, (
        "      - {id: z, text: Z., rules: [{decision: t.q, value: true, when: b, exception_to: ['t#y']}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, value: true, when: a, exception_to: ['t#x']}]}\n"
        "      - {id: x, text: X., rules: [{decision: t.q, value: false}]}\n"))
    assert messages(root) == []
    book = load_rulebook(root)
    model = Evaluator(book, book.latest).model("t.q")
    table = {model.rules[i].clause: sorted(model.rules[j].clause for j in model.overrides[i])
             for i in range(len(model.rules))}
    assert table == {"t#z": ["t#x", "t#y"], "t#y": ["t#x"], "t#x": []}
    result = model.evaluate({"a": False, "b": True})
    assert (result.clauses, result.answer) == (("t#z",), True)
