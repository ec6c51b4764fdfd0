"""A clause's sentence that goes with all of its rules, where the model answers as before, is no rule
change; a sentence added to a clause whose rules did not change is one (rulebook_compiler.diff.level).

Fixture: tests/fixtures/diff/rule-moved-with-its-sentence (v1 -> v2: cure#removes gives its last
sentence's rule to cure#targets, whose words say the same; v2 -> v3: cure#targets gains a sentence
that no rule models).
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.cli import main

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "rule-moved-with-its-sentence"


def _changes(old: str, new: str) -> list[tuple]:
    result = CliRunner().invoke(main, ["diff", old, new, "--rulebook", str(FIXTURE), "--format", "json"],
                                catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    return [(c["term"], c["clause"], c["kind"], c["level"], c["drift"]) for c in json.loads(result.stdout)["changes"]]


def test_a_sentence_withdrawn_with_its_rule_that_another_clause_keeps_is_a_clarification():
    # The flag keeps the withdrawn sentence in view: the model says its rule is kept, a reviewer checks.
    assert _changes("v1", "v2") == [
        ("cure", "removes", "reworded", "clarification",
         ["the text no longer says “A cure can only target a poisoned character.”: it went with the "
          "clause's rules, and the answers are the same"]),
        ("cure", "targets", "editorial", "editorial", [])]


def test_a_sentence_added_to_a_clause_whose_answers_did_not_change_is_a_rule_change():
    assert _changes("v2", "v3") == [("cure", "targets", "reworded", "rule-change", [])]
