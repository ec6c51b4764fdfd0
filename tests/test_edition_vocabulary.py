"""A vocabulary per edition: a later edition's facts, values and constraints never reach an earlier one.

The fixture tests/fixtures/vocab has published editions ``origin`` and ``a`` and a draft
``b`` whose ``_vocabulary.yaml`` adds a fact, an enum value and a constraint,
changes a fact's meaning and withdraws a fact (with the constraint that used
it). Everything produced for ``a`` must be the same bytes with ``b`` as
without it: a vendor's suite for a published edition never changes because a
later edition was written.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "vocab"


def _runner() -> CliRunner:
    return CliRunner(mix_stderr=False) if "mix_stderr" in CliRunner.__init__.__code__.co_varnames \
        else CliRunner()


def _place(variant: str, book: Path) -> None:
    """The fixture at ``book``: whole ("after") or as it was before edition b was written ("before")."""
    if book.exists():
        shutil.rmtree(book)
    shutil.copytree(FIXTURE, book)
    if variant == "before":
        shutil.rmtree(book / "editions" / "b")
        main_file = book / "rulebook.yaml"
        text = main_file.read_text(encoding="utf-8")
        head, _, _ = text.partition("  - id: b\n")
        assert head != text
        main_file.write_text(head, encoding="utf-8")


def test_adding_an_edition_changes_nothing_of_the_published_one(tmp_path, edition_outputs):
    # What changed in a (from origin): the situations that tell them apart, in a's words.
    pages = {"editions/a/changes": "editions/a/changes"}
    book = tmp_path / "book"
    _place("before", book)
    before = edition_outputs(book, "a", tmp_path / "before", pages)
    _place("after", book)
    after = edition_outputs(book, "a", tmp_path / "after", pages)
    assert sorted(after) == sorted(before)
    for name in before:
        assert after[name] == before[name], name
    cases = json.loads(before["cases.json"])
    # The suite of a knows only a's facts and values.
    facts = {f for d in cases["decisions"] for f in d["facts"]}
    assert facts == {"paralyzed", "poisoned", "stunned", "phase"}


def _ordered_book(root: Path, overlay: str, two_editions) -> Path:
    """Edition e1 compares an ordered fact with the value 'late'; e2 keeps the term, with this overlay."""
    return two_editions(
        root,
        "  - {name: step, type: enum, ordered: true, values: [early, middle, late], meaning: S.}\n"
        "  - {name: other, type: enum, ordered: true, values: [early, middle, late], meaning: O.}\n",
        "      - id: c\n        text: Up to late.\n        rules:\n"
        "          - {decision: t.q, requires: {all: [{at_most: {step: late}}, {before: {step: {fact: other}}}]}}\n",
        overlay)


@pytest.mark.parametrize("overlay,expected", [
    ("facts:\n  change:\n    - {name: step, withdraw_values: [late]}\n    - {name: other, withdraw_values: [late]}\n",
     "editions/e1/t.yaml:12:46: error: value 'late' of fact 'step' was withdrawn by edition 'e2' at "
     "{root}/editions/e2/_vocabulary.yaml:3"),
    ("facts:\n  withdraw: [other]\n",
     "editions/e1/t.yaml:12:71: error: fact 'other' was withdrawn by edition 'e2' at "
     "{root}/editions/e2/_vocabulary.yaml:2"),
])
def test_a_comparison_with_a_withdrawn_value_or_fact_names_the_withdrawal(tmp_path, overlay, expected, two_editions):
    from rulebook_compiler.build import check

    root = _ordered_book(tmp_path / "book", overlay, two_editions)
    book, problems = check(root)
    shown = os.path.relpath(root)
    assert book is None
    assert [str(p) for p in problems] == [
        f"{shown}/" + expected.format(root=shown) + "\n  hint: an edition's conditions test only what its "
        "vocabulary has: change the condition in this edition, or do not withdraw it"]


def test_a_term_carried_into_a_larger_vocabulary_is_checked_again(tmp_path):
    """Edition b adds the value 'end' and keeps a's Cure, whose table does not answer it: the
    same rules over another vocabulary are checked again (edition a alone had no problem)."""
    book = tmp_path / "book"
    _place("after", book)
    (book / "editions" / "b" / "cure.yaml").unlink()
    (book / "editions" / "b" / "_vocabulary.yaml").write_text("facts:\n  change:\n    - {name: phase, add_values: [end]}\n")
    result = _runner().invoke(main, ["check", str(book)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{os.path.relpath(book)}/editions/a/cure.yaml:7:5: error: decision 'cure.timing' has no answer when "
        "phase=end, in edition 'b', whose vocabulary differs from that of edition 'a'\n"
        "  hint: add a rule for this situation, a constraint that rules it out, or a 'given' that puts it out of "
        "the question's scope\n1 problem found\n")


def test_the_later_edition_exports_its_own_vocabulary():
    result = _runner().invoke(main, ["export", "--rulebook", str(FIXTURE), "--edition", "b"])
    data = json.loads(result.stdout)
    assert data["facts"] == [
        {"name": "poisoned", "type": "bool", "values": [], "meaning": "The character is poisoned."},
        {"name": "paralyzed", "type": "bool", "values": [], "meaning": "The character is paralyzed."},
        {"name": "phase", "type": "enum", "values": ["preparation", "battle", "discard", "end"],
         "meaning": "The phase of the turn, the end phase included."},
        {"name": "diseased", "type": "bool", "values": [], "meaning": "The character is diseased."}]
    assert data["constraints"] == [
        {"id": "no-disease-at-the-end", "text": "Disease is resolved before the end phase.",
         "never": {"all": ["diseased", {"is": {"phase": "end"}}]}}]


@pytest.mark.parametrize("overlay,lacks", [
    ("constraints:\n  add:\n    - {name: stray, type: bool, meaning: A fact under constraints.}\n",
     ["constraints' lacks required key 'id'", "constraints' lacks required key 'never'",
      "constraints' lacks required key 'text'"]),
    # with its id but not what the overlay reads of it (found by tests/test_recheck.py's random edits)
    ("constraints:\n  add:\n    - {id: stray, text: A constraint without its condition.}\n",
     ["constraints' lacks required key 'never'"]),
    ("constraints:\n  add:\n    - {id: stray, never: false}\n", ["constraints' lacks required key 'text'"]),
    ("facts:\n  add:\n    - {name: stray, type: bool}\n", ["facts' lacks required key 'meaning'"]),
    ("facts:\n  add:\n    - {name: stray, meaning: A fact without its type.}\n",
     ["facts' lacks required key 'type'"]),
    ("facts:\n  add:\n    - {id: stray, text: A constraint under facts., never: false}\n",
     ["facts' lacks required key 'meaning'", "facts' lacks required key 'name'", "facts' lacks required key 'type'"]),
])
def test_an_overlay_item_without_its_key_is_a_schema_error_not_a_crash(tmp_path, overlay, lacks, two_editions):
    from rulebook_compiler.build import check

    root = _ordered_book(tmp_path / "book", overlay, two_editions)
    book, problems = check(root)
    shown = os.path.relpath(root)
    assert book is None
    assert [str(p) for p in problems if "lacks" in p.message] == [
        f"{shown}/editions/e2/_vocabulary.yaml:3:7: error: item 1 of 'add' of '{line}" for line in lacks]


# A value of the wrong kind anywhere in an overlay is reported where it is, as the same value in
# vocabulary.yaml is (in the overlay's own words for the place), and stops the check there: none reaches the build (a mapping as 'type' was a
# TypeError traceback, unhashable type: 'dict'). One of them: tests/fixtures/broken/vocabulary-overlay-fact-type-a-mapping.
@pytest.mark.parametrize("overlay, line", [
    ("facts:\n  add:\n    - name: stunned\n      type: {bool: true}\n      meaning: Stunned.\n",
     "4:13: error: 'type' of item 1 of 'add' of 'facts' must be one of: bool, enum; got {'bool': True}"),
    ("facts:\n  add:\n    - name: stunned\n      type: [bool]\n      meaning: Stunned.\n",
     "4:13: error: 'type' of item 1 of 'add' of 'facts' must be one of: bool, enum; got ['bool']"),
    ("facts:\n  add:\n    - name: {stunned: 1}\n      type: bool\n      meaning: Stunned.\n",
     "3:13: error: 'name' of item 1 of 'add' of 'facts' must be a string, not a mapping"),
    ("facts:\n  add:\n    - name: stunned\n      type: bool\n      meaning: {a: 1}\n",
     "5:16: error: 'meaning' of item 1 of 'add' of 'facts' must be a string, not a mapping"),
    ("facts:\n  withdraw: [{poisoned: 1}]\n",
     "2:14: error: item 1 of 'withdraw' of 'facts' must be a string, not a mapping"),
    ("facts:\n  change:\n    - name: phase\n      add_values: [{dusk: 1}]\n",
     "4:20: error: item 1 of 'add_values' of item 1 of 'change' of 'facts' must be a string, not a mapping"),
    ("constraints:\n  add:\n    - id: {a: 1}\n      text: T.\n      never: poisoned\n",
     "3:11: error: 'id' of item 1 of 'add' of 'constraints' must be a string, not a mapping"),
], ids=["type-mapping", "type-list", "name-mapping", "meaning-mapping", "withdraw-mapping", "value-mapping",
        "constraint-id-mapping"])
def test_an_overlay_value_of_the_wrong_kind_is_a_located_error(tmp_path, monkeypatch, overlay, line):
    monkeypatch.chdir(tmp_path)
    book = Path("book")
    shutil.copytree(Path(__file__).resolve().parent / "fixtures" / "minimal", book)
    (book / "editions" / "v2" / "_vocabulary.yaml").write_text(overlay, encoding="utf-8")
    result = _runner().invoke(main, ["check", "book"], prog_name="rulebook", env={"RULEBOOK_NO_CACHE": "1"})
    assert (result.exit_code, result.stdout, result.stderr) == (
        1, "", f"book/editions/v2/_vocabulary.yaml:{line}\n1 problem found\n")
