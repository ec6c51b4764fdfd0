"""Every command that reads an edition refuses a rulebook whose published edition differs from its lock.

The scenario: a copy of tests/fixtures/lock/frozen (edition 1.0 published and locked, 2.0 a
draft) in which one word of published clause ``cure#curable`` is edited and rulebook.lock is
left as it was. ``rulebook check`` fails with one located error (tests/test_lock.py); every
other command that reads the rulebook must fail with the same lines, exit 1, and write
nothing. ``rulebook correct`` still reads it: recording such an edit is its purpose.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler import lock
from rulebook_compiler.build import load_rulebook
from rulebook_compiler.cli import main
from rulebook_compiler.fileio import write_text

FROZEN = Path(__file__).resolve().parent / "fixtures" / "lock" / "frozen"
ERROR = ("frozen/editions/1.0/cure.yaml:13:9: error: published edition '1.0' differs from rulebook.lock: "
         "term 'cure', clause 'curable' changed\n"
         "  hint: a published edition does not change: undo the edit, or record a deliberate correction "
         "with rulebook correct --edition 1.0 --kind transcription|erratum --reason TEXT\n")
REPORT = ERROR + "1 problem found\n"  # as `rulebook check` prints it
WORD, EDITED = "curable if it is poisoned", "curable when it is poisoned"


@pytest.fixture
def book(tmp_path, monkeypatch) -> Path:
    """The fixture as ./frozen (paths print short), without a cache unless a test sets one."""
    shutil.copytree(FROZEN, tmp_path / "frozen")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("RULEBOOK_NO_CACHE", "1")
    return Path("frozen")


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def edit_published(root: Path, old: str = WORD, new: str = EDITED) -> None:
    path = root / "editions/1.0/cure.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_scenario_fails_check_with_the_located_error(book):
    edit_published(book)
    result = run("check", "frozen")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", REPORT)


@pytest.mark.parametrize("args", [
    ("export", "--rulebook", "frozen"),
    ("export", "--rulebook", "frozen", "--format", "jsonl"),
    ("history", "cure", "--rulebook", "frozen"),
    ("changelog", "--edition", "2.0", "--rulebook", "frozen"),
    ("conformance", "mutants", "--rulebook", "frozen", "--edition", "1.0"),
    ("conformance", "run", "--rulebook", "frozen", "--edition", "1.0",
     "--engine", "examples.engines.reference:engine"),
    ("import", str(FROZEN.parents[1] / "importer" / "on-top" / "source-b.txt"), "--layout", "reg",
     "--out", "imported", "--rulebook", "frozen"),
], ids=["export-json", "export-jsonl", "history", "changelog", "conformance-mutants", "conformance-run", "import"])
def test_a_reading_command_refuses_the_edited_edition(book, args):
    assert run(*args).exit_code == 0, "the pristine fixture passes"
    edit_published(book)
    result = run(*args)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", REPORT)


def test_export_to_a_file_writes_nothing(book):
    edit_published(book)
    result = run("export", "--rulebook", "frozen", "--out", "edition.json")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", REPORT)
    assert not Path("edition.json").exists()


def test_conformance_generate_writes_no_suite(book):
    edit_published(book)
    result = run("conformance", "generate", "--rulebook", "frozen", "--edition", "1.0", "--out", "suite")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", REPORT)
    assert not Path("suite").exists()


def test_diff_of_edition_ids(book):
    assert run("diff", "1.0", "2.0", "--rulebook", "frozen").exit_code == 0
    edit_published(book)
    result = run("diff", "1.0", "2.0", "--rulebook", "frozen")
    assert (result.exit_code, result.stdout, result.stderr) == (
        1, "", "rulebook: 'frozen' does not pass rulebook check:\n" + REPORT)


def test_diff_with_a_folder_side(book):
    shutil.copytree(FROZEN, "pristine")
    edit_published(book)
    result = run("diff", "pristine", "frozen")
    # Two whole rulebooks: the review still shows what the revision changed, led by check's error,
    # and fails with check's report on stderr.
    assert (result.exit_code, result.stdout.splitlines()[:4], result.stderr) == (1, [
        "rulebook diff pristine -> frozen: rulebook check fails: 1 problem; 2 editions changed",
        "published record:",
        "  frozen does not pass rulebook check: frozen/editions/1.0/cure.yaml:13:9: published edition '1.0' "
        "differs from rulebook.lock: term 'cure', clause 'curable' changed",
        # "if" -> "when" changes a condition word of a modelled clause whose rules stay (issue 21.5)
        "  published edition 1.0 changed: 1 reworded; 1 counted as a rule change: words its rules do not account "
        "for; no log entry explains it"], REPORT)
    # Against an edition, a folder is read as an edition: refused, as every command refuses it.
    result = run("diff", "1.0", "frozen", "--rulebook", "pristine")
    assert (result.exit_code, result.stdout, result.stderr) == (
        1, "", "rulebook: 'frozen' does not pass rulebook check:\n" + REPORT)


def git(*args: str) -> None:
    subprocess.run(["git", *args], check=True, capture_output=True)


def test_diff_with_a_git_side(book):
    """The edit is committed, then undone in the work tree: only the git side fails its lock."""
    git("init", "-q", "-b", "main")
    git("config", "user.email", "t@example.org")
    git("config", "user.name", "T")
    edit_published(book)
    git("add", ".")
    git("commit", "-qm", "edit a published clause")
    edit_published(book, EDITED, WORD)
    assert run("check", "frozen").exit_code == 0
    result = run("diff", "git:HEAD:1.0", "1.0", "--rulebook", "frozen")
    assert (result.exit_code, result.stdout, result.stderr) == (
        1, "", "rulebook: 'git:HEAD:1.0' does not pass rulebook check:\n" + REPORT.replace("frozen/", "HEAD:frozen/", 1))


# -- the cache ------------------------------------------------------------------------------------


@pytest.fixture
def cached(book, tmp_path, monkeypatch) -> Path:
    monkeypatch.delenv("RULEBOOK_NO_CACHE")
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    return book


def test_a_warm_cache_from_before_the_edit_does_not_hide_it(cached):
    assert run("diff", "1.0", "2.0", "--rulebook", "frozen").exit_code == 0
    edit_published(cached)
    result = run("diff", "1.0", "2.0", "--rulebook", "frozen")
    assert (result.exit_code, result.stdout, result.stderr) == (
        1, "", "rulebook: 'frozen' does not pass rulebook check:\n" + REPORT)


def test_a_lock_put_back_after_a_warm_diff_is_enforced(cached):
    """The cache held the edited files when a lock matched them; the lock alone changes back."""
    edit_published(cached)
    # re-locked as a correction does it (the lock and the log together: a lock re-written alone fails
    # check, rulebook_compiler/review.py), so that the cache holds the edited files under that lock
    assert run("correct", "--edition", "1.0", "--kind", "erratum", "--reason", "R.", "--rulebook", "frozen").exit_code == 0
    assert run("diff", "1.0", "2.0", "--rulebook", "frozen").exit_code == 0
    shutil.copyfile(FROZEN / lock.LOCK_FILE, cached / lock.LOCK_FILE)
    shutil.copyfile(FROZEN / "corrections.yaml", cached / "corrections.yaml")
    result = run("diff", "1.0", "2.0", "--rulebook", "frozen")
    assert (result.exit_code, result.stdout, result.stderr) == (
        1, "", "rulebook: 'frozen' does not pass rulebook check:\n" + REPORT)


def test_a_check_that_fails_the_lock_stores_nothing_a_diff_serves(cached):
    edit_published(cached)
    assert (run("check", "frozen").exit_code, run("check", "frozen").stderr) == (1, REPORT)
    result = run("diff", "1.0", "2.0", "--rulebook", "frozen")
    assert (result.exit_code, result.stdout, result.stderr) == (
        1, "", "rulebook: 'frozen' does not pass rulebook check:\n" + REPORT)


# -- the site -------------------------------------------------------------------------------------


def test_build_refuses_and_writes_nothing(book):
    edit_published(book)
    result = run("build", "--rulebook", "frozen", "--out", "public")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", REPORT)
    assert not Path("public").exists()


def test_the_mkdocs_plugin_refuses(book, caplog):
    """``mkdocs build`` itself: the plugin's error is mkdocs' one error line, and the build aborts."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    from rulebook_compiler.site.config import default_config

    Path("mkdocs.yml").write_text(default_config(book, "Frozen"), encoding="utf-8")
    edit_published(book)
    with pytest.raises(Abort):
        mkdocs_build(load_config(config_file="mkdocs.yml", site_dir="public"))
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == [
        "the rulebook has problems, nothing was built:\n" + REPORT.rstrip("\n")]
    assert not Path("public").exists()


