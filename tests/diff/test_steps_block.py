"""A ``steps:`` block added to or removed from a clause whose text stays the same.

Such a change of meaning names no predicate or decision, so no behaviour is
compared; the diff once read the rulebook's uses only while comparing
behaviours, and a steps change then ended in an AttributeError.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "steps-added"


@pytest.fixture
def book(tmp_path, monkeypatch):
    """The fixture as ``./book``, so that the paths in the output are short and fixed."""
    shutil.copytree(FIXTURE, tmp_path / "book")
    monkeypatch.chdir(tmp_path)
    return "book"


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _text(old: str, new: str) -> str:
    # With the steps withdrawn, the old suite's next-step cases of the procedure no longer exist.
    flips = ("    breaks conformance: 3 of 3 cases of v2's suite flip: turn.order.next_step-3a7dcc2921f4 "
             "(expected turn#draw, now not defined), turn.order.next_step-cddc7a2be4d0 "
             "(expected turn#play, now not defined), and 1 more\n") if old == "v2" else ""
    return (f"rulebook diff {old} -> {new}: 1 semantic\n"
            "\n"
            "turn\n"
            f"  semantic  turn#order  book/editions/{new}/turn.yaml:8:9\n"
            "    At the start of a turn:\n" + flips)


STEPS = {"procedure": "turn.order", "order": ["draw", "play"]}


@pytest.mark.parametrize("old,new", [("v1", "v2"), ("v2", "v1")], ids=["added", "removed"])
def test_a_steps_block_added_or_removed_is_a_semantic_change(book, old, new):
    text = run("diff", old, new, "--rulebook", book, "--exit-code")
    assert (text.exit_code, text.stderr, text.stdout) == (1, "", _text(old, new))

    out = json.loads(run("diff", old, new, "--rulebook", book, "--format", "json").stdout)
    [change] = out["changes"]
    assert (change["kind"], change["term"], change["clause"], change["old_text"], change["new_text"]) == \
        ("semantic", "turn", "order", "At the start of a turn:", "At the start of a turn:")
    assert (change["behaviour"], change["impact"], change["drift"]) == (None, [], [])
    assert change["structure"] == [{"change": "type_changes", "path": "root[0]['steps']",
                                    "old": STEPS if old == "v2" else None,
                                    "new": STEPS if new == "v2" else None}]


def test_the_history_of_a_term_whose_steps_were_added(book):
    out = json.loads(run("history", "turn", "--rulebook", book, "--format", "json").stdout)
    assert [(s["old"]["edition"], s["new"]["edition"], [(c["kind"], c["clause"]) for c in s["changes"]])
            for s in out["steps"]] == [
        ("(none)", "v1", [("added", None), ("added", "order"), ("added", "draw"), ("added", "play")]),
        ("v1", "v2", [("semantic", "order")]),
    ]


def test_a_steps_block_added_as_a_pull_request_comment(book):
    result = run("diff", "v1", "v2", "--rulebook", book, "--format", "markdown")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "## Rulebook changes: v1 → v2\n"
        "\n"
        "**1 rule change**, 0 clarifications, 0 editorial\n"
        "\n"
        "| kind | changes |\n"
        "| --- | ---: |\n"
        "| semantic | 1 |\n"
        "| **total** | **1** |\n"
        "\n"
        "### Rule changes\n"
        "\n"
        "- `turn#order` (semantic): a procedure's steps changed\n"
        "\n"
        "<details><summary><code>turn</code>: 1 rule change</summary>\n"
        "\n"
        "#### semantic: `turn#order`\n"
        "\n"
        "v1: `book/editions/v1/turn.yaml:8:9` · v2: `book/editions/v2/turn.yaml:8:9` · "
        "fingerprint `24d8dafd46dbea8f`\n"
        "\n"
        "> At the start of a turn:\n"
        "\n"
        "</details>\n")
