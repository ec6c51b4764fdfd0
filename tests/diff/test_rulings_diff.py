"""The diff knows rulings (issue 26.3): which of the old edition's rulings flip, stop applying or stand.

Fixture tests/fixtures/rulings-diff: v1 holds four rulings. v2 lets a cure target a
poisoned character in battle (cure#not-in-battle now forbids it only when not
poisoned), so cure-in-battle (phase=battle, poisoned: v1 answers false by
cure#not-in-battle, the exception to cure#targets) is answered true by cure#targets;
v2 withdraws cure-poisoned-old, renames cure#saves (cited by cure-saves) to
cure#rescue, and adds cure-battle-paralyzed. cure-paralyzed (preparation,
paralyzed: true by cure#targets on both sides) stands. ``rulebook check`` fails v2
on the flip and the clause gone: the state of a pull request before the committee
withdraws or restates those rulings, which is what the section is for.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.cli import main
from rulebook_compiler.diff.engine import diff_editions

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "rulings-diff"

FLIP_TEXT = ("    cure.may_target when phase=battle, poisoned=true: old false (cure#not-in-battle), "
             "new true (cure#targets); the ruling says false")
TEXT = [
    "rulings: 1 flipped, 2 no longer applying, 1 standing; 1 added",
    "  flipped cure-in-battle: Can a cure target a poisoned character in battle?",
    FLIP_TEXT,
    "  no longer applying cure-poisoned-old: withdrawn by edition v2",
    "  no longer applying cure-saves: edition v2 has no clause cure#saves",
    "  standing: cure-paralyzed",
    "  added: cure-battle-paralyzed",
]
MARKDOWN = [
    "### Rulings",
    "",
    "1 flipped, 2 no longer applying, 1 standing; 1 added",
    "",
    "- **flipped** `cure-in-battle`: Can a cure target a poisoned character in battle?<br>"
    "`cure.may_target` when phase=battle, poisoned=true: old false (`cure#not-in-battle`), new true "
    "(`cure#targets`); the ruling says false",
    "- **no longer applying** `cure-poisoned-old`: withdrawn by edition `v2`",
    "- **no longer applying** `cure-saves`: edition v2 has no clause `cure#saves`",
    "- standing: `cure-paralyzed`",
    "- added: `cure-battle-paralyzed`",
    "",
]
JSON = {
    "flipped": [{"id": "cure-in-battle", "question": "Can a cure target a poisoned character in battle?",
                 "decision": "cure.may_target", "facts": {"phase": "battle", "poisoned": True}, "ruling": False,
                 "old": {"status": "decided", "answer": False, "rules": ["cure#not-in-battle"]},
                 "new": {"status": "decided", "answer": True, "rules": ["cure#targets"]}}],
    "stopped": [{"id": "cure-poisoned-old",
                 "question": "Can a cure target a poisoned character in the preparation phase?",
                 "reason": "withdrawn", "detail": "withdrawn by edition v2", "by": []},
                {"id": "cure-saves", "question": "Does a cure save a character being discarded?",
                 "reason": "clause-gone", "detail": "edition v2 has no clause cure#saves", "by": []}],
    "standing": ["cure-paralyzed"],
    "added": ["cure-battle-paralyzed"],
}


def _run(*args: str, rulebook: Path = FIXTURE, sides=("v1", "v2")):
    result = CliRunner().invoke(main, ["diff", *sides, "--rulebook", str(rulebook), *args], catch_exceptions=False)
    return result.exit_code, result.stdout


def _section(text: str, first: str, count: int) -> list[str]:
    lines = text.split("\n")
    start = lines.index(first)
    return lines[start:start + count]


def test_the_engine_lists_the_flipped_the_stopped_the_standing_and_the_added():
    book = load_rulebook(FIXTURE)
    assert diff_editions(book, "v1", book, "v2").rulings.as_json() == JSON


def test_json_has_the_rulings_section():
    code, out = _run("--no-cache", "--format", "json")
    assert code == 0
    assert json.loads(out)["rulings"] == JSON


def test_text_lists_them_before_the_terms():
    code, out = _run("--no-cache")
    assert code == 0
    lines = out.split("\n")
    assert lines[:2] == ["rulebook diff v1 -> v2: 1 renamed, 1 semantic", ""]
    assert lines[2:9] == TEXT
    assert lines[9:11] == ["", "cure"]


def test_markdown_puts_the_section_after_the_summary_and_before_the_rule_changes():
    code, out = _run("--no-cache", "--format", "markdown")
    assert code == 0
    lines = out.split("\n")
    assert lines[lines.index("| **total** | **2** |") + 1:][:len(MARKDOWN) + 2] == [""] + MARKDOWN + ["### Rule changes"]


def test_html_has_the_section():
    code, out = _run("--no-cache", "--format", "html")
    assert code == 0
    assert ('<h2 id="rulings">Rulings</h2>\n<p>1 flipped, 2 no longer applying, 1 standing; 1 added</p>\n'
            '<ul class="rulings"><li>flipped cure-in-battle: Can a cure target a poisoned character in battle? — '
            "cure.may_target when phase=battle, poisoned=true: old false (cure#not-in-battle), new true "
            "(cure#targets); the ruling says false</li><li>no longer applying cure-poisoned-old: withdrawn by "
            "edition v2</li><li>no longer applying cure-saves: edition v2 has no clause cure#saves</li>"
            "<li>standing: cure-paralyzed</li><li>added: cure-battle-paralyzed</li></ul>") in out


@pytest.mark.parametrize("floor,expected", [("rule-change", 1), ("breaks-conformance", 1), ("ruling-flips", 1),
                                            ("published-change", 0)])
def test_fail_on_ruling_flips_exits_1_when_a_ruling_flips(floor, expected):
    assert _run("--no-cache", "--fail-on", floor)[0] == expected


def test_fail_on_ruling_flips_exits_0_when_none_flips(tmp_path):
    """v2 with v1's battle rule: the rename and the withdrawal stay, no ruling's answer changes."""
    root = tmp_path / "book"
    shutil.copytree(FIXTURE, root)
    v1 = (root / "editions" / "v1" / "cure.yaml").read_text()
    (root / "editions" / "v2" / "cure.yaml").write_text(v1.replace("- id: saves", "- id: rescue"))
    code, out = _run("--no-cache", "--fail-on", "ruling-flips", rulebook=root)
    assert code == 0
    assert _section(out, "rulings: 0 flipped, 2 no longer applying, 2 standing; 1 added", 1) == [
        "rulings: 0 flipped, 2 no longer applying, 2 standing; 1 added"]


def test_a_rulebook_without_rulings_has_no_section():
    plain = FIXTURE.parent / "diff" / "conformance-flips"
    book = load_rulebook(plain)
    assert diff_editions(book, "v1", book, "v2").rulings.as_json() == {"flipped": [], "stopped": [], "standing": [],
                                                                       "added": []}
    assert [line for line in _run("--no-cache", rulebook=plain)[1].split("\n") if "rulings" in line] == []


def test_warm_and_cold_cache_give_the_same_output(tmp_path, monkeypatch):
    """Rulings are not in the cache's entry: a cached side reads them from its folder, its terms from the entry."""
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "book"
    shutil.copytree(FIXTURE, root)
    formats = ("text", "json", "markdown", "html")
    cold = {fmt: _run("--format", fmt, rulebook=root) for fmt in formats}
    assert (tmp_path / "cache").is_dir()

    def refuse(*args, **kwargs):
        raise AssertionError("a side was loaded in full, not read from the cache")

    monkeypatch.setattr("rulebook_compiler.build.check", refuse)
    warm = {fmt: _run("--format", fmt, rulebook=root) for fmt in formats}
    assert warm == cold
    assert json.loads(cold["json"][1])["rulings"] == JSON
    assert _section(cold["text"][1], TEXT[0], len(TEXT)) == TEXT


