"""Published editions are frozen: rulebook.lock, 'rulebook publish', 'rulebook correct' and 'check'.

The fixture tests/fixtures/lock/frozen has a published edition 1.0 (locked, its lock and log
written by 'rulebook publish --edition 1.0 --reason "First printing." --date 2026-01-01') and a draft 2.0.
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler import lock
from rulebook_compiler.build import load_rulebook
from rulebook_compiler.cli import main
from rulebook_compiler.diagnostics import Diagnostic, Location

FROZEN = Path(__file__).resolve().parent / "fixtures" / "lock" / "frozen"
CHANGE_HINT = ("  hint: a published edition does not change: undo the edit, or record a deliberate correction "
               "with rulebook correct --edition 1.0 --kind transcription|erratum --reason TEXT\n")


@pytest.fixture
def book(tmp_path, monkeypatch) -> Path:
    """A copy of the fixture, as ./frozen of the current folder (so that paths print short)."""
    shutil.copytree(FROZEN, tmp_path / "frozen")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    return Path("frozen")


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")


def _locked(book: Path) -> str:
    """The digest the lock holds of 1.0, which the log's entry records with it."""
    return lock.read(book)[0].entries["1.0"]["digest"]


def test_publish_writes_the_lock_and_the_log(book):
    (book / "rulebook.lock").unlink()
    (book / "corrections.yaml").unlink()
    result = run("publish", "--edition", "1.0", "--reason", "First printing.", "--date", "2026-01-01", "--rulebook", "frozen")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "1.0: locked; recorded in corrections.yaml and rulebook.lock\n", "")
    assert (book / "rulebook.lock").read_bytes() == (FROZEN / "rulebook.lock").read_bytes()
    assert (book / "corrections.yaml").read_bytes() == (FROZEN / "corrections.yaml").read_bytes()


def test_the_fixture_passes_check(book):
    result = run("check", "frozen")
    assert (result.exit_code, result.stderr) == (0, "")


def test_one_word_of_a_published_clause_fails_check_where_it_is(book):
    edit(book / "editions/1.0/cure.yaml", "curable if it is poisoned", "curable when it is poisoned")
    result = run("check", "frozen")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "frozen/editions/1.0/cure.yaml:13:9: error: published edition '1.0' differs from rulebook.lock: "
        "term 'cure', clause 'curable' changed\n" + CHANGE_HINT + "1 problem found\n")


def test_a_changed_meaning_fails_check(book):
    edit(book / "editions/1.0/cure.yaml", "{decision: cure.may_target, requires: curable}",
         "{decision: cure.may_target, requires: {not: {not: curable}}}")
    result = run("check", "frozen")
    assert result.stderr == (
        "frozen/editions/1.0/cure.yaml:16:9: error: published edition '1.0' differs from rulebook.lock: "
        "term 'cure', clause 'targets' changed\n" + CHANGE_HINT + "1 problem found\n")


def test_a_reader_note_is_locked_and_an_editor_note_is_not(book):
    path = book / "editions/1.0/cure.yaml"
    edit(path, "editor_notes: Page 12 of the booklet.", "editor_notes: Page 13 of the booklet.")
    edit(path, "'\"Targets\" is read as the targets of a cure.'", "Read as the targets of a cure.")
    assert (run("check", "frozen").exit_code, run("check", "frozen").stderr) == (0, "")
    edit(path, "notes: Cure is sometimes called Mend", "notes: Cure is often called Mend")
    result = run("check", "frozen")
    assert result.stderr == (
        "frozen/editions/1.0/cure.yaml:1:1: error: published edition '1.0' differs from rulebook.lock: "
        "term 'cure' changed (its name, aliases, notes, decisions or sections)\n" + CHANGE_HINT
        + "1 problem found\n")


