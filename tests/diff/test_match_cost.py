"""Pairing leftover clauses indexes each new clause's words once, not once per old clause.

Every old leftover is compared with every new one (``match._pair_leftovers``); difflib's matcher
indexes its second sequence when it is set (``set_seq2``), which cost more than the comparison.
"""

from __future__ import annotations

import difflib

import pytest

from rulebook_compiler.diff.match import TermPair, match_clauses
from tests.diff.test_match_pairing import _term

WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot")


def _text(key: str) -> str:
    """Six words no other clause has: no pairing passes the floors."""
    return " ".join(f"{w}{key}" for w in WORDS)


@pytest.mark.parametrize("olds", [4, 8])
def test_each_new_leftover_is_indexed_once_whatever_the_number_of_old_ones(monkeypatch, olds):
    indexed: list[tuple[str, ...]] = []
    real = difflib.SequenceMatcher.set_seq2

    def counted(self, b):
        indexed.append(tuple(b))
        return real(self, b)

    monkeypatch.setattr(difflib.SequenceMatcher, "set_seq2", counted)
    old = _term("a", {f"o{i}": _text(f"o{i}") for i in range(olds)}, "1")
    new = _term("b", {f"n{j}": _text(f"n{j}") for j in range(6)}, "2")
    pairings = match_clauses([TermPair("a", old, None), TermPair("b", None, new)])
    assert sorted((tuple(c.ref for c in p.old), tuple(c.ref for c in p.new)) for p in pairings) == sorted(
        [((f"a#o{i}",), ()) for i in range(olds)] + [((), (f"b#n{j}",)) for j in range(6)])
    # Before: one index per (old, new) pair, 24 and 48.
    assert sorted(indexed) == sorted(tuple(_text(f"n{j}").split()) for j in range(6))
