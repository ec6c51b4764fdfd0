"""The built site, read as files: pages, anchors, banners, search index, reproducibility, failures."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.site.render import SITE_DIR

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
BUNDLED = ROOT / "rulebook"


def read(site: Path, url: str) -> str:
    return (site / url / "index.html").read_text(encoding="utf-8")


def search_docs(site: Path) -> list[dict]:
    return json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]


def test_term_page_has_clause_anchors_aliases_marks_and_links(sites):
    # Heal as the locked edition 5.0.0 has it (the latest edition may word it otherwise).
    html = read(sites["bundled"], "editions/5.0.0/terms/heal")
    for clause in ("removes-effects", "healable", "territory-class", "battle-resolution-discard"):
        assert f'id="{clause}"' in html and f'href="#{clause}"' in html
    assert '<span class="rb-alias">Restore abilities</span>' in html
    # The mention of Battle Resolution (links in the YAML) leads to its page.
    assert re.search(r'<a class="rb-mention" href="\.\./battle-resolution/[^"]*">Battle Resolution</a>', html)
    # "healable" came in 2012 and was last changed by the 4.0.0 proposal, which published 5.0.0 adopted:
    # a published edition never labels its clauses as proposals (issue 13 point 7).
    block = html[html.index('id="healable"'):]
    block = block[:block.index('class="rb-clause"')]
    assert "since 2012" in block and "changed in 5.0.0 (first proposed in 4.0.0-draft)" in block


def test_minimal_term_marks_and_draft_banner(sites):
    # v2 is a draft: a preview at its own path, never the default /terms/cure/ (v1, published).
    html = read(sites["minimal"], "editions/v2/terms/cure")
    assert "Proposal" in html and "is a draft posted for feedback" in html
    block = html[html.index('id="curable"'):]
    assert "since v1" in block[:600] and "changed in v2 (proposal)" in block[:600]
    block = html[html.index('id="not-in-battle"'):]
    assert "since v2 (proposal)" in block[:600] and "changed in" not in block[:600]


def test_history_marks_deletions_and_insertions(sites):
    html = read(sites["minimal"], "terms/cure/history")
    # v1: "poisoned." v2: "poisoned or paralyzed."
    assert "poisoned<ins> or paralyzed</ins>." in html
    assert "<ins>Cure cannot be used in battle.</ins>" in html
    heal = read(sites["bundled"], "terms/heal/history")
    assert heal.index('id="edition_4.0.0-draft"') < heal.index('id="edition_3.0.0"') < heal.index('id="edition_2012"')
    assert "<del>" in heal and "<ins>" in heal


def test_older_edition_readable_with_banner(build, tmp_path):
    # edition-grows: a and b both published; b is in force, a is read behind a banner.
    assert build(FIXTURES / "edition-grows", tmp_path / "site").exit_code == 0
    html = read(tmp_path / "site", "editions/a/terms/heal")
    assert ('<p>This is edition a of 2020-01-01. The current edition is <a href="../../../b/">b: Edition B</a>. '
            '<a href="../../../../terms/heal/">Read Heal in the current edition</a>.</p>') in html
    assert "A newer edition exists" not in read(tmp_path / "site", "terms/heal")


def test_what_changed_page(sites):
    html = read(sites["minimal"], "editions/v2/changes")
    assert 'id="summary"' in html and 'id="cure--curable"' in html
    assert "poisoned<ins> or paralyzed</ins>." in html
    # The situation that now decides differently, in the vocabulary's words.
    assert "The character is paralyzed." in html
    assert re.search(r"v1: <strong>no</strong>.*?v2: <strong>yes</strong>", html, re.S)


def test_print_page_breaks_per_term(sites):
    html = read(sites["bundled"], "print")
    # One per term of the latest edition, whatever the bundled rulebook holds.
    assert html.count('class="rb-print-term"') == len(load_rulebook(BUNDLED).latest.terms)
    css = (sites["bundled"] / "assets/stylesheets/rulebook.css").read_text()
    assert re.search(r"@media print\s*{\s*\.md-typeset \.rb-print-term\s*{\s*break-before: page", css)
    ids = re.findall(r' id="([^"]+)"', html)
    assert len(ids) == len(set(ids)), "anchors on the print page are unique"


def test_search_index_holds_latest_term_pages_once(sites):
    docs = search_docs(sites["bundled"])
    locations = [d["location"] for d in docs]
    assert "terms/heal/#territory-class" in locations
    assert not [loc for loc in locations if "history" in loc or loc.startswith(("editions/", "print/"))]
    assert len(locations) == len(set(locations))
    texts = [d["text"] for d in docs]
    clause = load_rulebook(BUNDLED).latest.clause_by_ref["heal#territory-class"].text
    territory = [t for t in texts if clause[:40] in t]
    assert len(territory) == 1, "each clause's text is in the index once"


def test_pages_kept_out_of_search_are_noindex(sites):
    """The search flag reaches the theme through the plugin's page metadata (there is no front matter)."""
    noindex = '<meta name="robots" content="noindex">'
    for url in ("terms/heal/history", "editions/3.0.0/terms/heal", "editions/4.0.0-draft/changes", "print", "terms"):
        assert read(sites["bundled"], url).count(noindex) == 1, url
    for url in ("terms/heal", ""):
        assert noindex not in read(sites["bundled"], url), url