def test_the_whole_rulebook_diff_has_the_section_per_changed_edition(tmp_path):
    """Two folders: the new one restores v1's battle rule in v2, so v2's carried ruling flips back."""
    new = tmp_path / "new"
    shutil.copytree(FIXTURE, new)
    v1 = (new / "editions" / "v1" / "cure.yaml").read_text()
    (new / "editions" / "v2" / "cure.yaml").write_text(v1.replace("- id: saves", "- id: rescue"))
    code, out = _run("--no-cache", sides=(str(FIXTURE), str(new)), rulebook=FIXTURE)
    assert code == 0
    # the edition's rulings in the order they apply: v1's carried over (cure-poisoned-old withdrawn), then v2's;
    # cure-saves stands: both sides lack the clause it cites, and both answer it true
    assert _section(out, "rulings: 1 flipped, 0 no longer applying, 3 standing", 4) == [
        "rulings: 1 flipped, 0 no longer applying, 3 standing",
        "  flipped cure-in-battle: Can a cure target a poisoned character in battle?",
        "    cure.may_target when phase=battle, poisoned=true: old true (cure#targets), new false "
        "(cure#not-in-battle); the ruling says false",
        "  standing: cure-paralyzed, cure-saves, cure-battle-paralyzed",
    ]
    code, md = _run("--no-cache", "--format", "markdown", sides=(str(FIXTURE), str(new)), rulebook=FIXTURE)
    assert "### Rulings" in md.split("\n")
    assert json.loads(_run("--no-cache", "--format", "json", sides=(str(FIXTURE), str(new)),
                           rulebook=FIXTURE)[1])["editions"][1]["diff"]["rulings"]["flipped"][0]["id"] == "cure-in-battle"
    assert _run("--no-cache", "--fail-on", "ruling-flips", sides=(str(FIXTURE), str(new)), rulebook=FIXTURE)[0] == 1


