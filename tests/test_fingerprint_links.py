"""A symbolic link in a rulebook folder is part of its fingerprint (rulebook_compiler/rulebook_files.py,
``walk``): the check refuses a link to outside the folder whatever the file holds, so a folder whose term
file became a link to an identical copy outside must not be served the clean check of before. Found by the
mutation review of recheck (issue 22): the warm check said "no problems" where --no-cache found 7.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from rulebook_compiler import cache

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "recheck"
POISON = Path("editions") / "b" / "poison.yaml"


def _check(where: Path, *args: str) -> tuple[int, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RULEBOOK_CACHE_DIR": str(where / "cache"), "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "rulebook_compiler", "check", *args, "book"], cwd=where, env=env,
                          capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def _linked_out(book: Path) -> None:
    """The term file moved out of the folder, a link to it left in its place (the same bytes)."""
    shutil.move(book / POISON, book.parent / "poison.yaml")
    (book / POISON).symlink_to(book.parent / "poison.yaml")


def test_a_file_that_becomes_a_link_to_outside_checks_warm_as_with_no_cache(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "book")
    assert _check(tmp_path)[0] == 0
    _linked_out(tmp_path / "book")
    cold = _check(tmp_path, "--no-cache")
    assert cold[0] == 1
    assert ("book/editions/b/poison.yaml: error: a symbolic link to outside the rulebook folder\n"
            "  hint: a rulebook reads only files inside its folder, as for 'sources'; copy the file in instead "
            "of linking to it\n") in cold[1]
    assert _check(tmp_path) == cold


def test_the_fingerprint_says_where_each_link_leads(tmp_path):
    book = tmp_path / "book"
    shutil.copytree(FIXTURE, book)
    plain = cache.fingerprint(book)
    _linked_out(book)
    out = cache.fingerprint(book)
    (book / POISON).unlink()
    shutil.copy(tmp_path / "poison.yaml", book / "poison-copy.yaml")  # a file the walk does not read
    (book / POISON).symlink_to(Path("..") / ".." / "poison-copy.yaml")
    inside = cache.fingerprint(book)
    assert len({plain.key, out.key, inside.key}) == 3
    assert plain.files[str(POISON)] == out.files[str(POISON)] == inside.files[str(POISON)]  # the same bytes
    # the folder moved whole, its links relative: the same fingerprint (a copy keeps its cache)
    shutil.move(tmp_path, tmp_path.parent / "moved")
    assert cache.fingerprint(tmp_path.parent / "moved" / "book").key == inside.key


def test_a_linked_edition_folder_and_top_file_count_too(tmp_path):
    book = tmp_path / "book"
    shutil.copytree(FIXTURE, book)
    plain = cache.fingerprint(book).key
    shutil.move(book / "vocabulary.yaml", tmp_path / "vocabulary.yaml")
    (book / "vocabulary.yaml").symlink_to(tmp_path / "vocabulary.yaml")
    top = cache.fingerprint(book).key
    shutil.move(book / "editions" / "c", tmp_path / "c")
    (book / "editions" / "c").symlink_to(tmp_path / "c")
    folder = cache.fingerprint(book).key
    assert len({plain, top, folder}) == 3
