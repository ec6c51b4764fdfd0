"""Every change the diff and the changelog list cites its clause's printed number, in document order
(issue 23.3). Fixture tests/fixtures/site/numbered: v1 -> v2 rewords 400.1a (term zones), 903.2 (term
commander) and the glossary entry block-alone, which prints no number. By id the terms read
block-alone, commander, zones; the document gives 400 before 903, and its unnumbered glossary after."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = "tests/fixtures/site/numbered"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # locations are shown relative to the working folder
    monkeypatch.setenv("NO_COLOR", "1")


def run(*args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--rulebook", FIXTURE], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_text_names_each_change_by_number_then_ref_in_document_order():
    lines = run("diff", "v1", "v2").splitlines()
    assert [line for line in lines if line.startswith("  reworded")] == [
        f"  reworded  400.1a zones#zones-hand  {FIXTURE}/editions/v2/zones.yaml:11:9",
        f"  reworded  903.2 commander#commander-deck  {FIXTURE}/editions/v2/commander.yaml:11:9",
        f"  reworded  block-alone#blocks-alone  {FIXTURE}/editions/v2/block-alone.yaml:8:9"]


def test_markdown_lists_and_headings_cite_the_number_before_the_ref():
    lines = run("diff", "v1", "v2", "--format", "markdown").splitlines()
    assert [line for line in lines if line.startswith("- `") or line[:2] == "- " and "(reworded)" in line] == [
        "- 400.1a `zones#zones-hand` (reworded): the words add, drop or rewrite a rule",
        "- 903.2 `commander#commander-deck` (reworded): the words add, drop or rewrite a rule",
        "- `block-alone#blocks-alone` (reworded): the words add, drop or rewrite a rule"]
    assert [line for line in lines if line.startswith("#### ")] == [
        "#### reworded: 400.1a `zones#zones-hand`", "#### reworded: 903.2 `commander#commander-deck`",
        "#### reworded: `block-alone#blocks-alone`"]


def test_json_gives_each_change_its_number_and_null_where_none_is_printed():
    changes = json.loads(run("diff", "v1", "v2", "--format", "json"))["changes"]
    assert [(c["term"], c["number"], c["numbers"]) for c in changes] == [
        ("zones", "400.1a", None), ("commander", "903.2", None), ("block-alone", None, None)]


def test_the_changelog_cites_numbers_and_follows_the_document():
    lines = run("changelog", "--edition", "v2").splitlines()
    assert [line for line in lines if line.startswith(("## ", "- "))] == [
        "## 400\\. Zones",
        "- **Rule changed** (400.1a, `zones#zones-hand`): A player's hand is a hidden zone.",
        "## 903\\. Commander",
        "- **Rule changed** (903.2, `commander#commander-deck`): Each deck has exactly one commander.",
        "## Block Alone",
        "- **Rule changed** (`block-alone#blocks-alone`): A creature blocks alone if it is the only creature "
        "declared as a blocker that turn."]


def test_history_of_a_term_cites_the_number():
    out = run("history", "commander")
    assert "  reworded  903.2 commander#commander-deck  " in out


def test_the_html_report_shows_the_number_before_the_ref():
    html = run("diff", "v1", "v2", "--format", "html")
    assert ('<h3><span class="kind">reworded</span> <span class="number">400.1a</span> '
            '<code>zones#zones-hand</code></h3>') in html
    assert '<h3><span class="kind">reworded</span> <code>block-alone#blocks-alone</code></h3>' in html
