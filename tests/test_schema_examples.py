"""The published schema teaches the format: examples, listed enums, snippets, a stable $id per file kind,
and the copy shipped in the package is the one the code publishes."""

from __future__ import annotations

from typing import Any, Iterator

import jsonschema

from compiler.schema import published_schema

SCHEMA = published_schema()


def _properties(node: Any, path: str = "") -> Iterator[tuple[str, dict]]:
    """Every property of every object form in the schema, with its JSON pointer."""
    if isinstance(node, dict):
        for key, prop in node.get("properties", {}).items():
            yield f"{path}/properties/{key}", prop
        for key, child in node.items():
            yield from _properties(child, f"{path}/{key}")
    elif isinstance(node, list):
        for i, child in enumerate(node):
            yield from _properties(child, f"{path}/{i}")


def _errors(instance: Any, schema: dict) -> list[str]:
    """What jsonschema finds wrong with the instance against a part of the published schema
    (its $refs resolved in the published document)."""
    root = jsonschema.Draft202012Validator(SCHEMA)
    return [e.message for e in root.descend(instance, schema)]


def test_every_property_has_examples_and_each_is_valid_where_it_is_given():
    missing, invalid = [], []
    for pointer, prop in _properties(SCHEMA):
        examples = prop.get("examples")
        if not isinstance(examples, list) or examples == []:
            missing.append(pointer)
            continue
        for example in examples:
            for message in _errors(example, prop):
                invalid.append(f"{pointer}: {example!r}: {message}")
    assert (missing, invalid) == ([], [])


def test_the_walk_finds_a_property_without_examples():
    found = [p for p, prop in _properties({"properties": {"a": {"examples": [1]}, "b": {}}}) if "examples" not in prop]
    assert found == ["/properties/b"]


def test_an_example_that_breaks_its_property_is_found():
    term = SCHEMA["$defs"]["term"]["properties"]
    assert _errors("Heal!", term["id"]) == ["'Heal!' does not match '^[a-z0-9]+(-[a-z0-9]+)*$'"]
    assert _errors([{"decision": "heal.may_target", "requires": {"nope": 1}}],
                   SCHEMA["$defs"]["clause"]["properties"]["rules"]) == [
        "{'nope': 1} is not valid under any of the given schemas"]


def _enums(node: Any, path: str = "") -> Iterator[tuple[str, dict]]:
    if isinstance(node, dict):
        if "enum" in node:
            yield path, node
        for key, child in node.items():
            yield from _enums(child, f"{path}/{key}")
    elif isinstance(node, list):
        for i, child in enumerate(node):
            yield from _enums(child, f"{path}/{i}")


def test_every_enum_lists_its_values_each_with_what_it_means():
    enums = dict(_enums(SCHEMA))
    assert enums["/$defs/term/properties/sections/items/properties/kind"]["enumDescriptions"][-1] == (
        "A section under a heading of its own: give it a 'title'.")
    unlisted = [p for p, e in enums.items()
                if len(e.get("enumDescriptions", [])) != len(e["enum"]) or not all(e["enumDescriptions"])]
    assert unlisted == []
