"""``rulebook diff`` through the cache: the same bytes cold, warm and without it; damage rebuilt; sources untouched."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cache import DB_NAME, cache_dir
from rulebook_compiler.cli import main

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ROOT / "rulebook"
MINIMAL = ROOT / "tests" / "fixtures" / "minimal"


def _gen():
    spec = importlib.util.spec_from_file_location("bench_gen_for_cache", ROOT / "bench" / "gen.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def run(*args: str, env: dict | None = None):
    result = CliRunner().invoke(main, ["diff", *args], env=env, catch_exceptions=False)
    return result


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(root)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def no_full_load(monkeypatch):
    """Fail if a side is loaded and checked in full: a warm run must read the cache."""
    def refuse(root):
        raise AssertionError(f"{root} was loaded in full, not read from the cache")

    def arm():
        monkeypatch.setattr("rulebook_compiler.build.check", refuse)
    return arm


def cold_warm_uncached(args: list[str], no_full_load, formats=("json", "markdown")) -> dict[str, str]:
    assert not (cache_dir() / DB_NAME).exists()
    cold = {}
    for fmt in formats:
        result = run(*args, "--format", fmt)
        assert result.exit_code == 0, result.output
        cold[fmt] = result.output
    uncached = {fmt: run(*args, "--format", fmt, "--no-cache").output for fmt in formats}
    no_full_load()
    warm = {fmt: run(*args, "--format", fmt).output for fmt in formats}
    assert warm == cold
    assert uncached == cold
    return cold


@pytest.mark.parametrize("old,new", [("3.0.0", "4.0.0-draft"), ("5.0.0", "2012")])
def test_bundled_is_the_same_cold_warm_and_without_cache(old, new, no_full_load):
    before = snapshot(BUNDLED)
    out = cold_warm_uncached([old, new, "--rulebook", str(BUNDLED)], no_full_load)
    assert '"kind": "semantic"' in out["json"]
    assert snapshot(BUNDLED) == before  # read-only: nothing written, nothing touched


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    """A generated 60-term rulebook in two editions, a quarter of the terms changed (seed 7: meanings change, with impact)."""
    return _gen().generate(60, tmp_path_factory.mktemp("gen") / "book", editions=2, changed=0.25, seed=7)


@pytest.mark.parametrize("old,new", [("1.0.0", "2.0.0"), ("2.0.0", "1.0.0")])
def test_generated_is_the_same_cold_warm_and_without_cache(generated, old, new, no_full_load):
    out = cold_warm_uncached([old, new, "--rulebook", str(generated)], no_full_load)
    changes = json.loads(out["json"])["changes"]
    assert any(c["behaviour"] for c in changes)  # meaning was compared: evaluation read cached terms
    assert any(c["impact"] for c in changes)  # and impact came from the cached index


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path, monkeypatch, generated):
    """Two commits of a rulebook: the generated one, then with the second edition's files as the first's."""
    book = tmp_path / "rulebook"
    shutil.copytree(generated, book)
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "t@example.org")
    git(tmp_path, "config", "user.name", "T")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "one")
    for path in (book / "editions" / "2.0.0").iterdir():
        shutil.copy(path, book / "editions" / "1.0.0" / path.name)
    git(tmp_path, "commit", "-qam", "two")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_git_sides_are_the_same_cold_warm_and_without_cache(repo, no_full_load):
    out = cold_warm_uncached(["git:HEAD~1:1.0.0", "git:HEAD:1.0.0"], no_full_load)
    assert '"file": "rulebook/editions/1.0.0/' in out["json"]  # paths as the repository names them
    assert git(repo, "status", "--porcelain") == ""


def _book_copy(tmp_path: Path, source: Path = MINIMAL) -> Path:
    root = tmp_path / "book"
    shutil.copytree(source, root)
    return root


def test_a_damaged_term_entry_is_rebuilt_not_trusted(tmp_path, no_full_load):
    root = _book_copy(tmp_path, BUNDLED)
    args = ["3.0.0", "4.0.0-draft", "--rulebook", str(root), "--format", "json"]
    expected = run(*args).output
    db = sqlite3.connect(cache_dir() / DB_NAME)
    damaged = db.execute("UPDATE blobs SET data = substr(data, 1, length(data) / 2)").rowcount
    db.commit()
    db.close()
    assert damaged > 0
    assert run(*args).output == expected  # read from the sources again, and stored again
    no_full_load()
    assert run(*args).output == expected  # now from the rebuilt entry


@pytest.mark.parametrize("damage", ["garbage", "truncated", "foreign"])
def test_a_damaged_or_foreign_database_is_set_aside(tmp_path, damage):
    root = _book_copy(tmp_path)
    args = ["v1", "v2", "--rulebook", str(root), "--format", "json"]
    expected = run(*args).output
    path = cache_dir() / DB_NAME
    if damage == "garbage":
        path.write_bytes(b"not a database at all" * 100)
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:1000])
    else:
        db = sqlite3.connect(path)
        db.execute("UPDATE meta SET v = '999' WHERE k = 'schema'")
        db.commit()
        db.close()
    assert run(*args).output == expected
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM books").fetchone()[0] == 1  # a fresh cache, filled again


def test_a_changed_compiler_does_not_read_the_old_entries(tmp_path, monkeypatch):
    root = _book_copy(tmp_path)
    run("v1", "v2", "--rulebook", str(root))
    import rulebook_compiler.cache as cache

    monkeypatch.setattr(cache, "compiler_key", lambda: "another compiler")
    loads = []
    real = __import__("rulebook_compiler.build", fromlist=["check"]).check
    monkeypatch.setattr("rulebook_compiler.build.check", lambda r, **kw: loads.append(r) or real(r, **kw))
    run("v1", "v2", "--rulebook", str(root))
    assert loads  # loaded in full: the entry of another compiler is not this one's


def test_an_edited_side_that_fails_check_reports_its_errors(tmp_path):
    root = _book_copy(tmp_path)
    assert run("v1", "v2", "--rulebook", str(root)).exit_code == 0  # cached as clean
    path = root / "editions" / "v2" / "cure.yaml"
    path.write_text(path.read_text().replace("decision:", "decisoin:", 1))
    result = run("v1", "v2", "--rulebook", str(root))
    assert result.exit_code == 1
    assert "does not pass rulebook check" in result.output
    assert f"{os.path.relpath(path)}:" in result.output and "error:" in result.output


def test_a_missing_source_text_is_not_hidden_by_the_cache(tmp_path):
    root = _book_copy(tmp_path, BUNDLED)
    assert run("3.0.0", "4.0.0-draft", "--rulebook", str(root)).exit_code == 0
    (root / "sources" / "002_a8af6e892156ac82.txt").unlink()
    result = run("3.0.0", "4.0.0-draft", "--rulebook", str(root))
    assert result.exit_code == 1
    assert "source file 'sources/002_a8af6e892156ac82.txt' does not exist" in result.output


@pytest.mark.parametrize("how", ["option", "env"])
def test_no_cache_neither_reads_nor_writes(tmp_path, how):
    root = _book_copy(tmp_path)
    if how == "option":
        result = run("v1", "v2", "--rulebook", str(root), "--no-cache")
    else:
        result = run("v1", "v2", "--rulebook", str(root), env={"RULEBOOK_NO_CACHE": "1"})
    assert result.exit_code == 0
    assert not cache_dir().exists() or not (cache_dir() / DB_NAME).exists()


def test_a_cache_inside_the_sources_is_not_used(tmp_path, monkeypatch):
    root = _book_copy(tmp_path)
    before = snapshot(root)
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(root / "editions" / ".cache"))
    result = run("v1", "v2", "--rulebook", str(root))
    assert result.exit_code == 0
    assert snapshot(root) == before


def test_one_side_cached_and_one_loaded_in_full_agree(repo, monkeypatch):
    old = "git:HEAD~1:1.0.0"
    assert run(old, "git:HEAD~1:2.0.0").exit_code == 0  # caches the old revision
    path = next((repo / "rulebook" / "editions" / "2.0.0").iterdir())
    path.write_text(path.read_text() + "# edited in the work tree\n")  # another file hash: not cached
    import rulebook_compiler.build

    loads, real = [], rulebook_compiler.build.check
    monkeypatch.setattr("rulebook_compiler.build.check", lambda root, **kw: loads.append(str(root)) or real(root, **kw))
    args = [old, "rulebook", "--format", "json"]
    mixed = run(*args).output
    assert loads == ["rulebook"]  # the old side came from the cache, the work tree was loaded
    assert mixed == run(*args, "--no-cache").output
    assert '"kind": "semantic"' in mixed or '"kind": "reworded"' in mixed


def test_an_entry_filled_from_one_folder_shows_paths_as_seen_from_another(tmp_path, monkeypatch, no_full_load):
    root = _book_copy(tmp_path, BUNDLED)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path)
    run("2012", "3.0.0", "--rulebook", "book")  # fills the cache; files shown as book/editions/...
    monkeypatch.chdir(tmp_path / "elsewhere")
    expected = run("2012", "3.0.0", "--rulebook", str(root), "--format", "json", "--no-cache").output
    no_full_load()
    assert run("2012", "3.0.0", "--rulebook", str(root), "--format", "json").output == expected
    assert f'"file": "{os.path.relpath(root)}/editions/' in expected


# -- entries written by someone else: never run, never trusted, never a crash ---------------------


def _expected(args: list[str]) -> str:
    result = run(*args, "--no-cache")
    assert result.exit_code == 0, result.output
    return result.stdout


def _rewrite_entries(table: str, data: bytes) -> int:
    """Put ``data`` in every entry of ``table`` (blobs: terms; books: the rulebook without its terms),
    with the checksum recomputed as anyone who can write the cache can."""
    import hashlib

    column = "data" if table == "blobs" else "skeleton"
    db = sqlite3.connect(cache_dir() / DB_NAME)
    count = db.execute(f"UPDATE {table} SET {column} = ?, sum = ?",
                       (data, hashlib.sha256(data).hexdigest())).rowcount
    db.commit()
    db.close()
    return count


def _entry_data(entry: bytes):
    """The JSON data an entry holds."""
    import zlib

    return json.loads(zlib.decompress(entry))


def _entry(data) -> bytes:
    """An entry holding this JSON data, as the cache writes it."""
    import zlib

    return zlib.compress(json.dumps(data).encode())


def _gadget(marker: Path) -> bytes:
    """A pickle that names only ``rulebook_compiler.model`` and, through a dotted attribute path, reaches
    ``eval`` and runs code that writes ``marker``: what a module-name check lets through."""
    code = f"open({str(marker)!r}, 'w').write('ran')"
    return (b"\x80\x04" + b"ccompiler.model\nclause_ref.__builtins__.get\n" + b"(Veval\ntR"
            + b"(V" + code.encode() + b"\ntR.")


@pytest.mark.parametrize("table", ["blobs", "books"])
def test_a_forged_entry_that_would_run_code_does_not_run(tmp_path, table, no_full_load):
    import zlib

    root = _book_copy(tmp_path)
    args = ["v1", "v2", "--rulebook", str(root), "--format", "json"]
    expected = _expected(args)
    assert run(*args).stdout == expected  # fills the cache
    marker = tmp_path / "marker"
    assert _rewrite_entries(table, zlib.compress(_gadget(marker))) > 0
    result = run(*args)
    assert not marker.exists()
    assert (result.exit_code, result.stdout, result.stderr) == (0, expected, "")
    no_full_load()
    assert run(*args).stdout == expected  # the entry was rebuilt from the sources


def test_a_forged_rulebook_without_vocabulary_is_dropped(tmp_path, no_full_load):
    """A well-formed entry holding a rulebook whose edition's vocabulary is None (checksum recomputed)."""
    import dataclasses

    from rulebook_compiler import cache, model
    from rulebook_compiler.build import load_rulebook

    root = _book_copy(tmp_path)
    args = ["v1", "v2", "--rulebook", str(root), "--format", "json"]
    expected = _expected(args)
    run(*args)
    book = load_rulebook(root)
    skeleton = dataclasses.replace(book, root="", editions=tuple(dataclasses.replace(e, terms=()) for e in book.editions))
    data = _entry_data(cache._dump(skeleton, cache._meta_paths(root, book))[0])
    editions = [f.name for f in dataclasses.fields(model.Rulebook)].index("editions")
    vocabulary = [f.name for f in dataclasses.fields(model.Edition)].index("vocabulary")
    data[editions][0][vocabulary] = None
    assert _rewrite_entries("books", _entry(data)) == 1
    for _ in range(2):  # not once: every later diff
        result = run(*args)
        assert (result.exit_code, result.stdout, result.stderr) == (0, expected, "")
    no_full_load()
    assert run(*args).stdout == expected


