"""A suite names the content it came from by the edition's locked content, not by its source files.

Editors' notes, lineage and line positions are not the publisher's content (they are outside
rulebook.lock): editing them must leave a vendor's cases.json the same bytes. Changing a
clause's words must not.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.cli import main

MINIMAL = Path(__file__).resolve().parents[1] / "fixtures" / "minimal"


def _cases(book: Path, out: Path) -> bytes:
    result = CliRunner().invoke(main, ["conformance", "generate", "--rulebook", str(book), "--edition", "v1",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    return (out / "cases.json").read_bytes()


def _edit(book: Path, old: str, new: str) -> None:
    path = book / "editions" / "v1" / "cure.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_editor_notes_and_blank_lines_leave_the_suite_as_it_was(tmp_path):
    book = tmp_path / "book"
    shutil.copytree(MINIMAL, book)
    before = _cases(book, tmp_path / "before")
    _edit(book, "      - id: curable\n", "      - id: curable\n        editor_notes: Read as exclusive.\n\n")
    assert _cases(book, tmp_path / "after") == before


def test_changed_words_give_another_source_digest(tmp_path):
    book = tmp_path / "book"
    shutil.copytree(MINIMAL, book)
    before = json.loads(_cases(book, tmp_path / "before"))
    text = (book / "editions" / "v1" / "cure.yaml").read_text(encoding="utf-8")
    _edit(book, text[text.index("text:"):text.index("\n", text.index("text:"))],
          text[text.index("text:"):text.index("\n", text.index("text:"))] + " Really.")
    after = json.loads(_cases(book, tmp_path / "after"))
    assert after["source_digest"] != before["source_digest"]
