"""The 'What changed' page between editions of different vocabularies says which situations
an edition could not describe, in the vocabulary's own sentences (tests/fixtures/vocab)."""

from __future__ import annotations

from html import escape

from compiler.site import pages as P

from .conftest import FIXTURES


def test_what_changed_says_which_edition_could_not_describe_a_situation(tmp_path, build):
    site = tmp_path / "site"
    assert build(FIXTURES / "vocab", site).exit_code == 0
    html = (site / P.changes_uri("b").replace(".md", ".html")).read_text(encoding="utf-8")
    for sentence in (
            "Edition a could not describe this situation: it does not know the fact “The character is diseased”.",
            "Edition a could not describe this situation: it does not know the value end of "
            "“The phase of the turn, the end phase included”."):
        assert f'<p class="rb-unknown">{escape(sentence)}</p>' in html
    # Edition a's own page of changes (from origin, one vocabulary) has none.
    assert "rb-unknown" not in (site / P.changes_uri("a").replace(".md", ".html")).read_text(encoding="utf-8")