# -- a cache that cannot be written: one warning, the output of --no-cache, nothing lost -----------


def _books() -> list[str]:
    db = sqlite3.connect(cache_dir() / DB_NAME)
    try:
        return [key for (key,) in db.execute("SELECT key FROM books ORDER BY key")]
    finally:
        db.close()


class _Connection:
    """A sqlite3 connection whose statements fail as the disk or the file system makes them fail."""

    def __init__(self, db: sqlite3.Connection, fail):
        self._db = db
        self._fail = fail  # sql -> an error to raise, or None

    def execute(self, sql, *args):
        error = self._fail(sql)
        if error is not None:
            raise error
        return self._db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._db, name)


def _failing_connect(monkeypatch, fail) -> None:
    real = sqlite3.connect
    monkeypatch.setattr("rulebook_compiler.cache.sqlite3.connect", lambda *a, **k: _Connection(real(*a, **k), fail))


def _warning(reason: str) -> str:
    return f"rulebook: warning: cannot use the cache in {cache_dir()}: {reason}; continuing without it\n"


def _two_books(tmp_path: Path) -> tuple[list[str], list[str]]:
    """The diff of a cached rulebook, and of an edited copy that the cache does not hold (its
    edited clause long enough that storing it needs new pages of the database)."""
    import hashlib

    first = _book_copy(tmp_path / "first")
    second = _book_copy(tmp_path / "second")
    path = second / "editions" / "v2" / "cure.yaml"
    words = " ".join(hashlib.sha256(str(i).encode()).hexdigest() for i in range(300))
    path.write_text(path.read_text().replace("Cure cannot be used in battle.", f"Cure cannot be used in battle {words}."))
    return (["v1", "v2", "--rulebook", str(first), "--format", "json"],
            ["v1", "v2", "--rulebook", str(second), "--format", "json"])


