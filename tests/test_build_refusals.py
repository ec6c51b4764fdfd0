"""Refusals of the build no other test showed (written for build mutants that survived), each
with its exact message and place."""

from __future__ import annotations

import pytest

from compiler.build import load_rulebook
from compiler.diagnostics import RulebookError


def problems(root) -> list[str]:
    with pytest.raises(RulebookError) as err:
        load_rulebook(root)
    return [str(d) for d in err.value.diagnostics]


def test_a_source_outside_the_rulebook_folder_is_refused_where_it_is_named(tmp_path, write_rulebook, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = write_rulebook(tmp_path / "book", "      - {id: x, text: X., rules: [{decision: t.q, value: true}]}\n")
    (tmp_path / "outside.txt").write_text("text\n")
    (root / "rulebook.yaml").write_text(
        "title: T\npublisher: P\neditions:\n"
        "  - {id: e1, title: E, date: null, status: draft, sources: [../outside.txt]}\n")
    assert problems(root) == [
        "book/rulebook.yaml:4:61: error: source '../outside.txt' lies outside the rulebook folder\n"
        "  hint: keep source texts in the rulebook's sources/ folder"]


def test_a_clause_that_is_an_exception_to_itself_is_refused_at_its_exception_to(tmp_path, write_rulebook,
                                                                                 monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: true}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, value: false, exception_to: ['t#y']}]}\n"))
    assert problems(root) == [
        "editions/e1/t.yaml:10:79: error: a clause cannot be an exception to itself",
        "editions/e1/t.yaml:10:80: error: exceptions for 't.q' form a cycle: t#y -> t#y\n"
        "  hint: an exception overrides the rule it names; one of these must not be an exception to the other"]


def test_a_bool_decision_refuses_a_value_that_is_not_true_or_false(tmp_path, write_rulebook, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = write_rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, value: maybe}]}\n")
    assert problems(root) == ["editions/e1/t.yaml:9:35: error: decision 't.q' is bool; value 'maybe' is not true/false"]


def test_an_enum_decision_refuses_a_value_it_does_not_list_and_names_the_nearest(tmp_path, write_rulebook,
                                                                                    monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = write_rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, value: hihg}]}\n")
    term = root / "editions" / "e1" / "t.yaml"
    term.write_text(term.read_text().replace("type: bool,", "type: enum, values: [low, high],"))
    assert problems(root) == ["editions/e1/t.yaml:9:35: error: 'hihg' is not a value of decision 't.q'\n"
                              "  hint: did you mean 'high'?"]


def test_an_edition_id_given_twice_names_the_first(tmp_path, write_rulebook, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = write_rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, value: true}]}\n")
    (root / "rulebook.yaml").write_text(
        "title: T\npublisher: P\neditions:\n  - {id: e1, title: E, date: null, status: draft}\n"
        "  - {id: e1, title: F, date: null, status: draft}\n")
    assert problems(root) == ["rulebook.yaml:5:10: error: duplicate edition id 'e1'\n  hint: first given as edition 1"]


def test_a_rule_keeps_its_notes(tmp_path, write_rulebook):
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: true, notes: Why it is so.}]}\n"))
    assert [r.notes for r in load_rulebook(root).edition("e1").rules["t.q"]] == ["Why it is so."]


def test_a_patch_of_a_term_no_earlier_edition_has_says_to_write_it_whole(tmp_path, write_rulebook, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = write_rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, value: true}]}\n")
    (root / "editions" / "e1" / "zzz.yaml").write_text("id: zzz\npatch:\n  - remove: x\n")
    assert problems(root) == [
        "editions/e1/zzz.yaml:2:1: error: edition 'e1' patches term 'zzz', which no earlier edition has\n"
        "  hint: write the whole term, with 'name' and 'sections' instead of 'patch'"]
