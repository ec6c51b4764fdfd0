"""Words for a side that gives no answer: "not asked" (outside the decision's ``given``),
"no rule answers", "rules conflict", "not defined", never a bare "no answer (no rule)".

Fixture: tests/fixtures/diff/not-asked (1.0.0 asks cure.may_target only of a
poisoned character; 2.0.0 asks it of every character).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main
from rulebook_compiler.diff.behaviour import CONFLICT, NO_RULE, NOT_ASKED, NOT_DEFINED, Witness
from rulebook_compiler.diff.present import outcome

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "not-asked"


def _run(*args: str):
    result = CliRunner().invoke(main, [*args, "--rulebook", str(FIXTURE)], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    return result.stdout


def test_the_text_says_not_asked_where_the_old_edition_did_not_ask():
    lines = _run("diff", "1.0.0", "2.0.0").splitlines()
    at = lines.index("    cure.may_target changed: broadened in 1 of 4 situations; narrowed in none; "
                     "otherwise changed in 1")  # under the decision, listed once
    assert lines[at + 1:at + 5] == [
        "      not asked -> no in 1 situation: whenever not paralyzed and not poisoned",
        "      not asked -> yes in 1 situation: whenever paralyzed and not poisoned",
        "      when no fact holds: old not asked, new no (cure#targets)",
        "      when paralyzed: old not asked, new yes (cure#targets)",
    ]


def test_the_markdown_table_says_not_asked():
    out = _run("diff", "1.0.0", "2.0.0", "--format", "markdown")
    assert ("  | situation | 1.0.0 | 2.0.0 | decided by |\n  | --- | --- | --- | --- |\n"
            "  | no fact holds | not asked | no | — → `cure#targets` |\n"
            "  | `paralyzed` | not asked | yes | — → `cure#targets` |\n") in out


def test_the_html_table_says_not_asked():
    out = _run("diff", "1.0.0", "2.0.0", "--format", "html")
    assert ("<tr><td>no fact holds</td><td>not asked</td><td>no</td><td>— → cure#targets</td></tr>"
            "<tr><td>paralyzed</td><td>not asked</td><td>yes</td><td>— → cure#targets</td></tr>") in out


def test_the_json_witness_carries_the_reason():
    import json

    report = json.loads(_run("diff", "1.0.0", "2.0.0", "--format", "json"))
    heading = next(c for c in report["changes"] if c["clause"] is None)
    assert [(w["facts"], w["old"], w["old_reason"], w["new"], w["new_reason"])
            for w in heading["behaviour"]["witnesses"]] == [
        ({"paralyzed": False, "poisoned": False}, None, "not asked", False, None),
        ({"paralyzed": True, "poisoned": False}, None, "not asked", True, None),
    ]


@pytest.mark.parametrize(("value", "reason", "clauses", "words"), [
    (True, None, ("cure#a",), "yes (cure#a)"),
    ("home", None, ("cure#a",), "home (cure#a)"),
    (None, NOT_ASKED, (), "not asked"),
    (None, NO_RULE, (), "no rule answers"),
    (None, CONFLICT, ("cure#a", "cure#b"), "rules conflict (cure#a, cure#b)"),
    (None, NOT_DEFINED, (), "not defined"),
])
def test_each_outcome_in_words(value, reason, clauses, words):
    assert outcome(value, reason, clauses) == words


def test_a_witness_without_a_reason_is_an_answer():
    w = Witness((("poisoned", True),), True, None, ("cure#a",), (), new_reason=NOT_ASKED)
    assert (w.old_reason, w.new_reason) == (None, NOT_ASKED)


GIVEN = FIXTURE.parent / "new-question-given"


def test_a_new_question_says_where_it_is_not_asked():
    """2.0.0 adds cure.removes_poison, asked only of a poisoned character: 'not asked', not 'no answer'."""
    import json

    result = CliRunner().invoke(main, ["diff", "1.0.0", "2.0.0", "--rulebook", str(GIVEN)], catch_exceptions=False)
    lines = result.stdout.splitlines()
    at = lines.index("  added  decision cure.removes_poison (cure): Whether a cure removes the poison.")
    assert lines[at + 1:at + 4] == [
        "    rules in cure#removes",
        "    answers yes in 1 of 2 situations: whenever poisoned",
        "    not asked in 1 situation",
    ]
    result = CliRunner().invoke(main, ["diff", "1.0.0", "2.0.0", "--rulebook", str(GIVEN), "--format", "json"],
                                catch_exceptions=False)
    (name,) = json.loads(result.stdout)["names"]
    assert (name["unanswered"], name["unanswered_reasons"]) == (1, {"not asked": 1})
