"""The site in a real Chromium (Debian's, through Playwright): search, history, changes, safety, phones."""

from __future__ import annotations

from pathlib import Path

import pytest

# Browser tests can be left out by name: pytest -m "not browser" (CI runs them).
pytestmark = pytest.mark.browser

HOSTILE = Path(__file__).resolve().parents[1] / "fixtures" / "site" / "hostile"
SEARCH = "input.md-search__input"


def search(page, base: str, query: str) -> list[tuple[str, bool]]:
    """Type a query on the home page; the result links in order, each with whether it matched."""
    page.goto(base)
    page.locator(SEARCH).click()
    # The whole query, then one key: Material asks its worker at each key released, so typed key by key
    # the results of a beginning of the query showed first, and a fixed wait for the last answer was too
    # short when the worker was slow. Now only the empty query (on focus) and the whole one are asked.
    page.locator(SEARCH).fill(query)
    page.locator(SEARCH).press("End")
    page.wait_for_selector(".md-search-result__item a.md-search-result__link")
    return page.eval_on_selector_all(
        ".md-search-result__item a.md-search-result__link",
        "els => els.map(e => [e.getAttribute('href'), !!e.querySelector('mark')])")


def test_alias_finds_its_term_first(page, sites, serve):
    # A fixture, not the bundled rulebook: which page ranks first depends on every other page.
    base = serve(sites["minimal"])
    results = search(page, base, "mend")
    assert results[0][0].split("?")[0] == base + "terms/cure/"
    page.click(".md-search-result__item a.md-search-result__link >> nth=0")
    page.wait_for_url("**/terms/cure/**")
    assert page.locator("h1").first.inner_text() == "Cure"


def test_phrase_finds_the_clause_and_lands_on_its_anchor(page, sites, serve):
    # A fixture, not the bundled rulebook: which clause ranks first depends on every other clause.
    # (v1's clause: the search holds the edition in force, and v2 is a draft)
    base = serve(sites["minimal"])
    results = search(page, base, "targets must be curable")
    # Material groups sections under their page; the first section that matches is the clause.
    first_match = next(href for href, matched in results if matched and "#" in href)
    assert first_match.startswith(base + "terms/cure/") and first_match.endswith("#targets")
    page.click(f".md-search-result__item a.md-search-result__link[href='{first_match}']")
    page.wait_for_url("**#targets")
    target = page.locator("#targets")
    assert target.is_visible()
    text = page.locator("#targets + .rb-text").inner_text()
    assert text == "Targets must be curable."
    box = target.bounding_box()
    assert 0 <= box["y"] < 900, "scrolled to the clause"


def test_history_shows_deletions_and_insertions(page, sites, serve):
    base = serve(sites["minimal"])
    page.goto(base + "terms/cure/history/")
    inserted = page.locator("#edition_v2 ~ .rb-clause ins").all_inner_texts()
    assert " or paralyzed" in inserted and "Cure cannot be used in battle." in inserted
    # Inserted text is underlined, deleted text struck through, whatever the colours.
    ins = page.locator("ins").first.evaluate("e => getComputedStyle(e).textDecorationLine")
    assert "underline" in ins
    heal = serve(sites["bundled"])
    page.goto(heal + "terms/heal/history/")
    deleted = page.locator("del").first
    assert deleted.is_visible()
    assert "line-through" in deleted.evaluate("e => getComputedStyle(e).textDecorationLine")


def test_what_changed_page(page, sites, serve):
    base = serve(sites["bundled"])
    page.goto(base + "editions/4.0.0-draft/changes/")
    assert page.locator("h1").first.inner_text() == "What changed in 4.0.0-draft"
    assert page.locator(".rb-summary table").first.is_visible()
    # Each term's changes are folded (issue 13 point 7): the summary's link opens Heal's.
    page.click(".rb-summary--list a[href='#heal--healable']")
    page.wait_for_url("**#heal--healable")
    healable = page.locator("#heal--healable").locator("xpath=..")
    assert healable.locator("del").count() and healable.locator("ins").count()
    # A situation in words from the vocabulary, with the answers before and after.
    assert "The character is being discarded now" in healable.inner_text()


