"""Pairing the clauses of two editions: by id, by text, split and merged, with exact pairings.

The similarity floors are tested at and just under each boundary: leftover clauses (no shared id) are paired by text when their word similarity
(difflib's ratio, 2 * matching words / all words) reaches SAME_TERM (0.6) within
one term, or OTHER_TERM (0.75) across terms. Each text below is chosen so that the
ratio is exact: a floor moved by any amount, or ``>=`` turned into ``>``, changes
which clauses pair.
"""

from __future__ import annotations

import pytest

from rulebook_compiler.diagnostics import Location
from rulebook_compiler.diff import match
from rulebook_compiler.diff.match import (OTHER_TERM, SAME_TERM, TermPair, _containment, lcs, _lis_length, _lis_members,
                                  changed_ids, changed_terms, match_clauses, similarity)
from rulebook_compiler.model import Clause, Edition, Section, Term

LOC = Location("t.yaml", 1, 1)


def _term(tid: str, clauses: dict[str, str], digest: str, sections: dict[str, str] | None = None) -> Term:
    """A term with these clauses (id -> text), all in section 's' unless ``sections`` says (id -> key)."""
    sections = sections or {}
    keys = list(dict.fromkeys(sections.get(cid, "s") for cid in clauses))
    return Term(tid, tid.title(), (), None, (), tuple(
        Section(key, "definition", None, tuple(
            Clause(cid, tid, key, text, None, (), None, (), None, None, LOC)
            for cid, text in clauses.items() if sections.get(cid, "s") == key))
        for key in keys), "e", digest, LOC)


def _pairings(pairs: list[TermPair]) -> set[tuple[tuple[str, ...], tuple[str, ...], str | None, float, bool]]:
    return {(tuple(c.ref for c in p.old), tuple(c.ref for c in p.new), p.matched_by, p.confidence, p.moved)
            for p in match_clauses(pairs)}


def _words(text: str) -> list[str]:
    return text.split()


# 3 of 5 words shared in order: 2 * 3 / 10 = 0.6 exactly
AT_SAME = ("alpha beta gamma delta epsilon", "alpha beta gamma zeta eta")
# 7 of 12 words shared: 14 / 24 = 0.583..., just under 0.6
UNDER_SAME = ("a1 a2 a3 a4 a5 a6 a7 b1 b2 b3 b4 b5", "a1 a2 a3 a4 a5 a6 a7 c1 c2 c3 c4 c5")
# 3 of 4 words shared: 6 / 8 = 0.75 exactly
AT_OTHER = ("alpha beta gamma delta", "alpha beta gamma omega")
# 7 of 10 words shared: 14 / 20 = 0.7, under OTHER_TERM but over SAME_TERM
BETWEEN = ("a1 a2 a3 a4 a5 a6 a7 b1 b2 b3", "a1 a2 a3 a4 a5 a6 a7 c1 c2 c3")


def test_the_texts_sit_where_the_tests_say():
    assert (SAME_TERM, OTHER_TERM) == (0.6, 0.75)
    assert similarity(*map(_words, AT_SAME)) == 0.6
    assert similarity(*map(_words, UNDER_SAME)) == 14 / 24
    assert similarity(*map(_words, AT_OTHER)) == 0.75
    assert similarity(*map(_words, BETWEEN)) == 0.7


def test_same_term_leftovers_at_the_floor_pair_by_text():
    old, new = AT_SAME
    pair = TermPair("t", _term("t", {"before": old}, "1"), _term("t", {"after": new}, "2"))
    assert _pairings([pair]) == {(("t#before",), ("t#after",), "text", 0.6, False)}


def test_same_term_leftovers_just_under_the_floor_are_a_removal_and_an_addition():
    old, new = UNDER_SAME
    pair = TermPair("t", _term("t", {"before": old}, "1"), _term("t", {"after": new}, "2"))
    assert _pairings([pair]) == {(("t#before",), (), None, 0.0, False), ((), ("t#after",), None, 0.0, False)}


