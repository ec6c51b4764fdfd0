"""A condition of an earlier edition carried into one whose vocabulary withdrew the fact it tests
with 'is' or 'in' (written for a conditions mutant that survived; the comparisons are tested in
tests/test_edition_vocabulary.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.mark.parametrize("form", ["{is: {phase: late}}", "{in: {phase: [early, late]}}"])
def test_an_is_or_in_on_a_withdrawn_fact_names_the_withdrawal(tmp_path: Path, form: str, two_editions):
    from rulebook_compiler.build import check

    root = two_editions(
        tmp_path / "book",
        "  - {name: a, type: bool, meaning: A.}\n  - {name: phase, type: enum, values: [early, late], meaning: P.}\n",
        f"      - {{id: c, text: C., rules: [{{decision: t.q, requires: {{all: [a, {form}]}}}}]}}\n",
        "facts:\n  withdraw: [phase]\n")
    book, problems = check(root)
    shown = os.path.relpath(root)
    assert book is None
    assert [str(p) for p in problems] == [
        f"{shown}/editions/e1/t.yaml:9:71: error: fact 'phase' was withdrawn by edition 'e2' at "
        f"{shown}/editions/e2/_vocabulary.yaml:2\n"
        "  hint: an edition's conditions test only what its vocabulary has: "
        "change the condition in this edition, or do not withdraw it"]
