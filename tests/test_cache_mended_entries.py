"""A store mends what it finds damaged (rulebook_compiler/cache.py): a term entry whose bytes no longer match
their checksum, or that are not bytes at all, is written again by the next store that holds its term, so
that the rulebook is read back whole from the cache without going to the sources."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook_compiler import cache
from rulebook_compiler.build import load_rulebook

MINIMAL = Path(__file__).resolve().parent / "fixtures" / "minimal"


@pytest.mark.parametrize("damage", [
    "data = substr(data, 1, length(data) / 2)",  # truncated: bytes, not those of the checksum
    "data = 'text, not bytes'",
    # text that is not UTF-8: sqlite3 cannot even return it as str, and the whole cache was given up
    "data = CAST(X'ff1b5b33316d' AS TEXT)",
    "sum = 'damaged'",
])
def test_a_damaged_term_entry_is_written_again_by_the_next_store(tmp_path, damage):
    root = tmp_path / "book"
    shutil.copytree(MINIMAL, root)
    warned: list[str] = []
    opened = cache.Cache(tmp_path / "cache", warned.append)
    fp = cache.fingerprint(root)
    built = load_rulebook(root)
    assert opened.store(root, fp, built) is True
    kept = {key: (data, checksum) for key, data, checksum in opened.db.execute("SELECT key, data, sum FROM blobs")}
    assert opened.db.execute(f"UPDATE blobs SET {damage}").rowcount == 2
    assert opened.store(root, fp, load_rulebook(root)) is True
    assert {key: (data, checksum) for key, data, checksum in opened.db.execute(
        "SELECT key, data, sum FROM blobs")} == kept
    cached = opened.lookup(root, fp)
    assert cached is not None
    for edition in ("v1", "v2"):
        (tid, digest, file, blob), = cached.term_rows(edition)
        assert cached.load_term(file, blob) == built.edition(edition).term_by_id[tid]
    assert warned == []
    opened.close()


def test_a_term_entry_of_text_that_is_not_utf8_is_damage_when_it_is_read(tmp_path):
    """Read back, such an entry is a checksum mismatch like any other damage (the diff then drops it and reads
    the sources, docs/diff.md), not a failure of the database that gives up the cache for the run."""
    root = tmp_path / "book"
    shutil.copytree(MINIMAL, root)
    warned: list[str] = []
    opened = cache.Cache(tmp_path / "cache", warned.append)
    fp = cache.fingerprint(root)
    assert opened.store(root, fp, load_rulebook(root)) is True
    assert opened.db.execute("UPDATE blobs SET data = CAST(X'ff1b5b33316d' AS TEXT)").rowcount == 2
    cached = opened.lookup(root, fp)
    (tid, digest, file, blob), = cached.term_rows("v1")
    with pytest.raises(cache.CacheError, match="^checksum mismatch$"):
        cached.load_term(file, blob)
    assert warned == []
    opened.close()