# -- what still reads it --------------------------------------------------------------------------


def test_correct_still_records_the_edit(book):
    edit_published(book)
    result = run("correct", "--edition", "1.0", "--kind", "transcription", "--reason", "A typo.", "--date", "2026-02-01",
                 "--rulebook", "frozen")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "1.0: 1 change; recorded in corrections.yaml and rulebook.lock\n", "")
    assert run("export", "--rulebook", "frozen").exit_code == 0


def test_publish_still_locks_an_edition_not_locked_yet(book):
    text = (book / "rulebook.yaml").read_text(encoding="utf-8")
    (book / "rulebook.yaml").write_text(text.replace("    date: null\n    status: draft\n",
                                                     '    date: "2021-01-01"\n    status: published\n'),
                                        encoding="utf-8")
    assert run("export", "--rulebook", "frozen").exit_code == 1  # 2.0 is published but not locked
    result = run("publish", "--edition", "2.0", "--reason", "Second printing.", "--date", "2026-02-01", "--rulebook", "frozen")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "2.0: locked; recorded in corrections.yaml and rulebook.lock\n", "")
    assert run("export", "--rulebook", "frozen").exit_code == 0


def test_loads_that_remember_files_compare_each_with_the_lock(book):
    """As ``rulebook serve`` rebuilds: the lock's digests of unchanged terms are kept from load to
    load (build.remembering), never those of a term whose file changed."""
    from rulebook_compiler.build import check, remembering

    with remembering():
        for _ in range(2):
            found, problems = check(book)
            assert (found is not None, problems) == (True, [])
        time.sleep(0.01)  # another modification time, whatever the clock's tick
        edit_published(book)
        found, problems = check(book)
        assert (found, "".join(f"{p}\n" for p in problems)) == (None, ERROR)
        time.sleep(0.01)
        edit_published(book, EDITED, WORD)
        found, problems = check(book)
        assert (found is not None, problems) == (True, [])
