"""The "What changed" page shows each change's drift flags (issue 11), in the words of the diff's HTML
report ("Drift: ..."), so that a rule the editors' model does not hold still shows to a reviewer; the
"For players" part does not (players read rule changes, not review notes).

Fixtures: tests/fixtures/diff/numbered-rules-coin-flip (CR 705.1 + 705.2 merged into 705.2: three
sentences read as moved and reworded across the merge, each flagged), tests/fixtures/diff/rule-less-clauses
(added clauses with no rule of their own, graded by the editors' model) and tests/fixtures/site/hostile-drift
(a sentence holding a script, the end of a fold and an attribute-leaving quote goes with its rule: the flag
quotes it).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulebook_compiler import citations
from rulebook_compiler.build import load_rulebook
from rulebook_compiler.diff.engine import diff_editions
from rulebook_compiler.diff.render_html import change_html
from rulebook_compiler.site.changes import provider
from rulebook_compiler.site.pages import PageSpec
from rulebook_compiler.site.render import Renderer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
COIN_FLIP = FIXTURES / "diff" / "numbered-rules-coin-flip"
NEW = "cr-2022-07-08"


def _page(fixture: Path, edition: str) -> str:
    book = load_rulebook(fixture)
    spec = PageSpec(f"editions/{edition}/changes.md", "changes", "What changed", False, edition=edition)
    return Renderer(book, changes=provider(book)).render(spec, lambda uri: uri).html


@pytest.fixture(scope="module")
def coin_flip() -> str:
    return _page(COIN_FLIP, NEW)


def _flags(lines: list[str]) -> list[str]:
    return [line for line in lines if 'class="rb-note rb-drift"' in line]


def test_a_merged_clause_shows_each_sentence_read_as_moved_and_reworded(coin_flip):
    start = coin_flip.index('<h3 id="rules--r705-2"')
    block = coin_flip[start:coin_flip.index("</details>", start)].splitlines()
    label = '<p class="rb-note rb-drift" data-search-exclude><span class="rb-note__label">Drift:</span> '
    assert _flags(block) == [
        f'{label}the text no longer says “An effect that instructs a player to flip a coin may care whether that '
        'player wins or loses the flip.” and now says “For all other effects that instruct a player to flip a coin, '
        'the player that flips the coin calls &#34;heads&#34; or &#34;tails.&#34;”: read as one sentence moved and '
        'reworded across the merge, and the answers are the same</p>',
        f'{label}the text no longer says “If an effect instructs a player to flip a coin and that effect cares only '
        'whether the coin comes up heads or tails without specifying a winner or loser of the flip, that player '
        'flips a coin without making a call.” and now says “Some effects that instruct a player to flip a coin care '
        'only about whether the coin comes up heads or tails.”: read as one sentence moved and reworded across the '
        'merge, and the answers are the same</p>',
        f'{label}the text no longer says “No player wins or loses this kind of flip.” and now says “No player wins '
        'or loses a coin flip for this kind of effect.”: read as one sentence moved and reworded across the merge, '
        'and the answers are the same</p>',
        # the words the merge brings in and takes out, which its unchanged rules do not account for
        f'{label}the text now says “Some effects that instruct a player to flip a coin care only about whether the '
        'coin comes up heads or tails. No player wins or loses a coin flip for this kind of effect. For all other '
        'effects that instruct a player to flip a coin” where it said “An effect that instructs a player to flip a '
        'coin may care whether that player wins or loses the flip. To flip a coin for such an effect” (new: Some, '
        'all; gone: may, such) and no longer says “If an effect instructs a player to flip a coin and that effect '
        'cares only whether the coin comes up heads or tails without specifying a winner or loser of the flip, that '
        'player flips a coin without making a call. No player wins or loses this kind of flip” (gone: If, without, '
        'specifying, winner, making), which its rules do not account for: counted as a rule change by --fail-on '
        'until the editors record that they checked the rules against these words (add rules_checked: '
        '&#34;1ed40972b817&#34; to rules#r705-2)</p>',
    ]


def _text(html: str) -> str:
    import html as H

    return H.unescape(re.sub(r"<[^>]+>", "", html))


def test_every_change_s_flags_read_as_the_html_report_s(coin_flip):
    """Flag for flag, in the same order, the page says what the diff's HTML report says ("Drift: ...")."""
    book = load_rulebook(COIN_FLIP)
    report = diff_editions(book, book.editions[0], book, book.edition_by_id[NEW])
    flagged = [c for c in report.changes if c.drift]
    assert [c.clause for c in flagged] == ["r704-6", "r705-2"]  # 704.6's heading of subrules; the merge
    reported = [_text(line) for c in flagged for line in change_html(c, "old", "new").splitlines()
                if line.startswith('<p class="drift">')]
    on_page = [_text(line) for line in coin_flip.splitlines() if 'class="rb-note rb-drift"' in line]
    assert len(reported) == 5
    assert on_page == reported


