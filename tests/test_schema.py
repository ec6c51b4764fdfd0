"""The published schema is valid JSON Schema and agrees with the checker's own validator."""

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main
from rulebook_compiler.schema import published_schema, validate
from rulebook_compiler.yamlsource import load, parse

FIXTURES = Path(__file__).resolve().parent / "fixtures"
BUNDLED = Path(__file__).resolve().parent.parent / "rulebook"


def validator(kind: str):
    """A jsonschema validator for one kind of file, from the published schema."""
    return jsonschema.Draft202012Validator({**published_schema(), "anyOf": [{"$ref": f"#/$defs/{kind}"}]})


def test_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(published_schema())


def test_cli_prints_the_schema():
    result = CliRunner().invoke(main, ["schema"])
    assert result.exit_code == 0
    assert json.loads(result.output) == published_schema()


def _files(root: Path):
    yield root / "rulebook.yaml", "rulebook"
    yield root / "vocabulary.yaml", "vocabulary"
    for path in sorted((root / "editions").glob("*/*.yaml")):
        if path.name == "_vocabulary.yaml":
            yield path, "vocabulary-overlay"
        elif path.name == "_rulings.yaml":
            yield path, "rulings"
        else:
            yield path, "term-patch" if "\npatch:" in path.read_text() else "term"


@pytest.mark.parametrize("root", [FIXTURES / "minimal", BUNDLED, FIXTURES / "overlay" / "every-operation" / "patch",
                                  FIXTURES / "ordered"],
                         ids=["minimal", "bundled", "overlay", "ordered"])
def test_real_files_satisfy_both_validators(root):
    files = list(_files(root))
    assert len(files) > 2
    for path, kind in files:
        doc, problems = load(path)
        assert problems == []
        assert validate(doc, kind) == []
        errors = list(validator(kind).iter_errors(doc.data))
        assert errors == [], f"{path}: {errors[0].message}"


@pytest.mark.parametrize("text", [
    "id: heal\nname: Heal\nsections: []\naliasses: [x]\n",          # unknown key
    "id: ../x\nname: X\nsections: []\n",                           # unsafe id
    "id: heal\nname: Heal\nsections: [{key: s, kind: lead, clauses: []}]\n",  # bad enum
    "id: heal\nname: 12\nsections: []\n",                          # wrong type
    "id: heal\nname: Heal\nsections: [{key: s, kind: definition, clauses: [{id: c}]}]\n",  # missing text
])
def test_both_validators_reject_the_same_mistakes(text):
    doc, _ = parse(text.encode(), "t.yaml")
    assert validate(doc, "term") != []
    assert list(validator("term").iter_errors(doc.data)) != []


@pytest.mark.parametrize("text", [
    "id: t\npatch: [{change: c, set: {text: null}}]\n",             # a clause's text cannot be removed
    "id: t\npatch: [{change: c, sett: {text: T.}}]\n",              # unknown key of an operation
    "id: t\npatch: [{add: {text: T.}, section: s}]\n",              # an added clause needs its id
    "id: t\nname: null\npatch: []\n",                               # a term keeps a name
    "id: t\npatch: [{change_section: s, kind: lead}]\n",            # bad section kind
    "id: t\npatch: {change: c}\n",                                  # operations are a list
])
def test_both_validators_reject_the_same_patch_mistakes(text):
    doc, _ = parse(text.encode(), "t.yaml")
    assert validate(doc, "term-patch") != []
    assert list(validator("term-patch").iter_errors(doc.data)) != []