# Whatever could run script later (a hover, a focus, a click): handler attributes,
# autofocus, javascript: URLs, frames, and scripts that name the fixture's flag.
ACTIVE = """() => [...document.querySelectorAll('*')].flatMap(e => [
    ...[...e.attributes].filter(a => a.name.startsWith('on') || a.name === 'autofocus'
        || (['href', 'src', 'action', 'formaction'].includes(a.name)
            && a.value.trim().toLowerCase().startsWith('javascript:'))).map(a => e.tagName + ' ' + a.name),
    ...(e.tagName === 'IFRAME' || (e.tagName === 'SCRIPT' && e.type !== 'application/json'
                                   && e.textContent.includes('__pwned'))
        ? [e.tagName] : [])])"""
# a question page's data (rulebook_compiler.site.questions) is JSON, which never runs: the payload in it is text



def test_no_hostile_script_runs_on_any_page(page, sites, serve):
    """Every page of the hostile site, each field's payload setting window.__pwned or opening a dialog."""
    from rulebook_compiler.build import check
    from rulebook_compiler.site import pages as P

    book, _ = check(HOSTILE)
    base = serve(sites["hostile"])
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    specs = P.plan(book)
    assert {s.kind for s in specs} == {P.HOME, P.AZ, P.TERM, P.HISTORY, P.EDITIONS, P.EDITION, P.CHANGES,
                                       P.EDITION_TERM, P.PRINT, P.QUESTION}
    for spec in specs:
        url = spec.src_uri.removesuffix("index.md")
        page.goto(base + url)
        page.wait_for_load_state("load")
        assert page.evaluate("window.__pwned") is None, url
        assert page.evaluate(ACTIVE) == [], url
        # The title element holds the titles as text, </title> and all.
        assert page.title() == f"{spec.title} - {book.title}", url
    page.goto(base + "no-such-page/")  # the 404 page carries the site name too
    assert page.evaluate("window.__pwned") is None and page.evaluate(ACTIVE) == []
    # The draft v2's words (its preview: terms/script/ is v1's, the edition in force, with payload 'text')
    page.goto(base + "editions/v2/terms/script/")
    text = page.locator("#raw-html + .rb-text").inner_text()
    assert text.startswith("<script>window.__pwned = 'text2'</script><img src=y")
    md = page.locator("#markdown + .rb-text").inner_text()
    assert md.startswith("# Not a heading **not bold** [not a link](javascript:")
    assert "{{ 7 * 7 }}" in md and "&amp;" in md
    term = book.latest.term_by_id["script"]
    assert page.locator("h1").first.inner_text() == term.name
    named = next(s for s in term.sections if s.key == "named")
    assert page.locator("#section_named").inner_text() == named.title
    assert page.locator(".md-header__button.md-logo").get_attribute("aria-label") == book.title
    page.goto(base + "editions/v2/terms/other/")
    see = book.latest.term_by_id["other"].clauses[1].links[1].phrase
    assert page.locator("#see-also ~ .rb-see a").inner_text() == see
    # Search shows the hostile text as text too.
    search(page, base, "hostile marker")
    assert page.evaluate("window.__pwned") is None
    assert "<script>" in page.locator(".md-search-result").inner_text()
    assert page.evaluate(ACTIVE) == []
    assert dialogs == []


@pytest.mark.parametrize("url", ["terms/heal/", "terms/heal/history/", "editions/4.0.0-draft/changes/",
                                 "", "terms/", "editions/"])
def test_no_horizontal_scroll_at_phone_width(browser, sites, serve, url):
    base = serve(sites["bundled"])
    context = browser.new_context(viewport={"width": 375, "height": 800}, device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto(base + url)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"{url}: page is {width}px wide"
    finally:
        context.close()
