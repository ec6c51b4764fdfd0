"""Every form of the published schema says what it is: editors see these descriptions on hover."""

from __future__ import annotations

from typing import Any

from rulebook_compiler.schema import published_schema


def _undescribed(node: Any, path: str, out: list[str]) -> None:
    """Collect the places under ``node`` that lack a non-empty description.

    A place is each property (a bare ``$ref`` included: what a condition means
    under 'requires' is not what it means under 'when') and each branch of an
    ``anyOf`` that is not a bare ``$ref`` to a described definition.
    """
    if isinstance(node, dict):
        for key, prop in node.get("properties", {}).items():
            if not _described(prop):
                out.append(f"{path}/properties/{key}")
        for i, branch in enumerate(node.get("anyOf", [])):
            if set(branch) != {"$ref"} and not _described(branch):
                out.append(f"{path}/anyOf[{i}]")
        for key, child in node.items():
            _undescribed(child, f"{path}/{key}", out)
    elif isinstance(node, list):
        for i, child in enumerate(node):
            _undescribed(child, f"{path}[{i}]", out)


def _described(node: Any) -> bool:
    return isinstance(node, dict) and isinstance(node.get("description"), str) and node["description"].strip() != ""


def test_every_property_and_condition_form_has_a_description():
    missing: list[str] = []
    _undescribed(published_schema(), "", missing)
    assert missing == [], f"{len(missing)} places of the schema lack a description:\n" + "\n".join(missing)


def test_every_definition_has_a_description():
    undescribed = [name for name, definition in published_schema()["$defs"].items() if not _described(definition)]
    assert undescribed == []


def test_the_walk_finds_an_undescribed_property_and_branch():
    missing: list[str] = []
    _undescribed({"properties": {"a": {"type": "string"}, "b": {"type": "string", "description": " "},
                                 "c": {"$ref": "#/$defs/x"}, "d": {"type": "string", "description": "D."}},
                  "anyOf": [{"$ref": "#/$defs/x"}, {"type": "boolean"}]}, "", missing)
    assert missing == ["/properties/a", "/properties/b", "/properties/c", "/anyOf[1]"]
