"""rulebook pdf: an edition printed by Debian's Chromium, with its text, bookmarks, page numbers and dates.

The fixture tests/fixtures/site/numbered holds a numbered rules document (term ids whose order is
not the document's) and a glossary entry that prints no number.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest

from rulebook_compiler import citations
from rulebook_compiler.build import load_rulebook
from rulebook_compiler.numbers import in_document_order

from .conftest import CHROMIUM, FIXTURES

pytestmark = pytest.mark.browser
NUMBERED = FIXTURES / "site" / "numbered"
DATED = FIXTURES / "lock-every-field"


class Ran:
    def __init__(self, run: subprocess.CompletedProcess):
        self.exit_code, self.stdout, self.stderr = run.returncode, run.stdout, run.stderr
        self.output = run.stdout + run.stderr


def rulebook(*args: str) -> Ran:
    # A process of its own: Playwright's sync API refuses to start inside the browser tests' own
    # (an asyncio loop runs there), as it would inside any other program's.
    return Ran(subprocess.run([sys.executable, "-m", "rulebook_compiler", *args], capture_output=True, text=True,
                              timeout=300, env={**os.environ, "NO_COLOR": "1"}))


@pytest.fixture(autouse=True)
def debian_chromium(monkeypatch):
    monkeypatch.setenv("RULEBOOK_CHROMIUM", CHROMIUM)


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def printed(tmp_path: Path, book: Path, *args: str) -> pypdf.PdfReader:
    out = tmp_path / "guide.pdf"
    result = rulebook("pdf", "--rulebook", str(book), "--out", str(out), *args)
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    return pypdf.PdfReader(out)


def outline(reader: pypdf.PdfReader) -> list:
    def walk(items) -> list:
        out: list = []
        for item in items:
            if isinstance(item, list):
                out.append(walk(item))
            else:
                out.append(item.title)
        return out
    return walk(reader.outline)


def test_the_pdf_holds_every_clause_of_the_edition_in_order(tmp_path):
    reader = printed(tmp_path, NUMBERED, "--edition", "v2")
    text = words(" ".join(page.extract_text() for page in reader.pages))
    edition = load_rulebook(NUMBERED).edition_by_id["v2"]
    at = 0
    for term in in_document_order(edition.terms):
        for section in term.sections:
            for clause in section.clauses:
                # each clause after the one before, under its citation as the site gives it
                cite = str(citations.of_clause(term, clause.id))
                at = text.index(cite, at)
                at = text.index(words(clause.text), at)
    assert at > 0


def test_entries_and_sections_are_the_bookmarks_in_document_order(tmp_path):
    reader = printed(tmp_path, NUMBERED, "--edition", "v2")
    edition = load_rulebook(NUMBERED).edition_by_id["v2"]
    # the document's title, then one bookmark per entry with its sections under it; no clause is one
    expected = ["Numbered rules", []]
    for term in in_document_order(edition.terms):
        expected[1] += [term.name, [s.title or s.key.replace("-", " ").capitalize() for s in term.sections]]
    assert outline(reader) == expected


def test_pages_are_numbered_and_each_entry_starts_a_page(tmp_path):
    reader = printed(tmp_path, NUMBERED, "--edition", "v2")
    pages = [words(page.extract_text()) for page in reader.pages]
    assert [page.rsplit(" ", 3)[-3:] for page in pages] == [[str(n), "/", str(len(pages))]
                                                            for n in range(1, len(pages) + 1)]
    edition = load_rulebook(NUMBERED).edition_by_id["v2"]
    # the title page, then each entry at the top of a page of its own, in the document's order
    firsts = [next(i for i, page in enumerate(pages) if page.startswith(t.name + " "))
              for t in in_document_order(edition.terms)]
    assert pages[0].startswith("Numbered rules Edition v2 of 2024-06-01")
    assert firsts[0] == 1
    assert firsts == sorted(set(firsts))  # increasing: no two entries start on one page


def test_the_entries_dates_are_printed(tmp_path):
    reader = printed(tmp_path, DATED)
    text = words(" ".join(page.extract_text() for page in reader.pages))
    book = load_rulebook(DATED)
    from rulebook_compiler.site.pages import current

    shown = [f"Last updated: {t.updated.date + ' ' if t.updated.date else ''}(v{t.updated.version})"
             for t in current(book).terms if t.updated is not None]
    assert shown == ["Last updated: 2024-01-03 (v2.0.0)", "Last updated: (v1.1.0)"]
    assert [line for line in shown if line not in text] == []


def test_the_same_sources_print_the_same_bytes(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    printed(tmp_path / "a", NUMBERED, "--edition", "v1")
    printed(tmp_path / "b", NUMBERED, "--edition", "v1")
    assert (tmp_path / "a" / "guide.pdf").read_bytes() == (tmp_path / "b" / "guide.pdf").read_bytes()
    # the time of printing is the edition's day
    assert pypdf.PdfReader(tmp_path / "a" / "guide.pdf").metadata["/CreationDate"] == "D:20240101000000+00'00'"


def test_no_browser_is_a_clear_error_and_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEBOOK_CHROMIUM", str(tmp_path / "no-such-chromium"))
    out = tmp_path / "guide.pdf"
    result = rulebook("pdf", "--rulebook", str(NUMBERED), "--out", str(out))
    assert result.exit_code == 1
    assert result.stderr.startswith("rulebook: error: Chromium could not print the guide: ")
    assert not out.exists()


def test_the_pdf_is_never_written_into_the_rulebook(tmp_path):
    book = tmp_path / "book"
    shutil.copytree(NUMBERED, book)
    result = rulebook("pdf", "--rulebook", str(book), "--out", str(book / "guide.pdf"))
    assert result.exit_code == 2
    assert "an output may not overlap an input, choose another path" in result.stderr
    assert not (book / "guide.pdf").exists()


def test_chapters_are_the_first_level_of_bookmarks(tmp_path):
    # tests/fixtures/chapters: Effect Listing (Wound, Cure) and Glossary of Terms (Bandage)
    book = FIXTURES / "chapters"
    reader = printed(tmp_path, book)
    edition = load_rulebook(book).edition_by_id["v1"]

    def entry(term_id: str) -> list:
        term = edition.term_by_id[term_id]
        return [term.name, [s.title or s.key.replace("-", " ").capitalize() for s in term.sections]]

    assert outline(reader) == ["Chapters", ["Effect Listing", [*entry("wound"), *entry("cure")],
                                            "Glossary of Terms", entry("bandage")]]


def test_quiet_prints_nothing(tmp_path):
    result = rulebook("pdf", "--rulebook", str(NUMBERED), "--out", str(tmp_path / "guide.pdf"), "-q")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    assert (tmp_path / "guide.pdf").read_bytes().startswith(b"%PDF-")
