"""The published record is append-only: ``rulebook check`` alone, and ``rulebook check --against BASE``.

Each scenario starts from tests/fixtures/lock/frozen (a published 1.0, locked, whose log has its
publish entry with the digest it locked, and a draft 2.0), committed in a scratch git repository
and tagged ``base``; the work tree is then changed as the scenario says, and checked as ./rb.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.cli import main
from rulebook_compiler.review import verdict

FROZEN = Path(__file__).resolve().parent / "fixtures" / "lock" / "frozen"
D0 = "0e215d8f74a28133539d1427c671b9657b560f8c0e17f936673cf6774714db6e"  # 1.0 as the fixture locks it
SUMMARY = "Frozen: 2 editions (1.0, 2.0), 2 terms, latest 2.0 with 2 terms and 3 clauses: no problems"
CORRECT_HINT = ("  hint: record it: rulebook correct --edition 1.0 --kind transcription|erratum --reason TEXT "
                "(it re-locks the edition and logs what changed), or undo the edit\n")
APPEND_HINT = ("  hint: corrections.yaml is append-only: restore the entry as git:base has it; "
               "a new correction is a new entry at the end\n")


def git(*args: str) -> str:
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture
def rb(tmp_path, monkeypatch) -> Path:
    """The fixture committed as tag ``base`` in a scratch repository; ./rb in the current folder."""
    repo = tmp_path / "repo"
    shutil.copytree(FROZEN, repo / "rb")
    monkeypatch.chdir(repo)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("RULEBOOK_NO_CACHE", "1")
    git("init", "-q", "-b", "main")
    git("-c", "user.name=t", "-c", "user.email=t@t", "add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "base")
    git("tag", "base")
    return Path("rb")


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def review():
    return run("check", "--against", "git:base", "rb")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")


def correct(*args: str) -> None:
    result = run("correct", "--edition", "1.0", *args, "--date", "2026-02-02", "--rulebook", "rb")
    assert (result.exit_code, result.stderr) == (0, "")


def reword_curable(rb: Path) -> None:
    edit(rb / "editions/1.0/cure.yaml", "curable if it is poisoned", "curable when it is poisoned")


def head_digest(rb: Path) -> str:
    import json

    return json.loads((rb / "rulebook.lock").read_text(encoding="utf-8"))["editions"]["1.0"]["digest"]


# -- against the base -----------------------------------------------------------------------------


def test_the_base_itself_passes(rb):
    result = review()
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, SUMMARY + "\npublished record: append-only against git:base (1 published edition, 0 log entries added)\n",
        "")


def test_a_folder_as_the_base(rb, tmp_path):
    shutil.copytree(FROZEN, tmp_path / "old")
    result = run("check", "--against", str(tmp_path / "old"), "rb")
    assert (result.exit_code, result.stderr) == (0, "")


def test_verdict_of_identical_revisions_is_empty(rb):
    book = load_rulebook(rb)
    assert verdict(book, book, "git:base") == []


def test_an_honest_correction_passes_and_logs_its_digest(rb):
    reword_curable(rb)
    correct("--kind", "erratum", "--reason", "Errata sheet 1.")
    assert (rb / "corrections.yaml").read_text(encoding="utf-8") == (
        (FROZEN / "corrections.yaml").read_text(encoding="utf-8")
        + "- date: '2026-02-02'\n  edition: '1.0'\n  kind: erratum\n  reason: Errata sheet 1.\n"
          f"  changed:\n  - cure#curable\n  lock: {head_digest(rb)}\n")
    result = review()
    assert (result.exit_code, result.stderr, result.stdout.splitlines()[-1]) == (
        0, "", "published record: append-only against git:base (1 published edition, 1 log entry added)")


def test_an_honest_publish_passes(rb):
    edit(rb / "rulebook.yaml", "    status: draft\n", "    status: published\n")
    result = run("publish", "--edition", "2.0", "--reason", "Second printing.", "--date", "2026-03-01", "--rulebook", "rb")
    assert (result.exit_code, result.stderr) == (0, "")
    result = review()
    assert (result.exit_code, result.stderr, result.stdout.splitlines()[-1]) == (
        0, "", "published record: append-only against git:base (2 published editions, 1 log entry added)")


def test_the_lock_rewritten_and_its_log_entry_thrown_away(rb):
    reword_curable(rb)
    correct("--kind", "erratum", "--reason", "Errata sheet 1.")
    shutil.copy(FROZEN / "corrections.yaml", rb / "corrections.yaml")
    result = review()
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"rb/corrections.yaml:8:9: error: the last entry of edition '1.0' in corrections.yaml records the lock "
        f"digest {D0[:12]}, but rulebook.lock holds {head_digest(rb)[:12]}\n"
        "  hint: 'rulebook publish' and 'rulebook correct' write the log and the lock together: restore both "
        "from version control, or run the command again\n"
        "rb/editions/1.0/cure.yaml:13:9: error: published edition '1.0' changed 'cure#curable' since git:base, "
        "and no new entry of corrections.yaml names it\n" + CORRECT_HINT + "2 problems found\n")


def test_the_lock_rewritten_in_a_log_written_before_digests(rb):
    """Without digests in the log, one revision cannot tell (check passes); the review can."""
    edit(rb / "corrections.yaml", f"  lock: {D0}\n", "")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-am", "a log without digests")
    git("tag", "-f", "base")
    legacy = (rb / "corrections.yaml").read_text(encoding="utf-8")
    reword_curable(rb)
    correct("--kind", "erratum", "--reason", "Errata sheet 1.")
    (rb / "corrections.yaml").write_text(legacy, encoding="utf-8")
    assert (run("check", "rb").exit_code, run("check", "rb").stderr) == (0, "")
    result = review()
    assert (result.exit_code, result.stderr) == (1, (
        "rb/editions/1.0/cure.yaml:13:9: error: published edition '1.0' changed 'cure#curable' since git:base, "
        "and no new entry of corrections.yaml names it\n" + CORRECT_HINT + "1 problem found\n"))


def test_a_change_the_new_entry_does_not_name(rb):
    reword_curable(rb)
    edit(rb / "editions/1.0/cure.yaml", "Targets must be curable.", "Targets must be curable now.")
    correct("--kind", "erratum", "--reason", "Errata sheet 1.")
    edit(rb / "corrections.yaml", "  - cure#curable\n  - cure#targets\n", "  - cure#curable\n")
    result = review()
    assert (result.exit_code, result.stderr) == (1, (
        "rb/editions/1.0/cure.yaml:16:9: error: published edition '1.0' changed 'cure#targets' since git:base, "
        "and no new entry of corrections.yaml names it\n" + CORRECT_HINT + "1 problem found\n"))


def test_a_new_entry_naming_what_did_not_change(rb):
    reword_curable(rb)
    correct("--kind", "transcription", "--reason", "Typo.")
    edit(rb / "corrections.yaml", "  - cure#curable\n", "  - cure#curable\n  - cure#targets\n")
    result = review()
    assert (result.exit_code, result.stderr) == (1, (
        "rb/corrections.yaml:15:5: error: the entry names 'cure#targets', which did not change since git:base\n"
        "  hint: what changed in edition '1.0': cure#curable\n1 problem found\n"))


def test_the_lock_deleted(rb):
    (rb / "rulebook.lock").unlink()
    expected = (
        "rb/corrections.yaml:4:3: error: rulebook.lock is missing, though corrections.yaml records the publish "
        "of edition '1.0' here\n"
        "  hint: a published edition stays locked: restore rulebook.lock from version control\n1 problem found\n")
    assert (run("check", "rb").exit_code, run("check", "rb").stderr) == (1, expected)
    assert (review().exit_code, review().stderr) == (1, expected)


def test_a_lock_entry_removed(rb):
    (rb / "rulebook.lock").write_text('{"editions": {}, "format": "rulebook-lock/1"}\n', encoding="utf-8")
    result = review()
    assert (result.exit_code, result.stderr) == (1, (
        "rb/rulebook.yaml:5:5: error: published edition '1.0' is not in rulebook.lock\n"
        "  hint: lock it with: rulebook publish --edition 1.0 --reason TEXT\n"
        "rb/corrections.yaml:4:3: error: rulebook.lock has no entry for edition '1.0', though corrections.yaml "
        "records its publish here\n"
        "  hint: a published edition stays locked: restore its entry of rulebook.lock from version control\n"
        "2 problems found\n"))


def test_a_malformed_lock_is_reported_once_as_malformed(rb):
    (rb / "rulebook.lock").write_text('{"format": "rulebook-lock/1", "editions": {"1.0": {"digest": 1}}}\n')
    result = review()
    assert (result.exit_code, result.stderr) == (1, (
        "rb/rulebook.lock:1:51: error: the lock entry of edition '1.0' is malformed\n"
        "  hint: rulebook.lock is written by 'rulebook publish' and 'rulebook correct'; "
        "restore it from version control\n1 problem found\n"))


def test_a_log_entry_edited(rb):
    edit(rb / "corrections.yaml", "reason: First printing.", "reason: A later printing.")
    result = review()
    assert (result.exit_code, result.stderr) == (1, (
        "rb/corrections.yaml:4:3: error: an entry of corrections.yaml was edited since git:base (its reason)\n"
        + APPEND_HINT + "1 problem found\n"))


def test_a_log_entry_removed(rb):
    (rb / "corrections.yaml").write_text("corrections: []\n", encoding="utf-8")
    result = review()
    assert (result.exit_code, result.stderr) == (1, (
        "rb/corrections.yaml:1:14: error: an entry of corrections.yaml was removed since git:base "
        "(2026-01-01, edition '1.0', publish)\n" + APPEND_HINT + "1 problem found\n"))


def test_a_published_edition_removed(rb):
    edit(rb / "rulebook.yaml", '  - id: "1.0"\n    title: First\n    date: "2020-01-01"\n    status: published\n'
                               "    notes: The first printing.\n    editor_notes: Typed from the printed booklet.\n", "")
    shutil.rmtree(rb / "editions/1.0")
    (rb / "rulebook.lock").write_text('{"editions": {}, "format": "rulebook-lock/1"}\n', encoding="utf-8")
    (rb / "corrections.yaml").write_text("corrections: []\n", encoding="utf-8")
    result = review()
    assert (result.exit_code, result.stderr) == (1, (
        "rb/corrections.yaml:1:14: error: an entry of corrections.yaml was removed since git:base "
        "(2026-01-01, edition '1.0', publish)\n" + APPEND_HINT
        + "rb/rulebook.yaml:5:5: error: published edition '1.0' was removed from rulebook.yaml since git:base\n"
          "  hint: a published edition is never removed: declare it again as git:base has it\n"
          "2 problems found\n"))


def test_a_published_edition_set_back_to_draft(rb):
    edit(rb / "rulebook.yaml", "    status: published\n", "    status: draft\n")
    result = review()
    assert (result.exit_code, result.stderr) == (1, (
        "rb/rulebook.yaml:5:5: error: edition '1.0' is locked as published, but its status is 'draft'\n"
        "  hint: a published edition stays published: set 'status: published' again\n"
        "rb/rulebook.yaml:5:5: error: published edition '1.0' was set back to 'draft' since git:base\n"
        "  hint: a published edition stays published: set 'status: published' again\n2 problems found\n"))


def test_a_forged_correction_with_the_current_digest(rb):
    with (rb / "corrections.yaml").open("a", encoding="utf-8") as fh:
        fh.write(f"- date: '2026-02-02'\n  edition: '1.0'\n  kind: erratum\n  reason: Forged.\n"
                 f"  changed:\n  - cure#curable\n  lock: {D0}\n")
    result = review()
    assert (result.exit_code, result.stderr) == (1, (
        "rb/corrections.yaml:15:9: error: this correction of edition '1.0' locks what the entry before it "
        "locked: nothing changed\n  hint: a correction records a change: remove this entry\n"
        "rb/corrections.yaml:9:3: error: a correction of edition '1.0' added since git:base, but its entry of "
        "rulebook.lock did not change\n"
        "  hint: a correction records a change made with 'rulebook correct'; remove this entry\n"
        "2 problems found\n"))


def test_a_second_publish_of_a_locked_edition(rb):
    with (rb / "corrections.yaml").open("a", encoding="utf-8") as fh:
        fh.write(f"- date: '2026-02-02'\n  edition: '1.0'\n  kind: publish\n  reason: Again.\n  lock: {D0}\n")
    result = review()
    assert (result.exit_code, result.stderr) == (1, (
        "rb/corrections.yaml:9:3: error: a publish of edition '1.0' added since git:base, where rulebook.lock "
        "locked it already\n  hint: an edition is published once; remove this entry\n1 problem found\n"))


def test_correct_run_again_after_the_lock_was_not_written(rb):
    reword_curable(rb)
    correct("--kind", "erratum", "--reason", "Errata sheet 1.")
    logged = (rb / "corrections.yaml").read_text(encoding="utf-8")
    shutil.copy(FROZEN / "rulebook.lock", rb / "rulebook.lock")  # as if the second write had failed
    assert run("check", "rb").exit_code == 1
    correct("--kind", "erratum", "--reason", "Errata sheet 1.")
    assert (rb / "corrections.yaml").read_text(encoding="utf-8") == logged  # not logged twice
    assert (run("check", "rb").exit_code, run("check", "rb").stderr) == (0, "")


def test_a_new_entry_without_a_digest_in_a_log_written_before_digests(rb):
    edit(rb / "corrections.yaml", f"  lock: {D0}\n", "")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-am", "a log without digests")
    git("tag", "-f", "base")
    assert (run("check", "rb").exit_code, run("check", "rb").stderr) == (0, "")  # an old log stays valid
    reword_curable(rb)
    correct("--kind", "erratum", "--reason", "Errata sheet 1.")
    edit(rb / "corrections.yaml", f"  lock: {head_digest(rb)}\n", "")
    result = review()
    assert (result.exit_code, result.stderr) == (1, (
        "rb/corrections.yaml:8:3: error: an entry added since git:base without its 'lock' digest: it was not "
        "written by 'rulebook publish' or 'rulebook correct'\n"
        "  hint: remove it, and record the change with: rulebook correct --edition 1.0 --kind transcription|erratum "
        "--reason TEXT\n1 problem found\n"))


def test_an_unknown_revision_is_a_usage_error(rb):
    result = run("check", "--against", "git:nosuch", "rb")
    assert (result.exit_code, result.stderr.splitlines()[0]) == (
        2, "rulebook: error: --against: unknown revision 'nosuch'; branches: main; tags: base; "
           "or any commit (HEAD, HEAD~1, a hash)")


def test_an_edition_named_as_the_base_is_a_usage_error(rb):
    result = run("check", "--against", "git:base:1.0", "rb")
    assert (result.exit_code, result.stderr.splitlines()[0]) == (
        2, "rulebook: error: --against: 'git:base:1.0' names an edition; "
           "the base is a whole rulebook: git:REV or a folder")


def test_reading_the_base_changes_nothing(rb):
    reword_curable(rb)
    before = git("status", "--porcelain")
    review()
    assert git("status", "--porcelain") == before


# -- without a base -------------------------------------------------------------------------------


FORGED = ("- date: '2026-02-02'\n  edition: '1.0'\n  kind: erratum\n  reason: Forged.\n"
          "  changed:\n  - nosuch#clause\n  - constraint:nope\n  - cure#curabl\n")


def test_refs_that_name_nothing(rb):
    with (rb / "corrections.yaml").open("a", encoding="utf-8") as fh:
        fh.write(FORGED)
    result = run("check", "rb")
    # every problem at once: the entry has no digest (not written by correct), and names nothing
    assert (result.exit_code, result.stderr) == (1, (
        "rb/corrections.yaml:9:3: error: this entry has no 'lock' digest, though an entry before it has one: "
        "it was not written by 'rulebook publish' or 'rulebook correct'\n"
        "  hint: remove it; record a change with: rulebook correct --edition 1.0 --kind transcription|erratum "
        "--reason TEXT\n"
        "rb/corrections.yaml:14:5: error: the entry names 'nosuch#clause', which edition '1.0' does not have\n"
        "  hint: name a term (TERM), a clause (TERM#CLAUSE), a fact (fact:NAME) or a constraint (constraint:ID) "
        "of the edition; what the correction removed goes under 'removed' too\n"
        "rb/corrections.yaml:15:5: error: the entry names 'constraint:nope', which edition '1.0' does not have\n"
        "  hint: name a term (TERM), a clause (TERM#CLAUSE), a fact (fact:NAME) or a constraint (constraint:ID) "
        "of the edition; what the correction removed goes under 'removed' too\n"
        "rb/corrections.yaml:16:5: error: the entry names 'cure#curabl', which edition '1.0' does not have\n"
        "  hint: did you mean 'cure#curable'?\n4 problems found\n"))


def test_the_site_does_not_show_a_forged_entry(rb, tmp_path):
    with (rb / "corrections.yaml").open("a", encoding="utf-8") as fh:
        fh.write(FORGED)
    result = run("build", "--rulebook", "rb", "--out", str(tmp_path / "site"))
    assert (result.exit_code, (tmp_path / "site").exists()) == (1, False)


def test_a_correction_that_removes_a_clause_lists_it_as_removed(rb):
    edit(rb / "editions/1.0/cure.yaml", "        notes: Printed in bold in the booklet.\n", "")
    edit(rb / "editions/1.0/cure.yaml", "      - id: targets\n", "      - id: targeted\n")
    correct("--kind", "erratum", "--reason", "Renamed.")
    assert (rb / "corrections.yaml").read_text(encoding="utf-8").endswith(
        "  changed:\n  - cure\n  - cure#targeted\n  - cure#targets\n  removed:\n  - cure#targets\n"
        f"  lock: {head_digest(rb)}\n")
    assert (run("check", "rb").exit_code, run("check", "rb").stderr) == (0, "")
    assert (review().exit_code, review().stderr) == (0, "")


def test_an_earlier_entry_may_name_what_a_later_one_removed(rb):
    edit(rb / "editions/1.0/cure.yaml", "Targets must be curable.", "Targets must be curable now.")
    correct("--kind", "transcription", "--reason", "Typo.")
    edit(rb / "editions/1.0/cure.yaml", "        notes: Printed in bold in the booklet.\n", "")
    edit(rb / "editions/1.0/cure.yaml", "      - id: targets\n", "      - id: targeted\n")
    correct("--kind", "erratum", "--reason", "Renamed.")
    assert (run("check", "rb").exit_code, run("check", "rb").stderr) == (0, "")
    assert (review().exit_code, review().stderr) == (0, "")


def test_a_removed_ref_that_changed_does_not_list(rb):
    with (rb / "corrections.yaml").open("a", encoding="utf-8") as fh:
        fh.write("- date: '2026-02-02'\n  edition: '1.0'\n  kind: erratum\n  reason: R.\n"
                 "  changed:\n  - cure#curable\n  removed:\n  - cure#gone\n")
    result = run("check", "rb")
    assert (result.exit_code, result.stderr) == (1, (
        "rb/corrections.yaml:9:3: error: this entry has no 'lock' digest, though an entry before it has one: "
        "it was not written by 'rulebook publish' or 'rulebook correct'\n"
        "  hint: remove it; record a change with: rulebook correct --edition 1.0 --kind transcription|erratum "
        "--reason TEXT\n"
        "rb/corrections.yaml:16:5: error: 'removed' names 'cure#gone', which 'changed' does not list\n"
        "  hint: list under 'removed' the refs of 'changed' that name what the correction removed\n"
        "2 problems found\n"))


def test_a_later_entry_without_a_digest(rb):
    with (rb / "corrections.yaml").open("a", encoding="utf-8") as fh:
        fh.write("- date: '2026-02-02'\n  edition: '1.0'\n  kind: erratum\n  reason: Forged.\n"
                 "  changed:\n  - cure#curable\n")
    result = run("check", "rb")
    assert (result.exit_code, result.stderr) == (1, (
        "rb/corrections.yaml:9:3: error: this entry has no 'lock' digest, though an entry before it has one: "
        "it was not written by 'rulebook publish' or 'rulebook correct'\n"
        "  hint: remove it; record a change with: rulebook correct --edition 1.0 --kind transcription|erratum "
        "--reason TEXT\n1 problem found\n"))


def test_a_malformed_digest_is_a_schema_error(rb):
    edit(rb / "corrections.yaml", f"  lock: {D0}\n", "  lock: abc\n")
    result = run("check", "rb")
    assert (result.exit_code, result.stderr) == (1, (
        "rb/corrections.yaml:8:9: error: 'lock' of item 1 of 'corrections' cannot be 'abc'\n"
        "  hint: a SHA-256 digest, 64 lowercase hexadecimal digits, as 'rulebook publish' and 'rulebook correct' "
        "write it\n1 problem found\n"))
