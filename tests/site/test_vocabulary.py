"""The 'What changed' page between editions of different vocabularies says which situations
an edition could not describe, in the vocabulary's own sentences (tests/fixtures/vocab)."""

from __future__ import annotations

from html import escape

from rulebook_compiler.site import pages as P

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


def test_what_changed_lists_the_vocabulary_changes_in_its_own_sentences(tmp_path, build):
    site = tmp_path / "site"
    assert build(FIXTURES / "vocab", site).exit_code == 0
    html = (site / P.changes_uri("b").replace(".md", ".html")).read_text(encoding="utf-8")
    items = ["New fact: The character is diseased.", "No longer a fact: The character is stunned.",
             "The phase of the turn, the end phase included: new values end; was “The phase of the turn”.",
             "New constraint: Disease is resolved before the end phase.",
             "Constraint withdrawn: Only a character in battle can be stunned."]
    assert ('<h2 id="vocabulary">Vocabulary</h2>\n<ul class="rb-vocabulary">'
            + "".join(f"<li>{escape(item)}</li>" for item in items) + "</ul>") in html
    assert 'id="vocabulary"' not in (site / P.changes_uri("a").replace(".md", ".html")).read_text(encoding="utf-8")


def test_an_ordered_fact_changed_shows_its_order_on_the_site(tmp_path, build):
    site = tmp_path / "site"
    assert build(FIXTURES / "ordered-reordered", site).exit_code == 0
    html = (site / P.changes_uri("r2").replace(".md", ".html")).read_text(encoding="utf-8")
    assert ("<li>The step of battle: new values special initiative; in order declare attack, declare block, "
            "special initiative, resolve.</li>") in html
