"""rulebook import --rulebook keeps a clause's id when it is reworded in place (issue 23): by its number and its
words, or, unnumbered, by its place between the clauses kept around it; never minting a slug of its new words."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from rulebook_compiler.build import check

# 6 words, then with a sentence of 26 more: difflib's ratio 2 * 6 / (6 + 32) = 0.32, under NUMBER_FLOOR
# (0.33); but every old word is still there, in order
OLD_RULE = "102.3. A player may concede any time."
GAINED = ("102.3. A player may concede any time. A player who concedes leaves the game at once, and every object "
          "that player owns leaves it too, unless a rule or an effect says otherwise.")


def _document(rules: list[str]) -> str:
    return "Contents\n\nCredits\n\n1. Game Concepts\n\n102. Players\n\n" + "".join(f"{r}\n\n" for r in rules) + \
        "Credits\n"


def _rulebook(tmp_path: Path, import_cli, text: str, layout: str) -> Path:
    source = tmp_path / "a.txt"
    source.write_text(text, encoding="utf-8")
    assert import_cli(source, "--layout", layout, "--out", tmp_path / "a").exit_code == 0
    root = tmp_path / "rb"
    shutil.copytree(tmp_path / "a", root / "editions" / "a", ignore=shutil.ignore_patterns(".*"))
    (root / "vocabulary.yaml").write_text("facts: []\n")
    (root / "rulebook.yaml").write_text("title: T\npublisher: P\neditions:\n"
                                        "  - {id: a, title: A, date: '2020-01-01', status: draft}\n")
    return root


def _on_top(tmp_path: Path, import_cli, root: Path, text: str, layout: str):
    source = tmp_path / "b.txt"
    source.write_text(text, encoding="utf-8")
    result = import_cli(source, "--layout", layout, "--rulebook", root, "--out", tmp_path / "b")
    assert result.exit_code == 0, result.output
    return result, source


def _ids(path: Path) -> list[str]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [c["id"] for s in data["sections"] for c in s["clauses"]]


def test_a_rule_that_gained_a_sentence_under_its_number_keeps_its_id(tmp_path, import_cli):
    root = _rulebook(tmp_path, import_cli, _document(["102.1. A player is one of the people in the game.",
                                                      OLD_RULE]), "numbered")
    result, source = _on_top(tmp_path, import_cli, root, _document(["102.1. A player is one of the people in the "
                                                                    "game.", GAINED]), "numbered")
    assert _ids(tmp_path / "b" / "players.yaml") == ["a-player-is-one-of", "a-player-may-concede-any"]
    assert result.stdout.splitlines()[1:-2] == [
        f"{source}:11:1: players#a-player-may-concede-any: matched to players#a-player-may-concede-any of edition "
        "'a' by its number 102.3. alone (words 32% alike, all of its old words kept): same rule? [default: the same rule, its id kept]"]


def test_a_rule_under_the_same_number_with_other_words_is_not_matched_by_it(tmp_path, import_cli):
    # one word ("A") of 6 + 7 in common: 0.15, under NUMBER_FLOOR; its old words are not in it either
    root = _rulebook(tmp_path, import_cli, _document([OLD_RULE]), "numbered")
    _on_top(tmp_path, import_cli, root, _document(["102.3. A deck holds at least sixty cards."]), "numbered")
    assert _ids(tmp_path / "b" / "players.yaml") == ["a-deck-holds-at-least"]


REG = ("Table of Contents \nBattle \nGlossary of Terms Jump \n \nBattle \n \n"
       "A battle ends when both players decline to play more cards. \n \n{middle} \n \n"
       "Heroes cannot enter battle on the evil side. \n")


def test_an_unnumbered_clause_reworded_in_place_keeps_its_id(tmp_path, import_cli):
    # "Only one battle ... allowed." gains a clause: 2 * 6 / (7 + 14) = 0.57 alike, between the same two clauses
    root = _rulebook(tmp_path, import_cli, REG.format(middle="Only one battle per turn is allowed."), "reg")
    result, source = _on_top(tmp_path, import_cli, root, REG.format(
        middle="Only one battle per turn is allowed, unless an ability allows for additional battles."), "reg")
    assert _ids(tmp_path / "b" / "battle.yaml") == ["a-battle-ends-when-both", "only-one-battle-per-turn",
                                                    "heroes-cannot-enter-battle-on"]
    assert result.stdout.splitlines()[1:-2] == [
        f"{source}:9:1: battle#only-one-battle-per-turn: reworded in place since edition 'a' (words 57% alike, "
        "between the same clauses): it keeps the id of battle#only-one-battle-per-turn; same rule? "
        "[default: the same rule, its id kept]"]
    shutil.copytree(tmp_path / "b", root / "editions" / "b", ignore=shutil.ignore_patterns(".*"))
    with open(root / "rulebook.yaml", "a", encoding="utf-8") as fh:
        fh.write("  - {id: b, title: B, date: null, status: draft}\n")
    assert [str(p) for p in check(root)[1]] == []
