"""Atomic writes: whole files or none, with the permissions a plain write would give; folder swaps and their lock."""

import errno
import os
import stat
from pathlib import Path

import pytest

from rulebook_compiler.fileio import (OutputError, output_lock, recover_swap, remove_stale_staging, replace_dir, staging_dir,
                             write_text)


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


def test_a_write_that_fails_midway_keeps_the_old_file(tmp_path):
    # A lone surrogate cannot be encoded: the write fails after the file was opened, not before.
    target = tmp_path / "a.txt"
    write_text(target, "old\n")
    with pytest.raises(UnicodeEncodeError):
        write_text(target, "new\n" * 1000 + "\ud800")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_a_failed_second_rename_puts_the_old_folder_back(tmp_path, monkeypatch):
    target = tmp_path / "public"
    target.mkdir()
    (target / "old.html").write_text("old")
    staging = staging_dir(target)
    real_replace = os.replace

    def replace(src, dst):
        if Path(src) == staging:
            raise OSError(errno.EXDEV, os.strerror(errno.EXDEV))
        real_replace(src, dst)

    monkeypatch.setattr("rulebook_compiler.fileio.os.replace", replace)
    with pytest.raises(OutputError) as caught:
        replace_dir(staging, target)
    assert str(caught.value) == f"cannot write '{target}': Invalid cross-device link"
    assert sorted(p.name for p in target.iterdir()) == ["old.html"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [staging.name, "public"]


def test_staging_folders_are_named_for_the_command_and_process(tmp_path):
    target = tmp_path / "suite"
    assert staging_dir(target, "rulebook conformance generate").name == f".suite.conformance-generate-{os.getpid()}.tmp"


def test_only_staging_folders_of_dead_processes_of_the_same_command_are_removed(tmp_path, dead_pid):
    target = tmp_path / "public"
    dead, alive = dead_pid, os.getppid()
    names = [f".public.build-{dead}.tmp", f".public.build-{alive}.tmp", f".public.conformance-generate-{dead}.tmp",
             f".other.build-{dead}.tmp", ".public.build-x.tmp", "public"]
    for name in names:
        (tmp_path / name).mkdir()
    remove_stale_staging(target, "rulebook build")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(set(names) - {f".public.build-{dead}.tmp"})


def test_recover_swap_puts_back_the_old_folder_when_the_new_one_never_arrived(tmp_path):
    target = tmp_path / "public"
    (tmp_path / ".public.old").mkdir()
    (tmp_path / ".public.old" / "index.html").write_text("old")
    recover_swap(target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["public"]
    assert (target / "index.html").read_text() == "old"


def test_recover_swap_removes_the_old_folder_once_the_new_one_stands(tmp_path):
    target = tmp_path / "public"
    target.mkdir()
    (tmp_path / ".public.old").mkdir()
    recover_swap(target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["public"]
    recover_swap(target)  # nothing to do
    assert sorted(p.name for p in tmp_path.iterdir()) == ["public"]


def test_the_lock_names_its_holder_and_goes_with_it(tmp_path):
    target = tmp_path / "public"
    with output_lock(target, "rulebook build"):
        assert (tmp_path / ".public.lock").read_text() == f"{os.getpid()} rulebook build\n"
        with pytest.raises(OutputError) as caught:
            with output_lock(target, "rulebook build"):
                pass  # pragma: no cover
        assert caught.value.reason == f"process {os.getpid()} (rulebook build) is writing it; wait for it to end, or stop it"
    assert list(tmp_path.iterdir()) == []
    with output_lock(target, "rulebook build"):  # free again
        pass


def test_a_lock_file_is_read_as_data(tmp_path):
    target = tmp_path / "public"
    with output_lock(target, "rulebook build"):
        (tmp_path / ".public.lock").write_text("1 rulebook build\x1b]0;pwned\x07\n")
        with pytest.raises(OutputError) as caught:
            with output_lock(target, "rulebook build"):
                pass  # pragma: no cover
    assert caught.value.reason == "another process is writing it; wait for it to end, or stop it"


def test_the_lock_file_of_a_killed_run_does_not_hold(tmp_path, dead_pid):
    # flock locks die with their process; the file it leaves only names it.
    (tmp_path / ".public.lock").write_text(f"{dead_pid} rulebook build\n")
    with output_lock(tmp_path / "public", "rulebook build"):
        assert (tmp_path / ".public.lock").read_text() == f"{os.getpid()} rulebook build\n"
    assert list(tmp_path.iterdir()) == []
