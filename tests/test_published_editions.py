"""Writing edition N+1 never moves edition N: issue 9's acceptance test, every feature at once.

The fixture tests/fixtures/edition-grows has a published edition ``a`` and an
edition ``b`` written on top of it, which adds enum values, a fact and a
constraint, withdraws a fact and a constraint (``_vocabulary.yaml``),
renumbers Battle's four steps to seven under descriptive ids with declared
lineage (``formerly``), merges two clauses of Heal (``merged_from``, in a term
patch), and patches two clauses of the ten-clause Targeting entry (one of them
gains an ``otherwise`` row for the new abilities). Everything produced for
``a`` is compared as bytes with what it was before ``b`` was written.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.cli import main

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "edition-grows"


def _runner() -> CliRunner:
    return CliRunner(mix_stderr=False) if "mix_stderr" in CliRunner.__init__.__code__.co_varnames \
        else CliRunner()


def _book_without_b(book: Path) -> None:
    """The fixture as it was before edition b was written: a alone, published and locked."""
    shutil.copytree(FIXTURE, book)
    shutil.rmtree(book / "editions" / "b")
    main_file = book / "rulebook.yaml"
    head, cut, _ = main_file.read_text(encoding="utf-8").partition("  - id: b\n")
    assert cut == "  - id: b\n"
    main_file.write_text(head, encoding="utf-8")
    (book / "rulebook.lock").unlink()
    (book / "corrections.yaml").unlink()
    publish = _runner().invoke(main, ["publish", "--edition", "a", "--rulebook", str(book), "--reason", "First published edition.",
                                      "--date", "2020-01-01"])
    assert (publish.exit_code, publish.stdout) == (0, "a: locked; recorded in corrections.yaml and rulebook.lock\n")


def _pages(term_pages: str) -> dict[str, str]:
    """a's edition page and term pages (under /terms/ while a is the latest edition)."""
    return {"editions/a": "editions/a", **{f"page {t}": f"{term_pages}/{t}" for t in ("battle", "heal", "targeting")}}


def test_every_output_of_the_published_edition_is_the_same_bytes_after_the_next_is_written(tmp_path, edition_outputs):
    before_book = tmp_path / "before"
    _book_without_b(before_book)
    before = edition_outputs(before_book, "a", tmp_path / "out-before", _pages("terms"))
    after = edition_outputs(FIXTURE, "a", tmp_path / "out-after", _pages("editions/a/terms"))
    assert sorted(after) == sorted(before)
    locked = {name: json.loads((book / "rulebook.lock").read_text(encoding="utf-8"))["editions"]["a"]
              for name, book in (("before", before_book), ("after", FIXTURE))}
    assert locked["after"] == locked["before"]
    for name in before:
        assert after[name] == before[name], name
    # a's suite knows a's vocabulary alone: none of b's values or facts.
    cases = json.loads(before["cases.json"])
    abilities = {case["facts"]["ability"] for case in cases["cases"] if "ability" in case["facts"]}
    assert abilities == {"heal", "protect", "negate"}
    # current_step is the fact of the procedure's own next_step question (docs/conformance.md).
    assert {f for case in cases["cases"] for f in case["facts"]} == {
        "ability", "outcome", "in_discard_pile", "being_discarded", "current_step"}


def _diff(fmt: str) -> str:
    result = _runner().invoke(main, ["diff", "a", "b", "--rulebook", str(FIXTURE), "--format", fmt])
    assert result.exit_code == 0, result.output + result.stderr
    return result.stdout


def test_the_diff_reports_renamed_renumbered_and_merged_clauses_as_such():
    changes = json.loads(_diff("json"))["changes"]
    got = {(c["term"], c["old_clause"], c["new_clause"]): (c["kind"], c["matched_by"], c.get("step"))
           for c in changes}
    renumbered = {
        ("battle", "step-1", "determine-the-outcome"): {"procedure": "battle.order", "old": 1, "new": 2},
        ("battle", "step-2", "rescue"): {"procedure": "battle.order", "old": 2, "new": 3},
        ("battle", "step-3", "end-of-battle-triggers"): {"procedure": "battle.order", "old": 3, "new": 5},
        ("battle", "step-4", "discard-or-return"): {"procedure": "battle.order", "old": 4, "new": 6},
    }
    for key, step in renumbered.items():
        assert got[key] == ("renumbered", "lineage", step), key
    assert got[("heal", "not-from-discard-pile+while-being-discarded", "heal-while-being-discarded")] == (
        "merged", "lineage", None)
    for added in ("check-blockers", "reveal-cards", "clean-up"):
        assert got[("battle", None, added)] == ("added", None, None)
    assert got[("targeting", "rule-3", "rule-3")] == ("reworded", "id", None)
    assert got[("targeting", "locations", "locations")] == ("semantic", "id", None)
    assert not [c for c in changes if c["kind"] == "removed"]


def test_the_text_diff_says_renumbered_with_the_step_numbers_and_the_declared_rename():
    text = _diff("text")
    assert ("  renumbered  battle#step-1 -> battle#determine-the-outcome  "
            "tests/fixtures/edition-grows/editions/b/battle.yaml:20:9\n"
            "    (renamed from battle#step-1 (declared))\n"
            "    (step 1 -> 2 of battle.order)\n"
            "    [-1-]{+2+}. Determine the outcome of the battle.\n") in text
