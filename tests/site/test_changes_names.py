"""The "What changed" page lists the decisions, predicates and constraints, and the answers the
vocabulary alone changed (issue 11, points 1 and 7), in the words of the diff's text and Markdown.

Fixtures: tests/fixtures/diff/unordered-value-added (v2 adds the value end to
the unordered fact phase: turn.may_attack and turn.may_pass now answer there;
a clause of concede is reworded), tests/fixtures/diff/constraint-changed (a
constraint changed under its id, one added, one withdrawn) and
tests/fixtures/site/hostile (a decision whose question holds markup).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from markupsafe import escape

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.site.changes import provider
from rulebook_compiler.site.pages import PageSpec
from rulebook_compiler.site.render import Renderer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _page(fixture: Path) -> tuple[str, list]:
    book = load_rulebook(fixture)
    spec = PageSpec("editions/v2/changes.md", "changes", "What changed", False, edition="v2")
    page = Renderer(book, changes=provider(book)).render(spec, lambda uri: uri)
    return page.html, page.toc


@pytest.fixture(scope="module")
def value_added() -> tuple[str, list]:
    return _page(FIXTURES / "diff" / "unordered-value-added")


def _block(html: str, start: str, end: str) -> list[str]:
    at = html.index(start)
    return html[at:html.index(end, at) + len(end)].splitlines()


def test_the_decisions_list_says_what_the_vocabulary_changed(value_added):
    html, _ = value_added
    assert _block(html, '<h2 id="names">', "</ul>\n") == [
        '<h2 id="names">Decisions, predicates and constraints</h2>',
        '<ul class="rb-names">',
        '<li id="name-decision-turn.may_attack"><code>turn.may_attack</code> (decision, changed): '
        'Whether the player may attack now.'
        '<ul><li>changed: new in 1 of 3 situations; narrowed in none; broadened in none</li>'
        '<li>no such situation → no in 1 situation: whenever phase is end</li>'
        '<li>changed by the vocabulary: fact <code>phase</code> gained value <code>end</code></li></ul></li>',
        '<li id="name-decision-turn.may_pass"><code>turn.may_pass</code> (decision, changed): '
        'Whether the player may pass now.'
        '<ul><li>broadened in 1 of 3 situations; narrowed in none</li>'
        '<li>no such situation → yes in 1 situation: whenever phase is end</li>'
        '<li>changed by the vocabulary: fact <code>phase</code> gained value <code>end</code></li></ul></li>',
        '</ul>',
    ]


def test_the_summary_counts_the_answers_the_vocabulary_changed_and_the_toc_links_the_list(value_added):
    html, toc = value_added
    assert '<p class="rb-meta"><strong>Answers changed by the vocabulary</strong>: 2 decisions.</p>' \
        in html.splitlines()
    assert [(t.id, t.title) for t in toc][:4] == [
        ("notice", "For players"), ("summary", "Summary"), ("names", "Decisions, predicates and constraints"),
        ("vocabulary", "Vocabulary")]


def test_for_players_a_change_by_the_vocabulary_alone_is_named_not_modelled(value_added):
    # The players' part says which entry plays differently; the decision, the fact and the situations
    # (the model's words) are the editors' list's, which the link leads to.
    html, _ = value_added
    notice = html[html.index('<h2 id="notice">'):html.index('<h2 id="summary">')]
    assert ('<p class="rb-notice-term" id="notice-turn"><strong>Turn</strong> plays differently through a change '
            "to the terms its rules use: <a href=\"#names\">the editors' list</a> says how.</p>") in notice.splitlines()
    assert [word for word in ("turn.may_pass", "phase", "not possible", "not asked") if word in notice] == []


def test_a_changed_constraint_is_listed_with_what_it_now_rules_out():
    html, _ = _page(FIXTURES / "diff" / "constraint-changed")
    assert _block(html, '<li id="name-constraint-not-poisoned-there">', "</li></ul></li>") == [
        '<li id="name-constraint-not-poisoned-there"><code>not-poisoned-there</code> (constraint, changed): '
        'A character in hand is not poisoned.'
        '<ul><li>old text: A character in the discard pile is not poisoned.</li>'
        '<li>newly rules out 1 of 6 situations: whenever location is hand and poisoned</li>'
        '<li>no longer rules out 1 situation: whenever location is discard_pile and poisoned</li></ul></li>',
    ]


def test_the_list_escapes_a_question_s_markup():
    fixture = FIXTURES / "site" / "hostile"
    html, _ = _page(fixture)
    question = load_rulebook(fixture).edition_by_id["v2"].decisions["script.may"].meaning
    [line] = [x for x in html.splitlines() if x.startswith('<li id="name-decision-script.may">')]
    assert line.startswith(f'<li id="name-decision-script.may"><code>script.may</code> (decision, changed): '
                           f'{escape(question)}<ul><li>')
    assert "<script" not in line


def test_the_list_and_for_players_escape_the_vocabulary_s_hostile_words():
    """Fixture tests/fixtures/diff/hostile-vocabulary: the changed constraint's old and new text and
    the question of the decision the vocabulary alone changed hold markup, a script, a javascript link
    and a line break; every angle bracket and quote is escaped, nothing else is changed."""
    html, _ = _page(FIXTURES / "diff" / "hostile-vocabulary")
    new = ("Not poisoned &lt;/details&gt;&lt;script&gt;alert(&#39;new&#39;)&lt;/script&gt; @team | `x` "
           "[a](javascript:alert(2))\n- in main.")
    old = ("Not poisoned &lt;/details&gt;&lt;script&gt;alert(&#39;old&#39;)&lt;/script&gt; @team | `x` "
           "[a](javascript:alert(1))\n- in battle.")
    question = ("Whether &lt;/details&gt;&lt;script&gt;alert(&#39;q&#39;)&lt;/script&gt; @team | `x` "
                "[a](javascript:alert(1))\n# the player may pass.")
    assert _block(html, '<h2 id="names">', "</ul>\n") == (
        '<h2 id="names">Decisions, predicates and constraints</h2>\n'
        '<ul class="rb-names">\n'
        '<li id="name-constraint-not-poisoned-in-battle"><code>not-poisoned-in-battle</code> (constraint, changed): '
        f'{new}<ul><li>old text: {old}</li>'
        '<li>newly rules out 1 of 6 situations: whenever phase is main and poisoned</li>'
        '<li>no longer rules out 1 situation: whenever phase is battle and poisoned</li></ul></li>\n'
        f'<li id="name-decision-turn.may_pass"><code>turn.may_pass</code> (decision, changed): {question}'
        '<ul><li>broadened in 1 of 3 situations; narrowed in none</li>'
        '<li>no such situation → yes in 1 situation: whenever phase is end</li>'
        '<li>changed by the vocabulary: fact <code>phase</code> gained value <code>end</code></li></ul></li>\n'
        '</ul>').splitlines()
    notice = html[html.index('<h2 id="notice">'):html.index('<h2 id="summary">')]
    assert "turn.may_pass" not in notice  # the question and its markup are the editors' list's alone
    assert "<script>" not in html
