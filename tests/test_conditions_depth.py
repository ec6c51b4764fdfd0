"""Exact depths in the corners mutation testing found unchecked (docs/mutation.md).

``depth`` caps how deep a condition may nest once its predicates are inlined; an
empty ``all``/``any`` and a predicate met again inside its own definition (a
cycle, which the checker reports separately) must still get a definite depth.
"""

from rulebook_compiler import conditions as C


def test_an_empty_all_or_any_is_one_level():
    assert C.depth(C.All(()), {}) == 1
    assert C.depth(C.Any_(()), {}) == 1
    assert C.depth(C.Not(C.All(())), {}) == 2


def test_a_predicate_met_again_inside_its_own_definition_counts_one():
    # p's definition is a use of p: the inner use counts 1, p's body is then 1 deep,
    # and the outer use one level more
    assert C.depth(C.Ref("p"), {"p": C.Ref("p")}) == 2
    assert C.depth(C.Ref("p"), {"p": C.Not(C.Ref("q")), "q": C.Ref("p")}) == 4


def test_a_predicate_used_twice_is_measured_once_and_counts_at_each_use():
    memo: dict[str, int] = {}
    c = C.All((C.Ref("p"), C.Not(C.Ref("p"))))
    assert C.depth(c, {"p": C.Not(C.Ref("x"))}, memo) == 5  # all -> not -> the use of p -> not -> x
    assert memo == {"p": 2}
