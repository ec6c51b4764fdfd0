"""rulebook_compiler/modeljson.py: the model as JSON data and back, every field validated, no recursion."""

from __future__ import annotations

import copy
import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook_compiler import model
from rulebook_compiler.conditions import All, Any_, Const, In, Not, Ref, walk
from rulebook_compiler.diagnostics import Location
from rulebook_compiler.modeljson import ModelDataError, from_data, to_data

T = "term.yaml"
PATHS = {T: "T"}
BACK = {"T": T}


def slot(cls: type, name: str) -> int:
    """Where a field's value is in its record's array (the dataclass's declared order)."""
    return [f.name for f in dataclasses.fields(cls)].index(name)


def loc(line: int = 1, col: int = 1) -> Location:
    return Location(T, line, col)


def a_term(when=None, test=None) -> model.Term:
    """A term that holds one of every kind of value: optional ones set and unset, a table, steps."""
    rule = model.Rule("t.q", "t#c", "requires", when, None, test or Ref("a", loc(9, 3)), ("t#b",), "r1", None,
                      loc(9, 1), exception_locs=(loc(9, 20),))
    table = model.Table("t.e", "k", (model.TableRow(("x", "y"), "on", ((True,),), loc(10, 5),
                                                    ((loc(10, 12), loc(10, 15)), (loc(10, 24),))),
                                     model.TableRow(("z",), True, ((False, True),))),
                        ("b",), "off", True, loc(10, 1), (loc(10, 2), loc(10, 4)), loc(11, 3))
    clause = model.Clause("c", "t", "s", "Text.", "Notes.", (model.Link("heal", "heal", None, loc(8, 4)),
                                                            model.Link("x", "x", "y", None)),
                          model.Predicate("p", None, In("phase", ("battle",), True, loc(7, 2)), "t#c", loc(7, 1)),
                          (rule,), model.Steps("proc", ("t#a", "t#b")), table, loc(6, 1))
    decision = model.Decision("t.q", "enum", ("on", "off"), "Q.", All((), None), "t", loc(3, 1))
    return model.Term("t", "T", ("alias",), None, (decision,), (model.Section("s", "definition", None, (clause,)),),
                      "e1", "0" * 64, loc(), updated=model.Dated("2026-03-13", "11.0.0", loc(2, 30), loc(2, 12)),
                      released=model.Dated(None, "3.0.0", loc(3, 30)))


def located(obj) -> list:
    """Every location in an object, in order: equality of the model ignores them, this does not."""
    found = []
    stack = [obj]
    while stack:
        node = stack.pop()
        if isinstance(node, Location):
            found.append(node)
        elif dataclasses.is_dataclass(node):
            stack.extend(getattr(node, f.name) for f in reversed(dataclasses.fields(node)))
        elif isinstance(node, tuple):
            stack.extend(reversed(node))
    return found


def round_trip(obj, paths=PATHS, back=BACK):
    return from_data(type(obj), json.loads(json.dumps(to_data(obj, paths))), back)


def test_a_term_with_every_kind_of_value_comes_back_equal_with_its_locations():
    term = a_term(when=Any_((Not(Ref("b"), loc(5, 5)), Const(False, None)), loc(5, 1)))
    back = round_trip(term)
    assert back == term
    assert located(back) == located(term)
    assert [type(n) for n in walk(back.sections[0].clauses[0].rules[0].when)] == [Any_, Not, Ref, Const]


def test_locations_name_the_file_as_seen_from_where_the_entry_is_read():
    back = round_trip(a_term(), back={"T": "elsewhere/term.yaml"})
    assert {location.path for location in located(back)} == {"elsewhere/term.yaml"}


def test_the_bundled_rulebook_comes_back_equal(bundled):
    paths = {}
    for edition in bundled.editions:
        paths[edition.loc.path] = "R"
        for term in edition.terms:
            paths[term.loc.path] = term.loc.path  # placeholders may be any string
        for item in edition.vocabulary.facts + edition.vocabulary.constraints:
            paths[item.loc.path] = item.loc.path  # vocabulary.yaml and each edition's _vocabulary.yaml
    for correction in bundled.corrections:
        paths[correction.loc.path] = "C"
    back = {v: k for k, v in paths.items()}
    result = round_trip(bundled, paths, back)
    assert result == bundled
    assert located(result) == located(bundled)


@pytest.mark.parametrize("depth", [1, 2_000, 100_000])
def test_a_condition_of_any_depth_is_written_and_read_without_recursion(depth):
    cond = Ref("a", loc(1, depth))
    for i in range(depth):
        cond = Not(cond, loc(2, i)) if i % 2 else All((cond, Const(True)), None)
    term = a_term(when=cond)
    data = to_data(term, PATHS)
    text = json.dumps(data)  # the JSON nests no deeper for a deeper condition
    back = from_data(model.Term, json.loads(text), BACK)
    assert sum(1 for _ in walk(back.sections[0].clauses[0].rules[0].when)) == sum(1 for _ in walk(cond))
    assert to_data(back, PATHS) == data


# -- what reading refuses -------------------------------------------------------------------------

TERM, CLAUSE, RULE = model.Term, model.Clause, model.Rule


def _clause(data):
    return data[slot(TERM, "sections")][0][slot(model.Section, "clauses")][0]


def _rule(data):
    return _clause(data)[slot(CLAUSE, "rules")][0]


def _set(where, cls, name, value):
    def change(data):
        where(data)[slot(cls, name)] = value
    return change


def _term(data):
    return data


