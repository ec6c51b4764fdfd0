"""rulebook_compiler/rulebook_files.py: the files a check reads are the files the cache's fingerprint hashes.

The fingerprint (rulebook_compiler/cache.py) and the build (rulebook_compiler/build.py) take the folder from one walk;
these tests hold them to it from the outside: every file a check opens is recorded (each read of a
file's bytes), and must be one the fingerprint hashed, whose change changes the key.
"""

from __future__ import annotations

import builtins
import shutil
from pathlib import Path

import pytest

from rulebook_compiler import cache, recheck

FIXTURES = Path(__file__).resolve().parent / "fixtures"
BOOKS = sorted(p.name for p in FIXTURES.iterdir() if (p / "rulebook.yaml").is_file())


def files_read(monkeypatch, root: Path) -> set[str]:
    """The files under ``root`` that ``check`` (the build, the logic, the rulings, the lock) reads,
    relative to it."""
    seen: set[str] = set()
    inside = root.resolve()

    def note(path) -> None:
        full = Path(path).resolve()
        if full.is_relative_to(inside):
            seen.add(full.relative_to(inside).as_posix())

    def wrap(owner, name: str) -> None:
        real = getattr(owner, name)

        def reading(*args, **kwargs):
            note(args[0])
            return real(*args, **kwargs)
        monkeypatch.setattr(owner, name, reading)

    for name in ("read_bytes", "read_text", "open"):
        wrap(Path, name)
    wrap(builtins, "open")
    recheck.full(root, None, False)
    monkeypatch.undo()
    return seen


def kind(rel: str) -> str:
    """What a file is to the build: its name at the top or beginning with '_', else a term file."""
    name = rel.rsplit("/", 1)[-1]
    return name if "/" not in rel or name.startswith("_") else "TERM.yaml"


@pytest.mark.parametrize("name", BOOKS)
def test_every_file_a_check_reads_is_hashed_by_the_fingerprint(monkeypatch, name):
    root = FIXTURES / name
    read = files_read(monkeypatch, root)
    assert "rulebook.yaml" in read  # the recording sees the build's reads
    assert sorted(read - set(cache.fingerprint(root).files)) == []


def test_the_fixtures_read_every_kind_of_file_a_rulebook_has(monkeypatch):
    kinds = {kind(rel) for name in ("recheck", "rulings") for rel in files_read(monkeypatch, FIXTURES / name)}
    assert sorted(kinds) == ["TERM.yaml", "_rulings.yaml", "_vocabulary.yaml", "corrections.yaml",
                             "rulebook.lock", "rulebook.yaml", "vocabulary.yaml"]


@pytest.mark.parametrize("name", ["recheck", "rulings"])
def test_a_change_to_any_file_a_check_reads_changes_the_fingerprint(monkeypatch, tmp_path, name):
    root = tmp_path / name
    shutil.copytree(FIXTURES / name, root)
    read = sorted(files_read(monkeypatch, root))
    first = cache.fingerprint(root)
    unchanged = []
    for rel in read:
        path = root / rel
        before = path.read_bytes()
        path.write_bytes(before + b"\n")  # blank at the end: YAML and JSON alike read the same
        if cache.fingerprint(root).key == first.key:
            unchanged.append(rel)
        path.write_bytes(before)
        assert cache.fingerprint(root).key == first.key
    assert unchanged == []


def test_the_walk_lists_an_edition_folders_every_entry(tmp_path):
    root = tmp_path / "book"
    shutil.copytree(FIXTURES / "minimal", root)
    (root / "editions" / "v1" / "notes").mkdir()
    (root / "editions" / "stray.txt").write_text("x")
    from rulebook_compiler.rulebook_files import walk

    assert [f"{mark} {rel}" for mark, rel, _, _ in walk(root)] == [
        "f rulebook.yaml", "f vocabulary.yaml", "- corrections.yaml", "- rulebook.lock",
        "F stray.txt", "D v1", "f editions/v1/cure.yaml", "d editions/v1/notes", "D v2", "f editions/v2/cure.yaml"]
