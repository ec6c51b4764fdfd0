"""rulebook_compiler/cache.py: where the cache lives, and what changes a rulebook's key."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook_compiler import cache

MINIMAL = Path(__file__).resolve().parent / "fixtures" / "minimal"


def test_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "mine"))
    assert cache.cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("RULEBOOK_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "rulebook-compiler"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.cache_dir() == tmp_path / "home" / ".cache" / "rulebook-compiler"


@pytest.mark.parametrize("value,off", [("1", True), ("yes", True), ("0", False), ("", False)])
def test_no_cache_environment_variable(monkeypatch, value, off):
    monkeypatch.setenv("RULEBOOK_NO_CACHE", value)
    assert cache.disabled_by_env() is off


@pytest.fixture
def book(tmp_path) -> Path:
    root = tmp_path / "book"
    shutil.copytree(MINIMAL, root)
    return root


def test_the_key_is_stable_and_follows_every_file_the_build_reads(book):
    first = cache.fingerprint(book)
    assert cache.fingerprint(book) == first
    seen = {first.key}
    term = book / "editions" / "v2" / "cure.yaml"
    term.write_text(term.read_text() + "\n")  # one byte more
    seen.add(cache.fingerprint(book).key)
    (book / "editions" / "v2" / "stray.txt").write_text("x")  # a file the build would reject
    seen.add(cache.fingerprint(book).key)
    (book / "editions" / "v2" / "stray.txt").unlink()
    (book / "editions" / "v3").mkdir()  # an empty edition folder
    seen.add(cache.fingerprint(book).key)
    (book / "vocabulary.yaml").unlink()
    seen.add(cache.fingerprint(book).key)
    assert len(seen) == 5
    assert all(not p.name.startswith(".") for p in book.rglob("*"))  # nothing written into the sources


def test_no_key_without_a_rulebook(tmp_path):
    assert cache.fingerprint(tmp_path) is None
    assert cache.fingerprint(tmp_path / "missing") is None


def test_the_compiler_key_hashes_the_compiler_sources(monkeypatch):
    key = cache.compiler_key()
    assert len(key) == 64 and key == cache.compiler_key()
    cache.compiler_key.cache_clear()
    monkeypatch.setattr("rulebook_compiler.__version__", "0.0.0-other")
    try:
        assert cache.compiler_key() != key
    finally:
        cache.compiler_key.cache_clear()


def test_the_least_recently_used_rulebooks_are_dropped_with_their_terms(book, tmp_path, monkeypatch):
    from rulebook_compiler.build import load_rulebook

    monkeypatch.setattr(cache, "MAX_BOOKS", 2)
    store = cache.Cache.open(tmp_path / "cache")
    term = book / "editions" / "v2" / "cure.yaml"
    for i in range(3):
        term.write_text(term.read_text() + f"# revision {i}\n")  # another file, the same model
        assert store.store(book, cache.fingerprint(book), load_rulebook(book))
    db = store.db
    assert db.execute("SELECT count(*) FROM books").fetchone()[0] == 2
    assert db.execute("SELECT count(*) FROM terms WHERE book NOT IN (SELECT id FROM books)").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM blobs WHERE key NOT IN (SELECT blob FROM terms)").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM uses WHERE blob NOT IN (SELECT key FROM blobs)").fetchone()[0] == 0
    assert store.lookup(book, cache.fingerprint(book)) is not None  # the latest is kept
    store.close()


@pytest.mark.parametrize("name", ["rulebook.yaml", "vocabulary.yaml"])
def test_the_key_follows_the_content_of_the_top_files(book, name):
    """Not only whether the file is there: any change of its bytes gives another key."""
    first = cache.fingerprint(book).key
    path = book / name
    text = path.read_text()
    path.write_text(text + "# a comment\n")
    second = cache.fingerprint(book).key
    path.write_text(text.replace("meaning: ", "meaning: X", 1) if name == "vocabulary.yaml"
                    else text.replace("title: ", "title: X", 1))
    third = cache.fingerprint(book).key
    assert len({first, second, third}) == 3
    path.write_text(text)
    assert cache.fingerprint(book).key == first


def test_a_condition_nested_thousands_deep_is_stored_and_read_back(book, tmp_path):
    """The entry's JSON nests no deeper for a deeper condition: nothing recurses (issue 8: ~320 failed)."""
    import dataclasses

    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.conditions import Not, walk

    loaded = load_rulebook(book)
    edition = loaded.latest
    term = next(t for t in edition.terms if any(c.rules for c in t.clauses))
    clause = next(c for c in term.clauses if c.rules)
    deep = clause.rules[0].test or clause.rules[0].when
    for _ in range(5_000):
        deep = Not(deep, clause.loc)
    rules = (dataclasses.replace(clause.rules[0], when=deep),) + clause.rules[1:]
    sections = tuple(dataclasses.replace(s, clauses=tuple(dataclasses.replace(c, rules=rules) if c is clause else c
                                                           for c in s.clauses)) for s in term.sections)
    changed = dataclasses.replace(term, sections=sections)
    editions = tuple(dataclasses.replace(e, terms=tuple(changed if t is term else t for t in e.terms))
                     for e in loaded.editions)
    store = cache.Cache.open(tmp_path / "cache")
    fp = cache.fingerprint(book)
    assert store.store(book, fp, dataclasses.replace(loaded, editions=editions))
    cached = store.lookup(book, fp)
    rows = {tid: (file, blob) for tid, _, file, blob in cached.term_rows(edition.id)}
    back = cached.load_term(*rows[term.id])
    when = next(c for c in back.clauses if c.id == clause.id).rules[0].when
    assert sum(1 for _ in walk(when)) == sum(1 for _ in walk(deep))
    store.close()


