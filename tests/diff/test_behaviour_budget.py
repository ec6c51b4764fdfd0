"""The behaviour comparison of a decision too costly to search (issue 8, "Bounded everything").

bench/hostile.py's tied-constraints rulebook ties the one fact of ``t.q`` to
twelve others; edition v2 flips its base rule. Each situation of ``t.q`` needs
4,096 combinations tried; at 30 ties ``diff`` searched for minutes. With the
shared step budget ($RULEBOOK_MAX_CHECK_STEPS, lowered here to keep the test
short) the behaviour is reported as not compared, in every format.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

NOT_COMPARED = "not compared (situation space too large)"


@pytest.fixture
def two(tmp_path, monkeypatch, hostile) -> Path:
    root = hostile.tied_constraints(tmp_path / "two", 12)
    rulebook = root / "rulebook.yaml"
    rulebook.write_text(rulebook.read_text(encoding="utf-8") + "  - {id: v2, title: Two, date: null, status: draft}\n",
                        encoding="utf-8")
    shutil.copytree(root / "editions" / "v1", root / "editions" / "v2")
    term = root / "editions" / "v2" / "t.yaml"
    text = term.read_text(encoding="utf-8")
    term.write_text(text.replace("rules: [{decision: t.q, value: false}]", "rules: [{decision: t.q, value: true}]"),
                    encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULEBOOK_MAX_CHECK_STEPS", "1000")
    return Path("two")


def _rulebook(*args: str) -> tuple[int, str, str]:
    from compiler.cli import main

    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


TEXT = ("rulebook diff v1 -> v2: 1 semantic\n"
        "\n"
        "t\n"
        "  semantic  t#base  two/editions/v2/t.yaml:9:9\n"
        "    Base.\n"
        f"    behaviour: t.q {NOT_COMPARED}\n"
        f"    used by: t#top (exception in t.q, {NOT_COMPARED})\n"
        "    drift: the machine-readable meaning changed but the text did not\n")


def test_text(two):
    assert _rulebook("diff", "--rulebook", two, "--no-cache", "v1", "v2") == (0, TEXT, "")


def test_json(two):
    code, out, err = _rulebook("diff", "--rulebook", two, "--no-cache", "--format", "json", "v1", "v2")
    assert (code, err) == (0, "")
    (change,) = json.loads(out)["changes"]
    # one situation (a false) was evaluated before the second spent the budget: no direction, no witness
    assert change["behaviour"] == {"name": "t.q", "kind": "decision", "direction": NOT_COMPARED, "witnesses": [],
                                   "checked": 1, "exhaustive": False}
    assert [(i["ref"], i["direction"]) for i in change["impact"]] == [("t#top", NOT_COMPARED)]


def test_markdown(two):
    code, out, err = _rulebook("diff", "--rulebook", two, "--no-cache", "--format", "markdown", "v1", "v2")
    assert (code, err) == (0, "")
    assert [line for line in out.splitlines() if "Behaviour" in line] == [f"**Behaviour** of `t.q`: **{NOT_COMPARED}**"]


def test_html(two):
    code, out, err = _rulebook("diff", "--rulebook", two, "--no-cache", "--format", "html", "v1", "v2")
    assert (code, err) == (0, "")
    assert [line for line in out.splitlines() if "Behaviour" in line] == [
        f"<p>Behaviour of <code>t.q</code>: <strong>{NOT_COMPARED}</strong></p>"]


def test_history(two):
    code, out, err = _rulebook("history", "--rulebook", two, "t")
    assert (code, err) == (0, "")
    assert out.endswith("\n" + TEXT)
