"""The cache's small parts on their own: a kept fingerprint validated, the index columns read back, the
presence of source texts, entries' checksums and limits, why a cache is set aside, and the fingerprint's
trust in sizes and times (rulebook_compiler/cache.py)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import zlib
from pathlib import Path

import pytest

from rulebook_compiler import cache
from rulebook_compiler.cache import CacheError, Fingerprint, fingerprint, known_fingerprint, sources_present

FIXTURES = Path(__file__).parent / "fixtures"


def test_a_kept_fingerprint_is_taken_as_it_was_written():
    data = {"taken": 5, "stats": {"rulebook.yaml": [10, 20, "ab"], "editions/v1/cure.yaml": [0, 0, ""]}}
    assert known_fingerprint(data) == Fingerprint("", {}, data["stats"], 5)
    assert known_fingerprint(data).stats == data["stats"]
    assert known_fingerprint(data).taken == 5
    assert known_fingerprint({"taken": 0, "stats": {}}).taken == 0


@pytest.mark.parametrize("data", [
    None, [], "x", {"stats": {}}, {"taken": "5", "stats": {}}, {"taken": 5.0, "stats": {}}, {"taken": 5},
    {"taken": 5, "stats": []}, {"taken": 5, "stats": {"a": [1, 2]}}, {"taken": 5, "stats": {"a": [1, 2, "s", 4]}},
    {"taken": 5, "stats": {"a": (1, 2, "s")}}, {"taken": 5, "stats": {"a": ["1", 2, "s"]}},
    {"taken": 5, "stats": {"a": [1, 2.0, "s"]}}, {"taken": 5, "stats": {"a": [1, 2, 3]}},
    {"taken": 5, "stats": {"a": [1, 2, "s"], "b": [1, 2, None]}}])
def test_a_kept_fingerprint_not_exactly_as_written_is_not_taken(data):
    assert known_fingerprint(data) is None


def test_index_columns_read_back():
    assert cache._string_list('["a", "b"]') == ["a", "b"]
    assert cache._string_map('{"a": "x"}') == {"a": "x"}
    for text in ('{"a": 1}', '["a", 1]', '"a"', "[", None, "[" * 100_000):
        with pytest.raises(CacheError):
            cache._string_list(text)
    for text in ('["a"]', '{"a": 1}', "{", None):
        with pytest.raises(CacheError):
            cache._string_map(text)


def test_source_texts_are_present_as_the_build_requires(tmp_path):
    root = tmp_path / "book"
    (root / "sources").mkdir(parents=True)
    (root / "sources" / "a.pdf").write_bytes(b"%PDF")
    (tmp_path / "outside.pdf").write_bytes(b"%PDF")
    (root / "sources" / "link.pdf").symlink_to(tmp_path / "outside.pdf")
    assert sources_present(root, []) is True
    assert sources_present(root, ["sources/a.pdf"]) is True
    assert sources_present(root, ["sources/a.pdf", "sources/b.pdf"]) is False
    assert sources_present(root, ["sources"]) is False  # a folder is not a source text
    assert sources_present(root, ["../outside.pdf"]) is False
    assert sources_present(root, ["sources/link.pdf"]) is False  # a link that leads outside
    assert sources_present(root, ["sources/a\0.pdf"]) is False


def test_an_entry_s_checksum_and_size_are_checked(monkeypatch):
    from rulebook_compiler.model import Fact
    from rulebook_compiler.diagnostics import Location

    fact = Fact("poisoned", "bool", (), "Poisoned.", Location("vocabulary.yaml", 2, 5))
    data, checksum = cache._dump(fact, {"vocabulary.yaml": "V"})
    assert checksum == hashlib.sha256(data).hexdigest()
    assert cache._load(Fact, data, checksum, {"V": "vocabulary.yaml"}) == fact
    with pytest.raises(CacheError, match="^checksum mismatch$"):
        cache._load(Fact, data, "0" * 64, {"V": "vocabulary.yaml"})
    with pytest.raises(CacheError, match="^checksum mismatch$"):
        cache._load(Fact, data.decode("latin-1"), checksum, {})
    truncated = data[:-4]
    with pytest.raises(CacheError, match="^an entry larger than the limit, or truncated$"):
        cache._load(Fact, truncated, hashlib.sha256(truncated).hexdigest(), {})
    raw = zlib.decompress(data)
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", len(raw) - 1)
    with pytest.raises(CacheError, match="^an entry larger than the limit, or truncated$"):
        cache._load(Fact, data, checksum, {})
    with pytest.raises(CacheError, match=f"^an entry of {len(raw)} bytes is larger than {len(raw) - 1}$"):
        cache._dump(fact, {"vocabulary.yaml": "V"})
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", len(raw))
    assert cache._load(Fact, *cache._dump(fact, {"vocabulary.yaml": "V"}), {"V": "vocabulary.yaml"}) == fact
    bad = zlib.compress(b"{not json")
    with pytest.raises(CacheError, match="^unreadable entry: "):
        cache._load(Fact, bad, hashlib.sha256(bad).hexdigest(), {})


def test_only_a_file_that_is_not_a_cache_database_is_set_aside():
    def error(code: int) -> sqlite3.Error:
        exc = sqlite3.DatabaseError("x")
        exc.sqlite_errorcode = code  # type: ignore[attr-defined]
        return exc

    assert cache._damaged(error(sqlite3.SQLITE_CORRUPT)) is True
    assert cache._damaged(error(sqlite3.SQLITE_NOTADB)) is True
    assert cache._damaged(error(sqlite3.SQLITE_CORRUPT | 0x100)) is True  # an extended code of the same
    assert cache._damaged(error(sqlite3.SQLITE_FULL)) is False
    assert cache._damaged(error(sqlite3.SQLITE_READONLY)) is False
    assert cache._damaged(sqlite3.OperationalError("no code")) is False
    assert cache._damaged(cache._ForeignSchema("foreign schema")) is True


def test_a_failure_is_said_in_one_line_without_the_path():
    assert cache._reason(OSError(28, "No space left on device", "/c/cache.sqlite3")) == "No space left on device"
    assert cache._reason(OSError("just words")) == "just words"
    assert cache._reason(sqlite3.OperationalError("database is locked")) == "database is locked"
    assert cache._reason(sqlite3.OperationalError()) == "OperationalError"
    assert cache._reason(OSError(1, "bad\x1b[31m")) == "bad\\x1b[31m"


def test_a_term_list_s_sum_is_of_its_rows_in_any_order():
    rows = [("cure", "d1", '["editions/v1/cure.yaml"]', "b1"), ("ward", "d2", '["editions/v1/ward.yaml"]', "b2")]
    expected = hashlib.sha256(b"cure\x00d1\x00[\"editions/v1/cure.yaml\"]\x00b1\n"
                              b"ward\x00d2\x00[\"editions/v1/ward.yaml\"]\x00b2\n").hexdigest()
    assert cache._terms_sum(rows) == cache._terms_sum(reversed(rows)) == expected
    assert [cache._placeholder(i) for i in range(3)] == ["T", "T1", "T2"]


def test_the_names_a_term_defines_declares_and_rules_on():
    from rulebook_compiler.build import load_rulebook

    cure = load_rulebook(FIXTURES / "lock-every-field").edition("v1").term_by_id["cure"]
    assert cache._names(cure) == [
        ("declares", "cure.may_target"), ("declares", "cure.timing"), ("declares", "cure.speed"),
        ("defines", "curable"), ("defines", "weak"), ("rules", "cure.may_target"), ("rules", "cure.timing"),
        ("rules", "cure.speed")]


def test_the_cache_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "c"))
    assert cache.cache_dir() == tmp_path / "c"
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert cache.cache_dir() == tmp_path / "x" / "rulebook-compiler"
    monkeypatch.setenv("XDG_CACHE_HOME", "")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.cache_dir() == tmp_path / "home" / ".cache" / "rulebook-compiler"


def test_a_file_hashed_is_its_sha256(tmp_path):
    (tmp_path / "f").write_bytes(b"abc")
    assert cache.file_sha(tmp_path / "f") == hashlib.sha256(b"abc").hexdigest()


def test_a_fingerprint_takes_a_kept_hash_only_for_the_same_size_and_time_before_the_racy_window(tmp_path):
    root = tmp_path / "book"
    shutil.copytree(FIXTURES / "minimal", root)
    first = fingerprint(root)
    assert (first.hashed, set(first.stats) == set(first.files)) == (len(first.files), True)
    rel = "rulebook.yaml"
    size, mtime, sha = first.stats[rel]
    assert sha == first.files[rel]
    old = mtime - 10 * cache.RACY_NS
    os.utime(root / rel, ns=(old, old))
    lied = {rel: [size, old, "0" * 64]}
    kept = Fingerprint("", {}, lied, first.taken)
    assert fingerprint(root, kept).files[rel] == "0" * 64  # trusted: the same size and time, long before
    assert fingerprint(root, kept).hashed == len(first.files) - 1
    assert fingerprint(root, Fingerprint("", {}, {rel: [size + 1, old, "0" * 64]}, first.taken)).files[rel] == sha
    assert fingerprint(root, Fingerprint("", {}, {rel: [size, old + 1, "0" * 64]}, first.taken)).files[rel] == sha
    # modified within RACY_NS before the record was taken: read again
    racy = Fingerprint("", {}, lied, old + cache.RACY_NS)
    assert fingerprint(root, racy).files[rel] == sha
    just = Fingerprint("", {}, lied, old + cache.RACY_NS + 1)
    assert fingerprint(root, just).files[rel] == "0" * 64
    assert fingerprint(root, just).stats[rel] == [size, old, "0" * 64]


def test_a_fingerprint_s_key_follows_the_walk(tmp_path):
    root = tmp_path / "book"
    shutil.copytree(FIXTURES / "minimal", root)
    key = fingerprint(root).key
    (root / "editions" / "v9").mkdir()
    assert fingerprint(root).key != key  # an empty folder is part of how the files are laid out
    (root / "editions" / "v9").rmdir()
    assert fingerprint(root).key == key
    assert fingerprint(root / "editions") is None
    assert fingerprint(tmp_path / "none") is None
    assert json.dumps(sorted(fingerprint(root).files)) == json.dumps(sorted(fingerprint(root).stats))


def test_a_database_that_is_not_one_is_set_aside(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    path = folder / cache.DB_NAME
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").write_bytes(b"not a database at all" * 100)
    warned: list[str] = []
    opened = cache.Cache(folder, warned.append)
    assert opened.proofs(["k"]) == {}
    assert (warned, opened.usable) == ([], True)
    # SQLite itself drops the journal files of a file that is not a database when the failed connection
    # closes: only the database is left to set aside
    assert [p.name for p in folder.iterdir() if p.name.endswith(".corrupt")] == [f"{cache.DB_NAME}.corrupt"]
    assert (folder / f"{cache.DB_NAME}.corrupt").read_bytes() == b"not a database at all" * 100
    assert sqlite3.connect(path).execute("SELECT v FROM meta WHERE k='schema'").fetchone() == (str(cache.SCHEMA),)


def test_a_cache_folder_is_made_with_its_parents_open_to_its_owner_only(tmp_path):
    folder = tmp_path / "a" / "b" / "cache"
    warned: list[str] = []
    opened = cache.Cache(folder, warned.append)
    assert opened.store_proofs({"k": "[]"}) is True
    assert (warned, opened.proofs(["k"]), oct(folder.stat().st_mode & 0o777)) == ([], {"k": "[]"}, "0o700")


def test_a_term_entry_missing_from_the_cache_is_read_from_the_sources_again(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from rulebook_compiler.cli import main

    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    root = tmp_path / "book"
    shutil.copytree(FIXTURES / "minimal", root)
    args = ["diff", "v1", "v2", "--rulebook", str(root), "--format", "json"]
    expected = CliRunner().invoke(main, args)
    assert expected.exit_code == 0
    db = sqlite3.connect(tmp_path / "cache" / cache.DB_NAME)
    assert db.execute("DELETE FROM blobs").rowcount > 0
    db.commit()
    db.close()
    again = CliRunner().invoke(main, args)
    assert (again.exit_code, again.stdout, again.stderr) == (0, expected.stdout, "")


def test_asking_for_no_proofs_opens_no_database(tmp_path):
    opened = cache.Cache(tmp_path / "cache", [].append)
    assert (opened.proofs([]), (tmp_path / "cache").exists()) == ({}, False)


def test_only_proofs_held_as_text_are_read(tmp_path):
    opened = cache.Cache(tmp_path / "cache", [].append)
    assert opened.store_proofs({"text": "[1]", "bytes": "[2]"}) is True
    opened.db.execute("UPDATE proofs SET data = CAST(data AS BLOB) WHERE key = 'bytes'")
    assert opened.proofs(["text", "bytes", "none"]) == {"text": "[1]"}
    opened.close()


def test_proofs_a_newer_record_replaces_are_dropped(tmp_path):
    opened = cache.Cache(tmp_path / "cache", [].append)
    assert opened.store_proofs({"base-1": "[1]", "top": "[0]", "kept": "[9]"}) is True
    assert opened.store_proofs({"base-2": "[2]", "top": "[3]"}, replaced=("base-1", "top")) is True
    assert opened.proofs(["base-1", "base-2", "top", "kept"]) == {"base-2": "[2]", "top": "[3]", "kept": "[9]"}
    opened.close()


def _drop_table(path: Path, table: str) -> None:
    """As a database another program changed under a run: the run's next read of the table fails."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute(f"DROP TABLE {table}")
    other.close()


