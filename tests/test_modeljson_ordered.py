"""rulebook_compiler/modeljson.py: ordered facts and comparisons are stored and read back, and bad ones refused."""

from __future__ import annotations

import json

import pytest

from rulebook_compiler import model
from rulebook_compiler.conditions import All, Cmp, Ref, walk
from rulebook_compiler.diagnostics import Location
from rulebook_compiler.modeljson import ModelDataError, from_data, to_data
from tests.test_modeljson import BACK, PATHS, RULE, _rule, _set, a_term, loc, located, round_trip, slot


def test_comparisons_come_back_equal_with_their_locations():
    when = All((Cmp("step", "before", "battle", False, loc(4, 2)), Cmp("step", "at_least", "turn_step", True, None),
                Ref("a")), loc(4, 1))
    term = a_term(when=when)
    data = to_data(term, PATHS)
    assert _rule(data)[slot(RULE, "when")] == [["a", 3, ["T", 4, 1]], ["k", "step", "before", "battle", False, ["T", 4, 2]],
                       ["k", "step", "at_least", "turn_step", True, None], ["r", "a", None]]
    back = round_trip(term)
    assert back == term
    assert located(back) == located(term)
    assert [type(n) for n in walk(back.sections[0].clauses[0].rules[0].when)] == [All, Cmp, Cmp, Ref]


def test_an_ordered_fact_comes_back_ordered():
    where = Location("vocabulary.yaml", 3, 5)
    vocabulary = model.Vocabulary((model.Fact("step", "enum", ("a", "b"), "S.", where, True),
                                   model.Fact("phase", "enum", ("a", "b"), "P.", where)), ())
    data = to_data(vocabulary, {"vocabulary.yaml": "V"})
    assert data[0] == [["step", "enum", ["a", "b"], "S.", ["V", 3, 5], True],
                       ["phase", "enum", ["a", "b"], "P.", ["V", 3, 5], False]]
    back = from_data(model.Vocabulary, json.loads(json.dumps(data)), {"V": "vocabulary.yaml"})
    assert back == vocabulary
    assert back.orders == {"step": ("a", "b")}


@pytest.mark.parametrize("node, message", [
    (["k", "step", "below", "battle", False, None], "a comparison is one of before, at_most, after, at_least, not 'below'"),
    (["k", "step", "before", "battle", "no", None], "bool expected, not str"),
    (["k", "step", "before", 3, False, None], "str expected, not int"),
    (["k", "step", "before", "battle", None], "unknown condition node 'k' of 5 items"),
])
def test_a_bad_comparison_node_is_refused(node, message):
    data = json.loads(json.dumps(to_data(a_term(), PATHS)))
    _set(_rule, RULE, "test", [node])(data)
    with pytest.raises(ModelDataError) as caught:
        from_data(model.Term, data, BACK)
    assert str(caught.value) == message


def test_writing_refuses_an_unknown_comparison():
    with pytest.raises(ModelDataError) as caught:
        to_data(a_term(when=Cmp("step", "below", "battle")), PATHS)
    assert str(caught.value) == "a comparison is one of before, at_most, after, at_least, not 'below'"