def _degrades(args: list[str], reason: str) -> None:
    expected = _expected(args)
    result = run(*args)
    assert (result.exit_code, result.stdout, result.stderr) == (0, expected, _warning(reason))


@pytest.mark.parametrize("how", ["full disk", "failed commit"])
def test_a_full_disk_keeps_the_cache_and_warns_once(tmp_path, monkeypatch, how, no_full_load):
    cached, other = _two_books(tmp_path)
    run(*cached)
    before = _books()
    with monkeypatch.context() as m:
        if how == "full disk":
            # SQLite's own "database or disk is full": the file may not grow by one page.
            real = sqlite3.connect

            def connect(*a, **k):
                db = real(*a, **k)
                pages = db.execute("PRAGMA page_count").fetchone()[0]
                db.execute(f"PRAGMA max_page_count = {max(pages, 1)}")
                return db
            m.setattr("rulebook_compiler.cache.sqlite3.connect", connect)
        else:
            _failing_connect(m, lambda sql: sqlite3.OperationalError("database or disk is full")
                             if sql == "COMMIT" else None)
        _degrades(other, "database or disk is full")
    assert _books() == before  # the valid entry is kept
    expected = _expected(cached)
    no_full_load()
    assert run(*cached).stdout == expected


def test_a_read_only_cache_is_not_discarded_and_warns_once(tmp_path, monkeypatch, no_full_load):
    cached, other = _two_books(tmp_path)
    run(*cached)
    before = _books()
    with monkeypatch.context() as m:
        real = sqlite3.connect

        def connect(*a, **k):
            db = real(*a, **k)
            db.execute("PRAGMA query_only = 1")  # what a read-only file or folder gives, also to root
            return db
        m.setattr("rulebook_compiler.cache.sqlite3.connect", connect)
        _degrades(cached, "attempt to write a readonly database")
        _degrades(other, "attempt to write a readonly database")
    assert _books() == before
    expected = _expected(cached)
    no_full_load()
    assert run(*cached).stdout == expected


