"""Untrusted text on the built site: exactly escaped wherever it lands.

The hostile fixture (tests/fixtures/site/hostile) puts quotes, tags, ``</title>``,
Jinja2 and Markdown syntax, ``javascript:`` links and an emoji in every free-text
field. mkdocs-material renders config values and titles without autoescaping
(some through ``striptags``), so these tests read the bytes where Material and
our templates put each field.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import jinja2
import pytest
import yaml
from markupsafe import Markup, escape

from rulebook_compiler.build import check
from rulebook_compiler.site import pages as P
from rulebook_compiler.site.config import default_config
from rulebook_compiler.site.render import TEMPLATES_DIR, Renderer

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
HOSTILE = FIXTURES / "site" / "hostile"

TITLE = ("Hostile \" autofocus onfocus=\"window.__pwned='title-attr'\" x=\" ' onfocus='alert(1)' "
         "</title><script>window.__pwned='title'</script> {{ 7 * 7 }} {% raw %} \U0001F600 "
         "[md](javascript:alert('title')) Guide")
# The title as HTML: every quote, angle bracket and ampersand escaped, the emoji as itself.
TITLE_HTML = ("Hostile &#34; autofocus onfocus=&#34;window.__pwned=&#39;title-attr&#39;&#34; x=&#34; &#39; "
              "onfocus=&#39;alert(1)&#39; &lt;/title&gt;&lt;script&gt;window.__pwned=&#39;title&#39;&lt;/script&gt; "
              "{{ 7 * 7 }} {% raw %} \U0001F600 [md](javascript:alert(&#39;title&#39;)) Guide")


@pytest.fixture(scope="module")
def book():
    model, problems = check(HOSTILE)
    assert problems == []
    return model


def read(site: Path, uri: str) -> str:
    """The built page of a planned page's src_uri."""
    return (site / uri.removesuffix("index.md") / "index.html").read_text(encoding="utf-8")


def test_the_fixture_title_is_the_one_these_tests_expect(book):
    assert book.title == TITLE
    assert str(escape(TITLE)) == TITLE_HTML


# -- mkdocs config ---------------------------------------------------------------------


def test_generated_config_reads_back_any_unicode_as_written(tmp_path):
    text = default_config(tmp_path / "r\U0001F600", TITLE)
    assert "\\ud83d" not in text.casefold() and "\U0001F600" in text
    config = yaml.safe_load(text)
    assert config["site_name"] == TITLE
    assert config["plugins"][1]["rulebook"]["rulebook"] == str((tmp_path / "r\U0001F600").resolve())


def test_site_name_is_escaped_with_quotes_in_the_logo_and_the_drawer(sites):
    html = read(sites["hostile"], P.home_uri())
    logo = (f'title="{TITLE_HTML}" class="md-header__button md-logo" aria-label="{TITLE_HTML}" '
            f'data-md-component="logo">')
    assert html.count(logo) == 1
    assert html.count(f'title="{TITLE_HTML}" class="md-nav__button md-logo" aria-label="{TITLE_HTML}"') == 1
    topic = re.findall(r'<span class="md-ellipsis">\s*(.*?)\s*</span>', html)
    assert topic[0] == TITLE_HTML, "the header's site name"


def test_every_page_title_is_escaped_in_the_title_element(sites, book):
    site = sites["hostile"]
    for spec in P.plan(book):
        titles = re.findall(r"<title>(.*?)</title>", read(site, spec.src_uri), re.S)
        assert titles == [f"{escape(spec.title)} - {TITLE_HTML}"], spec.src_uri
    assert re.findall(r"<title>(.*?)</title>", (site / "404.html").read_text(encoding="utf-8")) == [TITLE_HTML]


def test_nav_titles_are_escaped(sites, book):
    html = read(sites["hostile"], P.az_uri())
    shown = re.findall(r'<span class="md-ellipsis">\s*(.*?)\s*</span>', html, re.S)
    for edition in book.editions:
        proposal = " (proposal)" if edition.status == "draft" else ""
        assert str(escape(f"{edition.id}: {edition.title}{proposal}")) in shown, edition.id


