"""``counts.counted``: one noun, counted, in every summary line ("1 edition", never "1 editions")."""

from __future__ import annotations

import pytest

from rulebook_compiler.counts import counted


@pytest.mark.parametrize("n, noun, plural, thousands, expected", [
    (0, "edition", None, False, "0 editions"),
    (1, "edition", None, False, "1 edition"),
    (2, "decision", None, False, "2 decisions"),
    (1, "equivalent mutant", None, False, "1 equivalent mutant"),
    (1, "entry", "entries", False, "1 entry"),
    (3, "entry", "entries", False, "3 entries"),
    (2002, "term", None, True, "2,002 terms"),
    (1, "page", None, True, "1 page"),
], ids=["none", "one", "two", "phrase", "irregular one", "irregular many", "thousands", "thousands one"])
def test_a_count_takes_the_singular_for_exactly_one(n, noun, plural, thousands, expected):
    assert counted(n, noun, plural, thousands=thousands) == expected
