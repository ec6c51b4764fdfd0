"""An edition's chapters: its terms in the guide's chapters and order (tests/fixtures/chapters)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.build import check, load_rulebook
from rulebook_compiler.cli import main

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "chapters"


def test_the_chapters_hold_the_terms_in_the_order_printed():
    edition = load_rulebook(FIXTURE).edition("v1")
    assert [(c.title, c.terms) for c in edition.chapters] == [
        ("Effect Listing", ("wound", "cure")), ("Glossary of Terms", ("bandage",))]


def test_an_edition_without_chapters_has_none():
    assert load_rulebook(FIXTURE.parent / "minimal").edition("v1").chapters == ()


def test_the_export_gives_the_chapters_where_declared():
    result = CliRunner().invoke(main, ["export", "--rulebook", str(FIXTURE), "--edition", "v1"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["edition"]["chapters"] == [
        {"title": "Effect Listing", "terms": ["wound", "cure"]}, {"title": "Glossary of Terms", "terms": ["bandage"]}]


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    root = tmp_path / "book"
    shutil.copytree(FIXTURE, root)
    text = (root / "rulebook.yaml").read_text(encoding="utf-8")
    assert old in text
    (root / "rulebook.yaml").write_text(text.replace(old, new), encoding="utf-8")
    return root


def _errors(root: Path) -> list[str]:
    _, problems = check(root)
    return [f"{p.location.line}:{p.location.col}: {p.message} | {p.hint}" for p in problems]


def test_a_chapter_naming_a_term_the_edition_lacks_is_an_error_at_it(tmp_path):
    root = _edited(tmp_path, "terms: [wound, cure]", "terms: [wound, cur, cure]")
    assert _errors(root) == [
        "10:24: chapter 'Effect Listing' of edition 'v1' names term 'cur', which the edition does not have"
        " | did you mean 'cure'?"]


def test_a_term_in_two_chapters_or_in_none_is_an_error(tmp_path):
    root = _edited(tmp_path, "terms: [bandage]", "terms: [cure]")
    assert _errors(root) == [  # at the list of chapters (line 9), and at the second mention of 'cure'
        "9:7: edition 'v1' has chapters, and term 'bandage' is in none of them"
        " | add it to the chapter the guide prints it in",
        "12:17: term 'cure' is in chapter 'Effect Listing' of edition 'v1' already | a term is in one chapter"]