def test_lines_moved_are_not_a_change(book):
    path = book / "editions/1.0/cure.yaml"
    path.write_text("# a comment moves every line down\n\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    result = run("check", "frozen")
    assert (result.exit_code, result.stderr) == (0, "")


def test_a_draft_edit_does_not_fail(book):
    edit(book / "editions/2.0/ward.yaml", "A ward is played outside of battle.", "A ward is cast outside of battle.")
    result = run("check", "frozen")
    assert (result.exit_code, result.stderr) == (0, "")


def test_clauses_and_terms_added_and_removed_are_named(book):
    path = book / "editions/1.0/cure.yaml"
    edit(path, "      - id: curable\n        text: A character is curable if it is poisoned.\n"
               "        defines: {name: curable, as: poisoned}\n",
         "      - id: curable-now\n        text: A character is curable if it is poisoned.\n"
         "        defines: {name: curable, as: poisoned}\n")
    (book / "editions/1.0/salve.yaml").write_text(
        "id: salve\nname: Salve\nsections:\n  - key: definition\n    kind: definition\n    clauses:\n"
        "      - id: soothes\n        text: A salve soothes.\n", encoding="utf-8")
    result = run("check", "frozen")
    head = "error: published edition '1.0' differs from rulebook.lock: "
    assert result.stderr == (
        f"frozen/editions/1.0/cure.yaml:1:1: {head}term 'cure' changed (its name, aliases, notes, decisions or "
        "sections)\n" + CHANGE_HINT
        + f"frozen/editions/1.0/cure.yaml:1:1: {head}term 'cure', clause 'curable' was removed\n" + CHANGE_HINT
        + f"frozen/editions/1.0/cure.yaml:13:9: {head}term 'cure', clause 'curable-now' was added\n" + CHANGE_HINT
        + f"frozen/editions/1.0/salve.yaml:1:1: {head}term 'salve' was added\n" + CHANGE_HINT
        + "4 problems found\n")


def test_a_published_edition_missing_from_the_lock(book):
    with (book / "rulebook.yaml").open("a", encoding="utf-8") as fh:
        fh.write('  - {id: "3.0", title: Third, date: "2024-01-01", status: published}\n')
    result = run("check", "frozen")
    assert result.stderr == (
        "frozen/rulebook.yaml:15:5: error: published edition '3.0' is not in rulebook.lock\n"
        "  hint: lock it with: rulebook publish --edition 3.0 --reason TEXT\n1 problem found\n")


def test_a_locked_edition_set_back_to_draft(book):
    edit(book / "rulebook.yaml", "    status: published\n", "    status: draft\n")
    result = run("check", "frozen")
    assert result.stderr == (
        "frozen/rulebook.yaml:5:5: error: edition '1.0' is locked as published, but its status is 'draft'\n"
        "  hint: a published edition stays published: set 'status: published' again\n1 problem found\n")


def test_a_malformed_lock(book):
    edit(book / "rulebook.lock", '"terms": {', '"terms": [{')
    result = run("check", "frozen")
    assert result.stderr == (
        "frozen/rulebook.lock:21:5: error: invalid YAML: expected ',' or ']' in the list that opens with '[' "
        "at line 5, column 16\n  hint: close the list with ']', and separate its items with ','\n1 problem found\n")
    (book / "rulebook.lock").write_text('{"format": "rulebook-lock/1", "editions": {"1.0": {"digest": 1}}}\n')
    result = run("check", "frozen")
    assert result.stderr == (
        "frozen/rulebook.lock:1:51: error: the lock entry of edition '1.0' is malformed\n"
        "  hint: rulebook.lock is written by 'rulebook publish' and 'rulebook correct'; "
        "restore it from version control\n1 problem found\n")


def test_correct_relocks_and_logs_what_changed(book):
    edit(book / "editions/1.0/cure.yaml", "curable if it is poisoned", "curable when it is poisoned")
    result = run("correct", "--edition", "1.0", "--kind", "transcription", "--reason", "The booklet says 'when'.",
                 "--date", "2026-02-03", "--rulebook", "frozen")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "1.0: 1 change; recorded in corrections.yaml and rulebook.lock\n", "")
    assert (book / "corrections.yaml").read_text(encoding="utf-8") == (
        (FROZEN / "corrections.yaml").read_text(encoding="utf-8")
        + "- date: '2026-02-03'\n  edition: '1.0'\n  kind: transcription\n  reason: The booklet says 'when'.\n"
          f"  changed:\n  - cure#curable\n  lock: {_locked(book)}\n")
    assert (run("check", "frozen").exit_code, run("check", "frozen").stderr) == (0, "")
    corrections = load_rulebook(book).corrections
    assert [(c.date, c.edition, c.kind, c.changed) for c in corrections] == [
        ("2026-01-01", "1.0", "publish", ()), ("2026-02-03", "1.0", "transcription", ("cure#curable",))]


def test_correct_with_nothing_changed_is_an_error(book):
    result = run("correct", "--edition", "1.0", "--kind", "erratum", "--reason", "x", "--rulebook", "frozen")
    assert (result.exit_code, result.stderr) == (1, (
        "frozen/rulebook.lock:3:5: error: edition '1.0' is as rulebook.lock records it: nothing to correct\n"
        "  hint: edit the edition's files first; a correction records a change\n1 problem found\n"))
    assert (book / "corrections.yaml").read_bytes() == (FROZEN / "corrections.yaml").read_bytes()


