"""A clause's printed number (`number`): data beside its id, in the model, the export and the schema."""

from __future__ import annotations

import shutil
from pathlib import Path

from rulebook_compiler.build import check
from rulebook_compiler.export import edition_json

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "clause-number"


def test_a_printed_number_is_data_on_the_clause_apart_from_its_id():
    book, problems = check(FIXTURE)
    assert [str(p) for p in problems] == []
    clauses = {c.id: c.number for c in book.latest.term_by_id["general"].clauses}
    assert clauses == {"rules-apply": "100.1.", "two-player-game": "100.1a", "unnumbered": None}


def test_the_export_gives_the_number_where_a_clause_has_one():
    book, _ = check(FIXTURE)
    exported = {c["id"]: c for c in edition_json(book, book.latest)["terms"][0]["clauses"]}
    assert exported["two-player-game"]["number"] == "100.1a"
    assert "number" not in exported["unnumbered"]


def test_a_number_with_a_space_is_refused_at_its_line(tmp_path, problems_in):
    root = tmp_path / "rb"
    shutil.copytree(FIXTURE, root)
    path = root / "editions" / "v1" / "general.yaml"
    path.write_text(path.read_text().replace("number: 100.1a", "number: 100.1 a"))
    found = problems_in(tmp_path, "rb")
    assert found == ["rb/editions/v1/general.yaml:12:17: error: 'number' of clause 'two-player-game' cannot be "
                     "'100.1 a'"]
