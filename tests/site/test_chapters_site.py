"""The guide's chapters are the site's navigation, its chapter pages, and the printout's order (issue 24).

Fixture tests/fixtures/chapters: v1 declares two chapters, Effect Listing (Wound, then Cure: not
the A–Z order) and Glossary of Terms (Bandage).
"""

from __future__ import annotations

import re

import pytest

from .conftest import FIXTURES

CHAPTERS = FIXTURES / "chapters"


@pytest.fixture(scope="module")
def site(tmp_path_factory, build):
    out = tmp_path_factory.mktemp("chapters-site") / "site"
    result = build(CHAPTERS, out)
    assert result.exit_code == 0, result.output
    return out


def read(site, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


def test_the_navigation_has_the_chapters_in_the_guides_order(site):
    html = read(site, "")
    nav = html[html.index('class="md-nav md-nav--primary"'):html.index("</nav>", html.index('class="md-nav md-nav--primary"'))]
    links = re.findall(r'href="(chapters/[^"]+)"[^>]*>\s*<span class="md-ellipsis">\s*([^<]*?)\s*</span>', nav)
    assert links == [("chapters/1-effect-listing/", "Effect Listing"), ("chapters/2-glossary-of-terms/", "Glossary of Terms")]


def test_a_chapter_page_lists_its_entries_as_printed(site):
    html = read(site, "chapters/1-effect-listing")
    assert re.findall(r'<li><a href="([^"]+)">([^<]*)</a>', html) == [
        ("../../terms/wound/", "Wound"), ("../../terms/cure/", "Cure")]
    assert "Chapter 1 of 2 in edition v1 (proposal): 2 entries, in the order the guide prints them." in html


def test_the_home_page_and_the_printout_follow_the_chapters(site):
    home = read(site, "")
    assert re.findall(r'<li><a href="chapters/[^"]+">([^<]*)</a> \(([^)]*)\)</li>', home) == [
        ("Effect Listing", "2 entries"), ("Glossary of Terms", "1 entry")]
    printout = read(site, "print")
    assert re.findall(r'<h2 class="rb-print-chapter" id="chapter-\d">([^<]*)</h2>|<article class="rb-print-term">\n<h2 id="([^"]+)"',
                      printout) == [("Effect Listing", ""), ("", "wound"), ("", "cure"), ("Glossary of Terms", ""),
                                    ("", "bandage")]
