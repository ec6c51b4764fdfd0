"""The published schema teaches the format: examples, listed enums, snippets, a stable $id per file kind,
and the copy shipped in the package is the one the code publishes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import jsonschema
import yaml
from click.testing import CliRunner
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from rulebook_compiler.cli import main
from rulebook_compiler.schema import ROOTS, SCHEMA_DIR, published_schema, shipped_files

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


def _expanded(body: Any) -> Any:
    """A snippet's body as inserted with every placeholder's default text kept."""
    if isinstance(body, str):
        return re.sub(r"\$\{\d+:([^}]*)\}", r"\1", body)
    if isinstance(body, list):
        return [_expanded(v) for v in body]
    if isinstance(body, dict):
        return {k: _expanded(v) for k, v in body.items()}
    return body


def _snippets(node: Any, path: str = "") -> Iterator[tuple[str, dict, dict]]:
    if isinstance(node, dict):
        for snippet in node.get("defaultSnippets", []):
            yield path, node, snippet
        for key, child in node.items():
            if key != "defaultSnippets":
                yield from _snippets(child, f"{path}/{key}")
    elif isinstance(node, list):
        for i, child in enumerate(node):
            yield from _snippets(child, f"{path}/{i}")


def test_snippets_start_a_term_clause_rule_table_and_procedure_each_valid_where_offered():
    # each definition once: the kinds' own copies of the shared definitions left out
    found = list(_snippets({"$defs": {name: {k: v for k, v in d.items() if k != "$defs"}
                                      for name, d in SCHEMA["$defs"].items()}}))
    assert sorted((s["label"], path) for path, _, s in found) == [
        ("New clause", "/$defs/clause"),
        ("New procedure", "/$defs/clause/properties/steps"),
        ("New procedure", "/$defs/patch-operation/properties/set/properties/steps"),
        ("New rule", "/$defs/rule"),
        ("New table", "/$defs/clause/properties/table"),
        ("New table", "/$defs/patch-operation/properties/set/properties/table"),
        ("New term", "/$defs/term"),
    ]
    invalid = [f"{path}: {s['label']}: {m}" for path, node, s in found for m in _errors(_expanded(s["body"]), node)]
    assert invalid == []


def test_the_new_term_snippet_checks(tmp_path):
    (snippet,) = SCHEMA["$defs"]["term"]["defaultSnippets"]
    term = _expanded(snippet["body"])
    (tmp_path / "editions" / "e1").mkdir(parents=True)
    (tmp_path / "rulebook.yaml").write_text(
        "title: T\npublisher: P\neditions:\n  - {id: e1, title: E1, date: null, status: draft}\n")
    (tmp_path / "vocabulary.yaml").write_text("facts:\n  - {name: a_fact, type: bool, meaning: A fact.}\n")
    (tmp_path / "editions" / "e1" / "term-id.yaml").write_text(yaml.safe_dump(term, sort_keys=False))
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert (result.exit_code, result.output) == (
        0, "T: 1 edition (e1), 1 term, latest e1 with 1 term and 1 clause: no problems\n")


def test_the_placeholder_expansion_keeps_defaults():
    assert _expanded({"a": ["${1:x-y}", "${12:The text.} and ${2:b}"]}) == {"a": ["x-y", "The text. and b"]}


KINDS = ["rulebook", "vocabulary", "term", "vocabulary-overlay", "term-patch", "corrections", "rulings"]


def test_one_def_per_file_kind_each_with_a_stable_id():
    ids = {name: d.get("$id") for name, d in SCHEMA["$defs"].items() if "$id" in d}
    assert ids == {kind: f"https://rulebook-compiler.invalid/schema/{kind}.schema.json" for kind in KINDS}
    assert SCHEMA["$id"] == "https://rulebook-compiler.invalid/schema/rulebook.json"


def test_the_package_ships_the_schema_the_code_publishes():
    """Run python3 tools/write_schemas.py after changing rulebook_compiler/schema.py."""
    shipped = {p.name: p.read_text(encoding="utf-8") for p in SCHEMA_DIR.glob("*")}
    assert sorted(shipped) == sorted(shipped_files())
    stale = [name for name, text in shipped_files().items() if shipped[name] != text]
    assert stale == []
    assert json.loads(shipped["rulebook.json"]) == SCHEMA


def test_the_command_prints_the_shipped_files():
    assert CliRunner().invoke(main, ["schema"]).output == (SCHEMA_DIR / "rulebook.json").read_text()
    result = CliRunner().invoke(main, ["schema", "--kind", "term-patch"])
    assert result.output == (SCHEMA_DIR / "term-patch.schema.json").read_text(encoding="utf-8")
    kinds = next(p for p in main.commands["schema"].params if p.name == "kind").type.choices
    assert list(kinds) == KINDS == list(ROOTS)


FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _kind_files(root: Path) -> Iterator[tuple[Path, str]]:
    yield root / "rulebook.yaml", "rulebook"
    yield root / "vocabulary.yaml", "vocabulary"
    for path in sorted((root / "editions").glob("*/*.yaml")):
        if path.name == "_vocabulary.yaml":
            yield path, "vocabulary-overlay"
        elif path.name == "_rulings.yaml":
            yield path, "rulings"
        else:
            yield path, "term-patch" if "\npatch:" in path.read_text(encoding="utf-8") else "term"


def test_files_of_every_kind_satisfy_their_kind_alone_and_through_its_id_in_the_whole_schema():
    registry = Registry().with_resource(SCHEMA["$id"], DRAFT202012.create_resource(SCHEMA)).crawl()
    checked: set[str] = set()
    for root in (FIXTURES / "overlay" / "every-operation" / "patch", FIXTURES / "ordered", FIXTURES / "edition-grows",
                 FIXTURES / "rulings"):
        files = list(_kind_files(root)) + [(root / "corrections.yaml", "corrections")] * \
            (root / "corrections.yaml").is_file()
        for path, kind in files:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            alone = jsonschema.Draft202012Validator(json.loads((SCHEMA_DIR / f"{kind}.schema.json").read_text()))
            by_id = jsonschema.Draft202012Validator(
                {"$ref": f"https://rulebook-compiler.invalid/schema/{kind}.schema.json"}, registry=registry)
            assert ([e.message for e in alone.iter_errors(data)], [e.message for e in by_id.iter_errors(data)]) == (
                [], []), path
            checked.add(kind)
    assert sorted(checked) == sorted(KINDS)
    unknown = {"id": "heal", "name": "Heal", "sections": [], "aliasses": ["x"]}
    alone = jsonschema.Draft202012Validator(json.loads((SCHEMA_DIR / "term.schema.json").read_text()))
    assert [e.message for e in alone.iter_errors(unknown)] == [
        "Additional properties are not allowed ('aliasses' was unexpected)"]