def test_a_patched_term_is_stored_with_every_file_it_comes_from(tmp_path):
    """A patched term's locations lie in the patch and in the files it keeps values from;
    the entry names each, and changing any of them gives another entry."""
    from rulebook_compiler.build import load_rulebook

    root = tmp_path / "book"
    shutil.copytree(Path(__file__).resolve().parent / "fixtures" / "overlay" / "two-clauses" / "patch", root)
    store = cache.Cache.open(tmp_path / "cache")
    loaded = load_rulebook(root)
    fp = cache.fingerprint(root)
    assert store.store(root, fp, loaded)
    cached = store.lookup(root, fp)
    rows = {tid: (file, blob) for tid, _, file, blob in cached.term_rows("b")}
    back = cached.load_term(*rows["targeting"])
    term = loaded.edition("b").term_by_id["targeting"]
    assert back == term
    assert [(c.id, c.loc, [r.loc for r in c.rules]) for c in back.clauses] == \
        [(c.id, c.loc, [r.loc for r in c.rules]) for c in term.clauses]
    files = {term.loc.path, *(b.path for b in term.bases)}
    assert len(files) == 2
    assert {c.loc.path for c in back.clauses} | {r.loc.path for c in back.clauses for r in c.rules} == files
    # edition a's file changes where it is not patched: the patched term's entry is another
    a_file = root / "editions" / "a" / "targeting.yaml"
    a_file.write_text(a_file.read_text().replace("A target is a card", "A target is a chosen card"))
    again = load_rulebook(root)
    fp2 = cache.fingerprint(root)
    assert store.store(root, fp2, again)
    rows2 = {tid: (file, blob) for tid, _, file, blob in store.lookup(root, fp2).term_rows("b")}
    assert rows2["targeting"][1] != rows["targeting"][1]
    assert rows2["heal"] == rows["heal"]
    text = {c.id: c.text for c in store.lookup(root, fp2).load_term(*rows2["targeting"]).clauses}["target"]
    assert text == "A target is a chosen card an ability chooses."
    store.close()


