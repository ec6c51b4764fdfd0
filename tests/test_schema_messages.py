"""The checker's own schema validator: each kind of problem with its exact message, place and hint."""

from __future__ import annotations

import pytest

from rulebook_compiler.schema import published_schema, validate
from rulebook_compiler.yamlsource import parse


def problems(text: str, kind: str = "term") -> list[str]:
    doc, errors = parse(text.encode(), "f.yaml")
    assert errors == []
    return [str(d) for d in validate(doc, kind)]


CLAUSE = "id: t\nname: T\nsections:\n  - key: s\n    kind: definition\n    clauses:\n      - "


@pytest.mark.parametrize("text, kind, expected", [
    ("title: T\npublisher: P\neditions: []\n", "rulebook",
     ["f.yaml:3:11: error: 'editions' must have at least 1 item(s)"]),
    ("title: T\npublisher: P\neditions:\n  - {id: '1', title: E, date: null, status: drafty}\n", "rulebook",
     ["f.yaml:4:45: error: 'status' of edition '1' must be one of: published, draft; got 'drafty'\n"
      "  hint: did you mean 'draft'?"]),
    ("title: T\npublisher: P\neditions:\n  - {id: '1', title: E, date: null, status: 3}\n", "rulebook",
     ["f.yaml:4:45: error: 'status' of edition '1' must be one of: published, draft; got 3"]),
    ("title: T\npublisher: P\neditions:\n  - {id: '1', title: E, date: 2024/01, status: draft}\n", "rulebook",
     ["f.yaml:4:31: error: 'date' of edition '1' cannot be '2024/01'\n"
      "  hint: write dates as YYYY-MM-DD, YYYY-MM or YYYY, quoted"]),
    ("title: T\npublisher: P\neditions:\n  - {id: 2024, title: E, date: null, status: draft}\n", "rulebook",
     ["f.yaml:4:10: error: 'id' of edition 1 must be a string, not a whole number\n"
      "  hint: put it in quotes, \"2024\", so that it is read as text"]),
    ("title: T\npublisher: P\neditions:\n  - {id: 'a b', title: E, date: null, status: draft}\n", "rulebook",
     ["f.yaml:4:10: error: 'id' of edition 1 cannot be 'a b'\n"
      "  hint: use letters, digits, dots and hyphens, like '4.0.0-draft'"]),
    ("title: ''\npublisher: P\neditions:\n  - {id: '1', title: E, date: null, status: draft}\n", "rulebook",
     ["f.yaml:1:8: error: 'title' must not be empty"]),
    ("title: T\neditions:\n  - {id: '1', title: E, date: null, status: draft, extra: 1}\n", "rulebook",
     ["f.yaml:1:1: error: the file lacks required key 'publisher'",
      "f.yaml:3:52: error: unknown key 'extra' in edition '1'\n"
      "  hint: valid keys: id, title, date, status, sources, notes, editor_notes, version, not_held_before, chapters"]),
    ("title: T\npublisher: P\neditions: [x]\nnote: n\n", "rulebook",
     ["f.yaml:3:12: error: edition 1 must be a mapping, not a string",
      "f.yaml:4:1: error: unknown key 'note' at the top level\n  hint: did you mean 'notes'?"]),
    ("- a\n", "rulebook", ["f.yaml:1:1: error: the file must be a mapping, not a list"]),
    ("facts:\n  - {name: phase, type: enum, values: [one], meaning: P.}\n", "vocabulary",
     ["f.yaml:2:39: error: 'values' of fact 'phase' must have at least 2 item(s)"]),
    ("facts:\n  - {name: Phase, type: bool, meaning: P.}\n", "vocabulary",
     ["f.yaml:2:12: error: 'name' of fact 1 cannot be 'Phase'\n"
      "  hint: use lowercase letters, digits and underscores, starting with a letter, like 'being_discarded'"]),
    ("facts: []\nconstraints:\n  - {id: k, text: K., never: {bogus: 1}}\n", "vocabulary", []),
    ("facts: []\nconstraints:\n  - {id: k, text: K.}\n  - {id: K K, text: K., never: a}\n", "vocabulary",
     ["f.yaml:3:5: error: constraint 'k' lacks required key 'never'",
      "f.yaml:4:10: error: 'id' of constraint 2 cannot be 'K K'\n"
      "  hint: use lowercase letters, digits and single hyphens, like 'battle-resolution'"]),
    ("id: t\nname: yes\n", "term",
     ["f.yaml:2:7: error: 'name' must be a string, not true or false\n"
      "  hint: put it in quotes; unquoted yes, no, true, false, on and off are read as true or false"]),
    ("id: t\naliases: Mend\n", "term",
     ["f.yaml:2:10: error: 'aliases' must be a list, not a string\n  hint: write a list, like [Mend]"]),
    ("id: t\naliases: 3\n", "term",
     ["f.yaml:2:10: error: 'aliases' must be a list, not a whole number\n  hint: write a list, like [3]"]),
    ("id: t\naliases: 1.5\n", "term",
     ["f.yaml:2:10: error: 'aliases' must be a list, not float\n  hint: write a list, like [1.5]"]),
    ("id: t\naliases: true\n", "term", ["f.yaml:2:10: error: 'aliases' must be a list, not true or false"]),
    ("id: t\naliases: [ok, '']\nnotes: [n]\n", "term",
     ["f.yaml:2:15: error: alias 2 must not be empty",
      "f.yaml:3:8: error: 'notes' must be a string or null, not a list"]),
    ("id: t\nwithdrawn: 'no'\n", "term",
     ["f.yaml:2:12: error: 'withdrawn' must be true or false, not a string"]),
    ("id: t\ndecisions:\n  - {name: t.q, type: bool}\n  - {name: t.r, type: int, meaning: R.}\n", "term",
     ["f.yaml:3:5: error: decision 't.q' lacks required key 'meaning'",
      "f.yaml:4:23: error: 'type' of decision 't.r' must be one of: bool, enum; got 'int'"]),
    ("id: t\ndecisions:\n  - {name: T.Q, type: bool, meaning: Q., given: {bogus: 1}}\n", "term",
     ["f.yaml:3:12: error: 'name' of decision 1 cannot be 'T.Q'\n  hint: use dotted identifiers, like 'heal.may_target'"]),
    (CLAUSE + "{id: c, text: C., rules: [{decision: t.q, exception_to: [t-c]}]}\n", "term",
     ["f.yaml:7:66: error: exception 1 of rule 1 of clause 'c' cannot be 't-c'\n"
      "  hint: cite a clause as TERM#CLAUSE, like 'heal#healable'"]),
    (CLAUSE + "{id: c, text: C., rules: [{decison: t.q}]}\n", "term",
     # one error, not two: the missing key follows from the misspelt one (issue 25.1)
     ["f.yaml:7:36: error: unknown key 'decison' in rule 1 of clause 'c'\n  hint: did you mean 'decision'? "
      "(rule 1 of clause 'c' lacks required key 'decision')"]),
    (CLAUSE + "{id: c, text: C., table: {decision: t.q, key: k, rows: [{keys: [], value: 1}]}}\n", "term",
     ["f.yaml:7:72: error: 'keys' of row 1 of 'table' of clause 'c' must have at least 1 item(s)",
      "f.yaml:7:83: error: 'value' of row 1 of 'table' of clause 'c' must be a string or true or false, "
      "not a whole number\n  hint: put it in quotes, \"1\", so that it is read as text"]),
    (CLAUSE + "{id: c, text: C., steps: {procedure: t.o, order: [a, B]}}\n", "term",
     ["f.yaml:7:62: error: step 2 of 'steps' of clause 'c' cannot be 'B'\n"
      "  hint: use lowercase letters, digits and single hyphens, like 'battle-resolution'"]),
    (CLAUSE + "{id: c, text: C., links: [{phrase: p}]}\n", "term",
     ["f.yaml:7:35: error: link 1 of clause 'c' lacks required key 'term'"]),
    (CLAUSE + "{text: C.}\n", "term", ["f.yaml:7:9: error: clause 1 lacks required key 'id'"]),
    (CLAUSE + "{id: 7, text: C.}\n", "term",
     ["f.yaml:7:14: error: 'id' of clause 1 must be a string, not a whole number\n"
      "  hint: put it in quotes, \"7\", so that it is read as text"]),
    ("id: t\nsections:\n  - {key: s, kind: definition, clauses: [], title: [x]}\n", "term",
     ["f.yaml:3:52: error: 'title' of section 's' must be a string or null, not a list"]),
    ("id: t\nsections:\n  - {key: s, kind: definiton, clauses: []}\n", "term",
     ["f.yaml:3:20: error: 'kind' of section 's' must be one of: definition, how-to-play, default-conditions, "
      "special-conditions, clarifications, named; got 'definiton'\n  hint: did you mean 'definition'?"]),
])
def test_each_kind_of_problem_is_named_where_it_is(text, kind, expected):
    assert problems(text, kind) == expected


