"""rulebook import on bad input: lines it cannot place, unreadable sources, outputs it may not write."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_compiler.importer import source

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "importer"
STRAY = FIXTURES / "reg" / "stray-lines.txt"


def test_every_line_not_placed_is_reported_with_its_line_number(tmp_path, import_cli):
    result = import_cli(STRAY, "--layout", "reg", "--out", tmp_path / "out")
    assert result.exit_code == 0
    assert result.stderr == (
        f"{STRAY}:9:1: warning: line not placed: a 'Last Updated' line that does not follow an entry's heading\n"
        f"{STRAY}:14:1: warning: line not placed: text outside any entry\n"
        f"{STRAY}:19:1: warning: line not placed: a 'Released' line that does not follow an entry's heading\n")
    assert result.stdout == f"imported 2 terms and 2 clauses into {tmp_path / 'out'}; 3 lines not placed\n"


@pytest.mark.parametrize("content, message", [
    (b"%PDF-1.7\n\x00\x01binary", ":2:1: error: binary file (NUL byte): not plain text\n"
                                  "  hint: extract the document's text first, e.g. pdftotext -layout guide.pdf "
                                  "guide.txt\n"),
    (b"Heal \nA heal ability \xff\n", ":2:16: error: invalid UTF-8 byte 0xff\n  hint: save the text as UTF-8\n"),
], ids=["binary", "not-utf-8"])
def test_a_source_that_is_not_text_is_an_error_exit_1(tmp_path, import_cli, content, message):
    path = tmp_path / "guide.txt"
    path.write_bytes(content)
    result = import_cli(path, "--layout", "reg", "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert result.stderr == f"{path}{message}1 problem found\n"
    assert not (tmp_path / "out").exists()


def test_a_missing_source_is_an_error_exit_1(tmp_path, import_cli):
    result = import_cli(tmp_path / "nowhere.txt", "--layout", "reg", "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert result.stderr == f"{tmp_path / 'nowhere.txt'}: error: cannot read file: No such file or directory\n" \
                            "1 problem found\n"


def test_a_folder_as_source_is_an_error_exit_1(tmp_path, import_cli):
    result = import_cli(tmp_path, "--layout", "reg", "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert result.stderr == (f"{tmp_path}: error: is a folder, not a text file\n"
                             "  hint: give the plain text extracted from the document, like guide.txt\n"
                             "1 problem found\n")


def test_a_source_over_the_size_limit_is_an_error_exit_1(tmp_path, import_cli, monkeypatch):
    monkeypatch.setattr(source, "MAX_SOURCE_BYTES", 10)
    path = tmp_path / "guide.txt"
    path.write_bytes(b"Heal \nA heal ability.\n")
    result = import_cli(path, "--layout", "reg", "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert result.stderr == (f"{path}:1:1: error: file is 22 bytes, over the limit of 10\n"
                             "  hint: import the document in parts, or raise MAX_SOURCE_BYTES in "
                             "rulebook_compiler/importer/source.py\n1 problem found\n")


def test_no_layout_is_a_usage_error_exit_2(tmp_path, import_cli):
    result = import_cli(STRAY, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "Missing option '--layout'" in result.stderr


def test_an_output_over_the_source_is_refused_exit_2(tmp_path, import_cli):
    copy = tmp_path / "guide.txt"
    copy.write_bytes(STRAY.read_bytes())
    result = import_cli(copy, "--layout", "reg", "--out", copy)
    assert result.exit_code == 2
    assert f"'{copy}' is the source '{copy}'; an output may not overlap an input" in result.stderr
    assert copy.read_bytes() == STRAY.read_bytes()


def test_an_output_folder_of_other_files_is_refused_exit_2(tmp_path, import_cli):
    (tmp_path / "mine.txt").write_text("keep\n")
    result = import_cli(STRAY, "--layout", "reg", "--out", tmp_path)
    assert result.exit_code == 2
    assert (tmp_path / "mine.txt").read_text() == "keep\n"


def test_control_characters_are_errors_at_their_line_and_column_all_at_once(tmp_path, import_cli):
    path = tmp_path / "guide.txt"
    path.write_bytes(b"Heal \n\x1b[31mA heal ability.\nfine\x0c line\nand \x07 bell\n")
    result = import_cli(path, "--layout", "reg", "--out", tmp_path / "out")
    assert result.exit_code == 1
    hint = "  hint: remove it; the term files hold printable characters, tabs and line breaks only\n"
    assert result.stderr == (f"{path}:2:1: error: control character U+001B is not allowed in text\n{hint}"
                             f"{path}:4:5: error: control character U+0007 is not allowed in text\n{hint}"
                             "2 problems found\n")
