"""Drift flags compare what a clause's rules test (facts and values) with what its text names
of them, by the vocabulary's labels, not English words against fact names (issue 11, point 4).

Fixture: tests/fixtures/diff/drift-mentions (one clause per case, named for it).
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.cli import main

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "drift-mentions"


def _diff(*args: str) -> str:
    result = CliRunner().invoke(main, ["diff", "1.0.0", "2.0.0", *args, "--rulebook", str(FIXTURE)],
                                catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    return result.stdout


def _unaccounted(says: str, digest: str, clause: str) -> str:
    """The flag of words a clause's unchanged rules do not account for, with no record that they were
    checked (``digest``: of the new words, case and punctuation folded, worked out from the text)."""
    return (f"{says}, which its rules do not account for: counted as a rule change by --fail-on until the editors "
            f"record that they checked the rules against these words (add rules_checked: \"{digest}\" to cure#{clause})")


def test_each_clause_flags_only_what_moved_apart():
    changes = json.loads(_diff("--format", "json"))["changes"]
    assert {c["clause"] or "(heading)": c["drift"] for c in changes} == {
        # The heading's text is the decisions' declarations, not prose: nothing to compare.
        "(heading)": [],
        # 'ability' is an English word that is also a one-word enum fact's name: not a label. But it is a
        # noun new to the clause that its rule (whom a cure targets: poisoned) does not test
        # (rulebook_compiler.diff.unaccounted).
        "english-word": [_unaccounted("the text now says “ability” (new: ability)", "761915b44728", "english-word")],
        # The new rule (for a new decision) tests exactly the value the new text names.
        "new-decision": [],
        "names-untested": ["the text now names 'paralyzed', which no rule of this clause tests",
                           _unaccounted("the text now says “or paralyzed” (new: paralyzed)", "f77ca2f14192",
                                        "names-untested")],
        "stops-naming": ["the text no longer names 'discard pile', which its rules still test"],
        # A rule that newly tests a value neither text names: labels are names, and prose names most
        # facts otherwise, so this is not flagged (classify.drift says why).
        "tests-unnamed": [],
    }


def test_the_text_prints_each_flag_under_its_clause():
    lines = _diff().splitlines()
    (at,) = [i for i, line in enumerate(lines) if line.startswith("  reworded  cure#names-untested  ")]
    assert lines[at + 1:at + 3] == [
        "    A cure may be used again on a poisoned {+or paralyzed +}character.",
        "    drift: the text now names 'paralyzed', which no rule of this clause tests",
    ]
