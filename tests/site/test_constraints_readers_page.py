"""The site's What changed page lists a decision whose answers a withdrawn constraint changed, its rules
unchanged (issue 11, point 1; the diff's side: tests/diff/test_constraints_readers.py). Fixture
tests/fixtures/diff/constraint-withdrawn-unchanged-rules-answer-anew: v2 withdraws hand-not-poisoned,
and cure.may_target (requires poisoned and in hand) now says yes there."""

from __future__ import annotations

from tests.site.test_changes_names import FIXTURES, _block, _page


def test_the_page_names_the_constraint_that_changed_the_answers():
    html, _ = _page(FIXTURES / "diff" / "constraint-withdrawn-unchanged-rules-answer-anew")
    assert _block(html, '<li id="name-decision-cure.may_target">', "</li></ul></li>\n") == [
        '<li id="name-decision-cure.may_target"><code>cure.may_target</code> (decision, changed): '
        'Whether a cure may target the character.'
        '<ul><li>broadened in 1 of 4 situations; narrowed in none</li>'
        '<li>no such situation → yes in 1 situation: whenever location is hand and poisoned</li>'
        '<li>changed by the vocabulary: constraint <code>hand-not-poisoned</code> withdrawn</li></ul></li>',
    ]
    assert '<p class="rb-meta"><strong>Answers changed by the vocabulary</strong>: 1 decision.</p>' \
        in html.splitlines()
    # The players' part names the entry; the decision and the constraint are the editors' words (above).
    notice = html[html.index('<h2 id="notice">'):html.index('<h2 id="summary">')]
    assert ('<p class="rb-notice-term" id="notice-cure"><strong>Cure</strong> plays differently through a change '
            "to the terms its rules use: <a href=\"#names\">the editors' list</a> says how.</p>") in notice.splitlines()
    assert "cure.may_target" not in notice
