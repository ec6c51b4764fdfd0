"""The site for players in a real Chromium (issue 13 point 7): no request leaves the site, every page
type passes axe-core, tables look like Material's, search ranks terms first, the printout cites clauses,
and a long "What changed" page folds per term."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ADOPTED = ROOT / "tests" / "fixtures" / "site" / "proposal-adopted"
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
SEARCH = "input.md-search__input"

# One page of every kind the site has (rulebook_compiler.site.pages), in the fixture's site.
PAGES = {"home": "", "az": "terms/", "term": "terms/cure/", "history": "terms/cure/history/",
         "editions": "editions/", "edition": "editions/p3/", "changes": "editions/d2/changes/",
         "edition-term": "editions/d2/terms/cure/", "print": "print/", "corrections": "corrections/",
         "question": "terms/cure/ask/cure.usable/"}


@pytest.fixture(scope="module")
def adopted(tmp_path_factory, build, serve) -> str:
    out = tmp_path_factory.mktemp("adopted-browser") / "site"
    result = build(ADOPTED, out)
    assert result.exit_code == 0, result.output
    return serve(out)


def test_the_pages_cover_every_kind_of_page():
    from rulebook_compiler.build import check
    from rulebook_compiler.site import pages as P

    book, _ = check(ADOPTED)
    assert {s.kind for s in P.plan(book)} == set(PAGES)
    assert {s.kind: s.src_uri.removesuffix("index.md") for s in P.plan(book)
            if s.src_uri.removesuffix("index.md") in PAGES.values()} == PAGES


def test_no_request_leaves_the_site(page, adopted):
    """Fonts, scripts, images: every request of every kind of page goes to the site's own server."""
    away: list[str] = []

    def route(r):
        if r.request.url.startswith(adopted):
            r.continue_()
        else:
            away.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    for kind, url in PAGES.items():
        page.goto(adopted + url)
        page.wait_for_load_state("networkidle")
    assert away == []


@pytest.mark.parametrize("kind", list(PAGES))
def test_no_serious_or_critical_accessibility_violation(page, adopted, kind):
    assert AXE.is_file(), "axe-core is not installed: npm ci --prefix tests/site (the README's test command does it)"
    page.goto(adopted + PAGES[kind])
    page.wait_for_load_state("networkidle")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    found = sorted(f"{v['id']} ({v['impact']}): {n['target']}" for v in result["violations"]
                   if v["impact"] in ("serious", "critical") for n in v["nodes"])
    assert found == []


TABLES = """() => [...document.querySelectorAll('article table')].map(t => [
    t.closest('.md-typeset__table') !== null,
    getComputedStyle(t.querySelector('td')).borderTopStyle])"""


@pytest.mark.parametrize("kind", ["term", "editions", "edition", "changes"])
def test_every_table_is_styled_as_material_styles_tables(page, adopted, kind):
    """Material styles (and wraps, to scroll on a phone) the tables of Markdown, those without a class."""
    page.goto(adopted + PAGES[kind])
    page.wait_for_load_state("networkidle")
    tables = page.evaluate(TABLES)
    assert tables != [] and tables == [[True, "solid"]] * len(tables)


def test_search_ranks_the_term_and_its_clauses_above_the_home_page(page, adopted):
    """The home page's reader notes say "restored abilities"; the term's alias is "Restore abilities"."""
    page.goto(adopted)
    page.locator(SEARCH).click()
    page.locator(SEARCH).fill("restore abilities")
    page.locator(SEARCH).press("End")  # one query, the whole one (test_browser.search says why)
    page.wait_for_selector(".md-search-result__item a.md-search-result__link")
    results = page.eval_on_selector_all(".md-search-result__item a.md-search-result__link",
                                        "els => els.map(e => e.getAttribute('href').split('?')[0])")
    pages = [url.removeprefix(adopted).split("#")[0] for url in results]
    assert pages[0] == "terms/cure/"
    if "" in pages:  # the home page, if it matches at all, comes after every entry of the term
        assert pages.index("") > max(i for i, p in enumerate(pages) if p == "terms/cure/")


PRINTED = """() => {
    const cite = document.querySelector('.rb-cite .headerlink');
    const size = sel => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize);
    return {cite: getComputedStyle(cite).display !== 'none' ? cite.innerText : null,
            text: size('.rb-text'), body: size('article.md-content__inner'), note: size('.rb-note'),
            since: size('.rb-since')};
}"""


def test_the_printout_cites_clauses_and_prints_rule_text_at_body_size(page, adopted):
    page.goto(adopted + PAGES["print"])
    page.emulate_media(media="print")
    printed = page.evaluate(PRINTED)
    assert printed["cite"] == "Cure, Definition, ¶1"  # as a judge cites it: the first paragraph (rulebook_compiler.citations)
    assert (printed["text"] == printed["body"], printed["note"] < printed["text"], printed["since"] < printed["text"]) \
        == (True, True, True), printed


def test_a_what_changed_page_folds_per_term_and_a_summary_link_opens_its_term(page, adopted):
    page.goto(adopted + PAGES["changes"])
    folds = page.eval_on_selector_all("details.rb-term-changes",
                                      "els => els.map(e => [e.querySelector('summary h2').id, e.open])")
    assert folds == [["term-cure", False]]
    assert page.locator("#cure--proposed").is_visible() is False
    page.click(".rb-summary--list a[href='#cure--proposed']")
    page.wait_for_url("**#cure--proposed")
    assert page.locator("#cure--proposed").is_visible()
