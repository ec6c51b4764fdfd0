"""One validator: the published JSON Schema (what editors use) and rulebook_compiler/schema.py (what check uses) agree.

The project keeps its own engine, for its located messages and hints, and this differential
test proves that it accepts exactly what a reference JSON Schema implementation (``jsonschema``,
Draft 2020-12) accepts, file by file, each YAML file against the schema of its kind: over the
fuzz seeds, hypothesis mutations of them (tests/fuzz/mutate.py) and every broken fixture.
Only validity is compared, never the message.

One difference is by design: check leaves conditions (``$defs/condition``) to conditions.py,
whose messages know the vocabulary, so the reference runs with that definition set to ``true``.

And one difference is jsonschema's, not the schema's: JSON Schema reads ``pattern`` as an
ECMA-262 regular expression, where ``$`` matches only at the end of the string, while
jsonschema hands it to Python's ``re.search``, where ``$`` also matches before a final line
break; so it alone accepted the edition id "v2\n" (tests/fixtures/broken/
edition-id-with-trailing-newline, found by this test). The reference here reads ``$`` as
ECMA-262 (and as the YAML language server, in JavaScript, does); schema.py's ``fullmatch``
already did.
"""

from __future__ import annotations

import copy
import importlib.util
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
from hypothesis import HealthCheck, given, settings

from rulebook_compiler import overlay, schema
from rulebook_compiler.yamlsource import parse

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
_spec = importlib.util.spec_from_file_location("fuzz_mutate_agreement", HERE / "fuzz" / "mutate.py")
mutate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mutate)


def kind_of(rel: str, data: Any) -> str | None:
    """The schema a file of a rulebook is checked against, as rulebook_compiler/build.py and rulings.py choose it."""
    parts = rel.split("/")
    if len(parts) == 1:
        return {"rulebook.yaml": "rulebook", "vocabulary.yaml": "vocabulary",
                "corrections.yaml": "corrections"}.get(rel)
    if len(parts) == 3 and parts[0] == "editions" and parts[2].endswith((".yaml", ".yml")):
        if parts[2] == "_vocabulary.yaml":
            return "vocabulary-overlay"
        if parts[2] == "_rulings.yaml":
            return "rulings"
        if parts[2].startswith("_"):
            return None  # reported as an unknown file, never validated
        return "term-patch" if overlay.is_patch(data) else "term"
    return None


def ecma_pattern(validator: Any, pattern: str, instance: Any, _schema: dict) -> Any:
    """``pattern`` as JSON Schema defines it (ECMA-262: ``$`` is the end of the string, never before a
    final line break); the schema's patterns use no escaped ``$``, so ``\\Z`` stands for each."""
    if validator.is_type(instance, "string") and not re.search(pattern.replace("$", r"\Z"), instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


Reference = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": ecma_pattern})


@lru_cache(maxsize=None)
def reference(kind: str) -> Any:
    published = copy.deepcopy(schema.published_schema(kind))
    if "condition" in published.get("$defs", {}):
        published["$defs"]["condition"] = True  # conditions.py's part, as schema.validate leaves it
    jsonschema.Draft202012Validator.check_schema(published)
    return Reference(published)


def _patterns(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [*([node["pattern"]] if isinstance(node.get("pattern"), str) else []),
                *(p for v in node.values() for p in _patterns(v))]
    return [p for v in node for p in _patterns(v)] if isinstance(node, list) else []


def test_the_schemas_patterns_are_anchored_and_use_no_escaped_dollar():
    # what ecma_pattern's translation relies on
    patterns = set(_patterns(schema.published_schema()))
    assert [p for p in sorted(patterns) if not (p.startswith("^") and p.endswith("$")) or "\\$" in p] == []


def test_jsonschema_alone_reads_dollar_as_python_does():
    # the difference the reference corrects, shown on the fixture's value
    raw = (FIXTURES / "broken" / "edition-id-with-trailing-newline" / "rulebook.yaml").read_bytes()
    doc, _ = parse(raw, "rulebook.yaml")
    assert [e["id"] for e in doc.data["editions"]] == ["v1", "v2\n"]
    assert (jsonschema.Draft202012Validator(schema.published_schema("rulebook")).is_valid(doc.data),
            reference("rulebook").is_valid(doc.data), not schema.validate(doc, "rulebook")) == (True, False, False)


def verdicts(rel: str, raw: bytes) -> tuple[bool, bool] | None:
    """(schema.validate accepts, jsonschema accepts) for one file, or None when it is not a document."""
    doc, _ = parse(raw, rel)
    if doc is None:
        return None  # YAML that does not parse: no document for either validator
    kind = kind_of(rel, doc.data)
    if kind is None:
        return None
    return not schema.validate(doc, kind), reference(kind).is_valid(doc.data)


@lru_cache(maxsize=None)
def with_sketch(kind: str) -> Any:
    """The whole published schema, conditions' sketch included: what an editor checks."""
    return Reference(schema.published_schema(kind))


def sketch_only(files: dict[str, bytes]) -> list[str]:
    """The files only the schema's sketch of conditions rejects."""
    found = []
    for rel, raw in sorted(files.items()):
        doc, _ = parse(raw, rel)
        kind = kind_of(rel, doc.data) if doc is not None else None
        if kind and reference(kind).is_valid(doc.data) and not with_sketch(kind).is_valid(doc.data):
            found.append(rel)
    return found


def unreported(files: dict[str, bytes], rels: list[str]) -> list[str]:
    """Of these files, those in which ``check`` of the whole rulebook reports no problem."""
    if not rels:
        return []
    import tempfile

    from rulebook_compiler.build import check

    with tempfile.TemporaryDirectory() as tmp:
        mutate.write(files, Path(tmp) / "book")
        _, problems = check(Path(tmp) / "book")
        places = {str(p.location.path) for p in problems}
    return [rel for rel in rels if not any(place.endswith(rel) for place in places)]


def disagreements(files: dict[str, bytes]) -> tuple[int, list[str]]:
    """How many files were compared, and each one on which the two engines disagree."""
    compared, found = 0, []
    for rel, raw in sorted(files.items()):
        both = verdicts(rel, raw)
        if both is None:
            continue
        compared += 1
        ours, theirs = both
        if ours != theirs:
            found.append(f"{rel}: schema.py says {'valid' if ours else 'invalid'}, "
                         f"jsonschema says {'valid' if theirs else 'invalid'}")
    return compared, found


def folders(root: Path) -> list[Path]:
    return sorted(p for p in root.iterdir() if p.is_dir())


def test_the_seeds_and_broken_fixtures_agree():
    books = [*mutate.SEEDS.values(), *folders(FIXTURES / "broken")]
    total, found = 0, []
    for book in books:
        compared, bad = disagreements(mutate.read(book))
        total += compared
        found += [f"{book.name}/{line}" for line in bad]
    assert found == []
    assert total >= len(books)  # every fixture folder gave files to compare (a guard against a walk gone wrong)


@settings(max_examples=400, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(mutate.mutated(mutate.SEEDS, file_ops=[], line_ops=[]))
def test_tree_mutations_of_the_seeds_agree(example):
    name, files, applied = example
    _, found = disagreements(files)
    assert found == [], (name, applied)
    assert unreported(files, sketch_only(files)) == [], (name, applied)


@settings(max_examples=200, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(mutate.mutated(mutate.SEEDS))
def test_any_mutation_of_the_seeds_agrees(example):
    name, files, applied = example
    _, found = disagreements(files)
    assert found == [], (name, applied)