def test_a_failure_to_read_proofs_is_said_once_with_its_reason(tmp_path):
    warned: list[str] = []
    opened = cache.Cache(tmp_path / "cache", warned.append)
    assert opened.store_proofs({"k": "[]"}) is True
    _drop_table(opened.path, "proofs")
    assert (opened.proofs(["k"]), opened.proofs(["k"]), opened.usable) == ({}, {}, False)
    assert warned == [f"cannot use the cache in {tmp_path / 'cache'}: no such table: proofs; continuing without it"]


def test_a_failure_to_read_a_stored_rulebook_s_rows_is_said_once_with_its_reason(tmp_path):
    from rulebook_compiler.build import load_rulebook

    warned: list[str] = []
    opened = cache.Cache(tmp_path / "cache", warned.append)
    root = tmp_path / "book"
    shutil.copytree(FIXTURES / "minimal", root)
    fp = fingerprint(root)
    assert opened.store(root, fp, load_rulebook(root)) is True
    cached = opened.lookup(root, fp)
    assert cached is not None
    _drop_table(opened.path, "terms")
    with pytest.raises(CacheError):
        cached.term_rows("v1")
    assert (warned, opened.usable) == (
        [f"cannot use the cache in {tmp_path / 'cache'}: no such table: terms; continuing without it"], False)


