"""A clause's printed number (``number``) is part of what review sees (issue 21, point 4).

Fixture: tests/fixtures/diff/renumbered. v1 -> v2 renumbers two clauses that keep their ids and
their words (603.2g -> 603.2f, 603.2h -> 603.2g); v2 -> v3 renumbers one of them again
(603.2f -> 603.2e) and rewords it. Before this, v1 -> v2 read "No changes." and exited 0 with
--exit-code: the diff skipped every pairing whose words and rules were the same, without looking
at the number it is printed under, and "603.2f" named the old 603.2g's words with nothing to show it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = "tests/fixtures/diff/renumbered"
V2 = f"{FIXTURE}/editions/v2/triggered.yaml"
V3 = f"{FIXTURE}/editions/v3/triggered.yaml"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # locations are shown relative to the working folder
    monkeypatch.setenv("NO_COLOR", "1")


def diff(*args: str, rulebook: str = FIXTURE):
    return CliRunner().invoke(main, ["diff", *args, "--rulebook", rulebook], catch_exceptions=False)


# -- a number changed alone ----------------------------------------------------------------------

def test_a_number_changed_alone_is_reported_as_renumbered_and_exits_1():
    result = diff("v1", "v2", "--exit-code")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "rulebook diff v1 -> v2: 2 renumbered",
        "renumbered: 2 clauses (603.2g -> 603.2f, 603.2h -> 603.2g)",
        "",
        "triggered",
        "  renumbered, same words: 2 clauses",
        f"    triggered#only-if-it-occurs  603.2g -> 603.2f  {V2}:12:9",
        f"    triggered#leaves-the-battlefield  603.2h -> 603.2g  {V2}:17:9",
    ]


def test_the_json_gives_each_renumbering_its_numbers_and_an_editorial_level():
    data = json.loads(diff("v1", "v2", "--format", "json").stdout)
    assert data["summary"]["renumbered"] == 2
    assert [(c["clause"], c["kind"], c["level"], c["numbers"], c["old_text"] == c["new_text"])
            for c in data["changes"]] == [
        ("only-if-it-occurs", "renumbered", "editorial", {"old": "603.2g", "new": "603.2f"}, True),
        ("leaves-the-battlefield", "renumbered", "editorial", {"old": "603.2h", "new": "603.2g"}, True),
    ]


def test_the_markdown_comment_says_the_renumbering_in_one_line_and_lists_it_in_one_fold():
    out = diff("v1", "v2", "--format", "markdown").stdout
    assert out.splitlines() == [
        "## Rulebook changes: v1 → v2", "",
        "**0 rule changes**, 0 clarifications, 2 editorial", "",
        "| kind | changes |", "| --- | ---: |", "| renumbered | 2 |", "| **total** | **2** |", "",
        "Renumbered: 2 clauses (`603.2g` → `603.2f`, `603.2h` → `603.2g`)", "",
        "<details><summary>Renumbered, same words: 2 clauses</summary>", "",
        "- `triggered#only-if-it-occurs`: `603.2g` → `603.2f`",
        "- `triggered#leaves-the-battlefield`: `603.2h` → `603.2g`", "",
        "</details>",
    ]


def test_the_html_report_says_the_renumbering_in_its_summary_and_at_each_clause():
    out = diff("v1", "v2", "--format", "html").stdout
    assert '<p class="renumbered">renumbered: 2 clauses (603.2g -&gt; 603.2f, 603.2h -&gt; 603.2g)</p>' in out
    assert out.count('<p class="loc"><em>renumbered 603.2g -&gt; 603.2f</em></p>') == 1  # the change's note
    assert out.count('<p class="loc"><em>renumbered 603.2h -&gt; 603.2g</em></p>') == 1


def test_the_changelog_lists_the_rules_renumbered_with_their_old_and_new_numbers():
    result = CliRunner().invoke(main, ["changelog", "--edition", "v2", "--rulebook", FIXTURE], catch_exceptions=False)
    assert result.stdout.splitlines()[4:] == [
        "Also 2 editorial changes (spelling, punctuation, numbering or links; no word of a rule).", "",
        "Renumbered, with the same words:", "",
        "- 603.2g → 603.2f (`triggered#only-if-it-occurs`)",
        "- 603.2h → 603.2g (`triggered#leaves-the-battlefield`)",
    ]


# -- renumbered and reworded ----------------------------------------------------------------------

def test_a_clause_renumbered_and_reworded_is_reworded_and_says_both():
    result = diff("v2", "v3", "--exit-code")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:6] == [
        "rulebook diff v2 -> v3: 1 reworded",
        "renumbered: 1 clause (603.2f -> 603.2e); 1 also reworded",
        "",
        "triggered",
        f"  reworded  603.2e triggered#only-if-it-occurs  {V3}:12:9",
        "    (renumbered 603.2f -> 603.2e and reworded)",
    ]
    data = json.loads(diff("v2", "v3", "--format", "json").stdout)
    assert [(c["kind"], c["numbers"]) for c in data["changes"]] == [("reworded", {"old": "603.2f", "new": "603.2e"})]


def test_the_markdown_comment_gives_a_renumbered_and_reworded_clause_its_own_entry():
    lines = diff("v2", "v3", "--format", "markdown").stdout.splitlines()
    assert "Renumbered: 1 clause (`603.2f` → `603.2e`); 1 also reworded" in lines
    assert "<br>_renumbered `603.2f` -&gt; `603.2e` and reworded_" in lines
    assert "#### reworded: 603.2e `triggered#only-if-it-occurs`" in lines
    assert not [line for line in lines if "same words" in line]  # its words changed: not folded


def test_the_changelog_gives_a_renumbered_and_reworded_rule_its_numbers():
    result = CliRunner().invoke(main, ["changelog", "--edition", "v3", "--rulebook", FIXTURE], catch_exceptions=False)
    assert ("- **Rule changed** (`triggered#only-if-it-occurs`; renumbered 603.2f → 603.2e): An ability triggers "
            "only if its trigger event actually occurs. An event that's prevented or replaced won't trigger anything, "
            "and neither will an event that only could have happened.") in result.stdout.splitlines()
    assert "Renumbered, with the same words:" not in result.stdout


# -- many renumbered -------------------------------------------------------------------------------

def _twenty(tmp_path: Path) -> str:
    """The fixture with 20 clauses that v2 renumbers (a rule inserted before them elsewhere)."""
    root = tmp_path / "book"
    shutil.copytree(ROOT / FIXTURE, root)
    shutil.rmtree(root / "editions" / "v3")
    (root / "rulebook.yaml").write_text((root / "rulebook.yaml").read_text().split("  - {id: v3")[0])

    def term(shift: int) -> str:
        clauses = "".join(f"      - id: c{i}\n        number: \"100.{i + 1 + shift}\"\n"
                          f"        text: Rule {i} says what it says.\n" for i in range(20))
        return f"id: triggered\nname: Rules\nsections:\n  - key: rules\n    kind: definition\n    clauses:\n{clauses}"

    (root / "editions" / "v1" / "triggered.yaml").write_text(term(0))
    (root / "editions" / "v2" / "triggered.yaml").write_text(term(1))
    return str(root)


def test_twenty_clauses_renumbered_read_as_one_summary_line(tmp_path):
    book = _twenty(tmp_path)
    lines = diff("v1", "v2", rulebook=book).stdout.splitlines()
    assert lines[:5] == [
        f"rulebook diff v1 -> v2: 20 renumbered",
        "renumbered: 20 clauses (100.1 -> 100.2, 100.2 -> 100.3, 100.3 -> 100.4, and 17 more)",
        "",
        "triggered",
        "  renumbered, same words: 20 clauses",
    ]
    assert len(lines) == 5 + 20  # one line a clause below, no redline of words that did not change
    assert lines[-1].startswith("    triggered#c19  100.20 -> 100.21  ")


def test_twenty_clauses_renumbered_are_one_fold_of_the_markdown_comment(tmp_path):
    out = diff("v1", "v2", "--format", "markdown", rulebook=_twenty(tmp_path)).stdout
    lines = out.splitlines()
    assert "Renumbered: 20 clauses (`100.1` → `100.2`, `100.2` → `100.3`, `100.3` → `100.4`, and 17 more)" in lines
    assert lines.count("<details><summary>Renumbered, same words: 20 clauses</summary>") == 1
    assert out.count("<details>") == 1  # no fold of the term: its only changes are in that one
    assert "- `triggered#c0`: `100.1` → `100.2`" in lines
    assert not [line for line in lines if line.startswith("####")]


def test_past_its_budget_the_comment_keeps_the_renumbering_line_and_leaves_out_its_list(tmp_path):
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.diff.engine import diff_editions
    from rulebook_compiler.diff.render_markdown import render

    book = load_rulebook(Path(_twenty(tmp_path)))
    full = render(diff_editions(book, "v1", book, "v2"))
    short = render(diff_editions(book, "v1", book, "v2"), budget=len(full) - 1)
    assert "Renumbered: 20 clauses (`100.1` → `100.2`, `100.2` → `100.3`, `100.3` → `100.4`, and 17 more)" \
        in short.splitlines()
    assert "_The list of renumbered clauses left out._" in short.splitlines()
    assert "- `triggered#c0`: `100.1` → `100.2`" not in short.splitlines()


# -- from the cache --------------------------------------------------------------------------------

def test_a_number_changed_alone_is_reported_from_a_warm_cache(monkeypatch, tmp_path):
    from rulebook_compiler.cache import DB_NAME, cache_dir

    book = tmp_path / "book"
    shutil.copytree(ROOT / FIXTURE, book)
    cold = diff("v1", "v2", "--format", "json", rulebook=str(book))
    assert (cache_dir() / DB_NAME).exists()

    def refuse(root):
        raise AssertionError(f"{root} was loaded in full, not read from the cache")

    monkeypatch.setattr("rulebook_compiler.build.check", refuse)
    warm = diff("v1", "v2", "--format", "json", "--exit-code", rulebook=str(book))
    assert warm.exit_code == 1
    assert warm.stdout == cold.stdout
    assert [(c["kind"], c["numbers"]) for c in json.loads(warm.stdout)["changes"]] == [
        ("renumbered", {"old": "603.2g", "new": "603.2f"}), ("renumbered", {"old": "603.2h", "new": "603.2g"})]


# -- the site's What changed page --------------------------------------------------------------------

def _changes_page(edition: str) -> str:
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.site.changes import provider
    from rulebook_compiler.site.pages import PageSpec
    from rulebook_compiler.site.render import Renderer

    book = load_rulebook(ROOT / FIXTURE)
    spec = PageSpec(f"editions/{edition}/changes.md", "changes", "What changed", False, edition=edition)
    return Renderer(book, changes=provider(book)).render(spec, lambda uri: uri).html


def test_the_what_changed_page_gives_old_and_new_numbers_for_players_and_at_each_change():
    lines = _changes_page("v2").splitlines()
    assert lines[lines.index('<p class="rb-meta">Renumbered, with the same words</p>') + 1:][:3] == [
        '<ul class="rb-notice rb-renumbered">',
        # cited as a judge says it, by the new number (rulebook_compiler.citations)
        "<li>603.2g → 603.2f (603. Handling Triggered Abilities, Definition, 603.2f)</li>",
        "<li>603.2h → 603.2g (603. Handling Triggered Abilities, Definition, 603.2g)</li>"]
    assert lines.count('<p class="rb-meta">Renumbered 603.2g → 603.2f.</p>') == 1


def test_the_what_changed_page_says_renumbered_and_reworded():
    lines = _changes_page("v3").splitlines()
    assert '<p class="rb-meta">Renumbered 603.2f → 603.2e, and reworded.</p>' in lines


def test_a_number_changed_by_a_term_patch_is_reported_cold_and_warm(monkeypatch, tmp_path):
    """The term's digest (what the diff and the cache's rows compare first) is of the patched term."""
    book = tmp_path / "book"
    shutil.copytree(ROOT / FIXTURE, book)
    (book / "editions" / "v2" / "triggered.yaml").write_text(
        "id: triggered\nname: 603. Handling Triggered Abilities\npatch:\n"
        "  - change: only-if-it-occurs\n    set: {number: 603.2f}\n")
    cold = diff("v1", "v2", rulebook=str(book))
    monkeypatch.setattr("rulebook_compiler.build.check", lambda root: pytest.fail(f"{root} was loaded in full"))
    warm = diff("v1", "v2", rulebook=str(book))
    assert warm.stdout == cold.stdout
    assert warm.stdout.splitlines()[:2] == ["rulebook diff v1 -> v2: 1 renumbered",
                                            "renumbered: 1 clause (603.2g -> 603.2f)"]


def test_rules_renumbered_by_an_imported_release_are_each_reported(tmp_path):
    """End to end: tests/fixtures/importer/numbered's second release inserts 100.1a, so the old 100.1a
    and 100.1b, imported on top with their ids kept (matched by text), are printed as 100.1b and 100.1c.
    Before, the diff said the insertion and the rewording of 102.2, and nothing of the two renumberings."""
    numbered = ROOT / "tests" / "fixtures" / "importer" / "numbered"
    root = tmp_path / "rb"

    def run_import(source: str, out: str, *more: str) -> None:
        result = CliRunner().invoke(main, ["import", str(numbered / source), "--layout", "numbered",
                                           "--out", str(tmp_path / out), *more])
        assert result.exit_code == 0, result.output

    run_import("cr-2022-excerpt.txt", "v1")
    shutil.copytree(tmp_path / "v1", root / "editions" / "v1", ignore=shutil.ignore_patterns(".*"))
    (root / "vocabulary.yaml").write_text("facts: []\n")
    (root / "rulebook.yaml").write_text("title: CR\npublisher: P\neditions:\n"
                                        "  - {id: v1, title: July 2022, date: '2022-07-08', status: draft}\n"
                                        "  - {id: v2, title: Renumbered, date: null, status: draft}\n")
    run_import("cr-renumbered.txt", "v2", "--rulebook", str(root), "--base", "v1")
    shutil.copytree(tmp_path / "v2", root / "editions" / "v2", ignore=shutil.ignore_patterns(".*"))
    data = json.loads(diff("v1", "v2", "--format", "json", rulebook=str(root)).stdout)
    assert [(c["term"], c["clause"], c["kind"], c["numbers"]) for c in data["changes"] if c["numbers"]] == [
        ("general", "a-two-player-game-is", "renumbered", {"old": "100.1a", "new": "100.1b"}),
        ("general", "a-multiplayer-game-is-a", "renumbered", {"old": "100.1b", "new": "100.1c"}),
    ]