def test_a_read_only_cache_folder_warns_once(monkeypatch):
    # Root writes into read-only folders, so under root (as in CI) the command runs with the
    # effective uid of 'nobody', who may read the rulebook and the cache but write neither.
    # Everything lives in a folder of this test's own, made in the system's temporary folder: not
    # under pytest's, whose pytest-of-<user> folder is private (0700) and shared by every pytest
    # session of the user; opening it to 'nobody' raced with any session starting meanwhile,
    # which makes it private again (and with this test running in another session).
    own = Path(tempfile.mkdtemp(prefix="rulebook-read-only-cache-"))
    folder = own / "cache"
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(folder))
    try:
        cached, other = _two_books(own)
        run(*cached)
        before = _books()
        for p in [own, *own.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)
        folder.chmod(0o555)
        (folder / DB_NAME).chmod(0o444)
        as_root = os.geteuid() == 0
        try:
            if as_root:
                os.seteuid(65534)
            result = run(*other)
        finally:
            if as_root:
                os.seteuid(0)
        assert (result.exit_code, result.stdout) == (0, _expected(other))
        assert result.stderr.startswith(f"rulebook: warning: cannot use the cache in {folder}: ")
        assert result.stderr.count("\n") == 1
        assert _books() == before
    finally:
        if folder.exists():
            folder.chmod(0o755)  # so that a user other than root may remove it
        shutil.rmtree(own)


