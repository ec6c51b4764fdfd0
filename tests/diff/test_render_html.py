"""The HTML diff page: every untrusted field is escaped, in text and in attributes."""

from __future__ import annotations

import json
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main

MINIMAL = Path(__file__).resolve().parents[1] / "fixtures" / "minimal"
# Closes a double- or single-quoted attribute and opens tags; the folder names
# carry it into the side names and locations, the rule text into the redline.
HOSTILE = "\"'><script>alert(1)</script><img src=x onerror=alert(2)>"
# The only tags and attributes the renderer itself writes.
TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "table", "tr", "th", "td",
        "section", "article", "span", "code", "p", "em", "strong", "blockquote", "del", "ins", "small",
        "div", "ul", "li"}  # div/ul/li: what changed inside a clause (rulebook_compiler.diff.inside)
ATTRIBUTES = {"lang", "charset", "class", "id"}


class _Parsed(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: set[str] = set()
        self.attributes: list[tuple[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes.extend(attrs)

    def handle_data(self, data):
        self.text.append(data)


@pytest.fixture
def sides(tmp_path, monkeypatch):
    """Two rulebook folders whose names are hostile; the new one's clause text is too."""
    monkeypatch.chdir(tmp_path)
    old, new = "old" + HOSTILE, "new" + HOSTILE
    shutil.copytree(MINIMAL, old)
    shutil.copytree(MINIMAL, new)
    path = Path(new) / "editions" / "v2" / "cure.yaml"
    path.write_text(path.read_text().replace("text: Cure cannot be used in battle.",
                                             "text: " + json.dumps("Cure cannot be used in battle. " + HOSTILE)))
    return old, new


def test_no_untrusted_field_becomes_markup(sides):
    old, new = sides
    result = CliRunner().invoke(main, ["diff", old, new, "--rulebook", old, "--format", "html"],
                                catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    page = _Parsed()
    page.feed(result.stdout)
    assert page.tags <= TAGS, page.tags - TAGS
    assert {name for name, _ in page.attributes} <= ATTRIBUTES
    # An attribute value never holds what came from a field (ids are computed).
    assert all(value is None or "<" not in value for _, value in page.attributes)
    text = "".join(page.text)
    # Each hostile string reads back as text, whole: as a side name, in a location, in the redline.
    assert f"Rulebook changes: {old} (v2) → {new} (v2)" in text
    assert f"{new}/editions/v2/cure.yaml:" in text
    assert f"Cure cannot be used in battle. {HOSTILE}" in text
    # the redline is escaped as every other field of the page is, quotes included
    assert ('<blockquote class="redline">Cure cannot be used in battle.<ins> &#34;&#39;&gt;&lt;script&gt;'
            "alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;</ins></blockquote>") in result.stdout.splitlines()


def test_fields_are_escaped_with_quotes():
    from rulebook_compiler.diff.render_html import render
    from rulebook_compiler.diff.result import DiffResult, SideInfo

    info = SideInfo(HOSTILE, "folder", "v1", "", None, "draft", None)
    out = render(DiffResult(info, info, ()))
    assert ("<h1>Rulebook changes: &#34;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x "
            "onerror=alert(2)&gt; (v1) → &#34;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x "
            "onerror=alert(2)&gt; (v1)</h1>") in out.splitlines()


def test_a_history_is_one_page_with_a_section_for_each_edition_that_changed_the_term(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "steps-added", "book")
    result = CliRunner().invoke(main, ["history", "turn", "--rulebook", "book", "--format", "html"],
                                catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    page = result.stdout
    assert page.count("<!DOCTYPE html>") == 1 and page.endswith("</body>\n</html>\n")
    assert [line for line in page.splitlines() if line.startswith(("<h1>", "<section>", "<h3>"))] == [
        "<h1>History of turn</h1>",
        "<section><h2>Introduced in v1</h2>",
        '<h3><span class="kind">added</span> <code>turn (heading)</code></h3>',
        '<h3><span class="kind">added</span> <code>turn#order</code></h3>',
        '<h3><span class="kind">added</span> <code>turn#draw</code></h3>',
        '<h3><span class="kind">added</span> <code>turn#play</code></h3>',
        "<section><h2>v1 → v2</h2>",
        '<h3><span class="kind">semantic</span> <code>turn#order</code></h3>',
    ]


def test_bidi_controls_and_invisible_characters_are_shown_not_obeyed(tmp_path, monkeypatch):
    # A browser obeys U+202E as a terminal does: the reviewer would read the text reordered.
    monkeypatch.chdir(tmp_path)
    old, new = "old", "new\u202e"
    shutil.copytree(MINIMAL, old)
    shutil.copytree(MINIMAL, new)
    path = Path(new) / "editions" / "v2" / "cure.yaml"
    path.write_text(path.read_text().replace("text: Cure cannot be used in battle.",
                                             "text: Cure can\u200b be used \u2066in\u2069 battle.\u202e"))
    result = CliRunner().invoke(main, ["diff", old, new, "--rulebook", old, "--format", "html"],
                                catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert "<h1>Rulebook changes: old → new\\u202e</h1>" in lines  # two folders: compared whole
    assert '<section class="edition"><h2>Rulebook changes: old (v2) → new\\u202e (v2)</h2>' in lines
    assert ('<blockquote class="redline">Cure <del>cannot</del><ins>can\\u200b</ins> be used '
            "<ins>\\u2066</ins>in<ins>\\u2069</ins> battle.<ins>\\u202e</ins></blockquote>") in lines
    assert not {"\u202e", "\u2066", "\u2069", "\u200b"} & set(result.stdout)
