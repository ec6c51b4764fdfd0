"""An incremental check (what the cache holds from the check before, only the edited files read again)
gives exactly what a full check gives: the same problems, in the same order, and the same summary.

Differential: each edit is applied to a copy of tests/fixtures/recheck after a check that filled the
cache; ``check`` then runs warm and with ``--no-cache``, and the two must agree byte for byte.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings, strategies as st

from rulebook_compiler.build import check
from rulebook_compiler.cache import fingerprint
from rulebook_compiler.checking import check_rulebook
from rulebook_compiler.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "recheck"
SUMMARY = "Recheck: 3 editions (a, b, c), 7 terms, latest c with 7 terms and 30 clauses: no problems"


def _copy(tmp: Path) -> Path:
    book = tmp / "book"
    if book.exists():
        shutil.rmtree(book)
    shutil.copytree(FIXTURE, book)
    return book


@pytest.fixture
def book(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _copy(tmp_path)
    return Path("book")


def _shown(result) -> tuple[list[str], list[str], str | None]:
    return [str(p) for p in result.problems], [p.code for p in result.problems], result.summary


def _replace(path: str, old: str, new: str):
    def edit(root: Path) -> None:
        file = root / path
        text = file.read_text()
        assert old in text, (path, old)
        file.write_text(text.replace(old, new, 1))
    return edit


def _remove(path: str):
    return lambda root: (root / path).unlink()


def _add(path: str, text: str):
    return lambda root: (root / path).write_text(text)


ANTIDOTE = """id: antidote
name: Antidote
sections:
  - key: definition
    kind: definition
    clauses:
      - id: ends
        text: An antidote ends a poison.
        links: [{phrase: poison, term: poison}]
