"""Each change carries a level (editorial, clarification, rule change) and ``--fail-on LEVEL`` sets the exit status.

Fixture: tests/fixtures/diff/levels (one clause: v1 -> v2 punctuation only,
v2 -> v3 reworded with the same answers, v3 -> v4 a rule that answers more).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main

LEVELS = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "levels"


def _diff(*args: str):
    return CliRunner().invoke(main, ["diff", *args, "--rulebook", str(LEVELS)], catch_exceptions=False)


@pytest.mark.parametrize(("old", "new", "kind", "level"), [
    ("v1", "v2", "editorial", "editorial"),
    ("v2", "v3", "reworded", "clarification"),
    ("v3", "v4", "semantic", "rule-change"),
])
def test_each_change_carries_its_level(old, new, kind, level):
    result = _diff(old, new, "--format", "json")
    assert [(c["kind"], c["level"]) for c in json.loads(result.stdout)["changes"]] == [(kind, level)]


@pytest.mark.parametrize(("old", "new", "fail_on", "status"), [
    ("v1", "v2", "editorial", 1), ("v1", "v2", "clarification", 0), ("v1", "v2", "rule-change", 0),
    ("v2", "v3", "editorial", 1), ("v2", "v3", "clarification", 1), ("v2", "v3", "rule-change", 0),
    ("v3", "v4", "editorial", 1), ("v3", "v4", "clarification", 1), ("v3", "v4", "rule-change", 1),
    ("v1", "v1", "editorial", 0),
])
def test_fail_on_exits_1_when_a_change_reaches_the_level(old, new, fail_on, status):
    result = _diff(old, new, "--format", "json", "--fail-on", fail_on)
    assert (result.exit_code, result.stderr) == (status, "")


def test_fail_on_names_the_levels_when_given_another():
    result = _diff("v1", "v2", "--fail-on", "major")
    assert result.exit_code == 2
    assert "'major' is not one of 'editorial', 'clarification', 'rule-change'" in result.stderr
