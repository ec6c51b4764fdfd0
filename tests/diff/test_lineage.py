"""The diff follows declared lineage first: renamed, split, merged and moved clauses read as such.

Fixtures: tests/fixtures/lineage/ (rename, split, merge, move: v1 -> v2;
chain: a rename in v2, then a merge in v3). Each diff runs twice through the
command, so that the second reads the cache's copy of the rulebook.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.cli import main
from rulebook_compiler.diff.engine import diff_editions
from rulebook_compiler.diff.lineage import Group, declared_groups

LINEAGE = Path(__file__).resolve().parents[1] / "fixtures" / "lineage"


@pytest.fixture
def here(monkeypatch):
    monkeypatch.chdir(LINEAGE)


def _run(*args: str) -> str:
    outputs = []
    for _ in range(2):  # the second run reads the cache
        result = CliRunner().invoke(main, list(args), catch_exceptions=False)
        assert (result.exit_code, result.stderr) == (0, "")
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1]
    return outputs[0]


def test_renumbered_steps_under_descriptive_ids_read_as_renamed_and_renumbered(here):
    # step-1's words changed: renamed, with its new place; step-2 only changed its number: renumbered.
    assert _run("diff", "v1", "v2", "--rulebook", "rename") == """\
rulebook diff v1 -> v2: 1 added, 1 renamed, 1 renumbered, 1 semantic
renumbered: 1 clause (step 2 -> step 3)