"""

# edit id -> (the edit, whether the check after it reads only the edited files)
EDITS = {
    "rule-condition": (_replace("editions/b/poison.yaml", "requires: poisonable", "requires: diseased"), True),
    "rule-condition-conflict": (_replace("editions/b/disease.yaml", "when: {not: poisonable}", "when: diseased"),
                                True),
    "rule-condition-empty": (_replace("editions/b/poison.yaml", "requires: poisonable", "value: true, when: poisonable"),
                             True),
    "drop-exception": (_replace("editions/b/poison.yaml", ", exception_to: [poison#targets]", ""), False),
    "dead-rule": (_replace("editions/b/poison.yaml", "forbids: being_discarded",
                           "forbids: {all: [being_discarded, in_discard_pile]}"), True),
    "lines-move": (_replace("editions/b/poison.yaml", "id: poison\n", "# moved down\n\nid: poison\n"), True),
    "clause-text": (_replace("editions/b/disease.yaml", "Disease spreads to", "A disease spreads to"), True),
    "carried-term-rule": (_replace("editions/c/plague.yaml", "value: later", "value: never"), True),
    "unknown-fact-misspelt": (_replace("editions/b/poison.yaml", "requires: poisonable", "requires: poisonabel"),
                              True),
    "unknown-table-value": (_replace("editions/c/plague.yaml", "keys: [heal]", "keys: [heel]"), True),
    "two-terms": (lambda root: (_replace("editions/b/poison.yaml", "requires: poisonable", "requires: diseased")(root),
                                _replace("editions/b/disease.yaml", "when: {not: poisonable}",
                                         "when: {not: diseased}")(root)), True),
    "later-version-text": (_replace("editions/c/cure.yaml", "targets only a", "targets just a"), True),
    "later-version-rule-checked-apart-from-the-version-before": (
        _replace("editions/c/cure.yaml", "requires: curable", "requires: {not: being_discarded}"), False),
    "carried-version-condition": (_replace("editions/b/battle.yaml", "when: {not: {is: {outcome: hero_wins}}}",
                                           "when: {is: {outcome: evil_wins}}"), True),
    "broken-yaml": (_replace("editions/b/poison.yaml", "meaning: Whether a poison", "meaning: [Whether a poison"),
                    False),
    "schema-error": (_replace("editions/b/disease.yaml", "type: bool", "type: boolean"), False),
    "rename-predicate-used-elsewhere": (_replace("editions/b/poison.yaml", "name: poisonable", "name: venomous"),
                                        False),
    "rename-clause-linked-elsewhere": (_replace("editions/b/poison.yaml", "id: poisonable", "id: venom"), False),
    "rename-term": (_replace("editions/b/poison.yaml", "id: poison\n", "id: venom\n"), False),
    "rename-decision-ruled-elsewhere": (
        _replace("editions/b/poison.yaml", "name: poison.may_target", "name: poison.may_aim"), False),
    "remove-used-term": (_remove("editions/b/disease.yaml"), False),
    "remove-term-file-others-use": (_remove("editions/b/poison.yaml"), False),
    "add-term-file": (_add("editions/b/antidote.yaml", ANTIDOTE), False),
    "edit-vocabulary": (_replace("vocabulary.yaml", "name: being_discarded", "name: being_removed"), False),
    "edit-vocabulary-overlay": (_replace("editions/b/_vocabulary.yaml", "withdraw: [stunned]\n", ""), False),
    "edit-published-edition-against-lock": (
        _replace("editions/a/cure.yaml", "unless it is in a discard pile", "unless it is in the discard pile"),
        False),
    "edit-published-rule-against-lock": (
        _replace("editions/a/heal.yaml", "forbids: in_discard_pile", "forbids: being_discarded"), False),
    "edit-patch": (_replace("editions/b/targeting.yaml", "now says something else", "says another thing"), False),
    "remove-lock": (_remove("rulebook.lock"), False),
    "edit-rulebook-yaml": (_replace("rulebook.yaml", "id: c\n    title: Edition C", "id: c\n    title: Edition Z"),
                           False),
}


@pytest.mark.parametrize("edit_id", sorted(EDITS))
def test_an_edit_checked_warm_gives_what_a_full_check_gives(book, edit_id):
    edit, incremental = EDITS[edit_id]
    first = check_rulebook(book)
    assert _shown(first) == ([], [], SUMMARY)
    edit(book)
    warm = check_rulebook(book)
    assert (_shown(warm), warm.incremental) == (_shown(check_rulebook(book, use_cache=False)), incremental)
    # and once more after a second edit, from what the first incremental or full check kept
    _replace("editions/c/plague.yaml", "A plague kills", "The plague kills")(book)
    again = check_rulebook(book)
    assert _shown(again) == _shown(check_rulebook(book, use_cache=False))


def test_the_command_prints_the_same_bytes_warm_and_with_no_cache(book):
    runner = CliRunner()
    assert runner.invoke(main, ["check", str(book)]).exit_code == 0
    EDITS["rule-condition-conflict"][0](book)
    _replace("editions/b/disease.yaml", "id: disease\n", "# moved down\n\nid: disease\n")(book)
    warm = runner.invoke(main, ["check", str(book)])
    full = runner.invoke(main, ["check", "--no-cache", str(book)])
    assert (warm.exit_code, warm.stdout, warm.stderr) == (full.exit_code, full.stdout, full.stderr)
    assert warm.stderr.splitlines() == [
        "book/editions/b/disease.yaml:6:5: error: decision 'disease.spreads' has no answer when diseased=false, "
        "in_discard_pile=false",
        "  hint: add a rule for this situation, a constraint that rules it out, or a 'given' that puts it out of "
        "the question's scope",
        "book/editions/b/disease.yaml:18:13: error: decision 'disease.spreads' is in conflict when diseased=true, "
        "in_discard_pile=false: disease#spreads says true; disease#spreads says false, and no rule is an exception "
        "to the other",
        "  hint: mark one rule 'exception_to' the other's clause, or narrow a 'when'",
        "2 problems found"]


def test_fixing_the_only_problem_checks_the_logic_of_every_decision(book):
    EDITS["unknown-fact-misspelt"][0](book)
    assert check_rulebook(book).summary is None
    _replace("editions/b/poison.yaml", "requires: poisonabel", "requires: poisonable")(book)
    fixed = check_rulebook(book)
    assert (_shown(fixed), fixed.incremental) == (([], [], SUMMARY), False)


# Random edits: a word of a term file swapped for another word of the fixture, a line removed,
# doubled or pushed down; one to three of them, each checked warm and in full.
_FILES = sorted(str(p.relative_to(FIXTURE)) for p in (FIXTURE / "editions").rglob("*.yaml"))
_WORDS = sorted({"poisonable", "curable", "diseased", "being_discarded", "in_discard_pile", "poison", "cure",
                 "disease", "heal", "targets", "protected", "spreads", "immune", "poison.may_target",
                 "disease.spreads", "requires", "forbids", "permits", "value", "true", "false", "now", "never",
                 "poison#targets", "poison#protected", "stunned", "negate", "territory", "battle"})

# ... and, as often, a word of a rule's condition swapped for another (edits that leave what other files
# see of a term as it was, so that only the edited file is read again)
_CONDITION_WORDS = ["poisonable", "curable", "diseased", "being_discarded", "in_discard_pile", "stunned", "true",
                    "false", "requires", "forbids", "permits", "not", "any", "all"]
_edit = st.one_of(
    st.tuples(st.sampled_from(_FILES), st.sampled_from(["swap", "drop", "double", "push"]),
              st.integers(0, 10_000), st.sampled_from(_WORDS), st.sampled_from(_WORDS)),
    st.tuples(st.sampled_from(_FILES), st.just("rule"), st.integers(0, 10_000), st.sampled_from(_CONDITION_WORDS),
              st.sampled_from(_CONDITION_WORDS)))


def _apply(root: Path, step: tuple) -> None:
    path, kind, at, old, new = step
    file = root / path
    lines = file.read_text().split("\n")
    i = at % len(lines)
    if kind in ("swap", "rule"):
        found = [j for j, line in enumerate(lines) if old in line and (kind == "swap" or "decision:" in line)]
        if found:
            j = found[at % len(found)]
            lines[j] = lines[j].replace(old, new, 1)
    elif kind == "drop":
        del lines[i]
    elif kind == "double":
        lines.insert(i, lines[i])
    else:
        lines.insert(i, "")
    file.write_text("\n".join(lines))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(_edit, min_size=1, max_size=3))
@example(steps=[("editions/a/battle.yaml", "swap", 2, "battle", "being_discarded")])  # published a: fails its lock
def test_random_edits_checked_warm_give_what_a_full_check_gives(tmp_path, monkeypatch, steps):
    monkeypatch.chdir(tmp_path)
    root = Path("book")
    _copy(tmp_path)
    shutil.rmtree(tmp_path / "cache", ignore_errors=True)
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    check_rulebook(root)
    for step in steps:
        _apply(root, step)
        warm = check_rulebook(root)
        assert _shown(warm) == _shown(check_rulebook(root, use_cache=False)), step
        if check(root)[0] is not None:  # it passes build.check: the cache holds it for diff, whichever way it was checked
            _stored_as_a_full_check_stores_it(root, tmp_path / "cache")
        elif warm.summary is not None:  # it builds, but differs from its lock: a diff must not be served it
            assert _stored(tmp_path / "cache", fingerprint(root).key) == {}


def test_a_check_from_another_folder_names_the_files_from_there(book, monkeypatch):
    # problems name files relative to the current folder: what a check from elsewhere kept is not reused
    EDITS["unknown-fact-misspelt"][0](book)
    assert check_rulebook(book).problems[0].location.path == "book/editions/b/poison.yaml"
    monkeypatch.chdir(book)
    again = check_rulebook(Path("."))
    assert (again.problems[0].location.path, again.whole) == ("editions/b/poison.yaml", False)


def test_a_full_check_replaces_the_record_of_the_one_before(book):
    import os
    import sqlite3

    from rulebook_compiler.cache import DB_NAME

    check_rulebook(book)
    EDITS["rename-term"][0](book)  # an interface changes: checked in full, and recorded again
    assert check_rulebook(book).incremental is False
    db = sqlite3.connect(Path(os.environ["RULEBOOK_CACHE_DIR"]) / DB_NAME)
    assert db.execute("SELECT count(*) FROM proofs WHERE key LIKE 'recheck-base-%'").fetchone() == (1,)
    db.close()


def test_a_check_while_serve_remembers_files_records_nothing_it_did_not_read(book):
    # under build.remembering() a load reuses unchanged files' terms without building them again, so a
    # check there cannot note what each file gives: it checks in full and keeps no record to start from
    from rulebook_compiler.build import remembering

    with remembering():
        check_rulebook(book, use_cache=False)
        assert _shown(check_rulebook(book)) == ([], [], SUMMARY)
    EDITS["rule-condition-conflict"][0](book)
    warm = check_rulebook(book)
    assert (_shown(warm), warm.incremental) == (_shown(check_rulebook(book, use_cache=False)), False)


# -- a diff after an incremental check starts warm (issue 10 point 4) -------------------------------
#
# A full check stores the whole rulebook for ``diff``; an incremental one never builds it, so it writes
# the stored rulebook of the new files from the one the check before stored and the terms it read again.

DIFFS = (["a", "c"], ["a", "b"])


def _diffs(book: Path, *extra: str) -> dict[tuple, tuple]:
    """Each diff of DIFFS in JSON and Markdown: (exit code, stdout, stderr)."""
    out = {}
    for sides in DIFFS:
        for fmt in ("json", "markdown"):
            result = CliRunner().invoke(main, ["diff", *sides, "--rulebook", str(book), "--format", fmt, *extra],
                                        catch_exceptions=False)
            out[(*sides, fmt)] = (result.exit_code, result.stdout, result.stderr)
    return out


def _refuse(root):
    raise AssertionError(f"{root} was loaded in full, not read from the cache")


def _warm_diffs_are_those_of_the_sources(book: Path, monkeypatch) -> dict:
    """The diffs read from the cache (a side loaded and checked in full fails), which must be, byte for byte,
    those of ``--no-cache``; returned."""
    uncached = _diffs(book, "--no-cache")
    with monkeypatch.context() as m:
        m.setattr("rulebook_compiler.build.check", _refuse)
        warm = _diffs(book)
    assert warm == uncached
    return warm


def test_a_diff_after_an_incremental_check_is_read_from_the_cache(book, monkeypatch):
    assert check_rulebook(book).problems == []
    before = _diffs(book, "--no-cache")
    EDITS["rule-condition"][0](book)
    checked = check_rulebook(book)
    assert (checked.incremental, checked.read, checked.summary) == (True, 1, SUMMARY)
    warm = _warm_diffs_are_those_of_the_sources(book, monkeypatch)
    assert all(code == 0 for code, _, _ in warm.values())
    assert warm[("a", "c", "json")] != before[("a", "c", "json")]  # the edited term was read from its new entry


def _original(path: str):
    return lambda root: (root / path).write_bytes((FIXTURE / path).read_bytes())


# each step of an edit sequence is checked incrementally, and the diffs after it are read from the cache
SEQUENCE = [EDITS["rule-condition"][0], EDITS["clause-text"][0], EDITS["carried-term-rule"][0],
            EDITS["rule-condition-conflict"][0],  # a logic problem: the rulebook still builds, and a diff reads it
            _original("editions/b/poison.yaml"), EDITS["lines-move"][0]]


def test_diffs_after_a_sequence_of_incremental_checks_are_read_from_the_cache(book, monkeypatch):
    check_rulebook(book)
    seen = set()
    for step in SEQUENCE:
        step(book)
        checked = check_rulebook(book)
        assert (checked.incremental, checked.summary) == (True, SUMMARY)
        warm = _warm_diffs_are_those_of_the_sources(book, monkeypatch)
        seen.add(warm[("a", "c", "json")])
    assert len(seen) == len(SEQUENCE)  # every step changed what the diff shows


def _stored(folder: Path, key: str) -> dict:
    """Everything the cache holds of the rulebook stored under ``key``, without row ids: the rulebook without its
    terms, its term list, and each of its terms' entry, names and uses."""
    import sqlite3

    from rulebook_compiler.cache import DB_NAME

    db = sqlite3.connect(folder / DB_NAME)
    try:
        found = db.execute("SELECT id, skeleton, sum, sources, editions FROM books WHERE key=?", (key,)).fetchall()
        if not found:
            return {}
        book_id, *book = found[0]
        terms = db.execute("SELECT edition, id, digest, file, blob FROM terms WHERE book=? ORDER BY edition, id",
                           (book_id,)).fetchall()
        blobs = sorted({row[-1] for row in terms})

        def rows(sql: str) -> list:
            return sorted(r for blob in blobs for r in db.execute(sql, (blob,)).fetchall())
        return {"book": book, "terms": terms, "blobs": rows("SELECT * FROM blobs WHERE key=?"),
                "names": rows("SELECT * FROM names WHERE blob=?"), "uses": rows("SELECT * FROM uses WHERE blob=?")}
    finally:
        db.close()


