"""Clause-level overlays: a term file that patches the term as the previous edition resolved it.

Each fixture under tests/fixtures/overlay/ is a pair of rulebooks with the same
edition 'a': in ``patch/`` edition 'b' patches a term of 'a'; in ``whole/`` it
writes the term out whole as the patch means it. The two must resolve to the
same model and the same export, and edition 'a' must not notice 'b' at all.
Broken patches under tests/fixtures/overlay/broken/ have their exact messages.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook_compiler import export
from rulebook_compiler.build import load_rulebook
from rulebook_compiler.lock import edition_entry

OVERLAY = Path(__file__).resolve().parent / "fixtures" / "overlay"
PAIRS = ["two-clauses", "every-operation"]
BROKEN = OVERLAY / "broken"
BROKEN_CASES = sorted(p.name for p in BROKEN.iterdir() if (p / "expected.txt").is_file())


def _export(root: Path, edition: str) -> str:
    book = load_rulebook(root)
    return export.dumps(export.edition_json(book, book.edition(edition)))


@pytest.mark.parametrize("pair", PAIRS)
def test_a_patch_resolves_to_the_whole_term_it_stands_for(pair):
    patched = load_rulebook(OVERLAY / pair / "patch").edition("b")
    whole = load_rulebook(OVERLAY / pair / "whole").edition("b")
    assert patched.term_by_id["targeting"] == whole.term_by_id["targeting"]
    assert patched.terms == whole.terms
    assert patched.changed == whole.changed == ("targeting",)
    # so the lock of a published edition does not care which form wrote it
    assert edition_entry(patched) == edition_entry(whole)


@pytest.mark.parametrize("pair", PAIRS)
def test_the_export_of_a_patched_edition_is_that_of_the_whole_term(pair):
    assert _export(OVERLAY / pair / "patch", "b") == _export(OVERLAY / pair / "whole", "b")


@pytest.mark.parametrize("pair", PAIRS)
def test_the_patched_edition_leaves_the_earlier_one_as_it_was(pair, tmp_path):
    alone = tmp_path / "alone"
    shutil.copytree(OVERLAY / pair / "patch", alone)
    shutil.rmtree(alone / "editions" / "b")
    text = (alone / "rulebook.yaml").read_text()
    (alone / "rulebook.yaml").write_text(text[:text.index("  - id: b\n")])
    book = load_rulebook(OVERLAY / pair / "patch")
    assert book.edition("a") == load_rulebook(alone).edition("a")
    assert _export(OVERLAY / pair / "patch", "a") == _export(alone, "a")
    assert _cases(OVERLAY / pair / "patch", "a", tmp_path / "with-b") == _cases(alone, "a", tmp_path / "alone-a")


def _cases(root: Path, edition: str, out: Path) -> bytes:
    from click.testing import CliRunner

    from rulebook_compiler.cli import main

    result = CliRunner().invoke(main, ["conformance", "generate", "--rulebook", str(root), "--edition", edition,
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    return (out / "cases.json").read_bytes()


def test_the_conformance_suite_of_a_patched_edition_is_that_of_the_whole_term(tmp_path):
    pair = OVERLAY / "every-operation"
    patched = _cases(pair / "patch", "b", tmp_path / "patch")
    assert patched == _cases(pair / "whole", "b", tmp_path / "whole")
    assert b'"targeting.may_target"' in patched


def test_the_digest_of_a_patched_term_is_that_of_its_resolved_content():
    a = load_rulebook(OVERLAY / "two-clauses" / "patch")
    whole = load_rulebook(OVERLAY / "two-clauses" / "whole")
    patched = a.edition("b").term_by_id["targeting"]
    assert patched.digest == whole.edition("b").term_by_id["targeting"].digest
    assert patched.digest != a.edition("a").term_by_id["targeting"].digest
    # a term the edition does not patch keeps the earlier version, digest and all
    assert a.edition("b").term_by_id["heal"] is a.edition("a").term_by_id["heal"]


def test_a_patched_term_points_at_the_file_that_wrote_each_part():
    root = OVERLAY / "two-clauses" / "patch"
    term = load_rulebook(root).edition("b").term_by_id["targeting"]
    b_file = os.path.relpath(root / "editions" / "b" / "targeting.yaml")
    a_file = os.path.relpath(root / "editions" / "a" / "targeting.yaml")
    clauses = {c.id: c for c in term.clauses}
    assert term.edition == "b"
    assert (term.loc.path, term.loc.line) == (b_file, 1)
    # a changed clause stands at the operation; what 'set' gives is in b's file, the rest in a's
    assert (clauses["protect"].loc.path, clauses["protect"].loc.line) == (b_file, 8)
    assert (clauses["discard-pile"].links[0].loc.path, clauses["discard-pile"].links[0].loc.line) == (a_file, 49)
    assert (clauses["protect"].rules[0].loc.path, clauses["protect"].rules[0].loc.line) == (b_file, 12)
    assert (clauses["target"].loc.path, clauses["target"].loc.line) == (a_file, 18)
    assert (term.decisions[0].loc.path, term.decisions[0].loc.line) == (a_file, 6)


def test_each_operation_resolves_in_order():
    term = load_rulebook(OVERLAY / "every-operation" / "patch").edition("b").term_by_id["targeting"]
    assert [(s.key, s.kind, s.title, [c.id for c in s.clauses]) for s in term.sections] == [
        ("definition", "definition", None,
         ["target", "ongoing", "in-play-only", "default-territory", "characters-only"]),
        ("examples", "named", "Examples", ["example-heal"]),
        ("clarifications", "named", "Clarifications from the 2021 guide", ["protect", "discard-pile"]),
        ("how-to-play", "how-to-play", None, ["first-step", "choose", "order"]),
    ]
    assert (term.name, term.aliases, term.notes) == ("Targeting and Choosing", ("Target", "Choose"), None)
    assert {c.id: c.section for c in term.clauses}["characters-only"] == "definition"
    # 'discard-pile' is changed by the operation at line 25 (its notes); its link is still a's
    root = OVERLAY / "every-operation" / "patch" / "editions"
    pile = {c.id: c for c in term.clauses}["discard-pile"]
    assert (pile.loc.path, pile.loc.line) == (os.path.relpath(root / "b" / "targeting.yaml"), 25)
    assert (pile.links[0].loc.path, pile.links[0].loc.line) == (os.path.relpath(root / "a" / "targeting.yaml"), 49)
    # a moved clause stands at the 'move' (line 19); its words are still a's
    moved = {c.id: c for c in term.clauses}["characters-only"]
    assert (moved.loc.path, moved.loc.line) == (os.path.relpath(root / "b" / "targeting.yaml"), 19)


def test_a_patch_of_a_patch_builds_on_the_resolved_term(tmp_path):
    root = tmp_path / "book"
    shutil.copytree(OVERLAY / "two-clauses" / "patch", root)
    with (root / "rulebook.yaml").open("a") as out:
        out.write("  - id: c\n    title: Third\n    date: null\n    status: draft\n")
    (root / "editions" / "c").mkdir()
    (root / "editions" / "c" / "targeting.yaml").write_text(
        "id: targeting\npatch:\n  - remove: protect\n  - add: {id: shield, text: A shield protects.}\n"
        "    section: clarifications\n")
    book = load_rulebook(root)
    term = book.edition("c").term_by_id["targeting"]
    assert [c.id for c in term.sections[-1].clauses] == ["characters-only", "discard-pile", "shield"]
    # edition b's changes are kept: default-territory as b patched it
    assert {c.id: c for c in term.clauses}["default-territory"] == \
        {c.id: c for c in book.edition("b").term_by_id["targeting"].clauses}["default-territory"]
    assert book.edition("c").changed == ("targeting",)


def run_check(case: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulebook_compiler", "check", case], cwd=BROKEN,
                          env={**os.environ, "NO_COLOR": "1"}, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("case", BROKEN_CASES)
def test_a_broken_patch_gets_its_exact_messages(case):
    proc = run_check(case)
    assert "Traceback" not in proc.stderr
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == (BROKEN / case / "expected.txt").read_text(encoding="utf-8")


def test_the_broken_cases_are_all_there():
    assert BROKEN_CASES == ["mistakes-in-operations", "nothing-to-patch", "problems-in-patched-clauses",
                            "removed-clause-still-linked", "text-drops-a-linked-phrase"]


def _with_editions(tmp_path: Path, patches: dict[str, str]) -> Path:
    """two-clauses/patch with more editions, each holding one patch of targeting."""
    root = tmp_path / "book"
    shutil.copytree(OVERLAY / "two-clauses" / "patch", root)
    for edition, text in patches.items():
        with (root / "rulebook.yaml").open("a") as out:
            out.write(f"  - id: {edition}\n    title: T\n    date: null\n    status: draft\n")
        (root / "editions" / edition).mkdir()
        (root / "editions" / edition / "targeting.yaml").write_text(text)
    return root


def test_lineage_a_patch_declares_is_its_edition_s_and_kept_clauses_declare_none_again(tmp_path):
    from rulebook_compiler.model import Lineage

    root = _with_editions(tmp_path, {
        "c": "id: targeting\npatch:\n  - change: protect\n    set: {id: shielded, formerly: protect}\n",
        "d": "id: targeting\npatch:\n  - remove: target\n",
    })
    book = load_rulebook(root)
    assert book.edition("c").lineage == (Lineage("targeting#shielded", "formerly", ("targeting#protect",)),)
    # d keeps 'shielded' as c resolved it: its lineage was c's news, not d's
    assert book.edition("d").lineage == ()
    shielded = {c.id: c for c in book.edition("d").term_by_id["targeting"].clauses}["shielded"]
    assert shielded.lineage is None
    assert shielded.text == "A protected character cannot be targeted."


def test_lineage_a_patch_declares_is_checked_against_the_edition_before(tmp_path):
    _with_editions(tmp_path, {
        "c": "id: targeting\npatch:\n  - add: {id: shield, text: A shield protects., formerly: protection}\n"
             "    section: clarifications\n"})
    proc = subprocess.run([sys.executable, "-m", "rulebook_compiler", "check", "book"], cwd=tmp_path,
                          env={**os.environ, "NO_COLOR": "1"}, capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == (
        "book/editions/c/targeting.yaml:3:59: error: 'formerly' names clause 'targeting#protection', "
        "which edition 'b' (the edition before 'c') does not have\n"
        "  hint: did you mean 'protect'?\n"
        "1 problem found\n")



def test_the_diff_of_a_patch_names_the_clauses_it_changed(monkeypatch):
    """Where default-territory now answers 'anywhere' in every situation, the witness has no fact."""
    from click.testing import CliRunner

    from rulebook_compiler.cli import main

    monkeypatch.chdir(OVERLAY / "two-clauses")
    result = CliRunner().invoke(main, ["diff", "a", "b", "--rulebook", "patch"], catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "rulebook diff a -> b: 2 semantic",
        "",
        "targeting",
        "  semantic  targeting#default-territory  patch/editions/b/targeting.yaml:3:5",
        "    Unless an ability says otherwise, it targets [-in territory-]{+anywhere+}.",
        "    behaviour: targeting.default_location changed: answer changed in 1 of 1 situation (see decisions below)",
        "    breaks conformance: 1 of 1 case of a's suite flips: targeting.default_location-2b8b931138ac "
        "(expected territory, now anywhere)",
        "  semantic  targeting#protect  patch/editions/b/targeting.yaml:8:5",
        "    A protected character [-can-]{+cannot+} be targeted.",
        "    behaviour: targeting.may_target narrowed in 1 of 8 situations; broadened in none (see decisions below)",
        "    breaks conformance: 1 of 3 cases of a's suite flips: targeting.may_target-61d0d7d5036f "
        "(expected yes, now no)",
        "",
        "decisions, predicates and constraints:",
        "  changed  decision targeting.default_location (targeting): "
        "Where an ability looks for targets when it does not say.",
        "    targeting.default_location changed: answer changed in 1 of 1 situation",
        "      territory -> anywhere in 1 situation: in every situation",
        "      when no fact holds: old territory (targeting#default-territory), "
        "new anywhere (targeting#default-territory)",
        "    changed by targeting#default-territory",
        "    breaks conformance: 1 of 1 case of a's suite flips: targeting.default_location-2b8b931138ac "
        "(expected territory, now anywhere)",
        "  changed  decision targeting.may_target (targeting): Whether an ability may target the card.",
        "    targeting.may_target narrowed in 1 of 8 situations; broadened in none",
        "      yes -> no in 1 situation: whenever in_play and protected and target_is_character",
        "      when in_play, protected, target_is_character: old yes (targeting#in-play-only), "
        "new no (targeting#protect)",
        "    changed by targeting#protect",
        "    breaks conformance: 1 of 3 cases of a's suite flips: targeting.may_target-61d0d7d5036f "
        "(expected yes, now no)",
    ]


def test_a_patch_over_the_limit_of_operations_is_refused_at_its_patch_key(tmp_path):
    spec = importlib.util.spec_from_file_location("bench_hostile", OVERLAY.parents[2] / "bench" / "hostile.py")
    hostile = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hostile)
    hostile.long_patch(tmp_path / "long", 1_001)
    proc = subprocess.run([sys.executable, "-m", "rulebook_compiler", "check", "long"], cwd=tmp_path,
                          env={**os.environ, "NO_COLOR": "1"}, capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr.splitlines()[-3:] == [
        "long/editions/v2/t.yaml:2:1: error: a patch of 1,001 operations is over the limit of 1,000",
        "  hint: write the term whole instead; the limit is MAX_PATCH_OPERATIONS = 1000 in "
        "rulebook_compiler/overlay.py (docs/format.md, Limits)",
        "1 problem found",
    ]


def test_a_patch_uses_the_vocabulary_of_its_own_edition(tmp_path):
    root = _with_editions(tmp_path, {
        "c": "id: targeting\npatch:\n  - change: characters-only\n    set:\n      rules:\n"
             "        - {decision: targeting.may_target, forbids: shrouded, exception_to: [targeting#in-play-only]}\n"})
    (root / "editions" / "c" / "_vocabulary.yaml").write_text(
        "facts:\n  add:\n    - {name: shrouded, type: bool, meaning: The card is shrouded.}\n")
    book = load_rulebook(root)
    rule = {c.id: c for c in book.edition("c").term_by_id["targeting"].clauses}["characters-only"].rules[0]
    assert (rule.decision, rule.kind, rule.exception_to) == ("targeting.may_target", "forbids",
                                                              ("targeting#in-play-only",))
    assert "shrouded" in book.edition("c").vocabulary.by_name
    assert "shrouded" not in book.edition("b").vocabulary.by_name


def test_a_patch_of_a_withdrawn_term_says_which_edition_withdrew_it(tmp_path):
    _with_editions(tmp_path, {"c": "id: targeting\nwithdrawn: true\n",
                                     "d": "id: targeting\npatch:\n  - remove: protect\n"})
    proc = subprocess.run([sys.executable, "-m", "rulebook_compiler", "check", "book"], cwd=tmp_path,
                          env={**os.environ, "NO_COLOR": "1"}, capture_output=True, text=True, timeout=60)
    assert proc.stderr.splitlines() == [
        "book/editions/a/heal.yaml:11:13: error: link to term 'targeting', which edition 'c' does not have",
        "book/editions/d/targeting.yaml:2:1: error: edition 'd' patches term 'targeting', "
        "which edition 'c' withdrew",
        "  hint: write the whole term, with 'name' and 'sections' instead of 'patch', to bring it back",
        "2 problems found",
    ]
