import pytest

from rulebook_compiler import conditions as C
from rulebook_compiler.yamlsource import parse


def cond(text: str):
    doc, problems = parse(f"c: {text}\n".encode(), "c.yaml")
    assert problems == []
    out = []
    result = C.parse(doc, ("c",), doc.data["c"], out)
    return result, out


NAMES = C.Names({"poisoned": None, "diseased": None, "phase": ("preparation", "battle", "discard")},
                ["healable"])


@pytest.mark.parametrize("text, state, expected", [
    ("poisoned", {"poisoned": True}, True),
    ("{not: poisoned}", {"poisoned": True}, False),
    ("{all: [poisoned, diseased]}", {"poisoned": True, "diseased": False}, False),
    ("{any: [poisoned, diseased]}", {"poisoned": False, "diseased": True}, True),
    ("{is: {phase: battle}}", {"phase": "battle"}, True),
    ("{in: {phase: [preparation, discard]}}", {"phase": "battle"}, False),
    ("{all: []}", {}, True),
    ("{any: []}", {}, False),
    ("true", {}, True),
])
def test_evaluation(text, state, expected):
    c, problems = cond(text)
    assert problems == []
    assert C.compile_condition(c, {})(state) is expected


def test_predicates_are_inlined():
    c, _ = cond("{all: [healable, {not: diseased}]}")
    healable, _ = cond("{any: [poisoned, diseased]}")
    f = C.compile_condition(c, {"healable": healable})
    assert f({"poisoned": True, "diseased": False}) is True
    assert f({"poisoned": False, "diseased": True}) is False
    assert C.facts_used(c, {"healable": healable}) == {"poisoned", "diseased"}


def test_round_trip_through_json():
    for text in ["poisoned", "{not: {is: {phase: battle}}}", "{any: [poisoned, {in: {phase: [battle]}}]}"]:
        c, _ = cond(text)
        assert C.from_json(C.to_json(c)) == c


@pytest.mark.parametrize("text, message, hint", [
    ("poisned", "unknown fact or predicate 'poisned'", "did you mean 'poisoned'?"),
    ("phase", "fact 'phase' is an enum, not a bool", "test it with {is: {phase: VALUE}}; values: preparation, battle, discard"),
    ("{is: {phase: batle}}", "'batle' is not a value of fact 'phase'", "did you mean 'battle'?"),
    ("{is: {poisoned: yes}}", None, None),
])
def test_name_errors(text, message, hint):
    c, problems = cond(text)
    if message is None:  # 'yes' is a bool in YAML 1.1: a malformed 'is'
        assert c is None and "'is' takes one value" in problems[0].message
        return
    out = []
    C.check_names(c, NAMES, out)
    assert [(p.message, p.hint) for p in out] == [(message, hint)]


def test_malformed_forms():
    c, problems = cond("{nott: poisoned}")
    assert c is None
    assert (problems[0].message, problems[0].hint) == ("unknown condition form 'nott'", "did you mean 'not'?")
    c, problems = cond("{all: poisoned}")
    assert problems[0].message == "'all' takes a list of conditions"


def test_describe():
    c, _ = cond("{all: [healable, {not: {is: {phase: battle}}}]}")
    assert C.describe(c) == "healable and not (phase is battle)"


def test_a_condition_nested_deeper_than_the_limit_is_a_located_error():
    # 320 'not' deep once passed check and failed later, in every recursive walker
    depth = C.MAX_CONDITION_DEPTH + 1
    c, problems = cond("{not: " * depth + "poisoned" + "}" * depth)
    assert c is None
    assert [str(p) for p in problems] == [
        f"c.yaml:1:{4 + 6 * C.MAX_CONDITION_DEPTH}: error: condition nested more than "
        f"{C.MAX_CONDITION_DEPTH} deep\n"
        "  hint: name a part of it with 'defines' and use the name; the limit is "
        f"MAX_CONDITION_DEPTH = {C.MAX_CONDITION_DEPTH} in rulebook_compiler/conditions.py (docs/format.md, Limits)"]


def test_a_condition_at_the_depth_limit_is_accepted():
    depth = C.MAX_CONDITION_DEPTH - 1  # the innermost name is a level too
    c, problems = cond("{all: [" * depth + "poisoned" + "]}" * depth)
    assert problems == []
    assert C.depth(c, {}) == C.MAX_CONDITION_DEPTH
    assert C.compile_condition(c, {})({"poisoned": True}) is True


def test_depth_counts_the_predicates_a_condition_uses():
    c, _ = cond("{all: [healable, {not: diseased}]}")
    healable, _ = cond("{any: [poisoned, {not: diseased}]}")
    assert C.depth(healable, {}) == 3
    assert C.depth(c, {"healable": healable}) == 5  # all -> the use of healable -> any -> not -> diseased


def test_depth_of_a_long_chain_of_predicates_needs_no_recursion():
    chain = {f"p{i}": C.Ref(f"p{i + 1}") for i in range(100_000)}
    chain["p100000"] = C.Ref("poisoned")
    assert C.depth(C.Ref("p0"), chain) == 100_002


def test_a_list_form_nested_deeper_than_the_limit_is_a_located_error():
    # the items of 'all' and 'any' are a level deeper too, as the argument of 'not' is
    depth = C.MAX_CONDITION_DEPTH
    c, problems = cond("{any: [" * depth + "poisoned" + "]}" * depth)
    assert c is None
    assert [str(p) for p in problems] == [
        f"c.yaml:1:{4 + 7 * C.MAX_CONDITION_DEPTH}: error: condition nested more than "
        f"{C.MAX_CONDITION_DEPTH} deep\n"
        "  hint: name a part of it with 'defines' and use the name; the limit is "
        f"MAX_CONDITION_DEPTH = {C.MAX_CONDITION_DEPTH} in rulebook_compiler/conditions.py (docs/format.md, Limits)"]