def _stored_as_a_full_check_stores_it(root: Path, folder: Path) -> None:
    """The cache in ``folder`` holds the rulebook at ``root`` exactly as storing the whole model stores it."""
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.cache import Cache, fingerprint

    fp = fingerprint(root)
    reference = folder.parent / (folder.name + "-reference")
    shutil.rmtree(reference, ignore_errors=True)
    cache = Cache.open(reference)
    assert cache.store(root, fp, load_rulebook(root))
    cache.close()
    assert _stored(folder, fp.key) == _stored(reference, fp.key) != {}


def test_a_damaged_term_list_before_is_not_copied_and_the_diff_reads_the_sources(book, monkeypatch):
    import os
    import sqlite3

    from rulebook_compiler.cache import DB_NAME, Cache, fingerprint

    check_rulebook(book)
    folder = Path(os.environ["RULEBOOK_CACHE_DIR"])
    db = sqlite3.connect(folder / DB_NAME)
    db.execute("UPDATE terms SET digest = 'forged' WHERE id = 'heal'")
    db.commit()
    db.close()
    EDITS["rule-condition"][0](book)
    assert check_rulebook(book).incremental is True
    cache = Cache.open(folder)
    assert cache.lookup(book, fingerprint(book)) is None  # nothing made from what does not validate
    cache.close()
    assert _diffs(book) == _diffs(book, "--no-cache")  # the diff loads in full, and stores it
    _stored_as_a_full_check_stores_it(book, folder)