def test_publish_sets_a_drafts_status_and_locks_it_in_one_step(book):
    before = (book / "rulebook.yaml").read_text(encoding="utf-8")
    result = run("publish", "--edition", "2.0", "--reason", "Second printing.", "--date", "2026-03-01", "--rulebook", "frozen")
    assert (result.exit_code, result.stdout, result.stderr) == (0, (
        "2.0: locked; status set to published in rulebook.yaml; recorded in corrections.yaml and rulebook.lock\n"), "")
    # that one value, every other byte kept
    assert (book / "rulebook.yaml").read_text(encoding="utf-8") == before.replace(
        "    date: null\n    status: draft\n", "    date: null\n    status: published\n")
    assert (run("check", "frozen").exit_code, run("check", "frozen").stderr) == (0, "")
    assert lock.read(book)[0].entries.keys() == {"1.0", "2.0"}


def test_publish_keeps_the_status_lines_comment_and_quotes(book):
    edit(book / "rulebook.yaml", "    status: draft\n", "    status: 'draft'   # not yet\n")
    assert run("publish", "--edition", "2.0", "--reason", "x", "--rulebook", "frozen").exit_code == 0
    assert (book / "rulebook.yaml").read_text(encoding="utf-8").endswith("    status: published   # not yet\n")


def test_publish_puts_the_status_back_when_the_rulebook_fails_as_published(book, monkeypatch):
    # Nothing in the model depends on the status today, so the reading after the edit fails
    # only as if another process edited the rulebook meanwhile: made so here.
    from rulebook_compiler import loading

    real = loading.load
    calls = []

    def load(root, locked=True):
        calls.append(locked)
        if len(calls) == 2:
            raise loading.LoadError([Diagnostic(Location("frozen/rulebook.yaml", 11, 5), "edited meanwhile")])
        return real(root, locked=locked)

    monkeypatch.setattr(loading, "load", load)
    before = {p.name: p.read_bytes() for p in sorted(book.iterdir()) if p.is_file()}
    result = run("publish", "--edition", "2.0", "--reason", "x", "--rulebook", "frozen")
    assert (result.exit_code, result.stderr) == (1, "frozen/rulebook.yaml:11:5: error: edited meanwhile\n1 problem found\n")
    assert calls == [False, False]
    assert {p.name: p.read_bytes() for p in sorted(book.iterdir()) if p.is_file()} == before


def test_publish_refuses_a_locked_edition_and_correct_a_draft(book):
    result = run("publish", "--edition", "1.0", "--reason", "x", "--rulebook", "frozen")
    assert (result.exit_code, result.stderr) == (1, (
        "frozen/rulebook.lock:3:5: error: edition '1.0' is already published and locked\n"
        "  hint: to change it, record a correction: rulebook correct --edition 1.0 --kind transcription|erratum "
        "--reason TEXT\n1 problem found\n"))
    result = run("correct", "--edition", "2.0", "--kind", "erratum", "--reason", "x", "--rulebook", "frozen")
    assert (result.exit_code, result.stderr) == (1, (
        "frozen/rulebook.yaml:11:5: error: edition '2.0' is a draft, not published\n"
        "  hint: publish it first: rulebook publish --edition 2.0 --reason TEXT\n1 problem found\n"))


def test_publishing_a_draft_once_its_status_is_set(book):
    edit(book / "rulebook.yaml", "    status: draft\n", "    status: published\n")
    assert run("check", "frozen").stderr == (
        "frozen/rulebook.yaml:11:5: error: published edition '2.0' is not in rulebook.lock\n"
        "  hint: lock it with: rulebook publish --edition 2.0 --reason TEXT\n1 problem found\n")
    result = run("publish", "--edition", "2.0", "--reason", "Second printing.", "--date", "2026-03-01", "--rulebook", "frozen")
    assert (result.exit_code, result.stderr) == (0, "")
    assert (run("check", "frozen").exit_code, run("check", "frozen").stderr) == (0, "")


def test_usage_errors(book):
    result = run("publish", "--edition", "9.9", "--reason", "x", "--rulebook", "frozen")
    assert (result.exit_code, result.stderr) == (
        2, "rulebook: error: unknown edition '9.9'\n  hint: editions: 1.0, 2.0\n")
    result = run("publish", "--edition", "1.0", "--reason", "x", "--date", "2026-13-01", "--rulebook", "frozen")
    assert (result.exit_code, result.stderr.splitlines()[0]) == (
        2, "rulebook: error: --date: '2026-13-01' is not a date YYYY-MM-DD")
    result = run("correct", "--edition", "1.0", "--reason", "x", "--kind", "whim", "--rulebook", "frozen")
    assert result.exit_code == 2


def test_a_correction_of_an_unknown_edition_is_an_error(book):
    edit(book / "corrections.yaml", "edition: '1.0'", "edition: '1.1'")
    result = run("check", "frozen")
    assert result.stderr == (
        "frozen/corrections.yaml:5:12: error: correction of edition '1.1', which rulebook.yaml does not declare\n"
        "  hint: did you mean '1.0'?\n1 problem found\n")


