"""The importer never loses structure silently (issue 23): tiny synthetic documents, one defect each.

An "Example:" after a blank line stays in its rule; an empty numbered
heading, and a line that begins like a rule number but is not one, are
warnings at their line and column; "901.4.All" is a rule; a bullet runs on
over a line that begins with a parenthesis; a document in which the layout
finds no entry is an error.
"""

from __future__ import annotations

from pathlib import Path

import yaml


def _numbered(body: str) -> str:
    return f"Contents\n\nCredits\n\n1. Game Concepts\n\n{body}\nCredits\n"


def _write(tmp_path: Path, text: str) -> Path:
    source = tmp_path / "doc.txt"
    source.write_text(text, encoding="utf-8")
    return source


def _clauses(path: Path) -> list[tuple[str | None, str]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [(c.get("number"), c["text"]) for s in data["sections"] for c in s["clauses"]]


def test_an_example_after_a_blank_line_belongs_to_its_rule(tmp_path, import_cli):
    source = _write(tmp_path, _numbered(
        "100. Setup\n\n100.1. Each player begins with twenty life.\n\n"
        "Example: A player who began with twenty life and lost three has seventeen.\n\n"
        "100.2. Each player draws seven cards.\n"))
    result = import_cli(source, "--layout", "numbered", "--out", tmp_path / "out")
    assert (result.exit_code, result.stderr) == (0, "")
    assert _clauses(tmp_path / "out" / "setup.yaml") == [
        ("100.1.", "Each player begins with twenty life. Example: A player who began with twenty life and lost "
                   "three has seventeen."),
        ("100.2.", "Each player draws seven cards.")]


def test_an_empty_numbered_heading_is_a_line_not_placed(tmp_path, import_cli):
    source = _write(tmp_path, _numbered(
        "100. Setup\n\n100.1. Each player begins with twenty life.\n\n"
        "600. General\n\n601. Casting\n\n601.1. To cast a spell, pay its cost.\n"))
    result = import_cli(source, "--layout", "numbered", "--out", tmp_path / "out")
    assert result.exit_code == 0
    assert result.stderr == (f"{source}:11:1: warning: line not placed: the heading '600. General' has no rule "
                             "under it\n")
    assert result.stdout == f"imported 2 terms and 2 clauses into {tmp_path / 'out'}; 1 line not placed\n"


def test_a_rule_number_without_a_space_after_it_is_read_and_an_unknown_one_is_a_warning(tmp_path, import_cli):
    source = _write(tmp_path, _numbered(
        "901. Planes\n\n901.4.All planar dice are six-sided.\n\n901.5x1 Roll the planar die.\n"))
    result = import_cli(source, "--layout", "numbered", "--out", tmp_path / "out")
    assert result.exit_code == 0
    assert result.stderr == (
        f"{source}:11:1: warning: '901.5x1' begins like a rule number but is not one (like 100.1. or 100.1a): "
        "the line is read as text\n")
    assert _clauses(tmp_path / "out" / "planes.yaml") == [
        ("901.4.", "All planar dice are six-sided."), (None, "901.5x1 Roll the planar die.")]


BULLET_ENTRY = """Table of Contents
Heal
Glossary of Terms

Heal
Last Updated: 3/13/2026 (v11.0.0)

●    A long bullet whose first line runs out of room near the right end of the page, well past
the middle of it, and a second line that stops short
(as a printed page may before a parenthesis) and runs on to its end.
●    A second bullet.
"""


def test_a_bullet_runs_on_over_a_line_that_begins_with_a_parenthesis(tmp_path, import_cli):
    source = _write(tmp_path, BULLET_ENTRY)
    result = import_cli(source, "--layout", "reg", "--out", tmp_path / "out")
    assert (result.exit_code, result.stderr) == (0, "")
    assert _clauses(tmp_path / "out" / "heal.yaml") == [
        (None, "A long bullet whose first line runs out of room near the right end of the page, well past the "
               "middle of it, and a second line that stops short (as a printed page may before a parenthesis) "
               "and runs on to its end."),
        (None, "A second bullet.")]


def test_a_reg_document_without_its_glossary_line_is_an_error_not_zero_terms(tmp_path, import_cli):
    source = _write(tmp_path, BULLET_ENTRY.replace("Glossary of Terms\n", ""))
    result = import_cli(source, "--layout", "reg", "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"{source}:1:1: error: layout 'reg' found no entry in the document\n"
        "  hint: its table of contents runs to a 'Glossary of Terms' line, which this document does not have: "
        "every line after 'Table of Contents' was read as contents\n"
        "1 problem found\n")
    assert not (tmp_path / "out").exists()


def test_a_numbered_document_without_a_numbered_section_is_an_error(tmp_path, import_cli):
    source = _write(tmp_path, "Some notes\n\nwith no numbered section at all.\n")
    result = import_cli(source, "--layout", "numbered", "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert result.stderr == (
        f"{source}:1:1: warning: line not placed: text outside any entry\n"
        f"{source}:1:1: error: layout 'numbered' found no entry in the document\n"
        "  hint: an entry of this layout is a numbered section heading like '100. General'; is the document in "
        "another layout? (layouts: numbered, reg)\n"
        f"{source}:3:1: warning: line not placed: text outside any entry\n"
        "1 problem found\n")