def test_nav_does_not_list_every_term(sites):
    html = read(sites["bundled"], "terms/heal")
    nav = html[html.index('<nav class="md-nav md-nav--primary"'):html.index('<div class="md-content"')]
    assert "terms/heal/" not in nav and "Battle Resolution" not in nav
    assert "Terms A–Z" in nav and "5.0.0" in nav


def test_hostile_text_is_escaped_in_every_file(sites):
    site = sites["hostile"]
    for path in site.rglob("*"):
        if path.suffix not in (".html", ".json", ".xml"):
            continue
        text = path.read_text(encoding="utf-8")
        bad = ["<script>window", "<img src=x", "<img src=y", "<iframe", "<svg onload"]
        if path.suffix == ".html":  # quotes matter in HTML attributes; the index holds only text
            bad.append("onmouseover='")
        for b in bad:
            assert b not in text, f"{b!r} unescaped in {path.relative_to(site)}"
    html = read(site, "terms/script")
    assert "{{ 7 * 7 }}" in html and "**not bold**" in html and "&amp;amp;" in html
    assert "<strong>not bold" not in html and "49" not in html


def test_two_builds_are_identical(tmp_path, sites, build):
    again = tmp_path / "again"
    assert build(None, again).exit_code == 0
    first = {p.relative_to(sites["bundled"]): p.read_bytes() for p in sites["bundled"].rglob("*") if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()}
    assert first.keys() == second.keys()
    assert [k for k in first if first[k] != second[k]] == []


def test_failed_build_leaves_the_previous_site(tmp_path, build):
    out = tmp_path / "site"
    assert build(FIXTURES / "minimal", out).exit_code == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    broken = FIXTURES / "broken" / "many-problems-in-many-files"
    result = build(broken, out)
    assert result.exit_code == 1
    assert re.search(r"\.yaml:\d+:\d+: error: ", result.stderr)
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"], "no staging folder left behind"


def test_plain_mkdocs_build_uses_the_plugin(tmp_path):
    out = tmp_path / "public"
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(out)], cwd=ROOT,
                         capture_output=True, text=True, env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr
    assert (out / "terms" / "heal" / "index.html").is_file()


def test_mkdocs_build_with_bad_rulebook_prints_the_errors(tmp_path):
    config = tmp_path / "mkdocs.yml"
    config.write_text(json.dumps({
        "site_name": "x", "docs_dir": str(SITE_DIR / "docs"), "theme": {"name": "material"},
        "plugins": [{"rulebook": {"rulebook": str(FIXTURES / "broken" / "many-problems-in-many-files")}}]}))
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config),
                          "-d", str(tmp_path / "out")], capture_output=True, text=True)
    assert run.returncode == 1
    assert "the rulebook has problems, nothing was built" in run.stderr
    assert re.search(r"\.yaml:\d+:\d+: error: ", run.stderr)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("site_dir", ["book", "book/editions", "."], ids=["rulebook", "inside", "containing"])
