"""A draft never takes over the site: the home page and the term pages show the latest published edition.

A draft is a preview at its own path (``/editions/ID/``, its terms at
``/editions/ID/terms/TERM/``) under a "Proposal" banner. A rulebook with no
published edition (a new game) shows its latest draft, bannered as a proposal.
The home page's words come from rulebook.yaml (title, publisher, notes), and the
pages say which editions the site holds and where the history has a gap.
Fixtures: tests/fixtures/lock/frozen (1.0 published, 2.0 a draft that adds Ward),
tests/fixtures/diff/published-and-drafts (1.0 published, drafts 2.0 and 3.0),
tests/fixtures/site/history-gap (v1 published, draft v3 after versions not held),
and tests/fixtures/minimal made all drafts in a tmp_path.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.site.plugin import navigation

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FROZEN = FIXTURES / "lock" / "frozen"
DRAFTS = FIXTURES / "diff" / "published-and-drafts"
GAP = FIXTURES / "site" / "history-gap"

PERMALINKS = "Every clause has a permanent link: its anchor is the clause id, the same in every edition."


def article(site: Path, url: str) -> str:
    text = (site / url / "index.html").read_text(encoding="utf-8")
    return text[text.index("<article"):text.index("</article>")]


def all_drafts(tmp_path: Path) -> Path:
    """tests/fixtures/minimal with its published v1 made a draft: a game that has published nothing yet."""
    book = tmp_path / "new-game"
    shutil.copytree(FIXTURES / "minimal", book)
    yaml = book / "rulebook.yaml"
    yaml.write_text(yaml.read_text(encoding="utf-8").replace("status: published", "status: draft"), encoding="utf-8")
    return book


@pytest.fixture(scope="module")
def built(tmp_path_factory, build) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("published-default")
    sites = {}
    for name, book in (("frozen", FROZEN), ("drafts", DRAFTS), ("gap", GAP), ("new", all_drafts(base))):
        result = build(book, base / name)
        assert result.exit_code == 0, result.output
        sites[name] = base / name
    return sites


# -- point 1: the published edition is the default ----------------------------------------------

def test_the_term_page_shows_the_published_edition_not_the_later_draft(built):
    page = article(built["frozen"], "terms/cure")
    assert '<p class="rb-meta" data-search-exclude>Edition 1.0 · <a href="history/">History of Cure</a></p>' in page
    assert "rb-banner" not in page  # neither "Proposal" nor "A newer edition exists"


def test_a_term_only_the_draft_has_has_no_default_page(built):
    assert not (built["frozen"] / "terms" / "ward" / "index.html").exists()
    assert (built["frozen"] / "editions" / "2.0" / "terms" / "ward" / "index.html").is_file()


def test_the_draft_is_a_preview_at_its_own_path_with_a_banner(built):
    page = article(built["frozen"], "editions/2.0/terms/cure")
    assert ('<div class="admonition warning rb-banner rb-banner--draft" data-search-exclude>\n'
            '<p class="admonition-title">Proposal</p>\n'
            '<p>Edition 2.0 (Second) is a draft posted for feedback, not an official ruling. '
            'The edition in force is <a href="../../../1.0/">1.0: First</a>. '
            '<a href="../../../../terms/cure/">Read Cure as edition 1.0 has it</a>.</p>\n'
            '</div>') in page
    assert "A newer edition exists" not in page
    assert ('<p class="rb-meta" data-search-exclude>Edition 2.0 (proposal) · '
            '<a href="../../../../terms/cure/history/">History of Cure</a></p>') in page


def test_a_term_new_in_the_draft_says_the_edition_in_force_has_it_not(built):
    page = article(built["frozen"], "editions/2.0/terms/ward")
    assert ('<p>Edition 2.0 (Second) is a draft posted for feedback, not an official ruling. '
            'The edition in force is <a href="../../../1.0/">1.0: First</a>. Ward is not in edition 1.0.</p>') in page


def test_the_a_to_z_and_the_printable_glossary_are_the_published_edition(built):
    assert '<p class="rb-meta">1 term of edition 1.0. Aliases lead to the term that defines them.</p>' \
        in article(built["frozen"], "terms")
    assert '<p class="rb-meta">Edition 1.0 of 2020-01-01, 1 term. Print this page: each term starts on a new page.</p>' \
        in article(built["frozen"], "print")


def test_search_holds_the_published_edition_only(built):
    docs = json.loads((built["frozen"] / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    assert sorted({d["location"].split("#")[0] for d in docs}) == ["", "terms/cure/"]


def test_a_history_links_to_the_entry_in_force(built):
    assert '<a href="../">Current entry</a>' in article(built["frozen"], "terms/cure/history")
    assert "Current entry" not in article(built["frozen"], "terms/ward/history")


def test_an_older_edition_points_to_the_edition_in_force_not_to_the_draft(built):
    # published-and-drafts: 1.0 is in force; the drafts 2.0 and 3.0 are previews, 2.0 older than 3.0.
    page = article(built["drafts"], "editions/2.0/terms/cure")
    assert ('The edition in force is <a href="../../../1.0/">1.0: First</a>. '
            '<a href="../../../../terms/cure/">Read Cure as edition 1.0 has it</a>.</p>') in page
    assert '<p class="rb-meta" data-search-exclude>Edition 1.0 · <a href="history/">History of Cure</a></p>' \
        in article(built["drafts"], "terms/cure")


def test_the_navigation_marks_the_drafts_as_proposals():
    editions = navigation(load_rulebook(DRAFTS))[2]["Editions"]
    assert editions == [{"All editions": "editions/index.md"},
                        {"3.0: Third (proposal)": "editions/3.0/index.md"},
                        {"2.0: Second (proposal)": "editions/2.0/index.md"},
                        {"1.0: First": "editions/1.0/index.md"},
                        {"Corrections": "corrections/index.md"}]


# -- point 2: the home page's words come from rulebook.yaml ------------------------------------

def test_the_home_page_presents_the_published_edition_in_the_rulebooks_words(built):
    home = article(built["frozen"], "")
    assert '<h1 id="home">Frozen</h1>' in home
    assert ('<p class="rb-lead">Edition 1.0 (First), published by Test on 2020-01-01: 1 term. '
            f'{PERMALINKS}</p>\n<p>A rulebook whose first edition is published and locked.</p>') in home
    assert "official rules glossary" not in home
    assert "rb-banner" not in home
    assert ('<h2 id="proposals">Proposals</h2>\n'
            '<p>Drafts posted for feedback, not official rulings; each is a preview, never the default.</p>\n'
            '<ul class="rb-proposals">\n'
            '<li><a href="editions/2.0/">2.0: Second</a> (<a href="editions/2.0/changes/">what changed</a>)</li>\n'
            '</ul>') in home
    assert ('<p>Edition 1.0:</p>\n<ul class="rb-changed">\n'
            '<li><a href="terms/cure/">Cure</a> (<a href="terms/cure/history/">history</a>)</li>\n</ul>') in home


def test_the_home_page_lists_every_draft_newest_first(built):
    home = article(built["drafts"], "")
    assert ('<ul class="rb-proposals">\n'
            '<li><a href="editions/3.0/">3.0: Third</a> (<a href="editions/3.0/changes/">what changed</a>)</li>\n'
            '<li><a href="editions/2.0/">2.0: Second</a> (<a href="editions/2.0/changes/">what changed</a>)</li>\n'
            '</ul>') in home


def test_a_game_with_nothing_published_shows_its_latest_draft_as_a_proposal(built):
    home = article(built["new"], "")
    assert '<h1 id="home">Minimal</h1>' in home
    assert ('<p class="rb-lead">No edition has been published by Test yet. Edition v2 (Second) is a proposal: '
            f'a draft posted for feedback, not an official ruling; it has 1 term. {PERMALINKS}</p>') in home
    banner = ('<div class="admonition warning rb-banner rb-banner--draft" data-search-exclude>\n'
              '<p class="admonition-title">Proposal</p>\n'
              '<p>Edition v2 (Second) is a draft posted for feedback, not an official ruling. '
              'No edition has been published yet.</p>\n'
              '</div>')
    assert banner in home
    assert 'id="proposals"' not in home  # the draft shown is not listed again as a preview
    term = article(built["new"], "terms/cure")
    assert banner in term
    assert '<p class="rb-meta" data-search-exclude>Edition v2 (proposal) · <a href="history/">History of Cure</a></p>' \
        in term


def test_an_older_draft_of_a_new_game_points_to_the_latest_draft(built):
    page = article(built["new"], "editions/v1/terms/cure")
    assert ('<p>This is edition v1 of 2020-01-01. The current edition is <a href="../../../v2/">v2: Second</a> '
            '(a proposal: no edition has been published yet). '
            '<a href="../../../../terms/cure/">Read Cure in the current edition</a>.</p>') in page


# -- point 4: which editions the site holds, and the gaps -------------------------------------

def test_the_editions_the_site_holds_and_the_gap_between_them(built):
    held = ('<p class="rb-held" data-search-exclude>This site holds 2 editions: v1 (published 2018-01-03) and v3 (proposal).</p>\n'
            '<p class="rb-gap" data-search-exclude>Not held between v1 and v3: Versions 2 &amp; 2.1 (2019 to 2025) are not held.</p>')
    assert held in article(built["gap"], "")
    assert held in article(built["gap"], "editions")
    assert '<p class="rb-held" data-search-exclude>This site holds 2 editions: 1.0 (published 2020-01-01) and 2.0 (proposal).</p>' \
        in article(built["frozen"], "")
    assert "rb-gap" not in article(built["frozen"], "")


def test_a_page_of_the_edition_after_a_gap_says_so(built):
    page = article(built["gap"], "editions/v3/terms/cure")
    assert '<p class="rb-gap" data-search-exclude>Not held between v1 and v3: Versions 2 &amp; 2.1 (2019 to 2025) are not held.</p>' in page
    assert "rb-gap" not in article(built["gap"], "terms/cure")


def test_the_edition_page_after_a_gap_says_so(built):
    assert ('<p class="rb-gap" data-search-exclude>Not held between v1 and v3: '
            'Versions 2 &amp; 2.1 (2019 to 2025) are not held.</p>') in article(built["gap"], "editions/v3")
    assert "rb-gap" not in article(built["gap"], "editions/v1")