def test_each_editions_vocabulary_comes_back_from_the_cache_where_it_was_declared(tmp_path):
    """The skeleton holds every edition's vocabulary; an overlay's facts keep their file and line."""
    from rulebook_compiler.build import load_rulebook

    root = tmp_path / "book"
    shutil.copytree(MINIMAL.parent / "vocab", root)
    store = cache.Cache.open(tmp_path / "cache")
    book = load_rulebook(root)
    fp = cache.fingerprint(root)
    assert store.store(root, fp, book)
    back = store.lookup(root, fp).book
    store.close()
    assert [e.vocabulary for e in back.editions] == [e.vocabulary for e in book.editions]
    def located(editions) -> list:
        return [x.loc for e in editions for x in e.vocabulary.facts + e.vocabulary.constraints]

    assert located(back.editions) == located(book.editions)
    diseased = back.edition_by_id["b"].vocabulary.by_name["diseased"].loc
    assert (diseased.path, diseased.line) == (cache.shown_path(root, "editions/b/_vocabulary.yaml"), 3)


def _age(root: Path, seconds: int, now: int | None = None) -> None:
    """Every file of the rulebook last modified ``seconds`` before ``now`` (ns; the wall clock's when None)."""
    import os
    import time

    then = (time.time_ns() if now is None else now) - seconds * 1_000_000_000
    for path in root.rglob("*"):
        os.utime(path, ns=(then, then))


class _StoppedClock:
    """``rulebook_compiler.cache``'s ``time`` with the wall clock stopped at an instant the test chooses.

    Only ``time_ns`` is there: a fingerprint reading any other clock fails loudly instead of
    depending again on how long a loaded machine took between two lines of a test.
    """

    def __init__(self, ns: int) -> None:
        self.ns = ns

    def time_ns(self) -> int:
        return self.ns


NOW = 1_700_000_000_000_000_000  # a fixed instant (2023-11-14 UTC): the real wall clock is never read


def test_a_fingerprint_reads_again_only_files_whose_size_or_time_changed(tmp_path):
    root = tmp_path / "book"
    shutil.copytree(MINIMAL, root)
    _age(root, 60)
    first = cache.fingerprint(root)
    assert (first.hashed, cache.fingerprint(root, first).hashed) == (len(first.files), 0)
    cure = root / "editions" / "v2" / "cure.yaml"
    cure.write_text(cure.read_text() + "\n")
    again = cache.fingerprint(root, first)
    assert (again.hashed, again.key != first.key, again.files == cache.fingerprint(root).files) == (1, True, True)


@pytest.mark.parametrize("stall_ns,expected", [
    pytest.param(0, (1, True), id="hashed-in-the-tick-it-was-written"),
    pytest.param(cache.RACY_NS, (1, True), id="hashed-RACY_NS-after-it-was-written"),
    # What a stall of more than RACY_NS between writing and hashing did to this test when it read the
    # wall clock: the file counts as old, and its unseen change keeps the old hash (git's trade-off too).
    pytest.param(cache.RACY_NS + 1, (0, False), id="hashed-later-the-change-is-unseen"),
])
def test_a_file_changed_as_it_was_hashed_is_read_again_though_its_size_and_time_are_the_same(
        tmp_path, monkeypatch, stall_ns, expected):
    # git's "racy" files: the same size and modification time, other bytes, within the clock's tick.
    # The times are set relative to a clock the test holds, so no real stall can move a file out of
    # the window (it once did: a pause of ~2 s between writing the files and hashing them).
    import os

    root = tmp_path / "book"
    shutil.copytree(MINIMAL, root)
    _age(root, 60, now=NOW)  # every other file is old: taken from the first fingerprint, not read again
    cure = root / "editions" / "v2" / "cure.yaml"
    written = NOW - stall_ns
    os.utime(cure, ns=(written, written))
    monkeypatch.setattr(cache, "time", _StoppedClock(NOW))
    first = cache.fingerprint(root)
    assert first.taken == NOW
    recorded = first.stats["editions/v2/cure.yaml"][:2]
    cure.write_bytes(cure.read_bytes().replace(b"Cure", b"Cura", 1))
    os.utime(cure, ns=(written, written))
    assert [cure.stat().st_size, cure.stat().st_mtime_ns] == recorded == [recorded[0], written]
    fresh = cache.fingerprint(root)
    assert fresh.key != first.key  # the bytes did change
    again = cache.fingerprint(root, first)
    assert (again.hashed, again.key == fresh.key) == expected


