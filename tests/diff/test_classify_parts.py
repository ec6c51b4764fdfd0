"""The parts of change classification, one by one, with exact values.

A small rulebook written here has one clause of each kind (a definition, a rule with an
exception, a table, a procedure's steps) so that each part's output can be spelt out.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.build import load_rulebook
from compiler.diff.classify import (EDITORIAL, REWORDED, SAME, Phrases, condition_phrases, drift, extras_json,
                                    meaning_json, named_conditions, names_of, normal_words, steps_changed,
                                    text_kind)

TERM = """\
id: t
name: T
decisions:
  - {name: t.may, type: bool, meaning: May.}
  - {name: t.where, type: enum, values: [hand, deck], meaning: Where.}
sections:
  - key: s
    kind: definition
    clauses:
      - id: defn
        text: A card is hidden if face down.
        defines: {name: hidden_card, meaning: Face down., as: {all: [face_down, {not: {is: {zone: hand}}}]}}
        links: [{phrase: face down, term: t, clause: base}]
      - id: base
        text: A card may be played.
        notes: Editors' note.
        rules:
          - {decision: t.may, id: r1, value: true, notes: From the 2012 text.}
      - id: exc
        text: Not a hidden one.
        rules:
          - {decision: t.may, forbids: hidden_card, when: face_down, exception_to: ['t#base'], notes: N.}
      - id: tab
        text: Where each ability looks.
        table:
          decision: t.where
          key: ability
          rows:
            - {keys: [draw, discard_pile], value: deck}
            - {keys: [band], value: hand}
      - id: proc
        text: In this order.
        steps: {procedure: t.order, order: [base, tab]}
"""

VOCABULARY = """\
facts:
  - {name: face_down, type: bool, meaning: F.}
  - {name: zone, type: enum, values: [hand, battle_zone], meaning: Z.}
  - {name: ability, type: enum, values: [draw, discard_pile, band], meaning: A.}
