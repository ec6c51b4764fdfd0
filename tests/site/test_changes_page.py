"""The "What changed" page shows what the diff found: the cases of the previous suite that flip
(``rulebook_compiler.diff.conformance_impact``) and the changes inside a clause (``rulebook_compiler.diff.inside``).

Fixtures: tests/fixtures/diff/conformance-flips (v2 broadens cure.may_target and withdraws
cure.in_battle with its clause) and tests/fixtures/diff/inside (list items added, removed and moved,
a long paragraph with small edits, a short clause with a word change and a capital letter).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.site.changes import provider
from rulebook_compiler.site.pages import PageSpec
from rulebook_compiler.site.render import Renderer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "diff"


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    out = {}
    for name in ("conformance-flips", "inside"):
        book = load_rulebook(FIXTURES / name)
        spec = PageSpec("editions/v2/changes.md", "changes", "What changed", False, edition="v2")
        out[name] = Renderer(book, changes=provider(book)).render(spec, lambda uri: uri).html
    return out


def change_block(page: str, anchor: str) -> str:
    """The ``rb-change`` block of one change, from its heading to the end of its div."""
    start = page.index(f'<h3 id="{anchor}"')
    return page[start:page.index("</div>\n", start)]


def test_a_change_that_flips_cases_of_the_previous_suite_says_so(pages):
    block = change_block(pages["conformance-flips"], "cure--targets")
    assert ('<p class="rb-breaks"><strong>Breaks conformance</strong>: 1 of 2 cases of v1&#39;s suite flips: '
            'cure.may_target-c624ac2d96b4 (expected no, now yes)</p>') in block.splitlines()
    block = change_block(pages["conformance-flips"], "cure--in-battle")
    assert ('<p class="rb-breaks"><strong>Breaks conformance</strong>: 1 of 1 case of v1&#39;s suite flips: '
            'cure.in_battle-630062f6388b (expected yes, now not defined)</p>') in block.splitlines()


def test_the_summary_marks_the_changes_that_break_conformance(pages):
    rows = [line for line in pages["conformance-flips"].splitlines() if line.startswith("<tr><td>Cure</td>")]
    assert rows == [
        '<tr><td>Cure</td><td><a href="#cure--_entry">(entry heading)</a></td><td>changes the rules</td></tr>',
        '<tr><td>Cure</td><td><a href="#cure--targets">targets</a></td><td>changes the rules, '
        'breaks conformance</td></tr>',
        '<tr><td>Cure</td><td><a href="#cure--in-battle">in-battle</a></td><td>removed, breaks conformance</td></tr>']


def test_a_long_clause_shows_its_changed_items_not_its_whole_redline(pages):
    block = change_block(pages["inside"], "battle--affected")
    assert 'class="rb-text rb-redline"' not in block
    assert block[block.index('<div class="rb-inside">'):] == (
        '<div class="rb-inside">\n'
        '<p class="rb-meta">Inside the clause (long clause, so only the changed items and sentences are shown): '
        '2 items added, 1 editorial fix</p>\n'
        '<ul>\n'
        '<li>item 2, added: <ins>Bounce</ins></li>\n'
        '<li>item 7, editorial: <del>Exhange</del><ins>Exchange</ins></li>\n'
        '<li>item 9, added: <ins>Gain</ins></li>\n'
        '</ul>\n')


def test_a_long_sentence_is_cut_to_the_words_around_its_edits(pages):
    block = change_block(pages["inside"], "battle--resolution")
    assert ('<li>sentence 4, words and editorial: … of the evil character and the <del>strenght</del>'
            '<ins>strength</ins> of the evil character with the … that moment have been applied and '
            '<del>every</del><ins>each</ins> ongoing effect has been checked.</li>') in block.splitlines()


def test_a_moved_item_is_listed_under_the_redline(pages):
    block = change_block(pages["inside"], "battle--order")
    assert block.splitlines()[1:] == [
        '<p class="rb-text rb-redline">Resolve in this order: draw a card; <del>discard a card; </del>heal a '
        'character; shuffle your deck<ins>; discard a card</ins>; end your turn.</p>',
        '<div class="rb-inside">',
        '<p class="rb-meta">Inside the clause: 1 item moved</p>',
        '<ul>',
        '<li>item 2 -&gt; 4, moved: discard a card</li>',
        '</ul>']


def test_a_short_clause_counts_its_editorial_fix_beside_its_word_change(pages):
    block = change_block(pages["inside"], "battle--short")
    assert block.splitlines()[1:] == [
        '<p class="rb-text rb-redline">A healing <del>enhancement</del><ins>Enhancement</ins> can be played on a '
        'character <del>of matching brigade</del><ins>that can use it</ins>.</p>',
        '<div class="rb-inside">',
        '<p class="rb-meta">Inside the clause: 1 word change, 1 editorial fix</p>']


def test_a_clause_replaced_whole_has_nothing_inside_to_show(pages):
    assert "rb-inside" not in change_block(pages["inside"], "battle--replaced")


# -- the notice for players (issue 11 point 7): ``rulebook changelog EDITION`` on each edition's page ----------

LEVELS = FIXTURES / "levels"  # v1 first; v2 punctuation only; v3 reworded; v4 a rule change


def _notice_on_page(page: str) -> list[tuple]:
    """The page's "For players" section as (what, citation) per item."""
    import html
    import re

    notice = page[page.index('<h2 id="notice">'):page.index('<h2 id="summary">')]
    found = re.findall(r"<li><strong>([^<]*)</strong> \((.*?)\)(?::|</li>)", notice)  # a name may hold "(...)"
    return [(html.unescape(w), html.unescape(c)) for w, c in found]