def test_leftovers_between_the_floors_pair_within_a_term_but_not_across_terms():
    old, new = BETWEEN
    same = TermPair("t", _term("t", {"before": old}, "1"), _term("t", {"after": new}, "2"))
    assert _pairings([same]) == {(("t#before",), ("t#after",), "text", 0.7, False)}
    across = [TermPair("t", _term("t", {"before": old}, "1"), None),
              TermPair("u", None, _term("u", {"after": new}, "2"))]
    assert _pairings(across) == {(("t#before",), (), None, 0.0, False), ((), ("u#after",), None, 0.0, False)}


def test_leftovers_across_terms_at_the_floor_pair_by_text_as_a_move():
    old, new = AT_OTHER
    across = [TermPair("t", _term("t", {"before": old}, "1"), None),
              TermPair("u", None, _term("u", {"after": new}, "2"))]
    assert _pairings(across) == {(("t#before",), ("u#after",), "text", 0.75, True)}


def _edition(*terms: Term) -> Edition:
    return Edition("e", "E", None, "draft", (), None, terms, (), (), LOC)


def test_changed_terms_skip_equal_hashes_and_keep_added_and_removed_in_id_order():
    old = _edition(_term("a", {}, "1"), _term("b", {}, "2"), _term("c", {}, "3"))
    new = _edition(_term("b", {}, "2"), _term("c", {}, "4"), _term("d", {}, "5"))
    pairs = changed_terms(old, new)
    assert [(p.id, p.old.digest if p.old else None, p.new.digest if p.new else None) for p in pairs] == [
        ("a", "1", None), ("c", "3", "4"), ("d", None, "5")]
    assert changed_ids({"a": "1", "b": "2", "c": "3"}, {"b": "2", "c": "4", "d": "5"}) == ["a", "c", "d"]


def test_clauses_kept_by_id_are_moved_only_when_their_section_or_relative_order_changes():
    old = _term("t", {"a": "A.", "b": "B.", "c": "C.", "d": "D."}, "1")
    new = _term("t", {"b": "B.", "a": "A.", "c": "C. new", "d": "D."}, "2", sections={"d": "other"})
    assert _pairings([TermPair("t", old, new)]) == {
        (("t#a",), ("t#a",), "id", 1.0, True), (("t#b",), ("t#b",), "id", 1.0, True),
        (("t#c",), ("t#c",), "id", 0.667, False), (("t#d",), ("t#d",), "id", 1.0, True)}


def test_added_and_removed_terms_leave_their_clauses_unpaired():
    pairs = [TermPair("t", _term("t", {"a": "One two three."}, "1"), None),
             TermPair("u", None, _term("u", {"b": "Four five six."}, "2"))]
    assert _pairings(pairs) == {(("t#a",), (), None, 0.0, False), ((), ("u#b",), None, 0.0, False)}
    assert _pairings([TermPair("t", _term("t", {"a": "A b."}, "1"), None)]) == {(("t#a",), (), None, 0.0, False)}
    assert _pairings([TermPair("u", None, _term("u", {"b": "A b."}, "2"))]) == {((), ("u#b",), None, 0.0, False)}


def test_a_renamed_clause_in_another_section_is_paired_by_text_as_a_move():
    old = _term("t", {"a": "Don’t draw a card.", "z": "Z."}, "1")
    new = _term("t", {"b": "DON'T draw a card!", "z": "Z."}, "2", sections={"b": "other"})
    assert _pairings([TermPair("t", old, new)]) == {
        (("t#a",), ("t#b",), "text", 1.0, True), (("t#z",), ("t#z",), "id", 1.0, False)}


def test_equal_fits_are_broken_by_the_clauses_names():
    old = _term("t", {"a": "one two three four"}, "1")
    new = _term("t", {"c": "one two three four", "b": "one two three four"}, "2")
    assert _pairings([TermPair("t", old, new)]) == {
        (("t#a",), ("t#b",), "text", 1.0, False), ((), ("t#c",), None, 0.0, False)}


