"""The text format: nothing untrusted reaches the terminal as a control character.

A folder name can hold an escape sequence or a line break, and a rule text a
carriage return (YAML's "\\r"); printed raw they would recolour, overwrite or
forge lines of the terminal. Each is shown escaped, as Python writes it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main

MINIMAL = Path(__file__).resolve().parents[1] / "fixtures" / "minimal"
FOLDER = "b\x1b[31mred\nx"


@pytest.fixture
def book(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(MINIMAL, FOLDER)
    path = Path(FOLDER) / "editions" / "v2" / "cure.yaml"
    path.write_text(path.read_text().replace("text: Cure cannot be used in battle.",
                                             "text: " + json.dumps("Cure cannot\rbe used in battle.")))
    return FOLDER


def test_control_characters_in_file_names_and_text_are_escaped(book):
    result = CliRunner().invoke(main, ["diff", "v1", "v2", "--rulebook", book], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert lines[:6] == [
        "rulebook diff v1 -> v2: 1 added, 1 semantic",
        "",
        "cure",
        "  semantic  cure#curable  b\\x1b[31mred\\nx/editions/v2/cure.yaml:12:9",
        "    A character is curable if it is poisoned{+ or paralyzed+}.",
        "    behaviour: curable broadened in 1 of 4 situations; narrowed in none (see decisions below)",
    ]
    assert lines[7:9] == [
        "  added  cure#not-in-battle  b\\x1b[31mred\\nx/editions/v2/cure.yaml:19:9",
        "    {+Cure cannot\\rbe used in battle.+}",
    ]
    assert "\x1b" not in result.stdout and "\r" not in result.stdout


def test_a_side_named_with_control_characters_is_escaped(book):
    shutil.copytree(book, "new\x1b]0;title\x07")
    result = CliRunner().invoke(main, ["diff", "v1", "new\x1b]0;title\x07", "--rulebook", book],
                                catch_exceptions=False)
    assert result.stdout.splitlines()[0] == \
        "rulebook diff v1 -> new\\x1b]0;title\\x07 (v2): 1 added, 1 semantic"


def test_an_unknown_side_is_named_escaped(book):
    result = CliRunner().invoke(main, ["diff", "v1", "v\x1b[2J", "--rulebook", book], catch_exceptions=False)
    assert result.exit_code == 2
    assert result.stderr.startswith("rulebook: error: unknown edition, revision or folder 'v\\x1b[2J'")


def test_a_side_that_fails_check_is_named_escaped(book):
    broken = "bad\x1b[2J"
    shutil.copytree(book, broken)
    (Path(broken) / "editions" / "v2" / "cure.yaml").write_text("id: cure\nname: [\n")
    result = CliRunner().invoke(main, ["diff", "v1", broken, "--rulebook", book], catch_exceptions=False)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == "rulebook: 'bad\\x1b[2J' does not pass rulebook check:"


def test_bidi_controls_in_rule_text_and_file_names_are_escaped(tmp_path, monkeypatch):
    # "Trojan Source": shown raw, U+202E reverses the rest of the line on a terminal
    monkeypatch.chdir(tmp_path)
    folder = "rb\u202elmay"
    shutil.copytree(MINIMAL, folder)
    path = Path(folder) / "editions" / "v2" / "cure.yaml"
    path.write_text(path.read_text().replace("text: Cure cannot be used in battle.",
                                             "text: Cure cannot be used \u2066in battle\u2069.\u200f"))
    result = CliRunner().invoke(main, ["diff", "v1", "v2", "--rulebook", folder], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines()[7:9] == [
        "  added  cure#not-in-battle  rb\\u202elmay/editions/v2/cure.yaml:19:9",
        "    {+Cure cannot be used \\u2066in battle\\u2069.\\u200f+}",
    ]