def test_toc_and_headings_of_a_term_page_are_escaped(sites, book):
    term = book.latest.term_by_id["script"]
    section = next(s for s in term.sections if s.key == "named")
    html = read(sites["hostile"], P.term_uri("script"))
    assert f'<h1 id="page_term">{escape(term.name)}</h1>' in html
    assert f'<h2 id="section_named" data-search-exclude>{escape(section.title)}</h2>' in html
    toc = html[html.index('aria-label="Table of contents"'):]
    assert re.search(r'<a href="#section_named" class="md-nav__link">\s*<span class="md-ellipsis">\s*'
                     + re.escape(str(escape(section.title))) + r"\s*</span>", toc)
    # The header shows the page's title from the plugin, escaped once.
    assert re.search(r'<span class="md-ellipsis">\s*' + re.escape(str(escape(term.name))) + r"\s*</span>", html)


def test_see_also_phrase_is_escaped(sites, book):
    clause = next(c for c in book.latest.term_by_id["other"].clauses if c.id == "see-also")
    phrase = clause.links[1].phrase
    html = read(sites["hostile"], P.term_uri("other"))
    assert f'<p class="rb-see">See <a href="../script/">{escape(phrase)}</a> in the glossary.</p>' in html
    assert (f'<p class="rb-note" data-search-exclude><span class="rb-note__label">Note:</span> '
            f'{escape(clause.notes)}</p>') in html


def test_see_also_phrase_is_escaped_by_the_renderer(book):
    """The same check without mkdocs: a template that marks the phrase safe fails it."""
    spec = next(s for s in P.plan(book) if s.src_uri == P.term_uri("other"))
    html = Renderer(book).render(spec, lambda uri: "URL").html
    phrase = str(escape(book.latest.term_by_id["other"].clauses[1].links[1].phrase))
    assert phrase.startswith("&lt;img src=x onerror=&#34;window.__pwned=&#39;see-also&#39;&#34;&gt; &#34; autofocus")
    assert f'<p class="rb-see">See <a href="URL">{phrase}</a> in the glossary.</p>' in html


def test_sources_notes_and_publisher_are_escaped(sites, book):
    v2 = book.edition_by_id["v2"]
    html = read(sites["hostile"], P.edition_uri("v2"))
    assert "<tr><th>Sources</th>" not in html  # the editors' provenance: shown with their notes only
    spec = next(s for s in P.plan(book) if s.src_uri == P.edition_uri("v2"))
    editors = Renderer(book, show_editor_notes=True).render(spec, lambda uri: "URL").html
    assert f"<tr><th>Sources</th><td><code>{escape(v2.sources[0])}</code></td></tr>" in editors
    assert f'<h1 id="edition">{escape(v2.title)}</h1>' in html
    v1 = read(sites["hostile"], P.edition_uri("v1"))
    assert f'<p class="rb-note">{escape(book.edition_by_id["v1"].notes)}</p>' in v1
    home = read(sites["hostile"], P.home_uri())
    assert f"published by {escape(book.publisher)} on 2020-01-01: " in home
    assert f"<p>{escape(book.notes)}</p>" in home


def test_what_changed_words_are_escaped(sites, book):
    """The decision's meaning and the vocabulary's sentences, in the situation that now decides otherwise."""
    html = read(sites["hostile"], P.changes_uri("v2"))
    question = book.edition_by_id["v2"].decisions["script.may"].meaning
    fact = book.edition_by_id["v2"].vocabulary.by_name["poisoned"].meaning
    assert f"<p><strong>{escape(question)}</strong> <code>script.may</code>: " in html
    assert f"<ul><li>{escape(fact)}</li></ul>" in html


def test_redline_escapes_quotes(sites):
    html = read(sites["hostile"], P.history_uri("script"))
    assert ('<p class="rb-text rb-redline">&#34;&gt;&lt;script&gt;window.__pwned=&#39;attr&#39;&lt;/script&gt;'
            "&#39; onmouseover=&#39;window.__pwned=1</p>") in html


