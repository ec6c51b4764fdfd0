"""The export contract, and its determinism."""

import json
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.cli import main

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINIMAL = str(FIXTURES / "minimal")


def export(*args: str):
    result = CliRunner().invoke(main, ["export", "--rulebook", MINIMAL, *args])
    return result


def test_contract_of_an_overlaid_edition():
    result = export("--edition", "v2", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["edition"] | {} == {
        "id": "v2", "title": "Second", "date": None, "status": "draft", "sources": [], "notes": None,
        "editor_notes": None, "changed": ["cure"], "withdrawn": []}
    (term,) = data["terms"]
    assert (term["id"], term["name"], term["aliases"]) == ("cure", "Cure", ["Mend"])
    clause = {c["id"]: c for c in term["clauses"]}
    assert clause["curable"]["section"] == "definition"
    assert clause["curable"]["text"] == "A character is curable if it is poisoned or paralyzed."
    assert clause["curable"]["defines"]["as"] == {"any": ["poisoned", "paralyzed"]}
    assert clause["not-in-battle"]["rules"] == [{
        "decision": "cure.may_target", "id": None, "kind": "forbids", "when": None,
        "forbids": {"is": {"phase": "battle"}}, "exception_to": ["cure#targets"], "notes": None}]
    assert [f["name"] for f in data["facts"]] == ["poisoned", "paralyzed", "phase"]


def test_default_edition_is_the_latest_and_output_is_deterministic():
    first, second = export(), export("--edition", "v2")
    assert first.output == second.output


def test_earlier_edition_is_resolved_on_its_own():
    data = json.loads(export("--edition", "v1").output)
    texts = [c["text"] for c in data["terms"][0]["clauses"]]
    assert texts == ["A character is curable if it is poisoned.", "Targets must be curable."]


def test_unknown_edition_is_a_usage_error():
    result = export("--edition", "v9")
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "rulebook: error: unknown edition 'v9'\n  hint: editions: v1, v2\n")


def test_out_file_is_written(tmp_path):
    target = tmp_path / "out" / "v2.json"
    result = export("--edition", "v2", "--out", str(target))
    assert result.exit_code == 0
    assert json.loads(target.read_text())["edition"]["id"] == "v2"
    assert [p.name for p in target.parent.iterdir()] == ["v2.json"]  # no temporary left behind


TABLE = str(Path(__file__).resolve().parent / "fixtures" / "table")


def test_table_rows_are_exported_once_as_the_table_not_again_as_rules():
    """Three rows in two table clauses and one rule: the rows appear in ``table`` only."""
    result = CliRunner().invoke(main, ["export", "--rulebook", TABLE, "--edition", "t1", "--format", "json"])
    assert result.exit_code == 0, result.output
    (term,) = json.loads(result.output)["terms"]
    clauses = {c["id"]: c for c in term["clauses"]}
    assert {i: (len(c["rules"]), c["table"]) for i, c in clauses.items()} == {
        "draw-discard": (0, {"decision": "targeting.location", "key": "ability",
                             "rows": [{"keys": ["draw", "discard"], "value": "deck"}]}),
        "heal-band": (0, {"decision": "targeting.location", "key": "ability",
                          "rows": [{"keys": ["heal"], "value": "hand"}, {"keys": ["band"], "value": "hand"}]}),
        "blocked": (1, None),
    }
    assert clauses["blocked"]["rules"] == [{
        "decision": "targeting.location", "id": None, "kind": "value", "when": "blocked", "value": "nowhere",
        "exception_to": ["targeting#draw-discard", "targeting#heal-band"], "notes": None}]


def test_notes_apart_and_the_corrections_of_the_edition():
    result = CliRunner().invoke(main, ["export", "--rulebook", str(FIXTURES / "lock" / "frozen"),
                                       "--edition", "1.0"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["edition"]["notes"], data["edition"]["editor_notes"]) == (
        "The first printing.", "Typed from the printed booklet.")
    (term,) = data["terms"]
    assert (term["notes"], term["editor_notes"]) == (
        "Cure is sometimes called Mend at tournaments.", "Page 12 of the booklet.")
    clause = {c["id"]: c for c in term["clauses"]}["targets"]
    assert (clause["notes"], clause["editor_notes"]) == (
        "Printed in bold in the booklet.", '"Targets" is read as the targets of a cure.')
    assert data["corrections"] == [{"date": "2026-01-01", "kind": "publish", "reason": "First printing.",
                                    "changed": []}]
