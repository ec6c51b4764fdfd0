"""write_text never writes its target in place: a reader, or a run cut short, sees the old file or the new one.

tests/test_fileio.py's failed write raises before any file is opened, so it cannot tell an
atomic rename from ``open(path, "w")``; these tests interrupt the write after the data has
started to go out and hold a second name for the old file.
"""

import os

import pytest

from rulebook_compiler.fileio import write_text


def test_write_interrupted_after_opening_keeps_the_old_file_and_leaves_no_partial_file(tmp_path):
    target = tmp_path / "cases.json"
    write_text(target, "old\n")
    # a lone surrogate cannot be encoded: the write fails only once the text is being written out
    with pytest.raises(UnicodeEncodeError):
        write_text(target, "new\n" * 10_000 + "\ud800")
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cases.json"]


def test_write_interrupted_by_a_signal_keeps_the_old_file(tmp_path, monkeypatch):
    """A Ctrl-C between writing and putting the file in place loses nothing and leaves nothing."""
    target = tmp_path / "cases.json"
    write_text(target, "old\n")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_text(target, "new\n")
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cases.json"]


def test_new_content_arrives_as_a_new_file_not_over_the_old_one(tmp_path):
    """A hard link to the old file (a reader holding it open sees the same) keeps the old bytes."""
    target = tmp_path / "cases.json"
    write_text(target, "old\n")
    os.link(target, tmp_path / "held")
    write_text(target, "new\n")
    assert target.read_bytes() == b"new\n"
    assert (tmp_path / "held").read_bytes() == b"old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cases.json", "held"]
