"""What the cache drops when an entry does not validate (rulebook_compiler/cache.py): the rulebook it belongs to
and its terms, every rulebook that shares one of those terms, and a damaged term no rulebook uses any more;
so that none of them is read again and the next store writes them afresh."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from rulebook_compiler import cache
from rulebook_compiler.build import load_rulebook

MINIMAL = Path(__file__).resolve().parent / "fixtures" / "minimal"


def _copy(tmp_path: Path, name: str, comment: str = "") -> Path:
    root = tmp_path / name
    shutil.copytree(MINIMAL, root)
    if comment:  # another rulebook (another key) whose terms are the same files
        (root / "rulebook.yaml").write_text((root / "rulebook.yaml").read_text() + f"# {comment}\n")
    return root


def _stored(store: cache.Cache, root: Path) -> cache.Fingerprint:
    fp = cache.fingerprint(root)
    assert fp is not None and store.store(root, fp, load_rulebook(root))
    return fp


def _keys(store: cache.Cache) -> list[str]:
    return [key for (key,) in store.db.execute("SELECT key FROM books ORDER BY key")]


def _count(store: cache.Cache, table: str) -> int:
    return store.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


@pytest.fixture
def store(tmp_path):
    warned: list[str] = []
    opened = cache.Cache(tmp_path / "cache", warned.append)
    yield opened
    opened.close()
    assert warned == []


def test_forgetting_a_rulebook_drops_every_rulebook_that_shares_one_of_its_terms(tmp_path, store):
    first = _stored(store, _copy(tmp_path, "first"))
    other = _stored(store, _copy(tmp_path, "other", "another rulebook, the same terms"))
    alone_root = _copy(tmp_path, "alone")
    for edition in ("v1", "v2"):
        term = alone_root / "editions" / edition / "cure.yaml"
        term.write_text(term.read_text() + "# its own term now\n")
    alone = _stored(store, alone_root)
    assert len({first.key, other.key, alone.key}) == 3
    assert _count(store, "blobs") == 4  # two terms shared by first and other, two of alone's
    store.forget(first.key)
    assert _keys(store) == [alone.key]
    assert store.lookup(tmp_path / "first", first) is None
    assert store.lookup(tmp_path / "other", other) is None
    assert store.lookup(tmp_path / "alone", alone) is not None
    assert _count(store, "blobs") == 2
    assert store.db.execute("SELECT count(*) FROM terms WHERE book NOT IN (SELECT id FROM books)").fetchone() == (0,)


def test_a_rulebook_whose_entry_does_not_validate_reads_as_missing_and_is_dropped_with_its_terms(tmp_path, store):
    root = _copy(tmp_path, "book")
    fp = _stored(store, root)
    store.db.execute("UPDATE books SET skeleton = substr(skeleton, 1, 10)")
    assert store.lookup(root, fp) is None
    assert (_keys(store), _count(store, "terms"), _count(store, "blobs"), _count(store, "names")) == ([], 0, 0, 0)


@pytest.mark.parametrize("column", ["digest", "file", "blob"])
def test_a_damaged_term_list_is_not_read_and_its_rulebook_is_dropped(tmp_path, store, column):
    root = _copy(tmp_path, "book")
    fp = _stored(store, root)
    cached = store.lookup(root, fp)
    assert cached is not None
    assert [row[0] for row in cached.term_rows("v1")] == ["cure"]
    store.db.execute(f"UPDATE terms SET {column} = {column} || 'x' WHERE edition = 'v1'")
    with pytest.raises(cache.CacheError):
        cached.term_rows("v1")
    assert (_keys(store), _count(store, "terms")) == ([], 0)
    assert store.lookup(root, fp) is None


def test_a_damaged_term_no_rulebook_uses_any_more_is_dropped(tmp_path, store):
    root = _copy(tmp_path, "book")
    fp = _stored(store, root)
    cached = store.lookup(root, fp)
    assert cached is not None
    (_tid, _digest, file, blob), = cached.term_rows("v1")
    # meanwhile another run dropped this rulebook's term list (a store past MAX_BOOKS drops it so)
    other = sqlite3.connect(store.path, isolation_level=None)
    other.execute("DELETE FROM terms")
    other.execute("UPDATE blobs SET sum = 'damaged' WHERE key = ?", (blob,))
    other.close()
    with pytest.raises(cache.CacheError):
        cached.load_term(file, blob)
    assert [key for (key,) in store.db.execute("SELECT key FROM blobs WHERE key = ?", (blob,))] == []
    assert _count(store, "blobs") == 1  # v2's term, which nothing found damaged