def test_locations_and_editor_notes_are_not_in_a_digest():
    clause = load_rulebook(FROZEN).edition("1.0").term_by_id["cure"].clauses[1]
    moved = dataclasses.replace(clause, loc=Location("elsewhere.yaml", 99, 7), editor_notes="Another remark.")
    assert lock.digest(moved) == lock.digest(clause)
    assert lock.digest(dataclasses.replace(clause, notes="Another note.")) != lock.digest(clause)


def test_all_and_any_digest_differently():
    from rulebook_compiler.conditions import All, Any_, Ref

    assert lock.digest(All((Ref("a"), Ref("b")))) != lock.digest(Any_((Ref("a"), Ref("b"))))


def test_a_fact_of_a_published_edition_is_locked(book):
    edit(book / "vocabulary.yaml", "meaning: The character is poisoned.", "meaning: The character is venomed.")
    result = run("check", "frozen")
    assert result.stderr == (
        "frozen/vocabulary.yaml:2:5: error: published edition '1.0' differs from rulebook.lock: "
        "fact 'poisoned' changed or was added\n" + CHANGE_HINT + "1 problem found\n")
    result = run("correct", "--edition", "1.0", "--kind", "erratum", "--reason", "Venom.", "--date", "2026-02-03",
                 "--rulebook", "frozen")
    assert result.exit_code == 0
    assert (book / "corrections.yaml").read_text(encoding="utf-8").endswith(
        f"  changed:\n  - fact:poisoned\n  lock: {_locked(book)}\n")
    assert (run("check", "frozen").exit_code, run("check", "frozen").stderr) == (0, "")


def test_a_later_draft_adding_to_the_vocabulary_does_not_fail(book):
    (book / "editions/2.0/_vocabulary.yaml").write_text(
        "facts:\n  add:\n    - {name: asleep, type: bool, meaning: The character is asleep.}\n", encoding="utf-8")
    result = run("check", "frozen")
    assert (result.exit_code, result.stderr) == (0, "")


def test_a_locked_edition_that_rulebook_yaml_no_longer_declares(book):
    edit(book / "rulebook.lock", '"editions": {\n    "1.0": {', '"editions": {\n    "0.9": {"digest": "x", '
         '"terms": {}, "vocabulary": {"constraints": {}, "facts": {}}},\n    "1.0": {')
    result = run("check", "frozen")
    assert result.stderr == (
        "frozen/rulebook.lock:3:5: error: the lock has edition '0.9', which rulebook.yaml does not declare\n"
        "  hint: a published edition is never removed; declare it again in rulebook.yaml\n1 problem found\n")


# What the next check refuses in the log (a control character: YAML text holds printable
# characters, tabs and line breaks only), and what is not text at all (a lone surrogate: bytes of
# the command line that were not UTF-8), is refused before anything is written.
@pytest.mark.parametrize("reason, shown", [
    ("Red \x1b[31m text", "control character U+001B '\\x1b'"),
    ("A NUL \x00 here", "control character U+0000 '\\x00'"),
    ("Next line \x85 (NEL)", "control character U+0085 '\\x85'"),
    ("Delete \x7f", "control character U+007F '\\x7f'"),
    ("Not UTF-8 \udcff", "U+DCFF '\\udcff', which is not a character (the command line was not UTF-8)"),
], ids=["escape", "nul", "nel", "del", "surrogate"])
@pytest.mark.parametrize("command", [["publish", "--edition", "2.0"], ["correct", "--edition", "1.0", "--kind", "erratum"]])
def test_a_reason_the_log_cannot_hold_is_refused_before_anything_is_written(book, reason, shown, command):
    edit(book / "rulebook.yaml", "    status: draft\n", "    status: published\n")
    edit(book / "editions/1.0/cure.yaml", "curable if it is poisoned", "curable when it is poisoned")
    before = {name: (book / name).read_bytes() for name in ("rulebook.lock", "corrections.yaml")}
    result = run(*command, "--reason", reason, "--rulebook", "frozen")
    assert (result.exit_code, result.stdout, result.stderr.splitlines()[0]) == (
        2, "", f"rulebook: error: --reason: it holds {shown}; the corrections log holds printable "
               "characters, tabs and line breaks only")
    assert {name: (book / name).read_bytes() for name in before} == before


def test_a_reason_with_tabs_and_line_breaks_is_logged_and_passes_check(book):
    edit(book / "rulebook.yaml", "    status: draft\n", "    status: published\n")
    result = run("publish", "--edition", "2.0", "--reason", "Second printing:\n\tthe errata folded in.", "--date", "2026-03-01",
                 "--rulebook", "frozen")
    assert (result.exit_code, result.stderr) == (0, "")
    assert load_rulebook(book).corrections[-1].reason == "Second printing:\n\tthe errata folded in."
    assert (run("check", "frozen").exit_code, run("check", "frozen").stderr) == (0, "")
