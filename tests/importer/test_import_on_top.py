"""rulebook import --rulebook: on top of an existing edition, ids kept, lineage proposed, decisions listed."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from rulebook_compiler.build import check

ON_TOP = Path(__file__).resolve().parent.parent / "fixtures" / "importer" / "on-top"
SOURCE = ON_TOP / "source-b.txt"


def _import(tmp_path, import_cli):
    out = tmp_path / "out"
    result = import_cli(SOURCE, "--layout", "reg", "--out", out, "--rulebook", ON_TOP / "rulebook")
    assert result.exit_code == 0, result.output
    return result, out


def _clauses(path: Path) -> dict[str, dict]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {c["id"]: c for s in data["sections"] for c in s["clauses"]}


def test_unchanged_and_reworded_clauses_keep_their_ids(tmp_path, import_cli):
    _, out = _import(tmp_path, import_cli)
    battle = _clauses(out / "battle.yaml")
    assert battle["unchanged"] == {"id": "unchanged",
                                   "text": "A battle ends when both players decline to play more cards."}
    assert battle["reworded"]["text"] == ("Only one battle per turn is allowed, unless an ability allows for "
                                          "additional battles.")
    assert battle["order"] == {"id": "order", "text": "Here is the order to follow:"}


def test_lineage_is_proposed_for_renumbered_merged_split_and_moved_clauses(tmp_path, import_cli):
    _, out = _import(tmp_path, import_cli)
    battle = _clauses(out / "battle.yaml")
    proposed = {cid: {k: c[k] for k in ("formerly", "merged_from", "split_from", "moved_from") if k in c}
                for cid, c in battle.items()}
    assert {k: v for k, v in proposed.items() if v} == {
        "determine-the-outcome-of-the": {"formerly": "step-1"},
        "activate-all-effects-that-trigger": {"formerly": "step-2"},
        "first-half": {"merged_from": ["first-half", "second-half"]},
        "alone-is-checked-at-any": {"split_from": "whole"},
    }
    assert "add-the-numbers-of-the" in battle  # the new step 1 is not taken for the old step-1
    assert _clauses(out / "poison-and-disease.yaml")["a-poison-effect-discards-a"]["moved_from"] == \
        "poison#what-poison-does"


def test_every_decision_is_listed_at_its_line_with_its_default(tmp_path, import_cli):
    result, out = _import(tmp_path, import_cli)
    s = str(SOURCE)
    removed = "is not in the import: removed? (a term file replaces the whole term; a patch could keep it)"
    assert result.stdout.splitlines()[:-2] == [
        f"imported 2 terms and 10 clauses into {out} (2 written, 0 unchanged carried over; and 1 withdrawal "
        "proposed); 0 lines not placed; 10 decisions for an editor, each with its default:",
        f"{s}: poison: term 'poison' of edition 'a' is not in the document: withdrawn? [default: withdrawn]",
        f"{s}:6:1: battle#dropped: clause 'dropped' of edition 'a' {removed} [default: removed]",
        f"{s}:12:1: battle#determine-the-outcome-of-the: rulebook import proposes formerly: step-1, as it was "
        "step 1 of edition 'a' (the same words); confirm or remove it [default: formerly as proposed]",
        f"{s}:13:1: battle#activate-all-effects-that-trigger: rulebook import proposes formerly: step-2, as it "
        "was step 2 of edition 'a' (the same words); confirm or remove it [default: formerly as proposed]",
        f"{s}:17:1: battle#reworded: reworded since edition 'a' (words 89% alike): it keeps the id of "
        "battle#reworded; same rule? [default: the same rule, its id kept]",
        f"{s}:19:1: battle#first-half: rulebook import proposes merged_from: first-half, "
        "second-half, as its words hold those of battle#first-half, battle#second-half of edition 'a'; confirm "
        "or remove it [default: merged_from as proposed]",
        f"{s}:21:1: battle#whole: reworded since edition 'a' (words 81% alike): it keeps the id of battle#whole; "
        "same rule? [default: the same rule, its id kept]",
        f"{s}:23:1: battle#alone-is-checked-at-any: rulebook import proposes split_from: whole, as its words are "
        "part of battle#whole of edition 'a'; confirm or remove it [default: split_from as proposed]",
        f"{s}:25:1: poison-and-disease: new term: edition 'a' has no term 'poison-and-disease' nor one named "
        "'Poison and Disease' [default: added]",
        f"{s}:29:1: poison-and-disease#a-poison-effect-discards-a: rulebook import proposes moved_from: "
        "poison#what-poison-does, as poison#what-poison-does of edition 'a' has the same words; confirm or "
        "remove it [default: moved_from as proposed]",
    ]
    # the document no longer has Poison: withdrawn, its one clause moved to Poison and Disease
    assert (out / "poison.yaml").read_text(encoding="utf-8") == (
        "id: poison\nwithdrawn: true\neditor_notes: term 'poison' of edition 'a' is not in the document\n")


def test_the_import_is_a_next_edition_whose_lineage_check_accepts(tmp_path, import_cli):
    _, out = _import(tmp_path, import_cli)
    root = tmp_path / "rb"
    shutil.copytree(ON_TOP / "rulebook", root)
    shutil.copytree(out, root / "editions" / "b", ignore=shutil.ignore_patterns(".*"))
    with open(root / "rulebook.yaml", "a", encoding="utf-8") as fh:
        fh.write("  - {id: b, title: Edition b imported, date: '2026-03-13', status: draft, version: 2.0.0}\n")
    book, problems = check(root)
    assert [str(p) for p in problems] == []
    lineage = {l.clause: (l.kind, l.sources) for l in book.edition("b").lineage}
    assert lineage == {
        "battle#determine-the-outcome-of-the": ("formerly", ("battle#step-1",)),
        "battle#activate-all-effects-that-trigger": ("formerly", ("battle#step-2",)),
        "battle#first-half": ("merged_from", ("battle#first-half", "battle#second-half")),
        "battle#alone-is-checked-at-any": ("split_from", ("battle#whole",)),
        "poison-and-disease#a-poison-effect-discards-a": ("moved_from", ("poison#what-poison-does",)),
    }


def test_an_unknown_base_edition_is_a_usage_error(tmp_path, import_cli):
    result = import_cli(SOURCE, "--layout", "reg", "--out", tmp_path / "out", "--rulebook", ON_TOP / "rulebook",
                        "--base", "z")
    assert (result.exit_code, result.stderr) == (2, (
        "rulebook: warning: --base is deprecated; use --after\n"
        "rulebook: error: unknown edition 'z'\n  hint: editions: a\n"))
    result = import_cli(SOURCE, "--layout", "reg", "--out", tmp_path / "out", "--rulebook", ON_TOP / "rulebook",
                        "--after", "z")
    assert (result.exit_code, result.stderr) == (2, "rulebook: error: unknown edition 'z'\n  hint: editions: a\n")
    assert not (tmp_path / "out").exists()


def test_an_output_inside_the_rulebook_is_refused(tmp_path, import_cli):
    root = tmp_path / "rb"
    shutil.copytree(ON_TOP / "rulebook", root)
    result = import_cli(SOURCE, "--layout", "reg", "--out", root / "editions" / "b", "--rulebook", root)
    assert result.exit_code == 2
    assert "is inside the rulebook folder" in result.stderr
    assert not (root / "editions" / "b").exists()


def test_over_the_cross_term_limit_merges_and_moves_are_looked_for_within_terms_only(tmp_path, import_cli,
                                                                                      monkeypatch):
    from rulebook_compiler.importer import match

    monkeypatch.setattr(match, "MAX_CROSS_PAIRS", 10)
    result, out = _import(tmp_path, import_cli)
    # 6 left by the passes within terms: the new step 1, two reworded, the merged one, the split part, the moved one
    over = [line for line in result.stdout.splitlines() if "MAX_CROSS_PAIRS" in line]
    assert over == [
        f"{SOURCE}:11:1: battle: 6 clauses left unmatched times 10 clauses of edition 'a' is over MAX_CROSS_PAIRS "
        "(10, in rulebook_compiler/importer/match.py): merges, moves and splits were looked for within each term only "
        "[default: looked for within each term only]"]
    assert "moved_from" not in _clauses(out / "poison-and-disease.yaml")["a-poison-effect-discards-a"]
    assert _clauses(out / "battle.yaml")["first-half"]["merged_from"] == ["first-half",
                                                                                          "second-half"]


def test_metadata_naming_an_edition_without_the_term_is_a_decision(tmp_path, import_cli):
    source = tmp_path / "source.txt"
    text = SOURCE.read_text(encoding="utf-8")
    source.write_text(text.replace("Released: 3/13/2026 (v2.0.0)", "Released: 1/1/2020 (v1.0.0)"), encoding="utf-8")
    result = import_cli(source, "--layout", "reg", "--out", tmp_path / "out", "--rulebook", ON_TOP / "rulebook")
    assert [line for line in result.stdout.splitlines() if "check refuses" in line] == [
        f"{source}:25:1: poison-and-disease: 'released' names version 1.0.0, whose edition 'a' in the rulebook does "
        "not have this term: check refuses it; correct it or leave it out [default: left out]"]
    assert "released" not in yaml.safe_load((tmp_path / "out" / "poison-and-disease.yaml").read_text(encoding="utf-8"))


def test_a_reworded_step_like_its_neighbours_is_not_read_as_their_merge(tmp_path, import_cli):
    """REG 11.0.0's Ability Activation Order: steps 2 to 4 share most of their words; step 2 reworded ("add" to
    "move") holds 80% of the words of old steps 2 and 3 each, yet is one of them, not both."""
    root = tmp_path / "rb"
    (root / "editions" / "a").mkdir(parents=True)
    (root / "vocabulary.yaml").write_text("facts: []\n")
    (root / "rulebook.yaml").write_text("title: T\npublisher: P\neditions:\n"
                                        "  - {id: a, title: A, date: null, status: draft}\n")
    (root / "editions" / "a" / "order.yaml").write_text(
        "id: order\nname: Order\nsections:\n- key: definition\n  kind: definition\n  title: null\n  clauses:\n"
        "  - id: step-2\n    text: 2. Activate all abilities in the order written on the card EXCEPT those with "
        "effects that add a character to a battle.\n"
        "  - id: step-3\n    text: 3. Activate all gained abilities in the order gained EXCEPT those with effects "
        "that add a character to a battle.\n")
    source = tmp_path / "b.txt"
    source.write_text("Table of Contents \nOrder \nGlossary of Terms Jump \n \nOrder \n \n"
                      "2. Activate all abilities in the order written on the card EXCEPT those with effects that "
                      "move a character to a battle. \n"
                      "3. Activate all gained abilities in the order gained EXCEPT those with effects that move a "
                      "character to a battle. \n", encoding="utf-8")
    result = import_cli(source, "--layout", "reg", "--out", tmp_path / "out", "--rulebook", root)
    assert result.exit_code == 0
    clauses = _clauses(tmp_path / "out" / "order.yaml")
    assert sorted(clauses) == ["step-2", "step-3"]
    assert [k for c in clauses.values() for k in c if k.endswith("_from") or k == "formerly"] == []
