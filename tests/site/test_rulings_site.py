"""Each term page lists the rulings that apply to its edition and cite its clauses (issue 26 point 5).

Fixture tests/fixtures/rulings: v1 rules cure-in-battle (no) and cure-paralyzed (yes); v2, the
edition shown (nothing is published), supersedes cure-in-battle with cure-in-battle-v2 (yes).
"""

from __future__ import annotations

import pytest

from .conftest import FIXTURES

RULINGS = FIXTURES / "rulings"


@pytest.fixture(scope="module")
def page(tmp_path_factory, build) -> str:
    out = tmp_path_factory.mktemp("rulings-site") / "site"
    result = build(RULINGS, out)
    assert result.exit_code == 0, result.output
    return (out / "terms" / "cure" / "index.html").read_text(encoding="utf-8")


def test_the_term_page_lists_the_rulings_that_apply_with_their_citations_and_sources(page):
    block = page[page.index('<section class="rb-rulings"'):page.index("</section>", page.index('class="rb-rulings"'))]
    assert block.splitlines() == [
        '<section class="rb-rulings" data-search-exclude>',  # each clause's words are in the index once
        '<h2 id="page_rulings">Rulings</h2>',
        '<div class="rb-ruling" id="ruling-cure-in-battle-v2">',
        '<p class="rb-ruling__question"><strong>Can a cure target a poisoned character in battle, now that the '
        'battle rule is gone?</strong></p>',
        '<p>Yes. <a href="./#targets">Cure, Definition, 1.2</a>.</p>',
        '<p class="rb-meta">Official ruling: Rules committee, 2021-01-01 (https://forum.example.org/t/3).</p>',
        '</div>',
        '<div class="rb-ruling" id="ruling-cure-paralyzed">',
        '<p class="rb-ruling__question"><strong>Can a cure target a paralyzed character outside battle?</strong></p>',
        '<p>Yes. <a href="./#targets">Cure, Definition, 1.2</a>; <a href="./#curable">Cure, Definition, 1.1</a>.</p>',
        '<p class="rb-meta">The rules committee&#39;s reading: Rules committee, 2020-03-01 '
        '(https://forum.example.org/t/2).</p>',
        '</div>',
    ]
    # the superseded ruling is v1's alone
    assert "cure-in-battle\"" not in page
    assert '<a href="ask/cure.may_target/">Whether a cure may target the character.</a>' in page
