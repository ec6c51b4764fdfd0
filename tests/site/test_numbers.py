"""Printed numbers on the site (issue 23.3): each clause heading shows the number as the publisher prints
it, ``#702.1`` lands on the clause, the page's table of contents lists the numbered rules, a long section
folds each rule's subrules, the search index titles each clause by its number, and What changed, history
and the printout cite numbers, What changed in document order. Reads the built HTML of
tests/fixtures/site/numbered (702 has 32 clauses; 400 Zones and 903 Commander are ids in the other order)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

NUMBERED = Path(__file__).resolve().parents[1] / "fixtures" / "site" / "numbered"


@pytest.fixture(scope="module")
def site(tmp_path_factory, build) -> Path:
    out = tmp_path_factory.mktemp("numbered") / "site"
    result = build(NUMBERED, out)
    assert result.exit_code == 0, result.output
    return out


def _page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.ids += [v for k, v in attrs if k == "id"]


def _ids(html: str) -> list[str]:
    parser = _Ids()
    parser.feed(html)
    return parser.ids


def test_a_clause_heading_shows_its_number_as_printed_and_the_number_is_an_anchor(site):
    html = _page(site, "terms/keyword-abilities")
    assert ('<div class="rb-clause" id="702.1"><h3 id="keyword-abilities-general" class="rb-cite">'
            '<span class="rb-number">702.1.</span> <a class="headerlink" href="#keyword-abilities-general" '
            'title="Link to this clause">702. Keyword Abilities, Definition, 702.1</a></h3>') in html
    # an unnumbered clause keeps its heading as it was, with no number anchor
    assert ('<div class="rb-clause"><h3 id="rule-15-example" class="rb-cite"> <a class="headerlink" '
            'href="#rule-15-example" title="Link to this clause">702. Keyword Abilities, Definition, 702.15a, example</a>'
            '</h3>') in html


def test_every_id_on_a_numbered_page_is_unique_and_has_no_space(site):
    for path in ("terms/keyword-abilities", "print", "terms/zones", "editions/v2/changes"):
        ids = _ids(_page(site, path))
        assert [i for i in ids if ids.count(i) > 1 or not i or re.search(r"\s", i)] == [], path
    assert {"702.1", "702.1a", "702.15a", "702.16"} <= set(_ids(_page(site, "terms/keyword-abilities")))


def test_the_table_of_contents_lists_each_numbered_rule_under_its_section(site):
    html = _page(site, "terms/keyword-abilities")
    toc = html[html.index('md-nav--secondary'):]
    toc = toc[:toc.index("</nav>", toc.index('md-nav__list'))]
    entries = re.findall(r'<a href="#([^"]+)" class="md-nav__link">\s*<span class="md-ellipsis">\s*(.*?)\s*</span>', toc)
    assert entries[:3] == [("section_definition", "Definition"),
                           ("keyword-abilities-general", "702.1. Most abilities describe exactly what they do in…"),
                           ("rule-2", "702.2. Keyword 2 is a keyword ability.")]
    assert [e[0] for e in entries][-2:] == ["rule-15", "rule-16"]
    assert len(entries) == 1 + 16  # the section and its 16 rules, not their subrules


def test_a_long_section_folds_each_rules_subrules_and_a_short_one_does_not(site):
    html = _page(site, "terms/keyword-abilities")
    assert html.count('<details class="rb-rule-group">') == 15  # 702.1 to 702.15; 702.16 has nothing under it
    folded = html[html.index('<summary data-search-exclude>2 more under 702.15</summary>'):]
    folded = folded[:folded.index("</details>")]
    assert re.findall(r'<h3 id="([^"]+)"', folded) == ["rule-15-a", "rule-15-example"]
    assert "<details" not in _page(site, "terms/zones")
    assert "<details" not in _page(site, "print")  # the printout shows every clause


def test_the_search_index_titles_each_numbered_clause_by_its_number(site):
    docs = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    titles = {d["location"]: d["title"] for d in docs}
    assert (titles["terms/keyword-abilities/#keyword-abilities-general"], titles["terms/keyword-abilities/#rule-2-a"],
            titles["terms/keyword-abilities/#rule-15-example"]) == ("702.1.", "702.2a", "")
    assert not any("more under" in d["text"] for d in docs)


def test_the_printout_shows_numbers_with_anchors_prefixed_by_the_term(site):
    html = _page(site, "print")
    assert ('<div class="rb-clause" id="zones--400.1a"><h4 id="zones--zones-hand" class="rb-cite">'
            '<span class="rb-number">400.1a</span> ') in html


def test_history_cites_each_version_of_a_clause_by_its_number(site):
    html = _page(site, "terms/commander/history")
    assert ('<h3 id="edition_v2-commander-deck" class="rb-cite"><span class="rb-number">903.2.</span> '
            '<a class="headerlink" href="#edition_v2-commander-deck">903. Commander, Definition, 903.2</a></h3>') in html


def test_what_changed_cites_numbers_and_lists_terms_in_document_order(site):
    html = _page(site, "editions/v2/changes")
    assert re.findall(r'<h2 id="term-([^"]+)"', html) == ["zones", "commander", "block-alone"]
    assert re.findall(r'<li><strong>Rule changed</strong> \(([^)]*)\)', html) == [
        "400. Zones, Definition, 400.1a", "903. Commander, Definition, 903.2", "Block Alone, Definition, ¶1"]
    assert re.findall(r'<td><a href="#[^"]+">([^<]*)</a></td>', html) == [
        "400.1a zones-hand", "903.2 commander-deck", "blocks-alone"]
    assert ('<h3 id="zones--zones-hand" class="rb-cite"><span class="rb-number">400.1a</span> '
            '<a class="headerlink" href="#zones--zones-hand">zones#zones-hand</a>') in html


def test_a_hostile_number_is_escaped_in_the_heading_and_gives_no_anchor():
    # The schema refuses such a number; a model made without check must still render safely.
    from dataclasses import replace

    from rulebook_compiler.build import check
    from rulebook_compiler.site import pages as P
    from rulebook_compiler.site.render import Renderer

    book, problems = check(Path(__file__).resolve().parents[1] / "fixtures" / "clause-number")
    assert problems == []
    term = book.latest.term_by_id["general"]
    bad = replace(term.clauses[0], number='<img src=x onerror="alert(1)">')
    term = replace(term, sections=(replace(term.sections[0], clauses=(bad,) + term.clauses[1:]),))
    book = replace(book, editions=(replace(book.latest, terms=(term,)),))
    spec = next(s for s in P.plan(book) if s.kind == P.TERM)
    html = Renderer(book).render(spec, lambda uri: uri).html
    assert ('<div class="rb-clause"><h3 id="rules-apply" class="rb-cite"><span class="rb-number">'
            '&lt;img src=x onerror=&#34;alert(1)&#34;&gt;</span> <a class="headerlink"') in html
    assert "<img" not in html
