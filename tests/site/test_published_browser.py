"""In Chromium: with a draft present, the default pages show the published edition (issue 24 point 3).

tests/fixtures/lock/frozen: 1.0 published, 2.0 a draft that adds Ward. The
reader who opens the site, its term page or its search sees 1.0; the draft is
read at /editions/2.0/ under its "Proposal" banner, which leads back.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

FROZEN = Path(__file__).resolve().parents[1] / "fixtures" / "lock" / "frozen"


@pytest.fixture(scope="module")
def frozen(tmp_path_factory, build, serve) -> str:
    out = tmp_path_factory.mktemp("frozen-site") / "site"
    result = build(FROZEN, out)
    assert result.exit_code == 0, result.output
    return serve(out)


def test_the_default_term_page_shows_the_published_edition(page, frozen):
    page.goto(frozen)
    assert page.locator("h1").first.inner_text() == "Frozen"
    assert page.locator(".rb-lead").inner_text().startswith("Edition 1.0 (First), published by Test on 2020-01-01: 1 term.")
    page.click(".rb-changed a >> text=Cure")
    page.wait_for_url("**/terms/cure/")
    assert page.locator(".rb-meta").first.inner_text() == "Edition 1.0 · History of Cure"
    assert page.locator(".rb-banner").count() == 0
    assert page.locator("#curable + .rb-text").inner_text() == "A character is curable if it is poisoned."


def test_the_draft_is_a_preview_that_leads_back_to_the_edition_in_force(page, frozen):
    page.goto(frozen)
    page.click(".rb-proposals a >> text=2.0: Second")
    page.wait_for_url("**/editions/2.0/")
    page.click(".rb-az a >> text=Cure")
    page.wait_for_url("**/editions/2.0/terms/cure/")
    banner = page.locator(".rb-banner--draft")
    assert banner.locator(".admonition-title").inner_text() == "Proposal"
    assert banner.locator("p >> nth=1").inner_text() == (
        "Edition 2.0 (Second) is a draft posted for feedback, not an official ruling. "
        "The edition in force is 1.0: First. Read Cure as edition 1.0 has it.")
    banner.locator("a >> text=Read Cure as edition 1.0 has it").click()
    page.wait_for_url("**/terms/cure/")
    assert page.url == frozen + "terms/cure/"


def test_search_finds_the_published_entry_not_the_drafts(page, frozen):
    page.goto(frozen)
    page.locator("input.md-search__input").click()
    page.locator("input.md-search__input").fill("ward")
    page.locator("input.md-search__input").press("End")
    page.wait_for_selector(".md-search-result__meta")
    assert page.locator(".md-search-result__meta").inner_text() == "No matching documents"