BAD = {
    "a number for a string": (_set(_term, TERM, "name", 7), "str expected, not int"),
    "null for a string": (_set(_term, TERM, "name", None), "str expected, not NoneType"),
    "null for a location": (_set(_term, TERM, "loc", None), "a location is [file, line, col]"),
    "true for a line": (_set(_term, TERM, "loc", ["T", True, 1]), "int expected, not bool"),
    "a float for a column": (_set(_term, TERM, "loc", ["T", 1, 1.5]), "int expected, not float"),
    "a file the entry does not name": (_set(_term, TERM, "loc", ["X", 1, 1]), "unknown file placeholder 'X'"),
    "an object for a tuple": (_set(_term, TERM, "aliases", {}), "an array expected, not dict"),
    "a number in a tuple of strings": (_set(_term, TERM, "aliases", ["a", 1]), "str expected, not int"),
    "a field missing": (lambda d: d.pop(), "Term is an array of its 13 fields"),
    "a field too many": (lambda d: d.append("x"), "Term is an array of its 13 fields"),
    "an object for a record": (_set(_clause, CLAUSE, "steps", {"procedure": "p"}),
                               "Steps is an array of its 2 fields"),
    "a number for an answer": (lambda d: d[slot(TERM, "sections")][0][slot(model.Section, "clauses")][0]
                               [slot(CLAUSE, "table")][slot(model.Table, "rows")][0].__setitem__(1, 3),
                               "true, false or a string expected, not int"),
    "an empty condition": (_set(_rule, RULE, "test", []), "a condition is a non-empty array of nodes"),
    "a condition of two": (_set(_rule, RULE, "test", [["r", "a", None], ["r", "b", None]]),
                           "a condition's nodes make 2 conditions, not one"),
    "an argument missing": (_set(_rule, RULE, "test", [["a", 2, None], ["r", "b", None]]),
                            "a node takes 2 arguments; 1 are there"),
    "a negative count": (_set(_rule, RULE, "test", [["o", -1, None]]), "a node takes -1 arguments; 0 are there"),
    "not without argument": (_set(_rule, RULE, "test", [["n", None]]), "'not' without its argument"),
    "an unknown node": (_set(_rule, RULE, "test", [["eval", "1", None]]), "unknown condition node 'eval' of 3 items"),
    "a node of the wrong size": (_set(_rule, RULE, "test", [["r", "a"]]), "unknown condition node 'r' of 2 items"),
    "a node without form": (_set(_rule, RULE, "test", [[1, "a", None]]),
                            "a condition node is an array that starts with its form"),
    "a string for a bool constant": (_set(_rule, RULE, "test", [["c", "true", None]]), "bool expected, not str"),
    "a string for a condition": (_set(_rule, RULE, "when", "a"), "a condition is a non-empty array of nodes"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_data_that_is_not_the_model_is_refused(case):
    change, message = BAD[case]
    data = json.loads(json.dumps(to_data(a_term(), PATHS)))
    change(data)
    with pytest.raises(ModelDataError) as caught:
        from_data(model.Term, data, BACK)
    assert str(caught.value) == message


def test_reading_takes_only_the_class_asked_for():
    data = to_data(a_term(), PATHS)
    with pytest.raises(ModelDataError) as caught:
        from_data(model.Rulebook, data, BACK)
    assert str(caught.value) == "Rulebook is an array of its 7 fields"
    with pytest.raises(ModelDataError) as caught:
        from_data(dict, data, BACK)
    assert str(caught.value) == "dict is not a model class"


@pytest.mark.parametrize("case", ["vocabulary None", "a list for a tuple", "a file without placeholder"])
def test_writing_refuses_what_reading_would(case):
    book = model.Rulebook("", "T", "P", None, ())
    edition = model.Edition("e", "E", None, "draft", (), None, (), (), (), Location(T, 1, 1))
    obj, message = {
        "vocabulary None": (dataclasses.replace(edition, vocabulary=None), "Vocabulary expected, not NoneType"),
        "a list for a tuple": (dataclasses.replace(book, editions=[]), "a tuple expected, not list"),
        "a file without placeholder": (dataclasses.replace(a_term(), loc=Location("other.yaml", 1, 1)),
                                       "a location in 'other.yaml', a file this entry does not name"),
    }[case]
    with pytest.raises(ModelDataError) as caught:
        to_data(obj, PATHS)
    assert str(caught.value) == message


# -- any change of a valid entry: the model, or ModelDataError, never another exception ----------


def _places(data, path=()):
    """Every place in the JSON data: (path, value)."""
    stack = [(path, data)]
    while stack:
        here, value = stack.pop()
        yield here
        if isinstance(value, list):
            stack.extend((here + (i,), v) for i, v in enumerate(value))


VALID = json.loads(json.dumps(to_data(a_term(when=Not(In("phase", ("a", "b")), loc(4, 4))), PATHS)))
PLACES = sorted(p for p in _places(VALID) if p)
REPLACEMENTS = st.sampled_from([None, 0, -1, True, 1.5, "", "T", "x", [], [None], ["n", None], ["a", 9, None],
                                {}, {"r": 1}])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PLACES), REPLACEMENTS), min_size=1, max_size=3))
def test_a_changed_entry_reads_as_the_model_or_is_refused(changes):
    data = copy.deepcopy(VALID)
    for path, value in changes:
        target = data
        try:
            for i in path[:-1]:
                target = target[i]
            target[path[-1]] = value
        except (TypeError, IndexError, KeyError):
            continue  # an earlier change removed that place
    try:
        term = from_data(model.Term, data, BACK)
    except ModelDataError:
        return
    assert type(term) is model.Term
    assert to_data(term, PATHS) == data  # what was read is exactly what the data says