constraints: []
"""


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    root = tmp_path_factory.mktemp("classify")
    (root / "editions" / "e1").mkdir(parents=True)
    (root / "rulebook.yaml").write_text(
        "title: T\npublisher: P\neditions:\n  - {id: e1, title: E, date: null, status: draft}\n")
    (root / "vocabulary.yaml").write_text(VOCABULARY)
    (root / "editions" / "e1" / "t.yaml").write_text(TERM)
    return load_rulebook(root)


def clause(book, cid: str):
    return book.latest.clause_by_ref[f"t#{cid}"]


def test_normal_words_fold_case_and_typography():
    assert normal_words("It’s “Face–Down”\u00a0NOW—‘ok’.") == ["it's", "face-down", "now", "ok"]
    assert normal_words("Don't") == normal_words("DON’T")


@pytest.mark.parametrize("old, new, kind", [
    ("A card.", "A card.", SAME),
    ("A card.", "a  CARD", EDITORIAL),
    ("It’s here.", "It's here!", EDITORIAL),
    ("A card.", "A cards.", REWORDED),
    ("A card.", "A card here.", REWORDED),
])
def test_text_kind(old, new, kind):
    assert text_kind(old, new) == kind
    assert (SAME, EDITORIAL, REWORDED) == ("same", "editorial", "reworded")


def test_meaning_of_a_definition(book):
    assert meaning_json(clause(book, "defn")) == {
        "defines": {"name": "hidden_card", "as": {"all": ["face_down", {"not": {"is": {"zone": "hand"}}}]}},
        "rules": [], "steps": None, "table": None}


def test_meaning_of_rules_leaves_out_their_notes(book):
    assert meaning_json(clause(book, "base")) == {
        "defines": None,
        "rules": [{"decision": "t.may", "id": "r1", "kind": "value", "when": None, "value": True,
                   "exception_to": [], "notes": None}],
        "steps": None, "table": None}
    assert meaning_json(clause(book, "exc")) == {
        "defines": None,
        "rules": [{"decision": "t.may", "id": None, "kind": "forbids", "when": "face_down", "forbids": "hidden_card",
                   "exception_to": ["t#base"], "notes": None}],
        "steps": None, "table": None}


def test_meaning_of_a_table_is_its_rows_not_the_rules_they_stand_for(book):
    tab = clause(book, "tab")
    assert len(tab.rules) == 2 and all(r.from_table for r in tab.rules)
    assert meaning_json(tab) == {
        "defines": None, "rules": [], "steps": None,
        "table": {"decision": "t.where", "key": "ability",
                  "rows": [{"keys": ["draw", "discard_pile"], "value": "deck"}, {"keys": ["band"], "value": "hand"}]}}


def test_meaning_of_steps_names_clauses_without_their_term(book):
    assert meaning_json(clause(book, "proc")) == {
        "defines": None, "rules": [], "table": None,
        "steps": {"procedure": "t.order", "order": ["base", "tab"]}}


def test_extras(book):
    assert extras_json(clause(book, "defn")) == {"links": [["face down", "t", "base"]],
                                                 "predicate_meaning": "Face down."}
    assert extras_json(clause(book, "base")) == {"links": [], "predicate_meaning": None}


def test_names_of_in_order_without_repeats(book):
    clauses = [clause(book, c) for c in ("base", "defn", "tab", "exc", "proc")]
    assert names_of(clauses) == [("decision", "t.may"), ("predicate", "hidden_card"), ("decision", "t.where")]


def test_steps_changed(book):
    proc, base = clause(book, "proc"), clause(book, "base")
    assert steps_changed([proc], [proc]) is False
    assert steps_changed([base, proc], [proc]) is False  # clauses without steps do not count
    assert steps_changed([proc], [base]) is True
    assert steps_changed([], [proc]) is True


def test_condition_phrases_name_facts_values_and_predicates(book):
    assert condition_phrases(book.latest.vocabulary, ["hidden_card"]) == {
        "face down": "face_down", "zone": "zone", "hand": "zone=hand", "battle zone": "zone=battle_zone",
        "ability": "ability", "draw": "ability=draw", "discard pile": "ability=discard_pile",
        "band": "ability=band", "hidden card": "hidden_card"}


def test_named_conditions_are_whole_word_runs():
    phrases = {"face down": "face_down", "hand": "zone=hand", "battle zone": "zone=battle_zone"}
    text = "A Face-down card, face down in the Battle  Zone, handles no hands."
    assert named_conditions(text, phrases) == {"face down", "battle zone"}
    assert named_conditions(text, Phrases(phrases)) == {"face down", "battle zone"}
    assert Phrases(phrases).longest == 2
    assert Phrases({}).longest == 0
    assert named_conditions("Face down.", {}) == set()


PHRASES = {"face down": "face_down", "hand": "zone=hand"}


@pytest.mark.parametrize("args, flags", [
    ((SAME, True, True, True, "A.", "A."), ["the machine-readable meaning changed but the text did not"]),
    ((EDITORIAL, True, True, True, "A.", "a"), ["the machine-readable meaning changed but the text did not"]),
    ((REWORDED, True, True, True, "A.", "B."), []),
    ((SAME, True, False, True, "A.", "A."), []),
    ((REWORDED, False, False, True, "A card.", "A face down card in hand."),
     ["the text now names 'face down', 'hand' but the machine-readable meaning did not change"]),
    ((REWORDED, False, False, True, "A face down card.", "A face down card, in a hand."),
     ["the text now names 'hand' but the machine-readable meaning did not change"]),
    ((REWORDED, False, False, True, "A face down card.", "A card."), []),
    ((REWORDED, False, False, False, "A card.", "A card in hand."), []),
    ((REWORDED, True, True, True, "A card.", "A card in hand."), []),
    ((EDITORIAL, False, False, True, "A card.", "A card in hand."), []),
])
def test_drift_flags(args, flags):
    text, meaning_changed, behaviour_changed, has_meaning, old, new = args
    assert drift(text, meaning_changed, behaviour_changed, has_meaning, old, new, PHRASES) == flags
