"""``Cache.store_edited`` on its own: the rulebook an incremental check passed, made from the one stored
under an earlier fingerprint and the terms of the edited files, stored exactly as ``store`` stores the
same files, and False (nothing stored) whenever it could not be made that way (rulebook_compiler/cache.py).

tests/test_recheck.py reaches it through ``check`` and a diff after it; here are the cases a check does
not reach (a rulebook already stored under the new key, a damaged one before, an edited file a patch
keeps values from) and its answer when there is nothing to do or the cache cannot be used.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.cache import DB_NAME, Cache, Fingerprint, fingerprint
from rulebook_compiler.model import Rulebook, Term
from tests.test_recheck import _stored  # everything the cache holds of a stored rulebook
from tests.test_recheck_state import _edit  # one file's text edited in place

FIXTURE = Path(__file__).parent / "fixtures" / "recheck"

# a rule's condition in the draft edition b's own term file: an edit an incremental check takes
POISON = "editions/b/poison.yaml"
# the published edition a's targeting, which edition b patches (editions/b/targeting.yaml)
TARGETING = "editions/a/targeting.yaml"


@pytest.fixture
def book(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(FIXTURE, tmp_path / "book")
    return Path("book")


def _term(book: Rulebook, edition: str, term_id: str) -> Term:
    return next(t for e in book.editions if e.id == edition for t in e.terms if t.id == term_id)


def _fp(root: Path) -> Fingerprint:
    fp = fingerprint(root)
    assert fp is not None
    return fp


def _as_store_stores_it(root: Path, fp: Fingerprint, folder: Path) -> dict:
    """What ``store`` writes of the rulebook at ``root`` in a fresh cache."""
    reference = Cache.open(folder, warn=pytest.fail)
    assert reference.store(root, fp, load_rulebook(root)) is True
    reference.close()
    return _stored(folder, fp.key)


class _Stored:
    """The fixture's rulebook stored by ``store`` in a cache of its own, and the warnings that cache gave."""

    def __init__(self, root: Path, folder: Path):
        self.root, self.folder = root, folder
        self.warnings: list[str] = []
        self.cache = Cache.open(folder, warn=self.warnings.append)
        self.before = _fp(root)
        assert self.cache.store(root, self.before, load_rulebook(root)) is True

    def edited(self, rel: str, old: str, new: str, edition: str, term_id: str) -> tuple[Fingerprint, dict]:
        """The fingerprint after an edit of one term file, and the map store_edited takes for it."""
        _edit(self.root, rel, old, new)
        return _fp(self.root), {rel: _term(load_rulebook(self.root), edition, term_id)}


def test_an_edited_rulebook_is_stored_as_store_stores_it(book, tmp_path):
    kept = _Stored(book, tmp_path / "cache")
    fp, terms = kept.edited(POISON, "requires: poisonable", "requires: diseased", "b", "poison")
    assert kept.cache.store_edited(book, fp, kept.before.key, terms) is True
    kept.cache.close()
    assert _stored(kept.folder, fp.key) == _as_store_stores_it(book, fp, tmp_path / "reference") != {}
    assert kept.warnings == []


def test_a_rulebook_already_stored_under_the_new_fingerprint_is_replaced(book, tmp_path):
    # a diff of the edited files loaded them in full and stored them before the check stores them again
    kept = _Stored(book, tmp_path / "cache")
    fp, terms = kept.edited(POISON, "requires: poisonable", "requires: diseased", "b", "poison")
    assert kept.cache.store(book, fp, load_rulebook(book)) is True
    assert kept.cache.store_edited(book, fp, kept.before.key, terms) is True
    kept.cache.close()
    assert _stored(kept.folder, fp.key) == _as_store_stores_it(book, fp, tmp_path / "reference") != {}
    assert kept.warnings == []


def test_the_same_fingerprint_as_before_is_stored_already(book, tmp_path):
    kept = _Stored(book, tmp_path / "cache")
    held = _stored(kept.folder, kept.before.key)
    assert kept.cache.store_edited(book, kept.before, kept.before.key, {}) is True
    kept.cache.close()
    assert _stored(kept.folder, kept.before.key) == held != {}
    assert kept.warnings == []


def test_nothing_is_stored_without_the_rulebook_before(book, tmp_path):
    # the rulebook the check before stored was dropped meanwhile (least recently used, say)
    kept = _Stored(book, tmp_path / "cache")
    fp, terms = kept.edited(POISON, "requires: poisonable", "requires: diseased", "b", "poison")
    assert kept.cache.store_edited(book, fp, "a key nothing was stored under", terms) is False
    assert kept.cache.usable is True
    kept.cache.close()
    assert _stored(kept.folder, fp.key) == {}
    assert kept.warnings == []


def test_nothing_is_made_from_a_damaged_rulebook_before(book, tmp_path):
    kept = _Stored(book, tmp_path / "cache")
    kept.cache.close()
    db = sqlite3.connect(kept.folder / DB_NAME)
    db.execute("UPDATE books SET skeleton = zeroblob(16) WHERE key = ?", (kept.before.key,))  # bytes, but not these
    db.commit()
    db.close()
    fp, terms = kept.edited(POISON, "requires: poisonable", "requires: diseased", "b", "poison")
    assert kept.cache.store_edited(book, fp, kept.before.key, terms) is False
    kept.cache.close()
    assert _stored(kept.folder, fp.key) == {}
    assert kept.warnings == []


def test_nothing_is_stored_when_a_patch_keeps_values_from_an_edited_file(book, tmp_path):
    # edition b's targeting is a's with b's patch applied: its row would keep the targeting a had before
    kept = _Stored(book, tmp_path / "cache")
    fp, terms = kept.edited(TARGETING, "Targeting rule 1 says", "Targeting rule 1 now says", "a", "targeting")
    assert kept.cache.store_edited(book, fp, kept.before.key, terms) is False
    kept.cache.close()
    assert _stored(kept.folder, fp.key) == {}
    assert kept.warnings == []


def test_a_cache_that_cannot_be_used_stores_nothing(book, tmp_path):
    warnings: list[str] = []
    inside = Cache.open(book / "cache", warn=warnings.append)  # inside the rulebook folder: never used
    fp = _fp(book)
    assert inside.store_edited(book, fp, "any key", {}) is False
    assert warnings == ["cannot use the cache in book/cache: it is inside the rulebook folder 'book', whose "
                        "sources it would change; continuing without it"]
    assert not (book / "cache").exists()