def test_a_database_of_another_layout_another_run_has_open_is_set_aside_with_its_journal(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    path = folder / cache.DB_NAME
    other = sqlite3.connect(path, isolation_level=None)  # another run, still using its database
    other.execute("PRAGMA journal_mode=WAL")
    other.execute("CREATE TABLE meta(k TEXT PRIMARY KEY, v TEXT NOT NULL)")
    other.execute("INSERT INTO meta VALUES('schema', '0')")
    held = {suffix: Path(f"{path}{suffix}").read_bytes() for suffix in ("", "-wal", "-shm")}
    assert held["-wal"][:4] in (b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83")  # a journal, the other run's frames
    warned: list[str] = []
    opened = cache.Cache(folder, warned.append)
    assert (opened.store_proofs({"k": "[]"}), opened.proofs(["k"]), warned) == (True, {"k": "[]"}, [])
    set_aside = {p.name: p.read_bytes() for p in folder.iterdir() if p.name.endswith(".corrupt")}
    assert sorted(set_aside) == [f"{cache.DB_NAME}-shm.corrupt", f"{cache.DB_NAME}-wal.corrupt",
                                 f"{cache.DB_NAME}.corrupt"]
    assert set_aside[f"{cache.DB_NAME}.corrupt"] == held[""]
    # what the other run wrote, kept (the frames the failed connection added come after)
    assert set_aside[f"{cache.DB_NAME}-wal.corrupt"][:len(held["-wal"])] == held["-wal"]
    opened.close()
    other.close()


def test_a_stored_rulebook_s_locations_name_its_files_as_seen_from_the_current_folder(tmp_path, monkeypatch):
    from rulebook_compiler.build import load_rulebook

    root = tmp_path / "book"
    shutil.copytree(FIXTURES / "edition-grows", root)
    (tmp_path / "elsewhere").mkdir()
    opened = cache.Cache(tmp_path / "cache", [].append)
    monkeypatch.chdir(root)
    assert opened.store(".", fingerprint("."), load_rulebook(Path("."))) is True
    monkeypatch.chdir(tmp_path / "elsewhere")
    built = load_rulebook(Path("../book"))
    cached = opened.lookup("../book", fingerprint("../book"))
    assert cached is not None
    assert [e.loc for e in cached.book.editions] == [e.loc for e in built.editions]
    assert [e.loc.path for e in cached.book.editions] == ["../book/rulebook.yaml"] * 2
    assert [c.loc for c in cached.book.corrections] == [c.loc for c in built.corrections]
    assert [c.loc.path for c in cached.book.corrections] == ["../book/corrections.yaml"] * 2
    assert ([f.loc for f in cached.book.edition("b").vocabulary.facts]
            == [f.loc for f in built.edition("b").vocabulary.facts])
    opened.close()


def test_a_source_text_whose_name_cannot_be_looked_up_is_not_present(tmp_path):
    root = tmp_path / "book"
    (root / "sources").mkdir(parents=True)
    assert sources_present(root, ["sources/" + "a" * 300 + ".pdf"]) is False  # longer than a name can be


def test_a_stored_rulebook_s_entry_does_not_depend_on_the_folder_it_was_read_from(tmp_path):
    from rulebook_compiler.build import load_rulebook

    opened = cache.Cache(tmp_path / "cache", [].append)
    held = []
    for name in ("here", "there/deeper"):
        root = tmp_path / name
        shutil.copytree(FIXTURES / "minimal", root)
        fp = fingerprint(root)
        assert opened.store(root, fp, load_rulebook(root)) is True
        held.append((fp.key, *opened.db.execute("SELECT skeleton, sum FROM books").fetchone()))
    assert held[0] == held[1]
    cached = opened.lookup(tmp_path / "here", fingerprint(tmp_path / "here"))
    assert cached is not None and cached.book.root == str(tmp_path / "here")
    opened.close()


def test_a_term_located_otherwise_than_the_build_shows_its_file_is_not_stored(tmp_path, monkeypatch):
    """Read back, its locations would name the file as the build shows it, not as the model did."""
    import dataclasses

    from rulebook_compiler.build import load_rulebook

    shutil.copytree(FIXTURES / "minimal", tmp_path / "book")
    monkeypatch.chdir(tmp_path)
    root = Path("book")
    fp = fingerprint(root)
    book = load_rulebook(root)
    term = book.edition("v1").term_by_id["cure"]
    assert term.loc.path == "book/editions/v1/cure.yaml"
    assert cache._files_and_blob(root, fp, term)[0] == '["editions/v1/cure.yaml"]'
    respelled = dataclasses.replace(term, loc=dataclasses.replace(term.loc, path="./book/editions/v1/cure.yaml"))
    with pytest.raises(CacheError):
        cache._files_and_blob(root, fp, respelled)
    edition = dataclasses.replace(book.edition("v1"), terms=(respelled,))
    opened = cache.Cache(tmp_path / "cache", [].append)
    assert opened.store(root, fp, dataclasses.replace(book, editions=(edition, *book.editions[1:]))) is False
    assert opened.store(root, fp, book) is True
    opened.close()


@pytest.mark.parametrize("enabled", [True, False])
def test_a_store_leaves_the_cyclic_collector_as_it_found_it(tmp_path, enabled):
    import gc

    from rulebook_compiler.build import load_rulebook

    root = tmp_path / "book"
    shutil.copytree(FIXTURES / "minimal", root)
    book = load_rulebook(root)
    opened = cache.Cache(tmp_path / "cache", [].append)
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        assert opened.store(root, fingerprint(root), book) is True
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
        opened.close()


def test_a_store_that_cannot_hold_a_model_leaves_the_cache_usable_and_unchanged(tmp_path, monkeypatch):
    """Its transaction is rolled back: the next write of the same run (the proofs a check stores after
    the rulebook) goes through without a warning."""
    from rulebook_compiler.build import load_rulebook

    root = tmp_path / "book"
    shutil.copytree(FIXTURES / "minimal", root)
    book = load_rulebook(root)
    warned: list[str] = []
    opened = cache.Cache(tmp_path / "cache", warned.append)
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", 100)  # every term's entry is larger
    assert opened.store(root, fingerprint(root), book) is False
    assert opened.store_proofs({"k": "[]"}) is True
    assert (warned, opened.usable, opened.proofs(["k"])) == ([], True, {"k": "[]"})
    assert [opened.db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("books", "terms", "blobs")] == [
        0, 0, 0]
    opened.close()


def test_a_cache_file_that_cannot_be_opened_is_left_as_it_is_and_said_once(tmp_path):
    """Not a database that is damaged: nothing is set aside (here a folder where the database would be)."""
    folder = tmp_path / "cache"
    (folder / cache.DB_NAME).mkdir(parents=True)
    (folder / cache.DB_NAME / "mine").write_text("kept")
    warned: list[str] = []
    opened = cache.Cache(folder, warned.append)
    assert (opened.proofs(["k"]), opened.store_proofs({"k": "[]"}), opened.usable) == ({}, False, False)
    assert warned == [f"cannot use the cache in {folder}: unable to open database file; continuing without it"]
    assert sorted(p.name for p in folder.iterdir()) == [cache.DB_NAME]
    assert (folder / cache.DB_NAME / "mine").read_text() == "kept"


def test_a_disk_error_on_opening_the_cache_sets_nothing_aside_and_is_said_once(tmp_path):
    """An I/O error is not a damaged file (here a folder where the journal would be): the database stays."""
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / f"{cache.DB_NAME}-wal").mkdir()
    warned: list[str] = []
    opened = cache.Cache(folder, warned.append)
    assert (opened.proofs(["k"]), opened.usable) == ({}, False)
    assert warned == [f"cannot use the cache in {folder}: disk I/O error; continuing without it"]
    assert sorted(p.name for p in folder.iterdir()) == [cache.DB_NAME, f"{cache.DB_NAME}-wal"]


def test_a_write_that_fails_is_said_once_and_records_nothing(tmp_path):
    warned: list[str] = []
    opened = cache.Cache(tmp_path / "cache", warned.append)
    assert opened.store_proofs({"a": "[]"}) is True
    _drop_table(opened.path, "proofs")
    assert (opened.store_proofs({"b": "[]"}), opened.store_proofs({"c": "[]"}), opened.usable) == (False, False, False)
    assert warned == [f"cannot use the cache in {tmp_path / 'cache'}: no such table: proofs; continuing without it"]


def test_a_file_name_that_is_not_utf_8_is_part_of_the_key(tmp_path):
    root = tmp_path / "book"
    shutil.copytree(FIXTURES / "minimal", root)
    key = fingerprint(root).key
    odd = os.fsencode(root / "editions" / "v1") + b"/\xff.yaml"  # a name os.fsdecode keeps as a surrogate
    with open(odd, "wb") as fh:
        fh.write(b"id: odd\n")
    found = fingerprint(root)
    assert "editions/v1/\udcff.yaml" in found.files
    assert found.key != key
    os.remove(odd)
    assert fingerprint(root).key == key