cure
  semantic  cure#order  rename/editions/v2/cure.yaml:8:9
    (steps of cure.order: 2 steps -> 3; inserted reveal-the-cure (step 1); renumbered choose-a-character (1 -> 2), remove-the-poison (2 -> 3))
    To cure, follow these steps:
    breaks conformance: 1 of 3 cases of v1's suite flips: cure.order.next_step-e497e0c54b39 (expected cure#step-1, now cure#reveal-the-cure)
  added  cure#reveal-the-cure  rename/editions/v2/cure.yaml:11:9
    {+1. Reveal the cure to your opponent.+}
  renamed  cure#step-1 -> cure#choose-a-character  rename/editions/v2/cure.yaml:13:9
    (renamed from cure#step-1 (declared))
    (step 1 -> 2 of cure.order)
    [-1. Choose a poisoned character-]{+2. Pick one character that suffers from poison+}.
  renumbered  cure#step-2 -> cure#remove-the-poison  rename/editions/v2/cure.yaml:16:9
    (renamed from cure#step-2 (declared))
    (step 2 -> 3 of cure.order)
    [-2-]{+3+}. Remove the poison from it.
"""


def test_without_the_declarations_the_same_rename_is_guessed_as_added_and_removed(tmp_path, monkeypatch):
    # What declaring adds: step-1's words changed past what matching by text pairs.
    shutil.copytree(LINEAGE / "rename", tmp_path / "rename")
    path = tmp_path / "rename" / "editions" / "v2" / "cure.yaml"
    path.write_text(path.read_text().replace("        formerly: step-1\n", "").replace("        formerly: step-2\n", ""))
    monkeypatch.chdir(tmp_path)
    out = _run("diff", "v1", "v2", "--rulebook", "rename", "--format", "json")
    kinds = {(c["old_clause"], c["new_clause"]): (c["kind"], c["matched_by"]) for c in json.loads(out)["changes"]}
    assert kinds[("step-1", None)] == ("removed", None)
    assert kinds[(None, "choose-a-character")] == ("added", None)
    assert kinds[("step-2", "remove-the-poison")] == ("renumbered", "text")


def test_a_declared_split_names_both_parts_in_the_order_of_the_term(here):
    assert _run("diff", "v1", "v2", "--rulebook", "split") == """\
rulebook diff v1 -> v2: 1 split

cure
  split  cure#timing -> cure#timing-preparation+timing-discard  split/editions/v2/cure.yaml:8:9
    (split from cure#timing (declared))
    [-A cure can be played during the preparation phase. It can also be played during-]{+Play a cure in the preparation phase. Or play it in+} the discard phase.
"""


def test_a_declared_merge_is_a_merge_never_a_removal(here):
    out = json.loads(_run("diff", "v1", "v2", "--rulebook", "merge", "--format", "json"))
    assert out["summary"] == {"added": 0, "removed": 0, "moved": 0, "renamed": 0, "renumbered": 0, "split": 0, "merged": 1,
                              "editorial": 0, "reworded": 0, "semantic": 0}
    (change,) = out["changes"]
    assert {k: change[k] for k in ("kind", "old_clause", "new_clause", "matched_by", "confidence", "lineage")} == {
        "kind": "merged", "old_clause": "returns+restores", "new_clause": "back-to-territory",
        "matched_by": "lineage", "confidence": 1.0,
        "lineage": {"keys": ["merged_from"], "from": ["cure#returns", "cure#restores"],
                    "to": ["cure#back-to-territory"]}}


def test_the_merge_read_backwards_is_a_split(here):
    out = _run("diff", "v2", "v1", "--rulebook", "merge")
    assert out.splitlines()[:5] == [
        "rulebook diff v2 -> v1: 1 split",
        "",
        "cure",
        "  split  cure#back-to-territory -> cure#returns+restores  merge/editions/v1/cure.yaml:8:9",
        "    (split from cure#back-to-territory (declared))",
    ]


def test_a_clause_moved_to_another_term_names_both_terms(here):
    assert _run("diff", "v1", "v2", "--rulebook", "move", "--format", "markdown") == """\
## Rulebook changes: v1 → v2

**1 rule change**, 0 clarifications, 0 editorial

| kind | changes |
| --- | ---: |
| moved | 1 |
| **total** | **1** |

### Rule changes

- `cure#lost-souls -> heal#no-lost-souls` (moved): the words add, drop or rewrite a rule

<details><summary><code>heal</code>: 1 rule change</summary>

#### moved: `cure#lost-souls -> heal#no-lost-souls`

v1: `move/editions/v1/cure.yaml:10:9` · v2: `move/editions/v2/heal.yaml:10:9` · fingerprint `cfc1a109ed1ec4dd`
<br>_moved from `cure#lost-souls` (declared)_

> <del>A</del><ins>Neither a heal nor a</ins> cure can<del> never</del> target a Lost Soul.

</details>
"""


def test_the_html_diff_names_the_declared_kind(here):
    out = _run("diff", "v1", "v2", "--rulebook", "rename", "--format", "html")
    assert out.count('<span class="kind">renamed</span>') == 1
    assert out.count('<span class="kind">renumbered</span>') == 1
    assert "renamed from cure#step-1 (declared)" in out


def test_declarations_compose_across_editions_and_read_back_the_other_way():
    book = load_rulebook(LINEAGE / "chain")
    v1, v2, v3 = book.editions
    assert declared_groups(book, v1, book, v3) == (
        Group(("cure#a", "cure#c"), ("cure#d",), ("formerly", "merged_from")),)
    assert declared_groups(book, v3, book, v1) == (
        Group(("cure#d",), ("cure#a", "cure#c"), ("formerly", "merged_from")),)
    assert declared_groups(book, v1, book, v2) == (Group(("cure#a",), ("cure#b",), ("formerly",)),)
    assert declared_groups(book, v2, book, v2) == ()
    merged = [c for c in diff_editions(book, v1, book, v3).changes if c.kind == "merged"]
    assert [(c.old_clause, c.new_clause) for c in merged] == [("a+c", "d")]


def test_history_follows_the_declarations_edition_by_edition(here):
    out = _run("history", "cure", "--rulebook", "chain")
    steps = [out.split("\n\nrulebook diff ")[0]] + ["rulebook diff " + s for s in out.split("\n\nrulebook diff ")[1:]]
    assert [s.splitlines()[0] for s in steps] == [
        "introduced in v1: 4 added",
        "rulebook diff v1 -> v2: 1 renamed",
        "rulebook diff v2 -> v3: 1 merged, 1 reworded",
    ]
    assert steps[1].splitlines()[3:5] == ["  renamed  cure#a -> cure#b  chain/editions/v2/cure.yaml:8:9",
                                          "    (renamed from cure#a (declared))"]
    assert steps[2].splitlines()[3:5] == ["  merged  cure#b+c -> cure#d  chain/editions/v3/cure.yaml:8:9",
                                          "    (merged from cure#b, cure#c (declared))"]


def test_a_git_revision_before_the_new_edition_follows_its_declarations(tmp_path, monkeypatch):
    # The first commit holds v1 only; the second adds v2, which declares the renames.
    import subprocess

    def git(*args):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    book = tmp_path / "rulebook"
    shutil.copytree(LINEAGE / "rename", book)
    shutil.move(book / "editions" / "v2", tmp_path / "v2-later")
    full = (book / "rulebook.yaml").read_text()
    (book / "rulebook.yaml").write_text(full.split("  - id: v2")[0])
    git("init", "-q", "-b", "main")
    git("config", "user.email", "t@example.org")
    git("config", "user.name", "T")
    git("add", ".")
    git("commit", "-qm", "v1")
    shutil.move(tmp_path / "v2-later", book / "editions" / "v2")
    (book / "rulebook.yaml").write_text(full)
    git("add", ".")
    git("commit", "-qm", "v2")
    monkeypatch.chdir(tmp_path)
    # Two revisions are compared whole: v2, added, is compared with v1, the edition before it.
    whole = json.loads(_run("diff", "git:HEAD~1", "git:HEAD", "--format", "json"))
    assert [(e["id"], e["change"], e["compared_with"]) for e in whole["editions"]] == \
        [("v1", "same", None), ("v2", "added", "v1")]
    out = whole["editions"][1]["diff"]
    assert (out["old"]["edition"], out["new"]["edition"]) == ("v1", "v2")
    renamed = [(c["old_clause"], c["new_clause"], c["matched_by"], c["kind"]) for c in out["changes"]
               if c["kind"] in ("renamed", "renumbered")]
    assert renamed == [("step-1", "choose-a-character", "lineage", "renamed"),
                       ("step-2", "remove-the-poison", "lineage", "renumbered")]


def test_an_edition_that_declares_lineage_leaves_the_earlier_editions_outputs_as_they_were(tmp_path, monkeypatch):
    # chain without v3, then with it (v3 merges b and c, declared): v1's and v2's export and
    # cases.json are the same bytes, and the diff reads v3's merge as a merge.
    before, after = tmp_path / "before", tmp_path / "after"
    shutil.copytree(LINEAGE / "chain", after)
    shutil.copytree(LINEAGE / "chain", before)
    shutil.rmtree(before / "editions" / "v3")
    full = (after / "rulebook.yaml").read_text()
    (before / "rulebook.yaml").write_text(full.split("  - id: v3")[0])
    monkeypatch.chdir(tmp_path)

    def outputs(root):
        found = {}
        for edition in ("v1", "v2"):
            found[("export", edition)] = _run("export", "--rulebook", root.name, "--edition", edition)
            out = tmp_path / f"suite-{root.name}-{edition}"
            _run("conformance", "generate", "--rulebook", root.name, "--edition", edition, "--out", str(out))
            found[("cases", edition)] = (out / "cases.json").read_bytes()
        return found

    assert outputs(before) == outputs(after)
    assert _run("diff", "v2", "v3", "--rulebook", "after").splitlines()[0] == \
        "rulebook diff v2 -> v3: 1 merged, 1 reworded"


def test_a_split_whose_kept_part_is_unchanged_between_the_editions_diffed_reads_as_a_split(here, tmp_path):
    # split-then-restored: v2 splits "Nor can a heal." off cure#lost-souls into heal#no-lost-souls; v3
    # gives cure#lost-souls its v1 words again. From v1 to v3 the term cure is the same, but the declared
    # split still joins its clause to heal's: each command used to end in KeyError: 'cure' (issue 23).
    out = json.loads(_run("diff", "v1", "v3", "--rulebook", "split-then-restored", "--format", "json"))
    (change,) = out["changes"]
    assert {k: change[k] for k in ("kind", "old_clause", "new_clause", "matched_by", "lineage")} == {
        "kind": "split", "old_clause": "lost-souls", "new_clause": "lost-souls+no-lost-souls",
        "matched_by": "lineage",
        "lineage": {"keys": ["split_from"], "from": ["cure#lost-souls"],
                    "to": ["cure#lost-souls", "heal#no-lost-souls"]}}
    for fmt in ("text", "markdown", "html"):
        assert _run("diff", "v1", "v3", "--rulebook", "split-then-restored", "--format", fmt) != ""
    for term in ("cure", "heal"):
        assert _run("history", term, "--rulebook", "split-then-restored").startswith("introduced in v1: ")
    for edition in ("v2", "v3"):
        assert _run("changelog", "--edition", edition, "--rulebook", "split-then-restored").startswith("# What changed in The ")


def test_the_history_of_a_term_a_clause_moved_into_shows_the_move_and_not_the_other_terms_changes(tmp_path,
                                                                                                   monkeypatch):
    # history heal diffs heal alone; the move joins it to cure, whose own rewording is not heal's history.
    # (Before: KeyError: 'cure' at engine.py, issue 23.)
    shutil.copytree(LINEAGE / "move", tmp_path / "move")
    cure = tmp_path / "move" / "editions" / "v2" / "cure.yaml"
    cure.write_text(cure.read_text().replace("Cures are instantaneous.", "Cures are always instantaneous."))
    monkeypatch.chdir(tmp_path)
    out = _run("history", "heal", "--rulebook", "move")
    assert out.split("\n\nrulebook diff ")[1] == """\
v1 -> v2: 1 moved

heal
  moved  cure#lost-souls -> heal#no-lost-souls  move/editions/v2/heal.yaml:10:9
    (moved from cure#lost-souls (declared))
    [-A-]{+Neither a heal nor a+} cure can[- never-] target a Lost Soul.
"""
