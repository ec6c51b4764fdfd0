"""The logic checks over several editions and at their edges (tests written for mutants that survived).

An edition that does not change a term shares its decision with the edition before;
the checks skip a decision already checked with the same rules over the same
predicates, and must check it again when anything it reads changed.
"""

from __future__ import annotations

from pathlib import Path

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.logic import logic_problems

HEAD = "title: T\npublisher: P\neditions:\n  - {id: e1, title: E, date: null, status: draft}\n"
E2 = "  - {id: e2, title: F, date: null, status: draft}\n"
EMPTY_HINT = ("add a rule for this situation, a constraint that rules it out, "
              "or a 'given' that puts it out of the question's scope")
CONFLICT_HINT = "mark one rule 'exception_to' the other's clause, or narrow a 'when'"
DEAD_HINT = "check its 'when' against the vocabulary's constraints and the decision's 'given'"


def two_decisions(root: Path, clauses: str) -> Path:
    """Editions e1 and e2; term t (in e1 only) with decisions t.p and t.q over facts a and b."""
    (root / "editions" / "e1").mkdir(parents=True)
    (root / "editions" / "e2").mkdir()
    (root / "rulebook.yaml").write_text(HEAD + E2)
    (root / "vocabulary.yaml").write_text(
        "facts:\n  - {name: a, type: bool, meaning: A.}\n  - {name: b, type: bool, meaning: B.}\n"
        "constraints: []\n")
    (root / "editions" / "e1" / "t.yaml").write_text(
        "id: t\nname: T\ndecisions:\n  - {name: t.p, type: bool, meaning: P.}\n"
        "  - {name: t.q, type: bool, meaning: Q.}\n"
        "sections:\n  - key: s\n    kind: definition\n    clauses:\n" + clauses)
    return root


def found(book) -> list[tuple[str, int, str, str | None]]:
    return [(p.location.path, p.location.line, p.message, p.hint) for p in logic_problems(book)]


def test_a_decision_unchanged_in_a_later_edition_is_reported_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    two_decisions(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.p, permits: a}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, value: true}]}\n"))
    book = load_rulebook(tmp_path)
    assert book.edition("e1").term_by_id["t"] is book.edition("e2").term_by_id["t"]
    assert found(book) == [
        ("editions/e1/t.yaml", 4, "decision 't.p' has no answer when a=false", EMPTY_HINT)]


def test_a_decision_given_new_rules_by_another_term_is_checked_again(tmp_path, monkeypatch):
    # t.p is unchanged in e2 (checked already, skipped); t.q's decision is the same object,
    # but a new term u gives it a rule in e2 that conflicts with t's: e2 must be checked.
    monkeypatch.chdir(tmp_path)
    two_decisions(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.p, value: true}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, value: true}]}\n"))
    (tmp_path / "editions" / "e2" / "u.yaml").write_text(
        "id: u\nname: U\nsections:\n  - key: s\n    kind: definition\n    clauses:\n"
        "      - {id: z, text: Z., rules: [{decision: t.q, value: false, when: b}]}\n")
    book = load_rulebook(tmp_path)
    assert found(book) == [
        ("editions/e1/t.yaml", 11, "decision 't.q' is in conflict when b=true: t#y says true; u#z says false, "
                                   "and no rule is an exception to the other", CONFLICT_HINT)]


def test_a_decision_no_rule_answers_has_no_answer_anywhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    two_decisions(tmp_path, "      - {id: x, text: X., rules: [{decision: t.p, value: true}]}\n")
    (tmp_path / "rulebook.yaml").write_text(HEAD)
    (tmp_path / "editions" / "e2").rmdir()
    assert found(load_rulebook(tmp_path)) == [
        ("editions/e1/t.yaml", 5, "decision 't.q' has no answer when (any situation)", EMPTY_HINT)]


def test_the_first_rule_can_be_dead(tmp_path, monkeypatch, write_rulebook):
    monkeypatch.chdir(tmp_path)
    write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: true, when: {all: [a, {not: a}]}}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, value: false}]}\n"))
    assert found(load_rulebook(tmp_path)) == [
        ("editions/e1/t.yaml", 9, "rule of t#x for 't.q' can never apply in an allowed situation (dead rule)",
         DEAD_HINT)]


def test_a_conflict_between_rules_that_are_not_overridden_is_seen_beside_one_that_is(
        tmp_path, monkeypatch, write_rulebook):
    # x answers everywhere and is overridden by y everywhere; y and z disagree when a holds
    monkeypatch.chdir(tmp_path)
    write_rulebook(tmp_path, (
        "      - {id: x, text: X., rules: [{decision: t.q, value: true}]}\n"
        "      - {id: y, text: Y., rules: [{decision: t.q, value: false, exception_to: ['t#x']}]}\n"
        "      - {id: z, text: Z., rules: [{decision: t.q, value: true, when: a}]}\n"))
    assert found(load_rulebook(tmp_path)) == [
        ("editions/e1/t.yaml", 10, "decision 't.q' is in conflict when a=true: t#y says false; t#z says true, "
                                   "and no rule is an exception to the other", CONFLICT_HINT)]