def test_rulebooks_stored_by_incremental_checks_are_dropped_past_the_limit_and_their_terms_collected(book,
                                                                                                     monkeypatch):
    import os
    import sqlite3

    from rulebook_compiler import cache
    from rulebook_compiler.cache import DB_NAME

    monkeypatch.setattr(cache, "MAX_BOOKS", 2)
    check_rulebook(book)
    poison = book / "editions" / "b" / "poison.yaml"
    for i in range(3):  # three more versions of poison, each checked incrementally: the first rulebooks dropped
        poison.write_text(poison.read_text().replace("requires: poisonable", "requires: diseased") + f"# {i}\n")
        assert check_rulebook(book).incremental is True
    db = sqlite3.connect(Path(os.environ["RULEBOOK_CACHE_DIR"]) / DB_NAME)
    assert db.execute("SELECT count(*) FROM books").fetchone() == (2,)
    assert db.execute("SELECT count(*) FROM terms WHERE book NOT IN (SELECT id FROM books)").fetchone() == (0,)
    orphans = "SELECT count(*) FROM blobs WHERE key NOT IN (SELECT blob FROM terms)"
    assert db.execute(orphans).fetchone() == (2,)  # the first two versions of poison, left to the next full store
    _warm_diffs_are_those_of_the_sources(book, monkeypatch)
    EDITS["edit-rulebook-yaml"][0](book)  # checked in full and stored: what no rulebook uses any more is collected
    full = check_rulebook(book)
    assert (full.incremental, full.problems) == (False, [])
    for sql in (orphans, "SELECT count(*) FROM names WHERE blob NOT IN (SELECT key FROM blobs)",
                "SELECT count(*) FROM uses WHERE blob NOT IN (SELECT key FROM blobs)"):
        assert db.execute(sql).fetchone() == (0,), sql
    db.close()