def _notice_of_command(root: Path | None, book, edition_id: str) -> tuple[list[tuple], int]:
    """``rulebook changelog EDITION --format json`` as players read it on the site: each rule's and
    heading's item, cited as a judge cites it (rulebook_compiler.citations); a decision the vocabulary alone
    changed, and the situations, are the editors' part of the page, not the players'."""
    import json

    from click.testing import CliRunner

    from rulebook_compiler import citations
    from rulebook_compiler.cli import main

    args = ["changelog", "--edition", edition_id, "--format", "json"] + (["--rulebook", str(root)] if root else [])
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    log = json.loads(result.stdout)
    edition = book.edition_by_id[edition_id]
    previous = book.editions[book.editions.index(edition) - 1]
    out = []
    for term in log["terms"]:
        for it in term["rule_changes"] + term["clarifications"]:
            term_id, _, clause_id = it["ref"].partition("#")
            if clause_id:
                cite = citations.of_joined_ref(edition, it["ref"]) or citations.of_joined_ref(previous, it["ref"])
                assert cite is not None, it["ref"]
                out.append((it["what"], cite))
            elif term_id in edition.term_by_id or term_id in previous.term_by_id:
                name = (edition.term_by_id.get(term_id) or previous.term_by_id[term_id]).name
                out.append((it["what"], f"{name}, entry heading"))
    return out, log["editorial"]


@pytest.mark.parametrize("which", ["levels", "bundled"])
def test_every_edition_s_what_changed_page_carries_its_changelog(which, sites, build, tmp_path):
    """Each edition after the first has the notice ``rulebook changelog`` drafts for it, item for item."""
    root = LEVELS if which == "levels" else None
    site = sites["bundled"] if which == "bundled" else tmp_path / "site"
    if which == "levels":
        assert build(LEVELS, site).exit_code == 0
    book = load_rulebook(root or Path(__file__).resolve().parents[2] / "rulebook")
    shown = {}
    for edition in book.editions[1:]:
        page = (site / "editions" / edition.id / "changes" / "index.html").read_text(encoding="utf-8")
        items, editorial = _notice_of_command(root, book, edition.id)
        shown[edition.id] = _notice_on_page(page)
        assert shown[edition.id] == items, edition.id
        assert (f"{editorial} editorial change" in page) == (editorial > 0), edition.id
    assert not (site / "editions" / book.editions[0].id / "changes").exists()
    if which == "levels":
        assert shown == {"v2": [], "v3": [("Clarified", "Cure, Definition, ¶1")],
                         "v4": [("Rule changed", "Cure, Definition, ¶1")]}
