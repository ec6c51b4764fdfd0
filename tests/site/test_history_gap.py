"""A term's history says where the rulebook does not hold the versions between two editions."""

from pathlib import Path

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.site.pages import PageSpec
from rulebook_compiler.site.render import Renderer

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "site" / "history-gap"


def _history() -> str:
    spec = PageSpec("terms/cure/history.md", "history", "History", False, term="cure")
    return Renderer(load_rulebook(FIXTURE)).render(spec, lambda uri: uri).html


def test_the_edition_after_a_gap_says_what_is_not_held():
    book = load_rulebook(FIXTURE)
    assert [e.not_held_before for e in book.editions] == [None, "Versions 2 & 2.1 (2019 to 2025) are not held."]
    html = _history()
    v3, v1 = html.split('<section class="rb-version">')[1:]
    assert '<p class="rb-gap">Not held between v1 and v3: Versions 2 &amp; 2.1 (2019 to 2025) are not held.</p>' in v3
    assert "rb-gap" not in v1
