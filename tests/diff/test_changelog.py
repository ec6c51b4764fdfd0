"""``rulebook changelog EDITION``: the notice for players, against the edition before it.

Fixture: tests/fixtures/diff/levels (v1 first; v2 punctuation only; v3
reworded, same answers; v4 a rule that answers yes in more situations).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from compiler.cli import main

LEVELS = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "levels"
WJ = "\u2060"


def _changelog(*args: str):
    return CliRunner().invoke(main, ["changelog", *args, "--rulebook", str(LEVELS)], catch_exceptions=False)


@pytest.mark.parametrize(("edition", "expected"), [
    ("v1", "# What changed in First\n\nv1 is the first edition: there is nothing to compare it with.\n"),
    ("v2", "# What changed in Punctuation\n\n"
           f"Changes from First (v1) to v2, published 2020-{WJ}02-{WJ}01.\n\n"
           "Also 1 editorial change (spelling, punctuation, numbering or links; no word of a rule).\n"),
    ("v3", "# What changed in Reworded\n\n"
           f"Changes from Punctuation (v2) to v3, published 2020-{WJ}03-{WJ}01.\n\n"
           "## Cure\n\n### Clarifications\n\n"
           "- **Clarified** (`cure#targets`): Only a poisoned character can be the target of a cure.\n"),
    ("v4", "# What changed in Rule change\n\nChanges from Reworded (v3) to v4.\n\n"
           "## Cure\n\n### Rule changes\n\n"
           "- **Rule changed** (`cure#targets`): Only a poisoned or paralyzed character can be the target of a cure.\n"
           f"  - Whether a cure may target the character:{WJ} now says yes in more situations.\n"
           "  - The character is paralyzed: was **no**, now **yes**.\n"),
])
def test_the_notice_says_what_plays_differently_then_what_was_clarified(edition, expected):
    result = _changelog(edition)
    assert (result.exit_code, result.stderr, result.stdout) == (0, "", expected)


def test_the_notice_as_json_keeps_each_situation():
    result = _changelog("v4", "--format", "json")
    assert json.loads(result.stdout) == {
        "edition": "v4", "previous": "v3", "editorial": 0,
        "terms": [{"term": "cure", "name": "Cure", "clarifications": [], "rule_changes": [{
            "ref": "cure#targets", "what": "Rule changed",
            "text": "Only a poisoned or paralyzed character can be the target of a cure.",
            "questions": ["Whether a cure may target the character: now says yes in more situations"],
            "played": [{"holds": ["The character is paralyzed."], "old": "no", "new": "yes"}]}]}]}


def test_an_unknown_edition_is_named_with_the_editions():
    result = _changelog("v9")
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "rulebook: error: unknown edition 'v9'; editions: v1, v2, v3, v4\n")


def _changes_page(edition: str) -> str:
    from compiler.build import load_rulebook
    from compiler.site.changes import provider
    from compiler.site.pages import PageSpec
    from compiler.site.render import Renderer

    book = load_rulebook(LEVELS)
    spec = PageSpec(f"editions/{edition}/changes.md", "changes", "What changed", False, edition=edition)
    return Renderer(book, changes=provider(book)).render(spec, lambda uri: uri).html


def test_the_what_changed_page_opens_with_the_notice_for_players():
    page = _changes_page("v4")
    notice = page[page.index('<h2 id="notice">'):page.index('<h2 id="summary">')]
    assert notice == (
        '<h2 id="notice">For players</h2>\n<h3 id="notice-cure">Cure</h3>\n'
        '<p class="rb-meta">Rule changes</p>\n<ul class="rb-notice">\n'
        '<li><strong>Rule changed</strong> (cure#targets): Only a poisoned or paralyzed character can be the '
        'target of a cure.<ul><li>Whether a cure may target the character: now says yes in more situations.</li>'
        '<li>The character is paralyzed. Was <strong>no</strong>, now <strong>yes</strong>.</li></ul></li>\n'
        '</ul>\n')


def test_the_what_changed_page_of_an_editorial_edition_says_no_rule_plays_differently():
    page = _changes_page("v2")
    assert ('<h2 id="notice">For players</h2>\n<p>No rule plays differently; 1 editorial change '
            '(spelling, punctuation, numbering or links).</p>\n<h2 id="summary">') in page