# -- a cache folder inside the sources, or inside an output -------------------------------------------

def _cli(*args: str, env: dict[str, str]):
    from click.testing import CliRunner

    from rulebook_compiler.cli import main

    return CliRunner().invoke(main, list(args), prog_name="rulebook", env=env)


def _files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


@pytest.mark.parametrize("inside", [".cache", "editions/v2/.cache"], ids=["top", "edition-folder"])
def test_a_cache_inside_the_rulebook_is_not_written_and_check_says_so_once(tmp_path, monkeypatch, inside):
    # A cache under editions/v2 made the next check fail ("not a term file"); at the top it wrote into
    # the sources all the same.
    monkeypatch.chdir(tmp_path)
    shutil.copytree(MINIMAL, tmp_path / "book")
    before = _files(tmp_path / "book")
    for _ in range(2):
        result = _cli("check", "book", env={"RULEBOOK_CACHE_DIR": f"book/{inside}"})
        assert (result.exit_code, result.stdout, result.stderr) == (
            0, "Minimal: 2 editions (v1, v2), 1 term, latest v2 with 1 term and 3 clauses: no problems\n",
            f"rulebook: warning: cannot use the cache in book/{inside}: it is inside the rulebook folder 'book', "
            "whose sources it would change; continuing without it\n")
    assert _files(tmp_path / "book") == before


def test_a_cache_inside_one_side_of_a_diff_is_not_written(tmp_path, monkeypatch):
    # The side holding the cache skipped it; the other side's rulebook was stored into it.
    monkeypatch.chdir(tmp_path)
    for side in ("old", "new"):
        shutil.copytree(MINIMAL, tmp_path / side)
    cure = tmp_path / "new" / "editions" / "v2" / "cure.yaml"
    cure.write_text(cure.read_text().replace("Targets must be curable.", "Targets must be curable at once."))
    before = _files(tmp_path / "old")
    result = _cli("diff", "old", "new", env={"RULEBOOK_CACHE_DIR": "old/editions/v2/.cache"})
    assert result.exit_code == 0, result.output
    assert result.stderr == ("rulebook: warning: cannot use the cache in old/editions/v2/.cache: it is inside the "
                             "rulebook folder 'old', whose sources it would change; continuing without it\n")
    assert _files(tmp_path / "old") == before
    check = _cli("check", "old", env={"RULEBOOK_NO_CACHE": "1"})
    assert (check.exit_code, check.stderr) == (0, "")


def test_a_cache_inside_a_site_output_is_not_written(tmp_path, monkeypatch):
    # The next build replaces the folder (and the cache with it), or refuses one it did not write.
    monkeypatch.chdir(tmp_path)
    shutil.copytree(MINIMAL, tmp_path / "book")
    (tmp_path / "public").mkdir()
    (tmp_path / "public" / ".rulebook-output").write_text('{"command": "rulebook build"}\n')
    result = _cli("check", "book", env={"RULEBOOK_CACHE_DIR": "public/cache"})
    assert (result.exit_code, result.stderr) == (0, (
        "rulebook: warning: cannot use the cache in public/cache: it is inside 'public', the output of "
        "'rulebook build'; continuing without it\n"))
    assert _files(tmp_path / "public") == [".rulebook-output"]


def test_a_cache_inside_the_sources_is_never_opened(tmp_path):
    from rulebook_compiler.build import load_rulebook

    shutil.copytree(MINIMAL, tmp_path / "book")
    warned: list[str] = []
    store = cache.Cache.open(tmp_path / "book" / "c", warn=warned.append)
    fp = cache.fingerprint(tmp_path / "book")
    assert store.lookup(tmp_path / "book", fp) is None
    assert store.store(tmp_path / "book", fp, load_rulebook(tmp_path / "book")) is False
    assert store.proofs(["x"]) == {}
    assert store.store_proofs({"x": "{}"}) is False
    assert len(warned) == 1
    assert not (tmp_path / "book" / "c").exists()