def test_a_cache_folder_that_cannot_be_made_warns_once(tmp_path, monkeypatch):
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(blocker / "cache"))
    args = ["v1", "v2", "--rulebook", str(_book_copy(tmp_path)), "--format", "json"]
    _degrades(args, "Not a directory")
    assert blocker.read_text() == ""


def _rewrite_each(table: str, change) -> int:
    """Each entry of ``table`` changed by ``change`` (JSON data -> JSON data or raw bytes), checksum recomputed."""
    import hashlib

    column = "data" if table == "blobs" else "skeleton"
    key = "key" if table == "blobs" else "id"
    db = sqlite3.connect(cache_dir() / DB_NAME)
    rows = db.execute(f"SELECT {key}, {column} FROM {table}").fetchall()
    for row_key, entry in rows:
        new = change(_entry_data(entry))
        new = new if isinstance(new, bytes) else _entry(new)
        db.execute(f"UPDATE {table} SET {column} = ?, sum = ? WHERE {key} = ?",
                   (new, hashlib.sha256(new).hexdigest(), row_key))
    db.commit()
    db.close()
    return len(rows)


def _nested(depth: int) -> bytes:
    import zlib

    return zlib.compress(b"[" * depth + b"]" * depth)


FORGED_TERMS = {
    "a field missing": lambda d: d[:-1],
    "a field too many": lambda d: d + [None],
    "null for the term's name": lambda d: [d[0], None, *d[2:]],
    "a number for the term's id": lambda d: [7, *d[1:]],
    "an object for the sections": lambda d: [*d[:5], {}, *d[6:]],
    "not a model at all": lambda d: {"__class__": "os.system", "args": ["true"]},
    "arrays nested 100000 deep": lambda d: _nested(100_000),
    "not JSON": lambda d: b"x\x9c" + b"\x00" * 8,
}


@pytest.mark.parametrize("case", sorted(FORGED_TERMS))
def test_a_forged_term_entry_is_dropped_and_rebuilt(tmp_path, case, no_full_load):
    root = _book_copy(tmp_path)
    args = ["v1", "v2", "--rulebook", str(root), "--format", "json"]
    expected = _expected(args)
    run(*args)
    assert _rewrite_each("blobs", FORGED_TERMS[case]) > 0
    result = run(*args)
    assert (result.exit_code, result.stdout, result.stderr) == (0, expected, "")
    no_full_load()
    assert run(*args).stdout == expected


