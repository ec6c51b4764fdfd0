"""Per-term entry metadata ("Last Updated: 3/13/2026 (v11.0.0) / Released: 8/10/2015 (v3.0.0)"),
checked against what the editions show (tests/fixtures/metadata).

Editions a1, a2, a3 carry the publisher's version labels 1.0.0, 2.0.0, 3.0.0.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.export import edition_json

METADATA = Path(__file__).resolve().parent / "fixtures" / "metadata"


@pytest.fixture(scope="module")
def book():
    return load_rulebook(METADATA / "declared-as-shown")


def test_metadata_and_version_labels_are_in_the_model(book):
    a2 = book.edition("a2")
    assert [(e.id, e.version, e.label) for e in book.editions] == [
        ("a1", "1.0.0", "1.0.0"), ("a2", "2.0.0", "2.0.0"), ("a3", "3.0.0", "3.0.0")]
    heal = a2.term_by_id["heal"]
    assert (heal.updated.date, heal.updated.version, heal.released.date, heal.released.version) == (
        "2018-01-03", "2.0.0", "2015-08-10", "1.0.0")
    assert (heal.updated.loc.line, heal.updated.loc.col) == (3, 38)
    assert book.edition("a1").term_by_id["heal"].updated is None


def test_export_carries_metadata_only_where_declared(book):
    data = edition_json(book, book.edition("a2"))
    assert data["edition"]["version"] == "2.0.0"
    terms = {t["id"]: t for t in data["terms"]}
    assert terms["heal"]["updated"] == {"date": "2018-01-03", "version": "2.0.0"}
    assert terms["heal"]["released"] == {"date": "2015-08-10", "version": "1.0.0"}
    assert list(terms["band"]) == ["id", "name", "aliases", "notes", "editor_notes", "from_edition", "decisions",
                                   "sections", "clauses"]


def test_the_term_page_shows_the_metadata(book):
    from rulebook_compiler.site import pages as P
    from rulebook_compiler.site.render import Renderer

    spec = next(s for s in P.plan(book) if s.kind == P.TERM and s.term == "band")
    html = Renderer(book).render(spec, lambda uri: uri).html
    assert ('<p class="rb-dates">Last updated: 2026-03-13 (v3.0.0) · Released: 2012-10-10 (v0.9.0)</p>\n'
            in html)
    spec = next(s for s in P.plan(book) if s.kind == P.EDITION_TERM and s.term == "band" and s.edition == "a1")
    assert "rb-dates" not in Renderer(book).render(spec, lambda uri: uri).html


def test_metadata_that_contradicts_the_editions(problems_in):
    where = "metadata-contradicts-editions/editions"
    assert problems_in(METADATA, "metadata-contradicts-editions") == [
        f"{where}/a1/heal.yaml:3:38: error: term 'heal' is declared last updated in version 3.0.0 "
        "(edition 'a3'), later than edition 'a1' (version 1.0.0), whose file declares it\n"
        "  hint: a term file declares what is true of its own edition; correct 'updated'",
        f"{where}/a1/heal.yaml:4:39: error: term 'heal' is declared released in version 2.0.0 (edition 'a2'), "
        "but edition 'a1' (version 1.0.0) already has it\n"
        "  hint: a term is released in the first edition that has it; correct 'released'",
        f"{where}/a1/look.yaml:4:18: error: term 'look' is declared released on 2020-01-01, after it was last "
        "updated on 2019-05-01",
        f"{where}/a2/cure.yaml:3:39: error: term 'cure' is declared released in version 1.0.0 (edition 'a1'), "
        "but that edition does not have it; it first appears in edition 'a2' (version 2.0.0)\n"
        "  hint: a term is released in the first edition that has it; correct 'released'",
        f"{where}/a2/draw.yaml:3:38: error: term 'draw' is declared last updated in version 2.0.0 "
        "(edition 'a2'), but that edition prints it as edition 'a1' (version 1.0.0) does\n"
        "  hint: an edition updates a term when it changes its name, a section's title or a clause's text; "
        "correct 'updated'",
        f"{where}/a3/search.yaml:3:38: error: term 'search' is declared last updated in version 2.0.0 "
        "(edition 'a2'), but that edition does not have it\n"
        "  hint: correct 'updated'",
        f"{where}/a3/toss.yaml:3:38: error: term 'toss' is declared last updated in version 2.0.0 "
        "(edition 'a2'), but edition 'a3' (version 3.0.0) changes it again\n"
        "  hint: an edition updates a term when it changes its name, a section's title or a clause's text; "
        "correct 'updated'"]


def test_two_editions_with_one_version_label(problems_in):
    assert problems_in(METADATA, "duplicate-version-label") == [
        "duplicate-version-label/rulebook.yaml:5:10: error: edition '1.0.0' has the version label '1.0.0', as "
        "edition 'a1' does\n"
        "  hint: an edition's version label is its 'version', else its id; give one of them another 'version'"]


def test_the_json_schema_describes_the_metadata():
    from rulebook_compiler.schema import published_schema

    schema = published_schema()["$defs"]
    for key in ("updated", "released"):
        prop = schema["term"]["properties"][key]
        assert (prop["required"], sorted(prop["properties"])) == (["version"], ["date", "version"])
        assert all("description" in p for p in [prop, *prop["properties"].values()])
    assert "description" in schema["rulebook"]["properties"]["editions"]["items"]["properties"]["version"]


def test_a_patch_declares_the_update_it_makes():
    book = load_rulebook(METADATA / "a-patch-updates-the-entry")  # a3 patches heal's clause, updated in 3.0.0
    heal = book.edition("a3").term_by_id["heal"]
    assert ((heal.updated.version, Path(heal.updated.loc.path).parts[-2:]),
            (heal.released.version, Path(heal.released.loc.path).parts[-2:])) == (
        ("3.0.0", ("a3", "heal.yaml")), ("1.0.0", ("a2", "heal.yaml")))
