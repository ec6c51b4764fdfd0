"""Comparisons on ordered enum facts: before, at_most, after, at_least (issue 9, item 5).

Parsed, checked (with located errors and hints), compiled against the facts' orders,
written back, described in words, and measured like every other leaf.
"""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from rulebook_compiler import conditions as C
from rulebook_compiler.diagnostics import Diagnostic
from rulebook_compiler.yamlsource import parse

STEPS = ("draw", "upkeep", "preparation", "battle", "discard")
NAMES = C.Names({"poisoned": None, "phase": ("a", "b"), "step": STEPS, "turn_step": STEPS,
                 "stage": ("one", "two", "three")},
                ["healable"], ordered=frozenset({"step", "turn_step", "stage"}))
ORDERS = {"step": STEPS, "turn_step": STEPS, "stage": ("one", "two", "three")}


def cond(text: str):
    doc, problems = parse(f"c: {text}\n".encode(), "c.yaml")
    assert problems == []
    out: list[Diagnostic] = []
    return C.parse(doc, ("c",), doc.data["c"], out), out


def check(text: str) -> list[str]:
    c, out = cond(text)
    assert out == []
    found: list[Diagnostic] = []
    C.check_names(c, NAMES, found)
    return [str(d) for d in found]


def test_the_four_comparisons_parse_to_one_node_each():
    c, out = cond("{all: [{before: {step: battle}}, {at_most: {step: battle}}, {after: {step: draw}}, "
                  "{at_least: {step: {fact: turn_step}}}]}")
    assert out == []
    assert c == C.All((C.Cmp("step", "before", "battle"), C.Cmp("step", "at_most", "battle"),
                       C.Cmp("step", "after", "draw"), C.Cmp("step", "at_least", "turn_step", True)))
    assert [str(n.loc) for n in C.walk(c)][1:] == ["c.yaml:1:11", "c.yaml:1:37", "c.yaml:1:64", "c.yaml:1:87"]


@pytest.mark.parametrize("text, expected", [
    ("{before: battle}", ["c.yaml:1:13: error: 'before' takes one ordered fact and a value, "
                          "like {before: {step: battle}} or {before: {step: {fact: other_step}}}"]),
    ("{at_most: {step: battle, stage: one}}", [
        "c.yaml:1:14: error: 'at_most' takes one ordered fact and a value, "
        "like {at_most: {step: battle}} or {at_most: {step: {fact: other_step}}}"]),
    ("{after: {step: [battle]}}", [
        "c.yaml:1:19: error: 'after' takes one value or {fact: NAME}, like {after: {step: battle}}"]),
    ("{at_least: {step: {fact: 3}}}", [
        "c.yaml:1:22: error: 'at_least' takes one value or {fact: NAME}, like {at_least: {step: battle}}"]),
    ("{at_least: {step: {facts: turn_step}}}", [
        "c.yaml:1:22: error: 'at_least' takes one value or {fact: NAME}, like {at_least: {step: battle}}"]),
    ("{atmost: {step: battle}}", ["c.yaml:1:5: error: unknown condition form 'atmost'\n"
                                  "  hint: did you mean 'at_most'?"]),
])
def test_malformed_comparisons_are_located_and_explained(text, expected):
    c, out = cond(text)
    assert c is None
    assert [str(d) for d in out] == expected


def test_the_list_of_forms_names_the_comparisons():
    c, out = cond("[x]")
    assert [str(d) for d in out] == ["c.yaml:1:4: error: a condition is a name, true/false, or a mapping with "
                                     "one key of: not, all, any, is, in, before, at_most, after, at_least"]


@pytest.mark.parametrize("text, expected", [
    ("{before: {step: battle}}", []),
    ("{at_least: {step: {fact: turn_step}}}", []),
    ("{before: {phase: b}}", [
        "c.yaml:1:4: error: fact 'phase' is not ordered; 'before' needs an ordered fact\n"
        "  hint: declare it with 'ordered: true' in vocabulary.yaml (its values listed in order), "
        "or list the values: {in: {phase: [...]}}"]),
    ("{after: {poisoned: b}}", [
        "c.yaml:1:4: error: fact 'poisoned' is a bool; 'after' needs an ordered enum fact\n"
        "  hint: write 'poisoned' or {not: poisoned}"]),
    ("{at_most: {stpe: battle}}", ["c.yaml:1:4: error: unknown fact 'stpe'\n  hint: did you mean 'step'?"]),
    ("{at_most: {step: batle}}", [
        "c.yaml:1:4: error: 'batle' is not a value of fact 'step'\n  hint: did you mean 'battle'?"]),
    ("{at_most: {step: zzz}}", [
        "c.yaml:1:4: error: 'zzz' is not a value of fact 'step'\n"
        "  hint: values, in order: draw, upkeep, preparation, battle, discard"]),
    ("{before: {step: {fact: turn_stp}}}", [
        "c.yaml:1:4: error: unknown fact 'turn_stp'\n  hint: did you mean 'turn_step'?"]),
    ("{before: {step: {fact: stage}}}", [
        "c.yaml:1:4: error: 'before' compares 'step' with 'stage', whose values or order differ\n"
        "  hint: a fact is compared only with a fact of the same values in the same order"]),
    ("{before: {step: {fact: phase}}}", [
        "c.yaml:1:4: error: 'before' compares 'step' with 'phase', whose values or order differ\n"
        "  hint: a fact is compared only with a fact of the same values in the same order"]),
    ("{any: [{before: {phase: a}}, {after: {step: zzz}}]}", [
        "c.yaml:1:11: error: fact 'phase' is not ordered; 'before' needs an ordered fact\n"
        "  hint: declare it with 'ordered: true' in vocabulary.yaml (its values listed in order), "
        "or list the values: {in: {phase: [...]}}",
        "c.yaml:1:33: error: 'zzz' is not a value of fact 'step'\n"
        "  hint: values, in order: draw, upkeep, preparation, battle, discard"]),
])
def test_comparisons_are_checked_against_the_vocabulary(text, expected):
    assert check(text) == expected


