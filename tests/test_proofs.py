"""What check proved is kept in the cache: an unchanged rulebook is not proved again,
an edit re-proves only the decisions it touches, and a diff after check starts warm."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cache import DB_NAME, Cache, fingerprint
from rulebook_compiler.checking import check_rulebook
from rulebook_compiler.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "proofs"
SUMMARY = "Proofs: 1 edition (e1), 2 terms, latest e1 with 2 terms and 4 clauses: no problems"


@pytest.fixture
def book(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    shutil.copytree(FIXTURE, tmp_path / "book")
    return Path("book")


def _counts(result) -> tuple:
    return (result.whole, result.reused, result.proved)


def test_a_second_check_of_an_unchanged_rulebook_is_read_from_the_cache(book):
    first = check_rulebook(book)
    assert (first.problems, first.summary, _counts(first)) == ([], SUMMARY, (False, 0, 2))
    again = check_rulebook(book)
    assert (again.problems, again.summary, _counts(again)) == ([], SUMMARY, (True, 0, 0))


def test_an_edit_to_one_term_proves_only_its_decision_again(book):
    check_rulebook(book)
    term = book / "editions" / "e1" / "second.yaml"
    term.write_text(term.read_text().replace("value: false, when: {not: b}", "value: false, when: {all: [a, b]}"))
    result = check_rulebook(book)
    # only second.yaml is read again (rulebook_compiler/recheck.py): first.q is not even looked at
    assert (_counts(result), result.incremental, result.read) == ((False, 0, 1), True, 1)
    assert [str(p) for p in result.problems] == [
        "book/editions/e1/second.yaml:4:5: error: decision 'second.q' has no answer when a=false, b=false\n"
        "  hint: add a rule for this situation, a constraint that rules it out, "
        "or a 'given' that puts it out of the question's scope",
        "book/editions/e1/second.yaml:9:35: error: decision 'second.q' is in conflict when a=true, b=true: "
        "second#x says true; second#y says false, and no rule is an exception to the other\n"
        "  hint: mark one rule 'exception_to' the other's clause, or narrow a 'when'"]
    # the same problems, now from the cache, as the command prints them
    out = CliRunner().invoke(main, ["check", str(book)])
    assert (out.exit_code, out.stdout) == (1, "")
    assert out.stderr.splitlines() == [*"\n".join(str(p) for p in result.problems).splitlines(), "2 problems found"]
    assert _counts(check_rulebook(book)) == (True, 0, 0)


def test_moving_a_rule_to_another_line_proves_its_decision_again(book):
    # the problems name lines, so a proof is keyed by where its rules are
    check_rulebook(book)
    term = book / "editions" / "e1" / "first.yaml"
    term.write_text(term.read_text().replace("sections:\n", "sections:\n\n"))
    assert _counts(check_rulebook(book)) == (False, 0, 1)


def test_a_forged_proof_reads_as_missing_and_is_made_again(book, tmp_path):
    check_rulebook(book)
    db = sqlite3.connect(tmp_path / "cache" / DB_NAME)
    db.execute("UPDATE proofs SET data = ?", ('[["x", "1", 1, "error", "", "forged", null]]',))
    db.commit()
    db.close()
    result = check_rulebook(book)
    assert (result.problems, result.summary, _counts(result)) == ([], SUMMARY, (False, 0, 2))


def test_a_check_fills_the_cache_so_that_a_diff_starts_warm(book, tmp_path):
    check_rulebook(book)
    cache = Cache.open(tmp_path / "cache")
    assert cache.lookup(book, fingerprint(book)) is not None


def test_no_cache_neither_reads_nor_writes_it(book, tmp_path):
    out = CliRunner().invoke(main, ["check", "--no-cache", str(book)])
    assert (out.exit_code, out.stdout) == (0, SUMMARY + "\n")
    assert not (tmp_path / "cache").exists()
    assert _counts(check_rulebook(book, use_cache=False)) == (False, 0, 2)


# A declared source is not one of the files the fingerprint hashes (the build only looks whether it
# is there), so a result kept in the cache holds only while the same sources are there.
DECLARED_SOURCE = Path(__file__).parent / "fixtures" / "proofs-declared-source"
MISSING_SOURCE = [
    "book/rulebook.yaml:7:62: error: source file 'sources/e1.txt' does not exist",
    "  hint: put the source text at sources/e1.txt in the rulebook folder, or correct the path",
    "1 problem found"]


@pytest.fixture
def sourced(book):
    shutil.rmtree(book)
    shutil.copytree(DECLARED_SOURCE, book)
    return book


def _check(book: Path, *options: str) -> tuple[int, str, list[str]]:
    out = CliRunner().invoke(main, ["check", *options, str(book)])
    return out.exit_code, out.stdout, out.stderr.splitlines()


def test_a_declared_source_removed_after_a_passing_check_is_reported(sourced):
    assert _check(sourced) == (0, SUMMARY + "\n", [])
    assert _counts(check_rulebook(sourced)) == (True, 0, 0)
    (sourced / "sources" / "e1.txt").unlink()
    assert _check(sourced, "--no-cache") == (1, "", MISSING_SOURCE)
    assert _check(sourced) == (1, "", MISSING_SOURCE)


def test_a_declared_source_put_back_after_a_check_that_missed_it_passes(sourced, tmp_path):
    (sourced / "sources" / "e1.txt").rename(tmp_path / "e1.txt")
    assert _check(sourced) == (1, "", MISSING_SOURCE)
    (tmp_path / "e1.txt").rename(sourced / "sources" / "e1.txt")
    assert _check(sourced, "--no-cache") == (0, SUMMARY + "\n", [])
    assert _check(sourced) == (0, SUMMARY + "\n", [])
    assert _counts(check_rulebook(sourced)) == (True, 0, 0)


def test_a_declared_source_removed_with_a_term_edited_is_reported(sourced):
    # the incremental check (rulebook_compiler/recheck.py) reads only the edited term file: the sources too are looked at
    assert _check(sourced) == (0, SUMMARY + "\n", [])
    term = sourced / "editions" / "e1" / "first.yaml"
    term.write_text(term.read_text().replace("sections:\n", "sections:\n\n"))
    (sourced / "sources" / "e1.txt").unlink()
    assert _check(sourced, "--no-cache") == (1, "", MISSING_SOURCE)
    assert _check(sourced) == (1, "", MISSING_SOURCE)


def test_a_stored_outcome_without_its_sources_reads_as_missing():
    from rulebook_compiler.proofs import decode_outcome, encode_outcome

    assert decode_outcome(encode_outcome([], SUMMARY, ["sources/e1.txt"])) == ([], SUMMARY, ["sources/e1.txt"])
    assert decode_outcome('{"problems": [], "summary": null}') is None
    assert decode_outcome('{"problems": [], "summary": null, "sources": ["a", 1]}') is None
    assert decode_outcome('{"problems": [], "summary": null, "sources": "a"}') is None


LOOPING_SOURCE = [
    "book/rulebook.yaml:7:62: error: cannot read source file 'sources/e1.txt': Too many levels of symbolic links",
    "1 problem found"]


def _loop(book: Path) -> None:
    """The declared source made a symbolic link to itself (a link that loops can never be read)."""
    source = book / "sources" / "e1.txt"
    source.unlink()
    source.symlink_to("e1.txt")


def test_a_declared_source_that_is_a_symlink_loop_is_an_error(sourced):
    _loop(sourced)
    assert _check(sourced, "--no-cache") == (1, "", LOOPING_SOURCE)


def test_a_declared_source_made_a_symlink_loop_after_a_passing_check_is_reported(sourced):
    # the kept outcome looks whether its sources are there before it serves (rulebook_compiler/checking.py)
    assert _check(sourced) == (0, SUMMARY + "\n", [])
    _loop(sourced)
    assert _check(sourced) == (1, "", LOOPING_SOURCE)


def test_a_declared_source_made_a_symlink_loop_with_a_term_edited_is_reported(sourced):
    # the incremental check (rulebook_compiler/recheck.py) looks at the sources the full check found
    assert _check(sourced) == (0, SUMMARY + "\n", [])
    term = sourced / "editions" / "e1" / "first.yaml"
    term.write_text(term.read_text().replace("sections:\n", "sections:\n\n"))
    _loop(sourced)
    assert _check(sourced) == (1, "", LOOPING_SOURCE)
