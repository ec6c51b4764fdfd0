"""Atomic writes: whole files or none, with the permissions a plain write would give."""

import os
import stat

import pytest

from compiler.fileio import replace_dir, staging_dir, write_text


def umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_written_file_has_ordinary_permissions(tmp_path):
    target = tmp_path / "out" / "cases.json"
    write_text(target, "{}\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask()


def test_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "a.txt"
    write_text(target, "old\n")

    with pytest.raises(TypeError):
        write_text(target, None)  # type: ignore[arg-type]
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_folder_swap(tmp_path):
    target = tmp_path / "public"
    target.mkdir()
    (target / "old.html").write_text("old")
    staging = staging_dir(target)
    (staging / "new.html").write_text("new")
    replace_dir(staging, target)
    assert sorted(p.name for p in target.iterdir()) == ["new.html"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["public"]
    assert stat.S_IMODE(target.stat().st_mode) == 0o777 & ~umask()
