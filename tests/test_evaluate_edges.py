"""The reference evaluator at its edges (tests written for mutants that survived):
an exception beside a rule it does not override,
how answers and situations are shown, the override sets conformance reads."""

from __future__ import annotations

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.evaluate import CONFLICT, EMPTY, Evaluator, show_state


def test_an_exception_and_a_rule_it_does_not_override_agree(tmp_path, write_rulebook):
    # y overrides x; z answers beside them (and after them) when a: y and z agree, x is beaten
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: true}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, value: false, exception_to: ['t#x']}]}\n"
        "      - {id: z, text: Z., rules: [{decision: t.q, value: false, when: a}]}\n"))
    book = load_rulebook(root)
    model = Evaluator(book, book.edition("e1")).model("t.q")
    result = model.evaluate({"a": True})
    assert [(r.ref, a) for r, a in result.standing] == [("t#y", False), ("t#z", False)]
    assert model.decide({"a": True}) is False
    assert model.decide({"a": False}) is False


def test_overrides_are_the_rules_each_rule_beats_directly_or_through_others(tmp_path, write_rulebook):
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: true}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, value: false, when: a}]}\n"
        "      - {id: z, text: Z., rules: [{decision: t.q, value: true, when: b, exception_to: ['t#y']}]}\n"
        "      - {id: w, text: W., rules: [{decision: t.q, value: false, when: c, exception_to: ['t#z']}]}\n"))
    book = load_rulebook(root)
    model = Evaluator(book, book.edition("e1")).model("t.q")
    assert [r.ref for r in model.rules] == ["t#x", "t#y", "t#z", "t#w"]
    assert dict(model.overrides) == {0: frozenset(), 1: frozenset(), 2: frozenset({1}), 3: frozenset({1, 2})}


def test_situations_show_booleans_in_lower_case_and_other_values_as_they_are():
    assert show_state({"poisoned": True, "hidden": False, "phase": "Battle", "count": 3}) == (
        "poisoned=true, hidden=false, phase=Battle, count=3")
    assert show_state({}) == "(any situation)"


def test_the_two_non_answers_show_their_names():
    assert (repr(CONFLICT), repr(EMPTY)) == ("CONFLICT", "EMPTY")
    assert CONFLICT != EMPTY
