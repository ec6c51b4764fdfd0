"""Where a clause stands in its procedure, and a change that only renumbered it (rulebook_compiler.diff.steps)."""

from __future__ import annotations

import pytest

from rulebook_compiler.diff.steps import only_number_changed, renumbering


@pytest.mark.parametrize("old, new, expected", [
    ("1. Determine the outcome.", "2. Determine the outcome.", True),
    ("Step 3: Discard.", "step 4: Discard.", True),
    ("3) Discard.", "4) Discard.", True),
    ("1. Determine the outcome.", "2. Determine the result.", False),
    ("1. Determine the outcome.", "Determine the outcome.", True),
    ("Determine 1 outcome.", "Determine 2 outcome.", False),  # a number inside the words is a word
])
def test_only_number_changed(old, new, expected):
    assert only_number_changed(old, new) is expected


class _C:
    def __init__(self, ref):
        self.ref = ref


def test_renumbering_needs_the_same_procedure_at_another_place():
    old = {"t#a": ("t.order", 1), "t#b": ("t.order", 2)}
    new = {"t#x": ("t.order", 2), "t#b": ("t.order", 2), "t#y": ("t.other", 3)}
    assert renumbering(old, new, _C("t#a"), _C("t#x")) == {"procedure": "t.order", "old": 1, "new": 2}
    assert renumbering(old, new, _C("t#b"), _C("t#b")) is None  # same place
    assert renumbering(old, new, _C("t#a"), _C("t#y")) is None  # another procedure
    assert renumbering(old, new, _C("t#a"), _C("t#none")) is None  # not a step on the new side
    assert renumbering(old, new, _C("t#none"), _C("t#x")) is None  # not a step on the old side