def test_a_clause_with_no_rule_of_its_own_says_why_it_is_no_rule_change():
    page = _page(FIXTURES / "diff" / "rule-less-clauses", "v2")
    start = page.index('<h3 id="duel--step-1"')
    assert _flags(page[start:page.index("</div>", start)].splitlines()) == [
        '<p class="rb-note rb-drift" data-search-exclude><span class="rb-note__label">Drift:</span> no rule of its '
        'own; the editors&#39; model covers it as a step of duel.order, whose other steps carry its rules</p>']


def test_the_summary_marks_the_changes_that_carry_drift_flags(coin_flip):
    rows = [line for line in coin_flip.splitlines() if "drift flag" in line and line.startswith("<tr>")]
    assert rows == [
        '<tr><td>State-based actions and coin flips</td><td><a href="#rules--r704-6">r704-6</a></td>'
        '<td>added, 1 drift flag</td></tr>',
        '<tr><td>State-based actions and coin flips</td><td><a href="#rules--r705-2">r705-2</a></td>'
        '<td>merged, 4 drift flags</td></tr>',
    ]


def test_for_players_shows_no_drift_flag(coin_flip):
    notice = coin_flip[coin_flip.index('<h2 id="notice">'):coin_flip.index('<h2 id="summary">')]
    # It lists both flagged changes (r704-6, r705-2), so what it leaves out is left out of them.
    # Then the rules renumbered with the same words, with their new refs (editorial: listed, not flagged).
    # Each is cited as a judge says it (rulebook_compiler.citations): these clauses print no number, so by place.
    book = load_rulebook(COIN_FLIP)
    cite = [str(citations.of_ref(book.edition_by_id[NEW], f"rules#{cid}")) for cid in (
        "r704-5n", "r704-5t", "r704-6d", "r704-5g", "r704-6", "r704-6c", "r705-1", "r705-2", "r704-6a", "r704-6b",
        "r704-6e", "r704-6f", "r704-7", "r704-8")]
    assert cite[0] == "State-based actions and coin flips, 704. State-Based Actions, ¶14"
    assert re.findall(r"\((State-based actions and coin flips, [^)]*)\)", notice) == cite
    assert "rules#" not in notice
    assert "Drift" not in notice
    assert "rb-drift" not in notice
    assert "read as one sentence" not in notice


def test_a_flag_quoting_hostile_rule_text_is_escaped():
    page = _page(FIXTURES / "site" / "hostile-drift", "v2")
    start = page.index('<h3 id="cure--removes"')
    assert _flags(page[start:page.index("</div>\n<div", start)].splitlines()) == [
        '<p class="rb-note rb-drift" data-search-exclude><span class="rb-note__label">Drift:</span> the text no '
        'longer says “A cure can only target a poisoned character &lt;/details&gt;&lt;script&gt;alert(&#39;drift'
        '&#39;)&lt;/script&gt; &#34; onfocus=&#34;alert(&#39;drift-attr&#39;)&#34; x=&#34;.”: it went with the '
        'clause&#39;s rules, and the answers are the same</p>']
    assert "<script" not in page
    # the players' fold of the term and the editors' one, each closed once: no tag of the text's opens one
    assert (page.count("<details"), page.count("</details>")) == (2, 2)