SPLIT_OLD = "a1 a2 a3 a4 a5 a6 b1 b2 b3 b4 b5 b6"


def test_a_clause_cut_in_two_is_a_split_and_two_joined_are_a_merge():
    old = _term("t", {"whole": SPLIT_OLD}, "1")
    new = _term("t", {"first": "a1 a2 a3 a4 a5 a6", "second": "b1 b2 b3 b4 b5 b6"}, "2")
    assert _pairings([TermPair("t", old, new)]) == {(("t#whole",), ("t#first", "t#second"), "split", 1.0, False)}
    assert _pairings([TermPair("t", new, old)]) == {(("t#first", "t#second"), ("t#whole",), "merge", 1.0, False)}


def test_parts_from_another_term_make_no_split():
    pairs = [TermPair("t", _term("t", {"whole": SPLIT_OLD}, "1"), _term("t", {"first": "a1 a2 a3 a4 a5 a6"}, "2")),
             TermPair("u", None, _term("u", {"second": "b1 b2 b3 b4 b5 b6"}, "3"))]
    # the half in the same term still pairs by text (12 / 18 = 0.667), the other half is new
    assert _pairings(pairs) == {(("t#whole",), ("t#first",), "text", 0.667, False),
                                ((), ("u#second",), None, 0.0, False)}


def test_a_split_must_fit_clearly_better_than_the_best_single_pairing():
    # "first" alone pairs with the whole at 18 / 19 = 0.947; the split fits perfectly (1.0),
    # but not by the margin of 0.1 over the single pairing, so the single pairing stands
    old = _term("t", {"whole": "w1 w2 w3 w4 w5 w6 w7 w8 w9 x1"}, "1")
    new = _term("t", {"first": "w1 w2 w3 w4 w5 w6 w7 w8 w9", "second": "x1"}, "2")
    got = _pairings([TermPair("t", old, new)])
    assert got == {(("t#whole",), ("t#first",), "text", round(18 / 19, 3), False),
                   ((), ("t#second",), None, 0.0, False)}


@pytest.mark.parametrize("near, paired", [(12, True), (13, False)])
def test_a_split_is_looked_for_among_at_most_a_dozen_near_parts(near, paired, monkeypatch):
    # two halves of the whole, and filler clauses whose words all occur in it (each "near" it).
    # Without the words that live on (below), the search among near parts is bounded:
    monkeypatch.setattr(match, "_words_that_live_on", lambda olds, news, okeys, nkeys, chosen, *used: chosen)
    pieces = {"first": "a1 a2 a3 a4 a5 a6", "second": "b1 b2 b3 b4 b5 b6"}
    pieces |= {f"filler-{i:02d}": "a1 b1" for i in range(near - 2)}
    got = _pairings([TermPair("t", _term("t", {"whole": SPLIT_OLD}, "1"), _term("t", pieces, "2"))])
    fillers = {((), (f"t#filler-{i:02d}",), None, 0.0, False) for i in range(near - 2)}
    if paired:
        assert got == {(("t#whole",), ("t#first", "t#second"), "split", 1.0, False)} | fillers
    else:
        assert got == {(("t#whole",), ("t#first",), "text", 0.667, False), ((), ("t#second",), None, 0.0, False)} | fillers


@pytest.mark.parametrize("budget, paired", [(0, False), (1, True)])
def test_beyond_the_global_budget_leftovers_are_compared_only_within_their_term(monkeypatch, budget, paired):
    monkeypatch.setattr(match, "GLOBAL_PAIRS", budget)
    old, new = AT_OTHER
    across = [TermPair("t", _term("t", {"before": old}, "1"), None),
              TermPair("u", None, _term("u", {"after": new}, "2"))]
    expected = ({(("t#before",), ("u#after",), "text", 0.75, True)} if paired else
                {(("t#before",), (), None, 0.0, False), ((), ("u#after",), None, 0.0, False)})
    assert _pairings(across) == expected


