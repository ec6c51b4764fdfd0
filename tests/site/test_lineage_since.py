"""``lineage.clause_marks_since``: serve's marks after an edit are those a whole computation gives.

Only the edited terms and those their declared lineage ties them to are worked
out again; every other term keeps its marks from before the edit.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook, remembering
from rulebook_compiler.site import lineage

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.mark.parametrize("fixture, path, old, new, again", [
    # the moved-from clause's term is worked out again with the term that names it
    ("lineage/move", "editions/v1/cure.yaml", "can never target", "can not ever target", ["cure", "heal"]),
    ("lineage/move", "editions/v2/heal.yaml", "Neither a heal", "Not a heal", ["cure", "heal"]),
    ("serve", "editions/v2/cure.yaml", "Targets must be curable.", "Targets must be cured.", ["cure"]),
    ("serve", "editions/v1/heal.yaml", "healed once", "healed only once", ["heal"]),
], ids=["moved-from source", "moved-to clause", "latest edition", "kept from the first edition"])
def test_marks_since_an_edit_are_the_marks_of_the_edited_rulebook(tmp_path, monkeypatch, fixture, path, old, new,
                                                                   again):
    book = tmp_path / "book"
    shutil.copytree(FIXTURES / fixture, book)
    worked: list[frozenset] = []
    real = lineage.clause_marks
    monkeypatch.setattr(lineage, "clause_marks", lambda b, only=None: (worked.append(only), real(b, only))[1])
    with remembering():
        before = load_rulebook(book)
        marks = real(before)
        target = book / path
        target.write_text(target.read_text().replace(old, new, 1))
        after = load_rulebook(book)
        since = lineage.clause_marks_since(after, before, marks)
    assert [sorted(only) for only in worked] == [again]
    assert since == real(after)
