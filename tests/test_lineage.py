"""Declared lineage while checking: the keys read into the model, each error positioned.

Fixtures: tests/fixtures/lineage/{rename,split,merge,move} pass check; each
error-* folder is the rename fixture with one lineage mistake in v2 (or v1),
but error-split-from-unchanged: a clause of a new term file split from a clause
of a term carried over unchanged (what the importer proposed in issue 23).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.model import Lineage
from rulebook_compiler.schema import published_schema

LINEAGE = Path(__file__).resolve().parent / "fixtures" / "lineage"


def _check(case: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "rulebook_compiler", "check", case], cwd=LINEAGE, env=env,
                          capture_output=True, text=True, timeout=60)


def test_each_kind_of_lineage_is_read_into_the_clause_and_the_edition():
    expected = {
        "rename": [Lineage("cure#choose-a-character", "formerly", ("cure#step-1",)),
                   Lineage("cure#remove-the-poison", "formerly", ("cure#step-2",))],
        "split": [Lineage("cure#timing-discard", "split_from", ("cure#timing",)),
                  Lineage("cure#timing-preparation", "split_from", ("cure#timing",))],
        "merge": [Lineage("cure#back-to-territory", "merged_from", ("cure#returns", "cure#restores"))],
        "move": [Lineage("heal#no-lost-souls", "moved_from", ("cure#lost-souls",))],
    }
    for case, lineage in expected.items():
        book = load_rulebook(LINEAGE / case)
        v1, v2 = book.editions
        assert v1.lineage == ()
        assert list(v2.lineage) == lineage, case
        assert [v2.clause_by_ref[x.clause].lineage for x in lineage] == lineage
        assert all(c.lineage is None for c in v1.clause_by_ref.values())


def test_two_parts_may_name_the_clause_they_were_split_from():
    # (the split fixture: timing-preparation and timing-discard both say split_from: timing)
    proc = _check("split")
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout == "A split clause: 2 editions (v1, v2), 1 term, latest v2 with 1 term and 3 clauses: no problems\n"


ERRORS = {
    "error-unknown-clause": [
        "error-unknown-clause/editions/v2/cure.yaml:13:19: error: 'formerly' names clause 'cure#stpe-1', "
        "which edition 'v1' (the edition before 'v2') does not have",
        "  hint: did you mean 'step-1'?"],
    "error-unknown-term": [
        "error-unknown-term/editions/v2/cure.yaml:13:21: error: 'moved_from' names term 'kure', "
        "which edition 'v1' (the edition before 'v2') does not have",
        "  hint: did you mean 'cure'?"],
    "error-claimed-twice": [
        "error-claimed-twice/editions/v2/cure.yaml:16:19: error: clause 'cure#step-1' of edition 'v1' is "
        "claimed twice: by 'cure#choose' (formerly) and by 'cure#pick' (formerly)",
        "  hint: if it was split, each part says split_from: step-1"],
    "error-formerly-and-merged": [
        "error-formerly-and-merged/editions/v2/cure.yaml:16:23: error: clause 'cure#step-1' of edition 'v1' "
        "is claimed twice: by 'cure#choose' (formerly) and by 'cure#cure-it' (merged_from)",
        "  hint: if it was split, each part says split_from: step-1"],
    "error-still-present": [
        "error-still-present/editions/v2/cure.yaml:15:19: error: clause 'cure#step-1' of edition 'v1' is "
        "claimed twice: by 'cure#step-1' (same id) and by 'cure#choose' (formerly)",
        "  hint: 'cure#step-1' is still a clause of edition 'v2'; if it was split, each part says "
        "split_from: step-1"],
    "error-first-edition": [
        "error-first-edition/editions/v1/cure.yaml:14:9: error: edition 'v1' is the first edition: no edition "
        "before it has clauses for 'formerly' to name",
        "  hint: drop 'formerly'"],
    "error-two-keys": [
        "error-two-keys/editions/v2/cure.yaml:14:9: error: a clause declares one lineage; this one has both "
        "'formerly' and 'split_from'",
        "  hint: a clause made of several says merged_from: [A, B]; one renamed and moved to another term "
        "says moved_from: TERM#CLAUSE"],
    "error-moved-from-own-term": [
        "error-moved-from-own-term/editions/v2/cure.yaml:13:21: error: 'moved_from' names a clause of this "
        "clause's own term 'cure'",
        "  hint: within a term, say formerly: step-1"],
    "error-split-from-unchanged": [
        "error-split-from-unchanged/editions/v2/heal.yaml:12:21: error: 'split_from' names clause "
        "'cure#lost-souls', which edition 'v2' still has with the words it had in edition 'v1': "
        "no part of it left",
        "  hint: a split takes words from the clause it names; a clause worded like another needs no "
        "lineage: drop 'split_from'"],
    "error-formerly-itself": [
        "error-formerly-itself/editions/v2/cure.yaml:13:19: error: clause 'step-1' cannot be formerly itself",
        "  hint: a clause that keeps its id needs no lineage"],
}


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_each_lineage_error_is_reported_at_its_key(case: str):
    proc = _check(case)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.splitlines() == ERRORS[case] + ["1 problem found"]


def test_merged_from_names_at_least_two_clauses(tmp_path):
    import shutil

    root = tmp_path / "rb"
    shutil.copytree(LINEAGE / "merge", root)
    path = root / "editions" / "v2" / "cure.yaml"
    path.write_text(path.read_text().replace("merged_from: [returns, restores]", "merged_from: [returns]"))
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "rulebook_compiler", "check", "rb"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "rb/editions/v2/cure.yaml:10:22: error: 'merged_from' of clause 'back-to-territory' must have at least "
        "2 item(s)",
        "1 problem found"]


def test_the_schema_describes_every_lineage_key():
    clause = published_schema()["$defs"]["clause"]["properties"]
    for key in ("formerly", "split_from", "merged_from", "moved_from"):
        assert clause[key]["description"].split(":")[0] in ("Renamed", "Split", "Merged", "Moved")


def test_formerly_with_a_term_says_to_use_moved_from(tmp_path):
    import shutil

    root = tmp_path / "rb"
    shutil.copytree(LINEAGE / "rename", root)
    path = root / "editions" / "v2" / "cure.yaml"
    path.write_text(path.read_text().replace("formerly: step-1", "formerly: heal#step-1"))
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "rulebook_compiler", "check", "rb"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "rb/editions/v2/cure.yaml:15:19: error: 'formerly' of clause 'choose-a-character' cannot be "
        "'heal#step-1'",
        "  hint: 'formerly' names a clause of the same term by its id, like 'step-1'; one that came from "
        "another term says moved_from: TERM#CLAUSE",
        "1 problem found"]
