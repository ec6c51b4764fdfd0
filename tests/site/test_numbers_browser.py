"""A printed number is a permalink in a real Chromium (issue 23.3): ``terms/X/#702.15a`` scrolls to the
clause, opening the fold that holds it. Fixture tests/fixtures/site/numbered (702 has 32 clauses)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

NUMBERED = Path(__file__).resolve().parents[1] / "fixtures" / "site" / "numbered"


@pytest.fixture(scope="module")
def numbered(tmp_path_factory, build) -> Path:
    out = tmp_path_factory.mktemp("numbered-browser") / "site"
    result = build(NUMBERED, out)
    assert result.exit_code == 0, result.output
    return out


def _in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and 0 <= box["y"] < 900


def test_a_number_in_the_address_lands_on_its_clause(page, numbered, serve):
    base = serve(numbered)
    page.goto(base + "terms/keyword-abilities/#702.14")
    assert page.locator('[id="702.14"] .rb-text').inner_text() == "Keyword 14 is a keyword ability."
    assert _in_view(page, '[id="702.14"]'), "scrolled to the clause"


def test_a_number_of_a_folded_subrule_opens_its_fold_and_lands_there(page, numbered, serve):
    base = serve(numbered)
    page.goto(base + "terms/keyword-abilities/")
    assert not page.locator('[id="702.15a"]').is_visible()  # folded under 702.15
    page.goto(base + "terms/keyword-abilities/#702.15a")
    target = page.locator('[id="702.15a"]')
    target.wait_for(state="visible")
    assert target.locator(".rb-text").inner_text() == "Keyword 15 applies on the battlefield."
    assert _in_view(page, '[id="702.15a"]'), "scrolled to the clause"


def test_searching_a_number_finds_its_clause(page, numbered, serve):
    base = serve(numbered)
    page.goto(base)
    page.locator("input.md-search__input").click()
    page.locator("input.md-search__input").fill("903.2")
    page.locator("input.md-search__input").press("End")
    page.wait_for_selector(".md-search-result__item a.md-search-result__link")
    found = page.eval_on_selector_all(".md-search-result__item a.md-search-result__link",
                                      "els => els.map(e => e.getAttribute('href'))")
    # Material adds the query (?h=903.2) before the fragment, to highlight it
    assert base + "terms/commander/#commander-deck" in [re.sub(r"\?[^#]*", "", href) for href in found]