def test_plain_mkdocs_build_refuses_a_site_dir_over_the_rulebook(tmp_path, site_dir):
    # mkdocs empties site_dir before it builds: 'site_dir: book/editions' deleted every term file.
    import shutil

    shutil.copytree(FIXTURES / "minimal", tmp_path / "book")
    before = sorted(p.relative_to(tmp_path) for p in (tmp_path / "book").rglob("*"))
    (tmp_path / "mkdocs.yml").write_text(json.dumps({
        "site_name": "x", "docs_dir": str(SITE_DIR / "docs"), "site_dir": site_dir,
        "theme": {"name": "material"}, "plugins": [{"rulebook": {"rulebook": "book"}}]}))
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=tmp_path, capture_output=True,
                         text=True, env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin",
                                         "PYTHONPATH": str(ROOT)}, timeout=120)
    assert run.returncode == 1
    relation = {"book": "is", "book/editions": "is inside", ".": "contains"}[site_dir]
    assert (f"site_dir '{tmp_path / site_dir if site_dir != '.' else tmp_path}' {relation} the rulebook folder "
            f"'{tmp_path / 'book'}'; mkdocs empties site_dir before it builds: choose another site_dir") \
        in run.stderr
    assert sorted(p.relative_to(tmp_path) for p in (tmp_path / "book").rglob("*")) == before


def test_table_of_contents_lists_the_sections(sites):
    # Material shows the children of a level-1 entry, so sections must be level 2 to be listed.
    # (Heal as the locked edition 5.0.0 has it: the latest edition may have other sections.)
    html = read(sites["bundled"], "editions/5.0.0/terms/heal")
    toc = html[html.index('aria-label="Table of contents"'):html.index('data-md-component="content"')]
    titles = re.findall(r'<a href="#section_[^"]+" class="md-nav__link">\s*<span class="md-ellipsis">\s*([^<]+?)\s*</span>', toc)
    assert titles == ["Definition", "How to Play", "Default Conditions", "Special Conditions", "Clarifications"]


def test_anchors_are_unique_on_every_page_whatever_the_ids(tmp_path, build):
    # A clause called "term" took the anchor of the term page's heading, and a term
    # called "glossary" that of the print page's: links to them led to the top.
    import shutil

    book = tmp_path / "book"
    shutil.copytree(FIXTURES / "minimal", book)
    (book / "editions" / "v1" / "glossary.yaml").write_text(
        "id: glossary\nname: Glossary\nsections:\n  - key: definition\n    kind: definition\n    clauses:\n"
        "      - id: term\n        text: A term is an entry of the glossary.\n"
        "      - id: home\n        text: The home page lists the terms.\n")
    result = build(book, tmp_path / "site")
    assert result.exit_code == 0, result.output
    pages = sorted((tmp_path / "site").rglob("*.html"))
    assert len(pages) > 10
    for page in pages:
        ids = re.findall(r' id="([^"]+)"', page.read_text(encoding="utf-8"))
        assert sorted(i for i in set(ids) if ids.count(i) > 1) == [], page
    term = read(tmp_path / "site", "terms/glossary")
    assert '<h3 id="term" class="rb-cite">' in term


def test_every_correction_of_the_bundled_rulebook_is_on_its_clause(sites):
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.site import pages as P

    book = load_rulebook(ROOT / "rulebook")
    labels = {"transcription": "Transcription corrected", "erratum": "Rule changed by the publisher"}
    corrections = read(sites["bundled"], "corrections")
    for number, c in enumerate(book.corrections, 1):
        assert f'id="correction-{number}"' in corrections
        for ref in c.changed:
            if ref.startswith(("fact:", "constraint:")):  # the vocabulary has no page: the log names it, as there
                assert f"<code>{ref}</code>" in corrections
                assert f"<code>{ref}</code> (no longer in the edition)" not in corrections
                continue
            term, _, clause = ref.partition("#")
            page = read(sites["bundled"], P.edition_term_uri(book, c.edition, term)[:-len("/index.md")])
            block = page[page.index(f'id="{clause}"'):] if clause else page
            block = block[:block.index('<div class="rb-clause">')] if '<div class="rb-clause">' in block else block
            assert f"{labels[c.kind]} on {c.date}:" in block
