"""rulebook_compiler.citations: a clause cited as a judge says it aloud."""

from __future__ import annotations

from pathlib import Path

from rulebook_compiler import citations
from rulebook_compiler.build import load_rulebook

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINIMAL = load_rulebook(FIXTURES / "minimal").edition_by_id["v2"]  # Cure: curable, targets, not-in-battle
NUMBERED = load_rulebook(FIXTURES / "site" / "numbered").edition_by_id["v1"]


def test_an_unnumbered_clause_is_cited_by_its_place_in_the_section():
    assert [str(citations.of_ref(MINIMAL, f"cure#{c}")) for c in ("curable", "targets", "not-in-battle")] == [
        "Cure, Definition, ¶1", "Cure, Definition, ¶2", "Cure, Definition, ¶3"]
    assert citations.of_ref(MINIMAL, "cure#targets") == citations.Citation("Cure", "Definition", "¶2")


def test_a_numbered_clause_by_its_number_and_an_example_by_the_rule_it_is_under():
    assert str(citations.of_ref(NUMBERED, "keyword-abilities#keyword-abilities-general")) == (
        "702. Keyword Abilities, Definition, 702.1")  # "702.1." printed, "702.1" said
    assert citations.of_ref(NUMBERED, "keyword-abilities#rule-15-a").label == "702.15a"
    assert citations.of_ref(NUMBERED, "keyword-abilities#rule-15-example").label == "702.15a, example"


def test_a_clause_or_term_the_edition_lacks_has_no_citation():
    assert (citations.of_ref(MINIMAL, "cure#nowhere"), citations.of_ref(MINIMAL, "ward#curable"),
            citations.of_ref(MINIMAL, "cure")) == (None, None, None)


def test_a_split_or_merge_names_its_clauses_once_per_section():
    assert citations.of_joined_ref(MINIMAL, "cure#curable+not-in-battle") == "Cure, Definition, ¶1 and ¶3"
    assert citations.of_joined_ref(MINIMAL, "cure#curable+targets+not-in-battle") == (
        "Cure, Definition, ¶1, ¶2 and ¶3")
    assert citations.of_joined_ref(MINIMAL, "cure#curable+gone") is None
