"""Rulings (editions/ID/_rulings.yaml): the committee's answers, held to the model by ``rulebook check``.

The fixture (tests/fixtures/rulings): in v1 cure.may_target requires ``curable``
(poisoned or paralyzed) and cure#not-in-battle, an exception, forbids it in battle;
v2 drops that exception. v1 rules that a poisoned character cannot be targeted in
battle and that a paralyzed one can outside it; v2 supersedes the first with a
ruling that it can (the exception is gone) and carries the second over.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main

RULINGS = Path(__file__).resolve().parent / "fixtures" / "rulings"
HINT_WRONG = ("  hint: the rules or the ruling are wrong: fix the rules that answered (in a published edition, "
              "through 'rulebook correct'), or the ruling; 'rulebook ask cure.may_target' shows why")


@pytest.fixture()
def book(tmp_path, monkeypatch) -> Path:
    """A copy of the fixture in the current folder, so that problems name 'rulings/...'."""
    monkeypatch.setenv("RULEBOOK_NO_CACHE", "1")
    monkeypatch.chdir(tmp_path)
    shutil.copytree(RULINGS, tmp_path / "rulings")
    return tmp_path / "rulings"


def check():
    return CliRunner().invoke(main, ["check", "rulings"])


def _edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text()
    assert text.count(old) >= count, old
    path.write_text(text.replace(old, new, count))


def _add(book: Path, edition: str, ruling: str) -> None:
    path = book / "editions" / edition / "_rulings.yaml"
    path.write_text(path.read_text() + ruling)


def _ruling(rid: str, decision: str, facts: str, answer: str, cites: str) -> str:
    return (f"  - id: {rid}\n    question: A question?\n    decision: {decision}\n    facts: {facts}\n"
            f"    answer: {answer}\n    cites: {cites}\n"
            "    source: {who: A judge, where: Nationals, date: \"2020\"}\n    status: committee\n")


def test_rulings_the_model_agrees_with_pass(book):
    result = check()
    assert (result.exit_code, result.output) == (
        0, "Rulings: 2 editions (v1, v2), 1 term, latest v2 with 1 term and 3 clauses: no problems\n")


def test_a_ruling_that_contradicts_the_model_is_an_error_at_its_answer_with_the_rules_that_answered(book):
    _edit(book / "editions" / "v1" / "_rulings.yaml", "answer: false", "answer: true")
    result = check()
    assert (result.exit_code, result.output.splitlines()) == (1, [
        "rulings/editions/v1/_rulings.yaml:6:13: error: ruling 'cure-in-battle' answers true when phase=battle, "
        "poisoned=true, but the edition answers false: cure#not-in-battle says false",
        HINT_WRONG,
        "1 problem found"])


def test_a_ruling_carried_over_is_held_to_the_later_edition(book):
    # without the supersedes, v1's ruling applies to v2, where the clause it cites and the answer are gone
    _edit(book / "editions" / "v2" / "_rulings.yaml", "    supersedes: [cure-in-battle]\n", "")
    result = check()
    withdraw = ("if the ruling no longer holds from this edition on, withdraw it in editions/v2/_rulings.yaml "
                "(withdrawn: [cure-in-battle])")
    assert (result.exit_code, result.output.splitlines()) == (1, [
        "rulings/editions/v1/_rulings.yaml:6:13: error: ruling 'cure-in-battle' answers false when phase=battle, "
        "poisoned=true, but the edition answers true: cure#targets says true, in edition 'v2'",
        HINT_WRONG + "; " + withdraw,
        "rulings/editions/v1/_rulings.yaml:7:13: error: ruling 'cure-in-battle' cites clause 'cure#not-in-battle', "
        "which the edition does not have, in edition 'v2'",
        "  hint: cite a clause as TERM#CLAUSE, as the edition has it; " + withdraw,
        "2 problems found"])


def test_withdrawing_a_ruling_stops_it_applying(book):
    path = book / "editions" / "v2" / "_rulings.yaml"
    _edit(path, "    supersedes: [cure-in-battle]\n", "")
    path.write_text(path.read_text() + "withdrawn: [cure-in-battle]\n")
    assert check().exit_code == 0


def test_withdrawing_or_superseding_a_ruling_no_earlier_edition_has_is_an_error(book):
    path = book / "editions" / "v2" / "_rulings.yaml"
    _edit(path, "supersedes: [cure-in-battle]", "supersedes: [cure-in-batle]")
    path.write_text(path.read_text() + "withdrawn: [nothing-here]\n")
    result = check()
    lines = result.output.splitlines()
    # the ruling not superseded still applies to v2, and fails there (the first four lines)
    assert (lines[0], lines[-1]) == (
        "rulings/editions/v1/_rulings.yaml:6:13: error: ruling 'cure-in-battle' answers false when phase=battle, "
        "poisoned=true, but the edition answers true: cure#targets says true, in edition 'v2'", "4 problems found")
    assert lines[4:8] == [
        "rulings/editions/v2/_rulings.yaml:10:18: error: supersedes ruling 'cure-in-batle', which no earlier "
        "edition's rulings hold",
        "  hint: did you mean 'cure-in-battle'?",
        "rulings/editions/v2/_rulings.yaml:11:13: error: withdraws ruling 'nothing-here', which no earlier "
        "edition's rulings hold",
        "  hint: name a ruling of an earlier edition that still applies"]


def test_a_ruling_citing_a_clause_that_does_not_exist_is_an_error_with_did_you_mean(book):
    _add(book, "v1", _ruling("saves", "cure.saves", "{being_discarded: true}", "true", "[cure#save]"))
    result = check()
    assert (result.exit_code, result.output.splitlines()) == (1, [
        "rulings/editions/v1/_rulings.yaml:23:13: error: ruling 'saves' cites clause 'cure#save', which the edition "
        "does not have",
        "  hint: did you mean 'cure#saves'?",
        "1 problem found"])


def test_a_ruling_whose_situation_the_constraints_rule_out_is_an_error_at_its_facts(book):
    _add(book, "v1", _ruling("saves", "cure.saves", "{being_discarded: true, in_discard_pile: true}", "true",
                             "[cure#saves]"))
    result = check()
    assert (result.exit_code, result.output.splitlines()) == (1, [
        "rulings/editions/v1/_rulings.yaml:21:12: error: ruling 'saves' asks of a situation the constraints rule "
        "out: being_discarded=true, in_discard_pile=true; constraint pile-not-being-discarded (A character already "
        "in a discard pile is not being discarded.)",
        "  hint: the ruling's facts describe no real game state: correct them, or the constraint",
        "1 problem found"])


def test_a_ruling_whose_facts_do_not_decide_is_an_error_naming_the_facts(book):
    _add(book, "v1", _ruling("open", "cure.may_target", "{phase: preparation}", "true", "[cure#targets]"))
    result = check()
    assert result.output.splitlines()[:2] == [
        "rulings/editions/v1/_rulings.yaml:21:12: error: ruling 'open': these facts do not decide "
        "'cure.may_target': it could be false or true, depending on paralyzed, poisoned",
        "  hint: give the ruling the facts that decide it, or check the rules it reads"]


def test_a_ruling_outside_the_decisions_given_is_not_answered(book):
    _add(book, "v1", _ruling("pile", "cure.saves", "{in_discard_pile: true}", "true", "[cure#saves]"))
    result = check()
    assert result.output.splitlines()[0] == (
        "rulings/editions/v1/_rulings.yaml:22:13: error: ruling 'pile' answers true when in_discard_pile=true, but "
        "the edition answers nothing: the decision is not asked here (only when being_discarded)")


def test_unknown_decisions_facts_values_and_answers_are_errors_at_their_places(book):
    _add(book, "v1", _ruling("typos", "cure.may_targt", "{phase: batle, poisond: true}", "maybe", "[cure#targets]"))
    _add(book, "v1", _ruling("value", "cure.may_target", "{phase: battle}", "maybe", "[cure#targets]"))
    assert check().output.splitlines() == [
        "rulings/editions/v1/_rulings.yaml:20:15: error: ruling 'typos' asks about decision 'cure.may_targt', which "
        "the edition does not have",
        "  hint: did you mean 'cure.may_target'?",
        "rulings/editions/v1/_rulings.yaml:21:20: error: ruling 'typos': fact 'phase' has no value 'batle'; did you "
        "mean 'battle'? (its values: preparation, battle, discard)",
        "rulings/editions/v1/_rulings.yaml:21:36: error: ruling 'typos': the edition has no fact 'poisond'; did you "
        "mean 'poisoned'?",
        "rulings/editions/v1/_rulings.yaml:30:13: error: ruling 'value' answers maybe, which is not a value of "
        "decision 'cure.may_target'",
        "  hint: its values: false, true",
        "4 problems found"]


def test_a_misshapen_rulings_file_gets_schema_errors(book):
    _add(book, "v1", "  - id: bare\n    question: Why?\n")
    result = check()
    assert result.output.splitlines()[0] == (
        "rulings/editions/v1/_rulings.yaml:18:5: error: item 3 of 'rulings' lacks required key 'decision'")


def test_the_lock_of_a_published_edition_does_not_change_with_its_rulings(tmp_path, monkeypatch):
    """Rulings are checked beside the model: adding one to a locked edition leaves its lock passing."""
    monkeypatch.setenv("RULEBOOK_NO_CACHE", "1")
    monkeypatch.chdir(tmp_path)
    shutil.copytree(Path(__file__).resolve().parent / "fixtures" / "lock" / "frozen", tmp_path / "frozen")
    (tmp_path / "frozen" / "editions" / "1.0" / "_rulings.yaml").write_text(
        "rulings:\n" + _ruling("poisoned", "cure.may_target", "{poisoned: true}", "true", "[cure#targets]"))
    result = CliRunner().invoke(main, ["check", "frozen"])
    assert (result.exit_code, result.output) == (
        0, "Frozen: 2 editions (1.0, 2.0), 2 terms, latest 2.0 with 2 terms and 3 clauses: no problems\n")


def test_with_the_cache_an_edited_rule_or_ruling_is_checked_again(tmp_path, monkeypatch):
    """The cache holds a whole check by the files' hashes; an edit of a term file, which an incremental
    check would read alone, sends a rulebook with rulings to a full check (a ruling reads any rule)."""
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    shutil.copytree(RULINGS, tmp_path / "rulings")
    assert [check().exit_code, check().exit_code] == [0, 0]
    term = tmp_path / "rulings" / "editions" / "v1" / "cure.yaml"
    _edit(term, "forbids: {is: {phase: battle}}", "forbids: {is: {phase: discard}}")
    assert check().output.splitlines()[0] == (
        "rulings/editions/v1/_rulings.yaml:6:13: error: ruling 'cure-in-battle' answers false when phase=battle, "
        "poisoned=true, but the edition answers true: cure#targets says true")
    _edit(term, "forbids: {is: {phase: discard}}", "forbids: {is: {phase: battle}}")
    assert check().exit_code == 0
    _edit(tmp_path / "rulings" / "editions" / "v1" / "_rulings.yaml", "answer: false", "answer: true")
    assert check().exit_code == 1


def test_a_misnamed_rulings_file_is_an_unknown_file_with_did_you_mean(book):
    (book / "editions" / "v1" / "_rulings.yaml").rename(book / "editions" / "v1" / "_ruling.yaml")
    assert check().output.splitlines()[:2] == [
        "rulings/editions/v1/_ruling.yaml: error: unknown file in an edition folder",
        "  hint: did you mean '_rulings.yaml'?"]
