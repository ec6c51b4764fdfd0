"""``size``: the steps a condition costs the logic checks, predicates inlined (a use counts one more)."""

from rulebook_compiler import conditions as C


def test_every_node_counts_one():
    assert C.size(C.All((C.Ref("a"), C.Not(C.Ref("b")))), {}) == 4


def test_a_predicate_use_counts_one_plus_its_definition_at_each_use():
    memo: dict[str, int] = {}
    p = C.All((C.Ref("a"), C.Ref("b")))
    assert C.size(C.Any_((C.Ref("p"), C.Not(C.Ref("p")))), {"p": p, "q": C.Ref("a")}, memo) == 1 + 4 + 1 + 4
    assert memo == {"p": 3}


def test_a_predicate_using_another_counts_the_whole_chain_and_remembers_each_link():
    # the memo is shared by the callers (every rule of a decision), so each link is kept
    memo: dict[str, int] = {}
    assert C.size(C.Ref("p"), {"p": C.Not(C.Ref("q")), "q": C.All((C.Ref("a"), C.Ref("b")))}, memo) == 1 + 2 + 3
    assert memo == {"p": 5, "q": 3}
