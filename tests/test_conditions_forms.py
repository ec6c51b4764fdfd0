"""Every form of the condition language, parsed, checked, compiled, written back and described.

Exact messages, locations and texts: each assertion here was written to tell apart the code
as it is from a small change to it (see docs/mutation.md).
"""

from __future__ import annotations

import pytest

from rulebook_compiler import conditions as C
from rulebook_compiler.diagnostics import Diagnostic, Location
from rulebook_compiler.yamlsource import parse


def cond(text: str):
    doc, problems = parse(f"c: {text}\n".encode(), "c.yaml")
    assert problems == []
    out: list[Diagnostic] = []
    return C.parse(doc, ("c",), doc.data["c"], out), out


def problems_of(text: str) -> list[str]:
    result, out = cond(text)
    assert result is None
    return [str(d) for d in out]


NAMES = C.Names({"poisoned": None, "diseased": None, "phase": ("preparation", "battle", "discard")},
                ["healable"])


def check(text: str, names: C.Names = NAMES) -> list[str]:
    c, out = cond(text)
    assert out == []
    found: list[Diagnostic] = []
    C.check_names(c, names, found)
    return [str(d) for d in found]


def test_parsed_trees_and_their_locations():
    c, _ = cond("{all: [poisoned, {not: diseased}, {is: {phase: battle}}, {in: {phase: [battle, discard]}}, true]}")
    assert c == C.All((C.Ref("poisoned"), C.Not(C.Ref("diseased")), C.In("phase", ("battle",), True),
                       C.In("phase", ("battle", "discard"), False), C.Const(True)))
    assert [str(n.loc) for n in C.walk(c)] == [
        "c.yaml:1:4", "c.yaml:1:11", "c.yaml:1:21", "c.yaml:1:27", "c.yaml:1:38", "c.yaml:1:61", "c.yaml:1:95"]
    any_, _ = cond("{any: [false]}")
    assert any_ == C.Any_((C.Const(False),))
    assert type(any_) is C.Any_


@pytest.mark.parametrize("text, expected", [
    ("Poisoned", ["c.yaml:1:4: error: 'Poisoned' is not a fact or predicate name\n"
                  "  hint: names use lowercase letters, digits and underscores"]),
    ("1poisoned", ["c.yaml:1:4: error: '1poisoned' is not a fact or predicate name\n"
                   "  hint: names use lowercase letters, digits and underscores"]),
    ("[poisoned]", ["c.yaml:1:4: error: a condition is a name, true/false, or a mapping with one key of: "
                    "not, all, any, is, in, before, at_most, after, at_least"]),
    ("{not: a, all: []}", ["c.yaml:1:4: error: a condition is a name, true/false, or a mapping with one key of: "
                           "not, all, any, is, in, before, at_most, after, at_least"]),
    ("{}", ["c.yaml:1:4: error: a condition is a name, true/false, or a mapping with one key of: "
            "not, all, any, is, in, before, at_most, after, at_least"]),
    ("{not: Bad}", ["c.yaml:1:10: error: 'Bad' is not a fact or predicate name\n"
                    "  hint: names use lowercase letters, digits and underscores"]),
    ("{any: poisoned}", ["c.yaml:1:10: error: 'any' takes a list of conditions"]),
    ("{all: [poisoned, Bad, {nott: x}]}", [
        "c.yaml:1:21: error: 'Bad' is not a fact or predicate name\n"
        "  hint: names use lowercase letters, digits and underscores",
        "c.yaml:1:27: error: unknown condition form 'nott'\n  hint: did you mean 'not'?"]),
    ("{when: x}", ["c.yaml:1:5: error: unknown condition form 'when'\n  hint: forms: not, all, any, is, in, before, at_most, after, at_least"]),
    ("{is: battle}", ["c.yaml:1:9: error: 'is' takes one fact and its value(s), like {is: {phase: battle}}"]),
    ("{is: {phase: battle, step: one}}",
     ["c.yaml:1:9: error: 'is' takes one fact and its value(s), like {is: {phase: battle}}"]),
    ("{in: [battle]}", ["c.yaml:1:9: error: 'in' takes one fact and its value(s), "
                        "like {in: {phase: [preparation, discard]}}"]),
    ("{is: {phase: [battle]}}", ["c.yaml:1:17: error: 'is' takes one value, like {is: {phase: battle}}"]),
    ("{in: {phase: battle}}", ["c.yaml:1:17: error: 'in' takes a non-empty list of values, "
                               "like {in: {phase: [preparation, discard]}}"]),
    ("{in: {phase: []}}", ["c.yaml:1:17: error: 'in' takes a non-empty list of values, "
                           "like {in: {phase: [preparation, discard]}}"]),
    ("{in: {phase: [battle, 3]}}", ["c.yaml:1:17: error: 'in' takes a non-empty list of values, "
                                    "like {in: {phase: [preparation, discard]}}"]),
])
def test_malformed_conditions_are_located_and_explained(text, expected):
    assert problems_of(text) == expected


