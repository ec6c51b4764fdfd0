"""Shared by the importer's tests: running the command, and the tiling check."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main
from rulebook_compiler.importer.run import ImportResult

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "importer"

# The artifacts the importer removes or repairs, and only these (docs/import.md): line breaks and runs
# of spaces (compared without whitespace), page furniture and front matter, headings and metadata lines
# (they become the term's name, section titles and metadata), list glyphs and printed rule numbers
# (kept as the clause's number).
_GLYPH = re.compile(r"^\s*(?:[•●▪◦]\s+|o\s{2,})")
_SKIPPED = ("furniture", "front", "entry", "chapter", "section", "updated", "released", "blank")


def _words(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.fixture
def import_cli():
    """``import_cli(*args)``: the result of ``rulebook import ARGS``."""
    return lambda *args: CliRunner().invoke(main, ["import", *map(str, args)])


@pytest.fixture
def untiled():
    """``untiled(result, source)``: for each entry whose clauses do not reproduce its lines (apart from the
    documented artifacts), its term id and both texts; [] when every entry tiles."""
    def check(result: ImportResult, source: Path) -> list[tuple[str, str, str]]:
        lines = source.read_text(encoding="utf-8").split("\n")
        marks = result.document.marks
        bad = []
        # in order, not by name: a guide may print two entries of one name (REG 11.0.0's two Rescue entries)
        assert [t.name for t in result.terms] == [e.name for e in result.document.entries]
        for entry, term in zip(result.document.entries, result.terms):
            first, last = entry.lines
            kept = []
            for n in range(first, last + 1):
                mark = marks[n - 1]
                if mark.kind in _SKIPPED:
                    continue
                line = _GLYPH.sub("", lines[n - 1])
                if mark.kind == "rule":  # the printed number is the clause's number, not its text
                    line = line.replace(mark.number, "", 1)
                kept.append(line)
            expected = _words("".join(kept))
            got = _words("".join(c.text for s in term.sections for c in s.clauses))
            titles = [lines[n - 1].strip() for n in range(first, last + 1) if marks[n - 1].kind == "section"]
            if got != expected or [s.title for s in term.sections if s.title] != titles:
                bad.append((term.id, expected, got))
        return bad
    return check