def test_a_forged_entry_larger_than_the_limit_is_dropped(tmp_path, monkeypatch, no_full_load):
    import zlib

    root = _book_copy(tmp_path)
    args = ["v1", "v2", "--rulebook", str(root), "--format", "json"]
    expected = _expected(args)
    run(*args)
    monkeypatch.setattr("rulebook_compiler.cache.MAX_ENTRY_BYTES", 100_000)
    assert _rewrite_each("blobs", lambda d: zlib.compress(b" " * 100_001 + json.dumps(d).encode())) > 0
    result = run(*args)
    assert (result.exit_code, result.stdout, result.stderr) == (0, expected, "")
    no_full_load()
    assert run(*args).stdout == expected


def _rename_refs(data):
    """Every condition node ``["r", name, loc]`` of an entry naming a fact no vocabulary has."""
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            if len(node) == 3 and node[0] == "r" and isinstance(node[1], str):
                node[1] = "no_such_fact"
            stack.extend(node)
    return data


def test_a_forged_entry_of_the_right_types_that_makes_the_diff_fail_is_dropped(tmp_path, no_full_load):
    """Every type right, so it validates; but its conditions name a fact the vocabulary lacks."""
    root = _book_copy(tmp_path)
    args = ["v1", "v2", "--rulebook", str(root), "--format", "json"]
    expected = _expected(args)
    run(*args)
    assert _rewrite_each("blobs", _rename_refs) > 0
    result = run(*args)
    assert (result.exit_code, result.stdout) == (0, expected)
    assert result.stderr == ("rulebook: warning: a cache entry could not be used (KeyError); "
                             "it was dropped and the sources read instead\n")
    assert run(*args).stderr == ""  # filled again from the sources
    no_full_load()
    result = run(*args)
    assert (result.stdout, result.stderr) == (expected, "")


def test_a_diff_that_fails_without_the_cache_too_raises_its_own_error(tmp_path, monkeypatch):
    """The fallback is for what entries held: a failure of the diff itself is not hidden."""
    root = _book_copy(tmp_path)
    args = ["v1", "v2", "--rulebook", str(root), "--format", "json"]
    run(*args)
    calls = []

    def broken(*a, **k):
        calls.append(len(calls))
        raise ZeroDivisionError("the diff's own bug")
    monkeypatch.setattr("rulebook_compiler.diff.engine.diff_sources", broken)
    with pytest.raises(ZeroDivisionError, match="the diff's own bug"):
        run(*args)
    assert calls == [0, 1]  # once with the cache, once from the sources


def test_the_warning_escapes_control_characters_in_the_cache_folder(tmp_path, monkeypatch):
    blocker = tmp_path / "a\x1b[2Jfile"
    blocker.write_text("")
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(blocker / "cache"))
    args = ["v1", "v2", "--rulebook", str(_book_copy(tmp_path)), "--format", "json"]
    result = run(*args)
    assert (result.exit_code, result.stdout) == (0, _expected(args))
    assert result.stderr == (f"rulebook: warning: cannot use the cache in {tmp_path}/a\\x1b[2Jfile/cache: "
                             "Not a directory; continuing without it\n")


@pytest.mark.parametrize("sources", ['["a\\u0000b"]', '[1]', '{"a": 1}', '"not a list"', "[[[[[[[["])
def test_a_forged_list_of_source_texts_is_dropped(tmp_path, sources, no_full_load):
    root = _book_copy(tmp_path)
    args = ["v1", "v2", "--rulebook", str(root), "--format", "json"]
    expected = _expected(args)
    run(*args)
    db = sqlite3.connect(cache_dir() / DB_NAME)
    assert db.execute("UPDATE books SET sources = ?", (sources,)).rowcount == 1
    db.commit()
    db.close()
    result = run(*args)
    assert (result.exit_code, result.stdout, result.stderr) == (0, expected, "")
    no_full_load()
    assert run(*args).stdout == expected
