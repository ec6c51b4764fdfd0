"""Matching and classification on a fixture that reorganises one term (tests/fixtures/diff/reorganised)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.diff.engine import diff_editions

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "reorganised"


@pytest.fixture(scope="module")
def result():
    book = load_rulebook(FIXTURE)
    return diff_editions(book, "v1", book, "v2")


def _by_old(result, old_clause):
    return next(c for c in result.changes if c.old_clause == old_clause)


def test_a_clause_cut_in_two_is_a_split(result):
    change = _by_old(result, "timing")
    assert (change.kind, change.new_clause, change.matched_by) == ("split", "timing-preparation+timing-discard", "split")
    assert change.confidence > 0.9


def test_two_clauses_joined_are_a_merge(result):
    change = _by_old(result, "part-a+part-b")
    assert (change.kind, change.new_clause, change.matched_by) == ("merged", "restored", "merge")


def test_a_renamed_clause_is_matched_by_its_text(result):
    change = _by_old(result, "old-name")
    assert (change.new_clause, change.matched_by, change.confidence) == ("ends-effects", "text", 1.0)
    assert change.kind == "renamed"


def test_a_pure_reordering_is_one_move_not_a_removal_and_an_addition(result):
    # first, second, third became second, third, first: only "first" moved.
    moved = sorted(c.clause for c in result.changes if c.kind == "moved" and c.old_section == c.new_section)
    assert moved == ["first"]
    assert not [c for c in result.changes if c.clause in ("second", "third")]


def test_a_clause_moved_to_another_section_is_a_move(result):
    change = _by_old(result, "mend")
    assert (change.kind, change.old_section, change.new_section) == ("moved", "clarifications", "definition")


def test_punctuation_only_is_editorial_and_new_words_are_reworded(result):
    assert _by_old(result, "punct").kind == "editorial"
    assert _by_old(result, "words").kind == "reworded"


def test_added_and_removed(result):
    assert [c.new_clause for c in result.changes if c.kind == "added"] == ["lost-souls"]
    assert [c.old_clause for c in result.changes if c.kind == "removed"] == ["gone"]


def test_same_text_new_meaning_is_semantic_and_flags_drift(result):
    change = _by_old(result, "not-in-battle")
    assert change.kind == "semantic"
    assert change.behaviour.name == "cure.may_target" and change.behaviour.direction == "changed"
    # In battle the old edition forbade it; in the discard phase the new one does.
    pairs = {(dict(w.facts)["phase"], w.old, w.new) for w in change.behaviour.witnesses}
    assert ("battle", False, True) in pairs and ("discard", True, False) in pairs
    assert [f.text for f in change.drift] == ["the machine-readable meaning changed but the text did not"]
    assert change.structure and change.structure[0].path.startswith("root[0]['rules']")


def test_prose_naming_a_new_condition_without_new_meaning_flags_drift(result):
    change = _by_old(result, "targets")
    assert change.kind == "reworded"
    # "Targets must be curable." -> "..., even if paralyzed.": its rule (curable) does not test paralyzed,
    # and no record says the editors checked it against these words (rulebook_compiler.diff.unaccounted; the
    # digest is of "targets must be curable even if paralyzed").
    assert [f.text for f in change.drift] == [
        "the text now names 'paralyzed', which no rule of this clause tests",
        "the text now says “even if paralyzed” (new: even, if, paralyzed), which its rules do not account for: counted "
        "as a rule change by --fail-on until the editors record that they checked the rules against these words "
        "(add rules_checked: \"5751612d6485\" to cure#targets)"]


def test_unchanged_clauses_are_not_reported(result):
    assert "curable" not in {c.clause for c in result.changes}


def test_locations_point_at_the_clause_in_each_source(result):
    change = _by_old(result, "words")
    old_lines = (FIXTURE / "editions" / "v1" / "cure.yaml").read_text().splitlines()
    new_lines = (FIXTURE / "editions" / "v2" / "cure.yaml").read_text().splitlines()
    assert old_lines[change.old_location.line - 1].strip() == "- id: words"
    assert new_lines[change.new_location.line - 1].strip() == "- id: words"
    assert change.old_location.file.endswith("editions/v1/cure.yaml")


def test_fingerprints_are_stable_and_distinct(result):
    book = load_rulebook(FIXTURE)
    again = diff_editions(book, "v1", book, "v2")
    assert [c.fingerprint for c in again.changes] == [c.fingerprint for c in result.changes]
    assert len({c.fingerprint for c in result.changes}) == len(result.changes)


def test_minimal_fixture_broadened_predicate_with_witness(minimal):
    result = diff_editions(minimal, "v1", minimal, "v2")
    change = next(c for c in result.changes if c.clause == "curable")
    assert change.kind == "semantic" and change.behaviour.direction == "broadened"
    assert [dict(w.facts) for w in change.behaviour.witnesses] == [{"paralyzed": True, "poisoned": False}]
    assert [u.ref for u in change.impact] == ["cure#targets"]
