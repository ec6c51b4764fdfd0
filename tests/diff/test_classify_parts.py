"""The parts of change classification, one by one, with exact values.

A small rulebook written here has one clause of each kind (a definition, a rule with an
exception, a table, a procedure's steps) so that each part's output can be spelt out.
"""

from __future__ import annotations


import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.diff.classify import (EDITORIAL, REWORDED, SAME, Labels, condition_labels, drift, extras_json,
                                    meaning_json, mentions, names_of, normal_words, predicate_refs, steps_changed,
                                    keys_tested, text_kind, Side)
from rulebook_compiler.model import Vocabulary

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


def test_labels_are_bool_facts_predicates_and_phrases_of_two_words_or_more(book):
    labels = condition_labels(book.latest.vocabulary, ["hidden_card"])
    # 'zone', 'ability' (one-word enum names) and 'hand', 'draw', 'band' (one-word values) are not labels.
    assert labels.phrases == {"face down": {"face_down"}, "battle zone": {"zone=battle_zone"},
                              "discard pile": {"ability=discard_pile"}, "hidden card": {"hidden_card"}}
    assert (labels.longest, labels.domains) == (
        2, {"zone": ("hand", "battle_zone"), "ability": ("draw", "discard_pile", "band")})


def test_mentions_are_whole_word_runs(book):
    labels = condition_labels(book.latest.vocabulary, [])
    text = "A Face-down card, face down in the Battle  Zone, handles no hands."
    assert mentions(text, labels) == {"face_down", "zone=battle_zone"}
    assert mentions("Face down.", condition_labels(Vocabulary((), ()), [])) == set()


def test_tested_keys_follow_predicates(book):
    defn, exc = clause(book, "defn"), clause(book, "exc")
    predicates = {n: p.condition for n, p in book.latest.predicates.items()}
    assert keys_tested([defn], predicates) == {"hidden_card", "face_down", "zone", "zone=hand"}
    assert keys_tested([exc], predicates) == {"hidden_card", "face_down", "zone", "zone=hand"}
    assert keys_tested([exc], {}) == {"hidden_card", "face_down"}
    assert predicate_refs([exc]) == {"hidden_card", "face_down"}


LABELS = Labels({"face down": frozenset({"face_down"}), "battle zone": frozenset({"zone=battle_zone"}),
                 "zone kind": frozenset({"zone"}), "hidden card": frozenset({"hidden_card"})},
                {"zone": ("hand", "battle_zone")}, 2)


@pytest.mark.parametrize("args, flags", [
    ((SAME, True, True, "A.", "A.", set(), set()), ["the machine-readable meaning changed but the text did not"]),
    ((EDITORIAL, True, True, "A.", "a", set(), set()), ["the machine-readable meaning changed but the text did not"]),
    ((REWORDED, True, True, "A.", "B.", set(), set()), []),
    ((SAME, False, True, "A.", "A.", set(), set()), []),
    # The text newly names what no rule tests, on either side.
    ((REWORDED, False, True, "A card.", "A face down card in the battle zone.", set(), set()),
     ["the text now names 'battle zone', 'face down', which no rule of this clause tests"]),
    # ... but not what the new rules test, nor a value of a fact they test.
    ((REWORDED, True, True, "A card.", "A face down card.", set(), {"face_down"}), []),
    ((REWORDED, True, True, "A card.", "A card in the battle zone.", set(), {"zone", "zone=hand"}), []),
    # It stops naming what the rules test on both sides.
    ((REWORDED, False, True, "A face down card.", "A card.", {"face_down"}, {"face_down"}),
     ["the text no longer names 'face down', which its rules still test"]),
    ((REWORDED, False, True, "A face down card.", "A card.", set(), set()), []),
    # A value named, its fact tested on both sides: the value is listed, not the fact as well.
    ((REWORDED, False, True, "A card in the battle zone.", "A card.", {"zone", "zone=battle_zone"},
      {"zone", "zone=battle_zone"}), ["the text no longer names 'battle zone', which its rules still test"]),
    # The rules newly test (or stop testing) what neither text names: labels are names, not flagged.
    ((REWORDED, True, True, "A card.", "A card, once.", set(), {"hidden_card"}), []),
    ((REWORDED, True, True, "A card.", "A card, once.", {"zone", "zone=battle_zone"}, set()), []),
    ((REWORDED, True, True, "A hidden card.", "A card.", {"hidden_card"}, set()), []),
    # No rule on either side, or no word changed: no mention is compared.
    ((REWORDED, False, False, "A card.", "A face down card.", set(), set()), []),
    ((EDITORIAL, False, True, "A card.", "A card!", set(), {"face_down"}), []),
])
def test_drift_flags(args, flags):
    text, behaviour_changed, has_meaning, old, new, old_tested, new_tested = args
    assert drift(text, behaviour_changed, has_meaning, Side(old, old_tested), Side(new, new_tested), LABELS) == flags


def test_naming_a_predicate_names_what_it_tests_and_a_link_is_a_name_of_its_own():
    # The rules now test face_down through hidden_card, which the new text names.
    old, new = Side("A card.", set()), Side("A hidden card.", {"hidden_card", "face_down"},
                                            covers={"hidden_card": {"face_down"}})
    assert drift(REWORDED, True, True, old, new, LABELS) == []
    # "Battle Zone" is a link: its words and the word before it name no 'zone battle'; inside it, they do.
    assert mentions("Face Battle Zone.", LABELS, ["Battle Zone"]) == {"zone=battle_zone"}
    assert mentions("Face down Zone.", LABELS, ["down Zone"]) == set()

