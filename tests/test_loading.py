"""Loading for a command: the checked model, or ``LoadError`` with every problem; never an exit.

The command layer turns the error into the report and exit 1 (``commands.common.load_or_exit``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook_compiler.loading import LoadError, load

MINIMAL = Path(__file__).parent / "fixtures" / "minimal"


def test_a_rulebook_that_checks_is_its_model():
    book = load(MINIMAL)
    assert (book.title, [e.id for e in book.editions]) == ("Minimal", ["v1", "v2"])


def test_no_rulebook_here_is_a_load_error_naming_it_not_an_exit(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(LoadError) as caught:
        load(None)
    assert [str(p) for p in caught.value.problems] == [
        ".: error: no rulebook.yaml in this folder, nor in ./rulebook\n"
        "  hint: name the rulebook folder: rulebook check PATH; for the pre-commit hook, add args: [PATH] "
        "under id: rulebook-check in .pre-commit-config.yaml (or start one: rulebook init)"]


def test_a_rulebook_with_errors_is_a_load_error_with_its_problems(tmp_path, monkeypatch):
    shutil.copytree(MINIMAL, tmp_path / "book")
    (tmp_path / "book" / "rulebook.yaml").write_text("title: [\n", encoding="utf-8")  # an unclosed list
    monkeypatch.chdir(tmp_path)
    with pytest.raises(LoadError) as caught:
        load(Path("book"))
    assert [str(p) for p in caught.value.problems] == [
        "book/rulebook.yaml:2:1: error: invalid YAML: did not find expected node content (while parsing a flow node)"]