def test_an_all_with_every_item_good_is_kept_and_one_bad_item_drops_it():
    c, out = cond("{not: {all: [poisoned, diseased]}}")
    assert (c, out) == (C.Not(C.All((C.Ref("poisoned"), C.Ref("diseased")))), [])
    c, out = cond("{not: {any: [poisoned, 7]}}")
    assert c is None and len(out) == 1


@pytest.mark.parametrize("text, expected", [
    ("healable", []),
    ("{all: [poisoned, {not: diseased}, {is: {phase: battle}}, {in: {phase: [battle, discard]}}]}", []),
    ("zzz", ["c.yaml:1:4: error: unknown fact or predicate 'zzz'"]),
    ("healabel", ["c.yaml:1:4: error: unknown fact or predicate 'healabel'\n  hint: did you mean 'healable'?"]),
    ("phase", ["c.yaml:1:4: error: fact 'phase' is an enum, not a bool\n"
               "  hint: test it with {is: {phase: VALUE}}; values: preparation, battle, discard"]),
    ("{is: {phse: battle}}", ["c.yaml:1:4: error: unknown fact 'phse'\n  hint: did you mean 'phase'?"]),
    ("{in: {zzz: [a]}}", ["c.yaml:1:4: error: unknown fact 'zzz'"]),
    ("{is: {poisoned: battle}}", ["c.yaml:1:4: error: fact 'poisoned' is a bool; 'is' needs an enum fact\n"
                                  "  hint: write 'poisoned' or {not: poisoned}"]),
    ("{in: {poisoned: [battle]}}", ["c.yaml:1:4: error: fact 'poisoned' is a bool; 'in' needs an enum fact\n"
                                    "  hint: write 'poisoned' or {not: poisoned}"]),
    ("{in: {phase: [batle, zzz, discard]}}", [
        "c.yaml:1:4: error: 'batle' is not a value of fact 'phase'\n  hint: did you mean 'battle'?",
        "c.yaml:1:4: error: 'zzz' is not a value of fact 'phase'\n  hint: values: preparation, battle, discard"]),
    ("{any: [zzz, {not: phase}, {is: {phase: x}}]}", [
        "c.yaml:1:11: error: unknown fact or predicate 'zzz'",
        "c.yaml:1:22: error: fact 'phase' is an enum, not a bool\n"
        "  hint: test it with {is: {phase: VALUE}}; values: preparation, battle, discard",
        "c.yaml:1:30: error: 'x' is not a value of fact 'phase'\n  hint: values: preparation, battle, discard"]),
    # every problem after a predicate, an unknown fact or a bool fact is still found
    ("{all: [healable, {in: {zzz: [a]}}, {is: {poisoned: battle}}, zzz]}", [
        "c.yaml:1:21: error: unknown fact 'zzz'",
        "c.yaml:1:39: error: fact 'poisoned' is a bool; 'is' needs an enum fact\n"
        "  hint: write 'poisoned' or {not: poisoned}",
        "c.yaml:1:65: error: unknown fact or predicate 'zzz'"]),
])
def test_names_are_checked_against_the_vocabulary(text, expected):
    assert check(text) == expected
    # predicates given as a frozenset (as the builder passes them) are read the same
    assert check(text, C.Names(NAMES.facts, frozenset(NAMES.predicates))) == expected


def test_a_predicate_may_share_a_name_with_nothing_else_and_wins_over_an_enum_fact():
    assert check("phase", C.Names(NAMES.facts, ["phase"])) == []