def test_a_clause_in_a_section_is_named_without_its_section():
    text = CLAUSE + "{id: c, text: C., defines: {name: p, as: x, extra: 1}}\n"
    assert problems(text) == ["f.yaml:7:53: error: unknown key 'extra' in 'defines' of clause 'c'\n"
                              "  hint: valid keys: name, meaning, as"]


def test_an_item_past_the_end_or_an_item_of_an_unnamed_list_is_numbered():
    text = CLAUSE + "{id: c, text: C., steps: {procedure: t.o, order: [a]}, links: [[x]]}\n"
    assert problems(text) == ["f.yaml:7:72: error: link 1 of clause 'c' must be a mapping, not a list"]
    doc, _ = parse(b"id: t\nsections: [{key: s, kind: named, clauses: [], title: null}]\n", "f.yaml")
    assert validate(doc, "term") == []


def test_the_published_schema_names_each_file_kind():
    schema = published_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == "https://rulebook-compiler.invalid/schema/rulebook.json"
    assert schema["title"] == "rulebook-compiler source files"
    assert schema["anyOf"] == [{"$ref": "#/$defs/rulebook"}, {"$ref": "#/$defs/vocabulary"}, {"$ref": "#/$defs/term"},
                               {"$ref": "#/$defs/vocabulary-overlay"}, {"$ref": "#/$defs/term-patch"},
                               {"$ref": "#/$defs/corrections"}, {"$ref": "#/$defs/rulings"}]
    assert sorted(schema["$defs"]) == ["clause", "condition", "corrections", "patch-operation", "rule", "rulebook",
                                       "rulings", "term", "term-patch", "vocabulary", "vocabulary-overlay"]
