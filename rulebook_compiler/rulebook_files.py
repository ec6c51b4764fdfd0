"""The files a rulebook folder consists of: their names, and the one walk of them.

``rulebook check`` reads these files: the build (rulebook_compiler/build.py) reads the ones
at the top and every edition folder's entries, which it lists with ``entries``;
the lock (rulebook_compiler/lock.py) and the rulings (rulebook_compiler/rulings.py) are read beside
them. The cache's fingerprint (rulebook_compiler/cache.py) hashes what ``walk`` lists. One
list for both, so that the cache never serves a rulebook checked from a file it
did not hash; tests/test_rulebook_files.py holds every file a check reads to it.
Declared source texts are not read, only looked for: the cache checks their
presence when it serves an entry (``cache.sources_present``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterator

RULEBOOK_FILE = "rulebook.yaml"
VOCABULARY_FILE = "vocabulary.yaml"
CORRECTIONS_FILE = "corrections.yaml"
LOCK_FILE = "rulebook.lock"
EDITIONS_DIR = "editions"
RULINGS_FILE = "_rulings.yaml"  # an edition's rulings (rulebook_compiler/rulings.py), beside its term files
# where rulebook import found each term of the edition (rulebook_compiler/importer/edition.py): editor data, not read
SOURCES_MAP_FILE = "_sources.yaml"
# the files at the top of the folder, in the walk's order; the lock too: it decides whether the others
# pass check, so what was checked under one lock is not served under another
TOP_FILES = (RULEBOOK_FILE, VOCABULARY_FILE, CORRECTIONS_FILE, LOCK_FILE)


# One step of the walk: (mark, rel, path, stat). ``mark``: ``f`` a file (``path`` its path, ``stat()``
# its status), ``-`` a top file or editions/ that is not there, ``F`` a file in editions/, ``D`` an
# edition folder, ``d`` an entry of an edition folder that is not a file (``path`` "", ``stat`` None).
# ``rel``: relative to the rulebook folder, with '/'. ``l`` follows any entry that is a symbolic link:
# ``path`` is where it leads (relative to the rulebook folder's real path, or ``outside``), since a link
# to outside the folder is an error of the check whatever the file holds. A plain tuple: the
# fingerprint of a warm check walks every file, and making a named tuple or a frozen dataclass for each
# was a tenth of it or more.
Entry = tuple[str, str, str, "Callable[[], os.stat_result] | None"]


def entries(folder: Path | str) -> list[os.DirEntry]:
    """A folder's entries sorted by name, as the build and the fingerprint take them (OSError when it
    cannot be listed). A listing's entries know their type without a stat each; symbolic links are
    followed by their ``is_dir`` and ``is_file``, as by Path's."""
    with os.scandir(folder) as it:
        return sorted(it, key=lambda e: e.name)


def walk(root: Path) -> Iterator[Entry]:
    """Every file the build may read under ``root`` (a rulebook folder), and what else it finds there
    whose presence changes a check's result. Raises OSError when a folder cannot be read."""
    real_root = os.path.realpath(root)
    for name in TOP_FILES:
        path = root / name
        if path.is_file():
            yield "f", name, str(path), path.stat
        else:
            yield "-", name, "", None
        if path.is_symlink():
            yield _link(name, path, real_root)
    base = root / EDITIONS_DIR
    if base.is_symlink():
        yield _link(EDITIONS_DIR, base, real_root)
    if not base.is_dir():
        yield "-", EDITIONS_DIR, "", None
        return
    for folder in entries(base):
        if folder.is_symlink():
            yield _link(f"{EDITIONS_DIR}/{folder.name}", folder.path, real_root)
        if not folder.is_dir():
            yield "F", folder.name, "", None
            continue
        yield "D", folder.name, "", None
        for entry in entries(folder.path):
            rel = f"{EDITIONS_DIR}/{folder.name}/{entry.name}"
            if entry.is_file():
                yield "f", rel, entry.path, entry.stat
            else:
                yield "d", rel, "", None
            if entry.is_symlink():
                yield _link(rel, entry.path, real_root)


def _link(rel: str, path: Path | str, real_root: str) -> Entry:
    """A symbolic link's step: where it leads, inside the folder or not (the check refuses a link to
    outside, so two folders of the same bytes, one linking out, do not check alike)."""
    real = os.path.realpath(path)
    inside = os.path.commonpath([real, real_root]) == real_root
    return "l", rel, os.path.relpath(real, real_root) if inside else "outside", None
