"""The word-similarity floors of clause pairing, at and just under each boundary.

Leftover clauses (no shared id) are paired by text when their word similarity
(difflib's ratio, 2 * matching words / all words) reaches SAME_TERM (0.6) within
one term, or OTHER_TERM (0.75) across terms. Each text below is chosen so that the
ratio is exact: a floor moved by any amount, or ``>=`` turned into ``>``, changes
which clauses pair.
"""

from __future__ import annotations

from compiler.diagnostics import Location
from compiler.diff.match import OTHER_TERM, SAME_TERM, TermPair, match_clauses, similarity
from compiler.model import Clause, Section, Term

LOC = Location("t.yaml", 1, 1)


def _term(tid: str, clauses: dict[str, str], digest: str) -> Term:
    section = Section("s", "definition", None, tuple(
        Clause(cid, tid, "s", text, None, (), None, (), None, None, LOC) for cid, text in clauses.items()))
    return Term(tid, tid.title(), (), None, (), (section,), "e", digest, LOC)


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