def test_a_rulings_file_that_cannot_be_read_is_a_warning_at_its_place(tmp_path, monkeypatch):
    root = tmp_path / "book"
    shutil.copytree(FIXTURE, root)
    (root / "editions" / "v2" / "_rulings.yaml").write_text("withdrawn: [cure-poisoned-old]\nrulings: 3\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["diff", "v1", "v2", "--rulebook", "book", "--no-cache"],
                                catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stderr.split("\n") == [
        "book/editions/v2/_rulings.yaml:2:10: warning: 'rulings' must be a list, not a whole number",
        "  hint: write a list, like [3]; its rulings are left out of the diff's Rulings section",
        "",
    ]
    # v2's file unread, v1's rulings all apply to v2 unchanged: cure-poisoned-old is not withdrawn
    assert _section(result.stdout, "rulings: 1 flipped, 1 no longer applying, 2 standing", 1) == [
        "rulings: 1 flipped, 1 no longer applying, 2 standing"]


def test_a_whole_rulebook_diff_that_only_withdraws_a_ruling_shows_it(tmp_path):
    """Rulings are not locked, so they are not the edition's content, but an edition whose rulings differ
    is diffed: a pull request that only withdraws a ruling is not "No changes"."""
    new = tmp_path / "new"
    shutil.copytree(FIXTURE, new)
    rulings = new / "editions" / "v2" / "_rulings.yaml"
    rulings.write_text(rulings.read_text().replace("withdrawn: [cure-poisoned-old]",
                                                   "withdrawn: [cure-poisoned-old, cure-paralyzed]"))
    code, out = _run("--no-cache", sides=(str(FIXTURE), str(new)), rulebook=FIXTURE)
    assert code == 0
    assert _section(out, "rulings: 0 flipped, 1 no longer applying, 3 standing", 3) == [
        "rulings: 0 flipped, 1 no longer applying, 3 standing",
        "  no longer applying cure-paralyzed: withdrawn by edition v2",
        "  standing: cure-in-battle, cure-saves, cure-battle-paralyzed",
    ]
    assert _run("--no-cache", "--fail-on", "ruling-flips", sides=(str(FIXTURE), str(new)), rulebook=FIXTURE)[0] == 0


def test_thousands_of_rulings_fit_the_comment_and_the_list_says_how_many_more():
    """The Rulings list is cut like the summary's other lists: 3,000 flips at the minimum budget."""
    import dataclasses
    import re

    from rulebook_compiler.diff.render_markdown import MIN_BUDGET, render, utf16_length

    book = load_rulebook(FIXTURE)
    result = diff_editions(book, "v1", book, "v2")
    flip = result.rulings.flipped[0]
    many = tuple(dataclasses.replace(flip, id=f"ruling-{i:04}") for i in range(3000))
    big = dataclasses.replace(result, rulings=dataclasses.replace(result.rulings, flipped=many))
    out = render(big, MIN_BUDGET)
    assert utf16_length(out) <= MIN_BUDGET
    lines = out.split("\n")
    start = lines.index("### Rulings")
    assert lines[start + 2] == "3000 flipped, 2 no longer applying, 1 standing; 1 added"
    items = lines[start + 4:lines.index("", start + 4)]
    more = re.fullmatch(r"- _… and (\d+) more \(the full report lists them\)_", items[-1])
    assert more is not None
    # every item shown or counted: 3,000 flips, 2 stopped, the standing line and the added line
    assert len(items) - 1 + int(more.group(1)) == 3004
    assert items[0].startswith("- **flipped** `ruling-0000`: ")
