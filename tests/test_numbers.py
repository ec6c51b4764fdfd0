"""rulebook_compiler/numbers.py: a clause's printed number as readers cite it, anchor it and order by it."""

from dataclasses import replace

from rulebook_compiler import numbers
from rulebook_compiler.build import check
from pathlib import Path

NUMBERED = Path(__file__).resolve().parent / "fixtures" / "clause-number"


def _term():
    book, problems = check(NUMBERED)
    assert problems == []
    return book.latest.term_by_id["general"]


def test_a_citation_drops_the_publishers_closing_full_stop_only():
    assert [numbers.cited(n) for n in ("702.1.", "702.1a", "1)", "9")] == ["702.1", "702.1a", "1)", "9"]


def test_numbers_sort_as_readers_count_them():
    shuffled = ["702.10.", "702.1a", "113.1.", "702.9.", "702.1."]
    assert sorted(shuffled, key=numbers.sort_key) == ["113.1.", "702.1.", "702.1a", "702.9.", "702.10."]


def test_each_numbered_clause_gets_an_anchor_unless_it_would_repeat_an_id_or_a_number():
    term = _term()
    assert numbers.anchors(term) == {"rules-apply": "100.1", "two-player-game": "100.1a"}
    # A number equal to a clause id, or printed twice, gives no second element that id: the first keeps it.
    first, second, third = term.clauses
    clash = replace(term, sections=(replace(term.sections[0], clauses=(
        replace(first, number="100.1a"), second, replace(third, number="rules-apply"))),))
    assert numbers.anchors(clash) == {"rules-apply": "100.1a"}
    assert numbers.anchors(term, taken=("100.1",)) == {"two-player-game": "100.1a"}


def test_a_rule_groups_its_subrules_and_the_unnumbered_clauses_after_it():
    term = _term()
    first, second, third = term.clauses
    ten = replace(first, id="ten", number="100.10.")
    found = numbers.groups([third, first, second, third, ten])
    assert [(g.head.id if g.head else None, [c.id for c in g.clauses]) for g in found] == [
        (None, ["unnumbered"]), ("rules-apply", ["rules-apply", "two-player-game", "unnumbered"]), ("ten", ["ten"])]


def test_terms_go_by_their_first_printed_number_and_unnumbered_ones_after_by_id():
    term = _term()
    unnumbered = replace(term, id="aardvark", sections=(replace(term.sections[0], clauses=(term.clauses[2],)),))
    late = replace(term, id="late", sections=(replace(term.sections[0], clauses=(
        replace(term.clauses[0], number="903.1."),)),))
    assert [t.id for t in numbers.in_document_order([unnumbered, late, term])] == ["general", "late", "aardvark"]
