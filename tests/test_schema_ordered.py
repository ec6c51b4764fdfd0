"""The published schema covers ordered facts and the four comparisons, each with a description."""

from __future__ import annotations

import jsonschema
import pytest

from rulebook_compiler.schema import published_schema

SCHEMA = published_schema()


def _valid(kind: str, data) -> bool:
    return jsonschema.Draft202012Validator({**SCHEMA, "anyOf": [{"$ref": f"#/$defs/{kind}"}]}).is_valid(data)


def test_ordered_is_a_described_boolean_property_of_a_fact():
    fact = SCHEMA["$defs"]["vocabulary"]["properties"]["facts"]["items"]["properties"]["ordered"]
    assert fact == {"type": "boolean", "examples": [True],
                    "description": "An enum fact whose values are listed in order (first to last): "
                                   "conditions may compare it with before, at_most, after, at_least."}


def test_each_comparison_has_its_described_form():
    forms = {next(iter(f["properties"])): f["description"] for f in SCHEMA["$defs"]["condition"]["anyOf"]
             if f.get("type") == "object" and set(f["properties"]) & {"before", "at_most", "after", "at_least"}}
    assert forms == {
        "before": "The fact's value comes strictly before the value (or the other fact's value), "
                  "in the order of an ordered fact's values.",
        "at_most": "The fact's value is, or comes before, the value (or the other fact's value), "
                   "in the order of an ordered fact's values.",
        "after": "The fact's value comes strictly after the value (or the other fact's value), "
                 "in the order of an ordered fact's values.",
        "at_least": "The fact's value is, or comes after, the value (or the other fact's value), "
                    "in the order of an ordered fact's values."}


@pytest.mark.parametrize("condition, valid", [
    ({"before": {"step": "battle"}}, True),
    ({"at_least": {"step": {"fact": "turn_step"}}}, True),
    ({"after": {"step": ["battle"]}}, False),
    ({"at_most": {"step": {"fact": "turn_step", "x": 1}}}, False),
    ({"at_most": {"step": "battle", "phase": "a"}}, False),
    ({"at_most": {}}, False),
])
def test_the_schema_takes_a_value_or_a_fact_as_bound(condition, valid):
    term = {"id": "t", "name": "T", "sections": [{"key": "s", "kind": "definition", "clauses": [
        {"id": "c", "text": "C.", "defines": {"name": "p", "as": condition}}]}]}
    assert _valid("term", term) is valid


def test_a_vocabulary_overlay_may_restate_an_order():
    change = SCHEMA["$defs"]["vocabulary-overlay"]["properties"]["facts"]["properties"]["change"]["items"]
    assert change["properties"]["order"]["description"] == (
        "An ordered fact's values in their order from this edition on (after values added and withdrawn): "
        "each value once.")