@pytest.mark.parametrize("text, true_for", [
    ("{before: {step: preparation}}", ["draw", "upkeep"]),
    ("{at_most: {step: preparation}}", ["draw", "upkeep", "preparation"]),
    ("{after: {step: preparation}}", ["battle", "discard"]),
    ("{at_least: {step: preparation}}", ["preparation", "battle", "discard"]),
    ("{before: {step: draw}}", []),
    ("{at_least: {step: draw}}", list(STEPS)),
])
def test_compiled_against_the_order(text, true_for):
    f = C.compile_condition(cond(text)[0], {}, orders=ORDERS)
    assert [v for v in STEPS if f({"step": v})] == true_for


@pytest.mark.parametrize("op, holds", [
    ("before", lambda i, j: i < j), ("at_most", lambda i, j: i <= j),
    ("after", lambda i, j: i > j), ("at_least", lambda i, j: i >= j)])
def test_a_fact_compared_with_a_fact(op, holds):
    f = C.compile_condition(cond(f"{{{op}: {{step: {{fact: turn_step}}}}}}")[0], {}, orders=ORDERS)
    for i, a in enumerate(STEPS):
        for j, b in enumerate(STEPS):
            assert f({"step": a, "turn_step": b}) is holds(i, j), (a, b)


def test_compiling_a_comparison_without_its_order_is_a_programming_error():
    with pytest.raises(ValueError, match="^no order for fact 'step'; pass the vocabulary's orders$"):
        C.compile_condition(cond("{before: {step: battle}}")[0], {})


def test_predicates_with_comparisons_are_inlined_with_the_same_orders():
    early, _ = cond("{before: {step: battle}}")
    c, _ = cond("{all: [early, {not: poisoned}]}")
    f = C.compile_condition(c, {"early": early}, orders=ORDERS)
    assert [f({"step": v, "poisoned": False}) for v in STEPS] == [True, True, True, False, False]
    assert C.facts_used(c, {"early": early}) == {"step", "poisoned"}
    fact_bound, _ = cond("{after: {step: {fact: turn_step}}}")
    assert C.facts_used(fact_bound, {}) == {"step", "turn_step"}


@pytest.mark.parametrize("text, json, described", [
    ("{before: {step: battle}}", {"before": {"step": "battle"}}, "step is before battle"),
    ("{at_most: {step: battle}}", {"at_most": {"step": "battle"}}, "step is at or before battle"),
    ("{after: {step: battle}}", {"after": {"step": "battle"}}, "step is after battle"),
    ("{at_least: {step: battle}}", {"at_least": {"step": "battle"}}, "step is at or after battle"),
    ("{at_most: {step: {fact: turn_step}}}", {"at_most": {"step": {"fact": "turn_step"}}},
     "step is at or before turn_step"),
    ("{not: {before: {step: battle}}}", {"not": {"before": {"step": "battle"}}}, "not (step is before battle)"),
    ("{all: [poisoned, {after: {step: draw}}]}", {"all": ["poisoned", {"after": {"step": "draw"}}]},
     "poisoned and (step is after draw)"),
])
def test_json_form_round_trips_and_words_read_well(text, json, described):
    c, _ = cond(text)
    assert C.to_json(c) == json
    back = C.from_json(json)
    assert back == c and type(back) is type(c)
    assert C.describe(c) == described


def test_a_comparison_is_one_node_and_one_level():
    c, _ = cond("{all: [{before: {step: battle}}, {not: {at_least: {step: {fact: turn_step}}}}]}")
    assert C.size(c, {}) == 4
    assert C.depth(c, {}) == 3


@st.composite
def order_and_bound(draw):
    values = draw(st.lists(st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True), min_size=2, max_size=8,
                           unique=True))
    return tuple(values), draw(st.sampled_from(values)), draw(st.sampled_from(C.COMPARISONS))


@given(order_and_bound())
def test_a_comparison_is_the_in_list_of_the_values_it_admits(case):
    """{op: {f: v}} holds exactly where {in: {f: [the values the order puts on that side of v]}} holds."""
    order, bound, op = case
    i = order.index(bound)
    listed = {"before": order[:i], "at_most": order[:i + 1], "after": order[i + 1:], "at_least": order[i:]}[op]
    compared = C.compile_condition(C.Cmp("f", op, bound), {}, orders={"f": order})
    as_list = C.compile_condition(C.In("f", listed), {}) if listed else (lambda s: False)
    assert [compared({"f": v}) for v in order] == [as_list({"f": v}) for v in order]
    assert C.admitted(order, op, bound) == listed
