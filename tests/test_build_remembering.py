"""``build.remembering``: loads read again only the files changed since (``rulebook serve``'s rebuilds)."""

from __future__ import annotations

import shutil
from pathlib import Path

from compiler import build
from compiler.build import check, load_rulebook, remembering

MINIMAL = Path(__file__).resolve().parent / "fixtures" / "minimal"


def test_a_remembered_load_gives_the_model_a_fresh_load_gives_and_reads_only_edited_files(tmp_path, monkeypatch):
    book = tmp_path / "book"
    shutil.copytree(MINIMAL, book)
    cure = book / "editions" / "v2" / "cure.yaml"
    read: list[str] = []
    real = build.load
    monkeypatch.setattr(build, "load", lambda path, shown=None: (read.append(Path(path).name), real(path, shown))[1])
    with remembering():
        first = load_rulebook(book)
        assert sorted(read) == ["cure.yaml", "cure.yaml", "rulebook.yaml", "vocabulary.yaml"]
        read.clear()
        assert load_rulebook(book) == first
        assert read == []
        cure.write_text(cure.read_text().replace("Targets must be curable.", "Targets must be cured."))
        edited = load_rulebook(book)
        assert read == ["cure.yaml"]
    assert edited.latest.clause_by_ref["cure#targets"].text == "Targets must be cured."
    read.clear()
    assert load_rulebook(book) == edited  # outside the block, every file is read again
    assert sorted(read) == ["cure.yaml", "cure.yaml", "rulebook.yaml", "vocabulary.yaml"]


def test_a_remembered_file_with_problems_reports_them_again(tmp_path):
    book = tmp_path / "book"
    shutil.copytree(MINIMAL, book)
    cure = book / "editions" / "v2" / "cure.yaml"
    cure.write_text(cure.read_text().replace("  - key: definition\n", "  - key: definition\n    bogus: 1\n"))
    with remembering():
        first, again = check(book), check(book)
    assert (first[0], again[0]) == (None, None)
    assert [p.message for p in first[1]] == ["unknown key 'bogus' in section 'definition'"]
    assert again[1] == first[1]