def test_longest_common_order():
    assert lcs(["a", "b", "c"], ["a", "b", "c"]) == {"a", "b", "c"}
    assert lcs(["a", "b", "c"], ["b", "a", "c"]) == {"c"}  # a and b swapped: either may be the one moved
    assert lcs(["a", "b", "c", "d"], ["d", "a", "b", "c"]) == {"a", "b", "c"}
    many = [f"c{i:03d}" for i in range(250)]
    assert lcs(many, many[1:] + many[:1]) == set(many[1:])  # past 200 ids, one longest run
    assert (_lis_length([3, 1, 2, 5, 4]), _lis_members([3, 1, 2, 5, 4])) == (3, {1, 2, 4})
    assert (_lis_length([]), _lis_members([])) == (0, set())
    assert _lis_members([1, 2, 3]) == {0, 1, 2}


def test_similarity_is_the_larger_reading_whichever_side_comes_first():
    assert similarity([], []) == 1.0
    assert similarity(["a"], []) == 0.0
    assert similarity([], ["a"]) == 0.0  # an empty text is like nothing, on either side
    assert similarity(list("xxyx"), list("yzx")) == similarity(list("yzx"), list("xxyx")) == 4 / 7
    assert _containment([], ["a"]) == 0.0
    assert _containment(["a", "a", "b"], ["a", "b"]) == 2 / 3


# -- the assignment -----------------------------------------------------------------------------

from hypothesis import given, strategies as st  # noqa: E402


@given(st.integers(1, 5).flatmap(lambda n: st.integers(1, 5).flatmap(lambda m: st.lists(
    st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.6, 0.75, 1.0]), min_size=m, max_size=m),
    min_size=n, max_size=n))))
def test_the_assignment_is_optimal_as_trying_every_pairing_says(weight):
    import itertools

    from rulebook_compiler.diff.match import max_weight_assignment

    n, m = len(weight), len(weight[0])
    got = max_weight_assignment(weight)
    assert len(got) == min(n, m) == len({i for i, _ in got}) == len({j for _, j in got})
    if n <= m:
        best = max(sum(weight[i][p[i]] for i in range(n)) for p in itertools.permutations(range(m), n))
    else:
        best = max(sum(weight[p[j]][j] for j in range(m)) for p in itertools.permutations(range(n), m))
    assert sum(weight[i][j] for i, j in got) == pytest.approx(best)


def test_an_insertion_shifts_numbers_rather_than_rewording_every_later_rule():
    """Greedy id-first pairing pairs each id with whatever now holds it; the assignment follows the words."""
    old = _term("t", {"r1": "alpha beta gamma delta", "r2": "epsilon zeta eta theta", "r3": "iota kappa lambda mu"},
                "1")
    new = _term("t", {"r1": "new words here now", "r2": "alpha beta gamma delta", "r3": "epsilon zeta eta theta",
                      "r4": "iota kappa lambda mu"}, "2")
    assert _pairings([TermPair("t", old, new)]) == {
        (("t#r1",), ("t#r2",), "text", 1.0, False), (("t#r2",), ("t#r3",), "text", 1.0, False),
        (("t#r3",), ("t#r4",), "text", 1.0, False), ((), ("t#r1",), None, 0.0, False)}


def test_past_the_bound_the_words_a_pairing_loses_still_find_the_other_part():
    """Beyond a dozen near parts no split is searched for, but whole -> first loses b1-b6, which
    the clause next to first holds: a split all the same (match._words_that_live_on)."""
    pieces = {"first": "a1 a2 a3 a4 a5 a6", "second": "b1 b2 b3 b4 b5 b6"}
    pieces |= {f"filler-{i:02d}": "a1 b1" for i in range(11)}
    got = _pairings([TermPair("t", _term("t", {"whole": SPLIT_OLD}, "1"), _term("t", pieces, "2"))])
    assert (("t#whole",), ("t#first", "t#second"), "split", 1.0, False) in got