def test_walk_is_outermost_first_in_written_order():
    c, _ = cond("{all: [a, {not: b}, {any: [c, d]}, e]}")
    assert [C.describe(n) for n in C.walk(c)] == [
        "a and not b and (c or d) and e", "a", "not b", "b", "c or d", "c", "d", "e"]


def test_refs_and_facts_used_follow_predicates_once():
    c, _ = cond("{all: [p, {is: {phase: battle}}, {not: q}]}")
    p, _ = cond("{any: [q, a]}")
    q, _ = cond("{all: [b, {in: {step: [one]}}, p]}")  # p and q use each other: followed once each
    assert C.refs(c) == {"p", "q"}
    assert C.facts_used(c, {"p": p, "q": q}) == {"phase", "a", "b", "step"}
    assert C.facts_used(c, {}) == {"p", "q", "phase"}


@pytest.mark.parametrize("text, true_in, false_in", [
    ("poisoned", [{"poisoned": True}], [{"poisoned": False}, {"poisoned": "true"}, {"poisoned": 1}]),
    ("{not: poisoned}", [{"poisoned": False}], [{"poisoned": True}]),
    ("{all: [poisoned, diseased]}", [{"poisoned": True, "diseased": True}],
     [{"poisoned": True, "diseased": False}, {"poisoned": False, "diseased": True}]),
    ("{any: [poisoned, diseased]}", [{"poisoned": False, "diseased": True}, {"poisoned": True, "diseased": False}],
     [{"poisoned": False, "diseased": False}]),
    ("{is: {phase: battle}}", [{"phase": "battle"}], [{"phase": "discard"}]),
    ("{in: {phase: [preparation, discard]}}", [{"phase": "preparation"}, {"phase": "discard"}],
     [{"phase": "battle"}]),
    ("false", [], [{}]),
])
def test_compiled_conditions(text, true_in, false_in):
    f = C.compile_condition(cond(text)[0], {})
    assert [f(s) for s in true_in] == [True] * len(true_in)
    assert [f(s) for s in false_in] == [False] * len(false_in)


def test_a_compiled_predicate_is_built_once_and_shared_through_the_cache():
    healable, _ = cond("{any: [poisoned, diseased]}")
    c, _ = cond("{all: [healable, {not: healable}]}")
    cache: dict = {}
    f = C.compile_condition(c, {"healable": healable}, cache)
    assert list(cache) == ["healable"]
    assert f({"poisoned": True, "diseased": False}) is False
    g = C.compile_condition(cond("healable")[0], {"healable": healable}, cache)
    assert g is cache["healable"]
    assert g({"poisoned": False, "diseased": True}) is True


@pytest.mark.parametrize("text, json", [
    ("true", True),
    ("false", False),
    ("poisoned", "poisoned"),
    ("{not: poisoned}", {"not": "poisoned"}),
    ("{all: [poisoned, false]}", {"all": ["poisoned", False]}),
    ("{any: [poisoned, {not: diseased}]}", {"any": ["poisoned", {"not": "diseased"}]}),
    ("{any: []}", {"any": []}),
    ("{is: {phase: battle}}", {"is": {"phase": "battle"}}),
    ("{in: {phase: [battle]}}", {"in": {"phase": ["battle"]}}),
    ("{in: {phase: [battle, discard]}}", {"in": {"phase": ["battle", "discard"]}}),
])
def test_json_exchange_form_is_the_yaml_form_and_round_trips(text, json):
    c, _ = cond(text)
    assert C.to_json(c) == json
    back = C.from_json(json)
    assert back == c
    assert type(back) is type(c)


@pytest.mark.parametrize("text, described", [
    ("true", "always"),
    ("false", "never"),
    ("{all: []}", "always"),
    ("{any: []}", "never"),
    ("poisoned", "poisoned"),
    ("{not: poisoned}", "not poisoned"),
    ("{not: {is: {phase: battle}}}", "not (phase is battle)"),
    ("{not: {all: [a, b]}}", "not (a and b)"),
    ("{not: {all: [a]}}", "not a"),
    ("{any: [a, {all: [b, c]}, {not: d}]}", "a or (b and c) or not d"),
    ("{all: [{any: [a]}, true, {in: {phase: [battle, discard]}}]}", "a and always and (phase in {battle, discard})"),
    ("{in: {phase: [battle]}}", "phase in {battle}"),
])
def test_describe(text, described):
    assert C.describe(cond(text)[0]) == described
