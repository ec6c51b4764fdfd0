"""Drift's cost follows the change: what it reads of each side is what the changed clauses test
and what their texts name, not every predicate or label of the edition for each change.

Fixture: tests/fixtures/diff/drift-reads-what-changes (three reworded clauses whose rules use the
predicate 'sick', one text naming it; twelve predicates in another term that no change uses).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.diff import classify
from rulebook_compiler.diff.classify import Labels, _named
from rulebook_compiler.diff.engine import diff_editions

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "diff" / "drift-reads-what-changes"


def test_drift_reads_the_predicates_a_change_names_not_every_predicate_of_the_edition(monkeypatch):
    book = load_rulebook(FIXTURE)
    calls: list[tuple[str, ...]] = []
    real = classify.keys_tested

    def counted(clauses, predicates, conditions=()):
        calls.append(tuple(c.ref for c in clauses))
        return real(clauses, predicates, conditions)

    monkeypatch.setattr(classify, "keys_tested", counted)
    result = diff_editions(book, book.edition("1.0.0"), book, book.edition("2.0.0"))
    def unaccounted(says: str, digest: str, clause: str) -> str:
        # Words the unchanged rules do not account for, no record (rulebook_compiler.diff.unaccounted); the
        # digest is of the new words, case and punctuation folded, worked out from the text.
        return (f"{says}, which its rules do not account for: counted as a rule change by --fail-on until the "
                "editors record that they checked the rules against these words "
                f"(add rules_checked: \"{digest}\" to cure#{clause})")

    assert {c.clause: tuple(f.text for f in c.drift) for c in result.changes} == {
        "heals": ("the text now names 'paralyzed', which no rule of this clause tests",
                  unaccounted("the text now says “at once, even a paralyzed one” (new: once, even, paralyzed, one)",
                              "5cda67c38797", "heals")),
        # What the rules test through 'sick' (poisoned) counts as tested.
        "targets": ("the text no longer names 'poisoned', which its rules still test",
                    # 'poisoned', gone, is what its rule tests through 'sick': accounted for, and flagged above.
                    unaccounted("the text now says “any” where it said “a poisoned” (new: any)",
                                "5ea521cb2a3c", "targets")),
        "repeats": (unaccounted("the text now says “once more” where it said “again” (new: once, more; gone: again)",
                                "abb167a161d5", "repeats"),),
    }
    # Drift: once per side of each reworded clause, plus once per side for the predicate that a text
    # names ('sick': what it tests counts as named). The level: once per reworded clause, both sides.
    # Before, each side of each change worked out what every predicate of the edition tests:
    # 3 x 2 x (1 + 13) calls, growing with changes x predicates.
    drift = [("cure#heals",)] * 2 + [("cure#targets",)] * 2 + [("cure#repeats",)] * 2 + [()] * 2
    level = [("cure#heals", "cure#heals"), ("cure#targets", "cure#targets"), ("cure#repeats", "cure#repeats")]
    assert sorted(calls) == sorted(drift + level)


LABELS = Labels({"face down": frozenset({"face_down"}), "battle zone": frozenset({"zone=battle_zone"}),
                 "discard pile": frozenset({"zone=discard_pile"}), "zone kind": frozenset({"zone"}),
                 "hidden card": frozenset({"hidden_card"})},
                {"zone": ("hand", "battle_zone", "discard_pile")}, 2)
SAID = ["face_down", "zone", "zone=battle_zone", "zone=discard_pile", "zone=hand", "hidden_card", "untested",
        "other=x"]


@pytest.mark.parametrize("said", [set(s) for n in range(4) for s in itertools.combinations(SAID, n)])
def test_the_labels_near_what_was_said_are_every_label_it_names(said):
    everything = [k for k in LABELS.keys if _named(k, said)]
    assert [k for k in LABELS.near(said) if _named(k, said)] == everything