class _Active(HTMLParser):
    """What in a page could run script: handlers, autofocus, javascript: URLs, scripts naming __pwned."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self._in_script = tag == "script"
        # a question page's data (rulebook_compiler.site.questions): JSON that never runs, and holds no '<' to end it
        self._data = tag == "script" and ("type", "application/json") in attrs
        for name, value in attrs:
            if name.startswith("on") or name == "autofocus" or tag == "iframe":
                self.found.append(f"<{tag} {name}>")
            elif name in ("href", "src", "action", "formaction") and (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}={value}>")

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script and getattr(self, "_data", False):
            import json

            json.loads(data)  # data, whole: the element was not ended early
            if "<" in data:
                self.found.append(f"<script type=application/json> holding '<': {data[:60]}")
        elif self._in_script and "__pwned" in data:
            self.found.append(f"<script>{data}")


def test_no_page_holds_an_event_handler_or_javascript_link(sites, book):
    pages = sorted(sites["hostile"].rglob("*.html"))
    assert len(pages) == len(P.plan(book)) + 1  # every planned page, and 404.html
    for path in pages:
        parser = _Active()
        parser.feed(path.read_text(encoding="utf-8"))
        parser.close()
        assert parser.found == [], path


# -- the templates themselves ----------------------------------------------------------


def test_templates_mark_nothing_safe():
    """Only Python builds markup (markupsafe); no template may switch escaping off."""
    env = jinja2.Environment(autoescape=True)
    for folder in (TEMPLATES_DIR, TEMPLATES_DIR.parent / "overrides"):
        for path in sorted(folder.glob("*.html")):
            tree = env.parse(path.read_text(encoding="utf-8"))
            filters = {f.name for f in tree.find_all(jinja2.nodes.Filter)}
            assert filters & {"safe", "forceescape"} == set(), path.name
            assert [n for n in tree.find_all(jinja2.nodes.ScopedEvalContextModifier)] == [], path.name
            names = {n.name for n in tree.find_all(jinja2.nodes.Name)}
            assert "Markup" not in names, path.name


def test_striptags_in_the_theme_keeps_text_escaped():
    """Material prints ``x | striptags`` raw; Jinja2's striptags un-escapes entities into markup."""
    from rulebook_compiler.site.plugin import RulebookPlugin

    env = jinja2.Environment()
    RulebookPlugin().on_env(env, config=None, files=None)
    title = Markup(escape("</title><script>x</script> & <b>"))
    template = env.from_string("<title>{{ t | striptags }}</title>|{{ t | striptags | e }}")
    assert template.render(t=title) == ("<title>&lt;/title&gt;&lt;script&gt;x&lt;/script&gt; &amp; &lt;b&gt;</title>"
                                        "|&lt;/title&gt;&lt;script&gt;x&lt;/script&gt; &amp; &lt;b&gt;")
    assert env.from_string("{{ t | striptags }}").render(t="a <i>b</i>  c") == "a b c"


# -- the emoji build -----------------------------------------------------------------------


def test_build_with_an_emoji_title_completes(tmp_path):
    rulebook = tmp_path / "rulebook"
    shutil.copytree(FIXTURES / "minimal", rulebook)
    main = rulebook / "rulebook.yaml"
    text = main.read_text(encoding="utf-8")
    title = re.search(r"^title: .*$", text, re.M).group(0)
    main.write_text(text.replace(title, 'title: "Cards \U0001F600 & \\"friends\\""'), encoding="utf-8")
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "rulebook_compiler", "build", "--rulebook", str(rulebook), "--out", str(out)],
                         cwd=tmp_path, capture_output=True, text=True, encoding="utf-8",
                         env={**os.environ, "PYTHONPATH": str(ROOT), "NO_MKDOCS_2_WARNING": "1"}, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    assert run.stdout.startswith(f"Built the glossary in {out}/.")
    home = (out / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<title>(.*?)</title>", home) == ["Cards \U0001F600 &amp; &#34;friends&#34; - "
                                                         "Cards \U0001F600 &amp; &#34;friends&#34;"]
