"""Refusals of the build no other test showed (written for build mutants that survived), each
with its exact message and place."""

from __future__ import annotations

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.diagnostics import RulebookError


def problems(root) -> list[str]:
    with pytest.raises(RulebookError) as err:
        load_rulebook(root)
    return [str(d) for d in err.value.diagnostics]


def plain(tmp_path, write_rulebook, monkeypatch):
    """The one-edition rulebook with one rule that answers true, in the working directory."""
    monkeypatch.chdir(tmp_path)
    return write_rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, value: true}]}\n")


def editions(*ids: str) -> str:
    return "title: T\npublisher: P\neditions:\n" + "".join(
        f"  - {{id: {i}, title: E{n}, date: null, status: draft}}\n" for n, i in enumerate(ids))


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
    root = plain(tmp_path, write_rulebook, monkeypatch)
    (root / "rulebook.yaml").write_text(editions("e1", "e1"))
    assert problems(root) == ["rulebook.yaml:5:10: error: duplicate edition id 'e1'\n  hint: first given as edition 1"]


def test_a_rule_keeps_its_notes(tmp_path, write_rulebook):
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: true, notes: Why it is so.}]}\n"))
    assert [r.notes for r in load_rulebook(root).edition("e1").rules["t.q"]] == ["Why it is so."]


def test_a_patch_of_a_term_no_earlier_edition_has_says_to_write_it_whole(tmp_path, write_rulebook, monkeypatch):
    root = plain(tmp_path, write_rulebook, monkeypatch)
    (root / "editions" / "e1" / "zzz.yaml").write_text("id: zzz\npatch:\n  - remove: x\n")
    assert problems(root) == [
        "editions/e1/zzz.yaml:2:1: error: edition 'e1' patches term 'zzz', which no earlier edition has\n"
        "  hint: write the whole term, with 'name' and 'sections' instead of 'patch'"]


def test_withdrawing_a_term_no_earlier_edition_has_names_the_nearest(tmp_path, write_rulebook, monkeypatch):
    root = plain(tmp_path, write_rulebook, monkeypatch)
    (root / "rulebook.yaml").write_text(editions("e1", "e2"))
    (root / "editions" / "e2").mkdir()
    (root / "editions" / "e2" / "tt.yaml").write_text("id: tt\nwithdrawn: true\n")
    assert problems(root) == [
        "editions/e2/tt.yaml:1:5: error: edition 'e2' withdraws term 'tt', which no earlier edition has\n"
        "  hint: did you mean 't'?"]


def test_a_predicate_named_like_a_fact_is_refused_where_it_is_defined(tmp_path, write_rulebook, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: true}]}\n"
        "      - {id: p, text: P., defines: {name: a, as: b}}\n"))
    assert problems(root) == [
        "editions/e1/t.yaml:10:36: error: predicate 'a' has the name of a fact\n"
        "  hint: rename the predicate; facts and predicates share one namespace"]


def test_a_decision_declared_by_two_terms_is_refused_at_the_second(tmp_path, write_rulebook, monkeypatch):
    root = plain(tmp_path, write_rulebook, monkeypatch)
    (root / "editions" / "e1" / "u.yaml").write_text(
        "id: u\nname: U\ndecisions:\n  - {name: t.q, type: bool, meaning: Q.}\nsections: []\n")
    assert problems(root) == [
        "editions/e1/u.yaml:4:5: error: decision 't.q' is declared twice in edition 'e1'\n"
        "  hint: also declared by term 't'"]


def test_a_predicate_chain_over_the_depth_limit_is_reported_where_it_crosses(tmp_path, write_rulebook, monkeypatch):
    # p0 = not p1, p1 = not p2, ..., p64 = a: p32 is the first that nests past 64 (each 'not' and
    # each use counts), and only it is reported, with its chain shortened
    monkeypatch.chdir(tmp_path)
    clauses = "      - {id: x, text: X., rules: [{decision: t.q, requires: p0}]}\n" + "".join(
        f"      - {{id: d{i}, text: D., defines: {{name: p{i}, as: {{not: p{i + 1}}}}}}}\n" for i in range(64))
    root = write_rulebook(tmp_path, clauses + "      - {id: d64, text: D., defines: {name: p64, as: a}}\n")
    assert problems(root) == [
        "editions/e1/t.yaml:42:38: error: predicate 'p32' nests 65 deep through the predicates it uses "
        "(p32 -> p33 -> p34 -> ... -> p64), over the limit of 64\n"
        "  hint: define it with fewer predicates in a chain; the limit is MAX_PREDICATE_DEPTH = 64 in "
        "rulebook_compiler/conditions.py (docs/format.md, Limits)"]


def test_a_term_file_without_a_name_says_which_key_it_lacks(tmp_path, write_rulebook, monkeypatch):
    root = plain(tmp_path, write_rulebook, monkeypatch)
    (root / "editions" / "e1" / "u.yaml").write_text("id: u\nsections: []\n")
    assert problems(root) == ["editions/e1/u.yaml:1:1: error: the file lacks required key 'name'"]


def _with_term_line(root, old: str, new: str) -> None:
    term = root / "editions" / "e1" / "t.yaml"
    term.write_text(term.read_text().replace(old, new))


def test_an_enum_decision_with_one_value_is_refused(tmp_path, write_rulebook, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = write_rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, value: only}]}\n")
    _with_term_line(root, "type: bool,", "type: enum, values: [only],")
    assert problems(root) == ["editions/e1/t.yaml:4:5: error: enum decision 't.q' needs at least two 'values'"]


def test_an_enum_decision_value_listed_twice_is_refused_at_the_second(tmp_path, write_rulebook, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = write_rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, value: low}]}\n")
    _with_term_line(root, "type: bool,", "type: enum, values: [low, high, low],")
    assert problems(root) == ["editions/e1/t.yaml:4:49: error: value 'low' is listed twice"]


def test_a_named_section_needs_a_title(tmp_path, write_rulebook, monkeypatch):
    root = plain(tmp_path, write_rulebook, monkeypatch)
    _with_term_line(root, "kind: definition", "kind: named")
    assert problems(root) == ["editions/e1/t.yaml:6:5: error: a section of kind 'named' needs a 'title'"]


def test_two_rules_of_one_clause_with_one_id_are_refused(tmp_path, write_rulebook, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = write_rulebook(tmp_path, "      - {id: x, text: X., rules: [{decision: t.q, id: a, value: true, when: a},"
                                    " {decision: t.q, id: a, value: false, when: {not: a}}]}\n")
    assert problems(root) == ["editions/e1/t.yaml:9:101: error: duplicate rule id 'a' in clause 't#x'"]


def test_an_edition_keeps_the_sources_it_cites(tmp_path, write_rulebook, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = write_rulebook(tmp_path / "book", "      - {id: x, text: X., rules: [{decision: t.q, value: true}]}\n")
    (root / "sources").mkdir()
    (root / "sources" / "a.txt").write_text("text\n")
    (root / "rulebook.yaml").write_text(
        "title: T\npublisher: P\neditions:\n"
        "  - {id: e1, title: E, date: null, status: draft, sources: [sources/a.txt]}\n")
    assert [e.sources for e in load_rulebook(root).editions] == [("sources/a.txt",)]
