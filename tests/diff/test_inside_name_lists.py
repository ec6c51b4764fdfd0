"""In-clause items of real lists (issue 23): "A, B and C" without a serial comma, and names with their set in
brackets, "A (S) and B (S)", are items: an added or removed name is item-added or item-removed."""

from __future__ import annotations

from pathlib import Path

import yaml

from rulebook_compiler.diff.inside import sub_changes, units

# the gold case tests/diff/gold/dictionary-name-lists.yaml labels the same pair
FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "diff" / "name-lists"


def _texts() -> tuple[str, str]:
    def text(edition: str) -> str:
        data = yaml.safe_load((FIXTURE / "editions" / edition / "watch.yaml").read_text(encoding="utf-8"))
        return data["sections"][0]["clauses"][0]["text"]
    return text("a"), text("b")


def test_names_with_sets_joined_by_and_are_items():
    old, _ = _texts()
    assert [(u.unit, u.core) for u in units(old)] == [
        ("sentence", "Cards that name this ability:"), ("item", "Banner of the Host (Pa)"),
        ("item", "Golden Lamp (Pr)"), ("item", "Watchman (FF)"), ("item", "The brigades are Blue"),
        ("item", "Gold"), ("item", "Green"), ("item", "Purple"), ("item", "Silver")]


def test_an_added_and_a_removed_name_are_item_added_and_item_removed():
    old, new = _texts()
    assert [(s.kind, s.old, s.new) for s in sub_changes(old, new)] == [
        ("item-added", None, "Second Watch (RoA)"), ("item-added", None, "Clay"), ("item-removed", "Silver", None)]


def test_two_names_with_sets_are_a_list_and_prose_with_and_is_not():
    assert [(u.unit, u.core) for u in units("Fortresses: Ark of the Covenant (Pr) and Tower of Babel (Pi).")] == [
        ("sentence", "Fortresses:"), ("item", "Ark of the Covenant (Pr)"), ("item", "Tower of Babel (Pi)")]
    assert [u.unit for u in units("A hero (or evil character) and its enhancements leave play together.")] == [
        "sentence"]
