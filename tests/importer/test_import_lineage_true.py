"""rulebook import --rulebook proposes lineage only where the old clause's words left their place (issue 23).

Tiny synthetic documents in the `numbered` layout: edition 'a' is imported
first, then a second document on top of it. A clause worded like an old
clause that is still there (unchanged, or reworded but holding those words,
or in a term the import does not touch) is a new clause, not a part of it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from rulebook_compiler.build import check

LINEAGE_KEYS = ("formerly", "split_from", "merged_from", "moved_from")


def _document(sections: dict[str, list[str]]) -> str:
    body = "".join(f"{heading}\n\n" + "".join(f"{rule}\n\n" for rule in rules) for heading, rules in sections.items())
    return f"Contents\n\nCredits\n\n1. Game Concepts\n\n{body}Credits\n"


def _base(tmp_path: Path, import_cli, sections: dict[str, list[str]]) -> Path:
    source = tmp_path / "a.txt"
    source.write_text(_document(sections), encoding="utf-8")
    result = import_cli(source, "--layout", "numbered", "--out", tmp_path / "a")
    assert result.exit_code == 0, result.output
    root = tmp_path / "rb"
    shutil.copytree(tmp_path / "a", root / "editions" / "a", ignore=shutil.ignore_patterns(".*"))
    (root / "vocabulary.yaml").write_text("facts: []\n")
    (root / "rulebook.yaml").write_text("title: T\npublisher: P\neditions:\n"
                                        "  - {id: a, title: A, date: '2020-01-01', status: published}\n")
    return root


def _on_top(tmp_path: Path, import_cli, root: Path, sections: dict[str, list[str]]):
    source = tmp_path / "b.txt"
    source.write_text(_document(sections), encoding="utf-8")
    result = import_cli(source, "--layout", "numbered", "--out", tmp_path / "b", "--rulebook", root)
    assert result.exit_code == 0, result.output
    return result, source


def _lineage(path: Path) -> dict[str, dict]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {c["id"]: {k: c[k] for k in LINEAGE_KEYS if k in c} for s in data["sections"] for c in s["clauses"]}


def _checked(tmp_path: Path, root: Path) -> list[str]:
    """The defaults applied: the new edition's folder holds what the import wrote; check's problems."""
    shutil.copytree(tmp_path / "b", root / "editions" / "b", ignore=shutil.ignore_patterns(".*"))
    with open(root / "rulebook.yaml", "a", encoding="utf-8") as fh:
        fh.write("  - {id: b, title: B, date: null, status: draft}\n")
    return [str(p) for p in check(root)[1]]


SETUP = "100.1. Each player begins the game with twenty life points."
TURNS = "101.1. A turn has four phases, in order."


def test_a_rule_worded_like_one_still_there_unchanged_is_new_not_split_from_it(tmp_path, import_cli):
    # The case: 101.2 is 7 of 8 words of 100.1 (a part, by the words alone), but 100.1 is still there.
    root = _base(tmp_path, import_cli, {"100. Setup": [SETUP], "101. Turns": [TURNS]})
    result, _ = _on_top(tmp_path, import_cli, root, {
        "100. Setup": [SETUP],
        "101. Turns": [TURNS, "101.2. Each player begins the game with twenty life."]})
    assert _lineage(tmp_path / "b" / "turns.yaml") == {"a-turn-has-four-phases": {},
                                                       "each-player-begins-the-game": {}}
    assert "proposes" not in result.stdout
    assert _checked(tmp_path, root) == []


def test_a_rule_worded_like_one_of_a_term_not_imported_is_new_not_split_from_it(tmp_path, import_cli):
    # --only: the term 'setup' carries over unchanged, and so does its rule.
    root = _base(tmp_path, import_cli, {"100. Setup": [SETUP], "101. Turns": [TURNS]})
    source = tmp_path / "b.txt"
    source.write_text(_document({"100. Setup": [SETUP],
                                 "101. Turns": [TURNS, "101.2. Each player begins the game with twenty life."]}))
    result = import_cli(source, "--layout", "numbered", "--out", tmp_path / "b", "--rulebook", root,
                        "--only", "101. Turns")
    assert result.exit_code == 0, result.output
    assert _lineage(tmp_path / "b" / "turns.yaml")["each-player-begins-the-game"] == {}
    assert _checked(tmp_path, root) == []


def test_a_rule_worded_like_a_part_of_one_reworded_that_still_holds_it_is_new(tmp_path, import_cli):
    # 100.1 is reworded (it keeps its id) and still holds every word of the new 101.2.
    root = _base(tmp_path, import_cli, {"100. Setup": [SETUP], "101. Turns": [TURNS]})
    _on_top(tmp_path, import_cli, root, {
        "100. Setup": ["100.1. Each player begins the game with twenty life points, face up."],
        "101. Turns": [TURNS, "101.2. Each player begins the game with twenty life."]})
    assert _lineage(tmp_path / "b" / "turns.yaml")["each-player-begins-the-game"] == {}
    assert _checked(tmp_path, root) == []


def test_a_part_whose_words_left_the_rule_it_was_in_is_split_from_it(tmp_path, import_cli):
    # 100.1 loses its second sentence (matched by its number: words 67% alike), which becomes 100.2.
    root = _base(tmp_path, import_cli, {"100. Setup": [
        "100.1. Each player begins the game with twenty life. Each player then draws a hand of seven cards."]})
    _on_top(tmp_path, import_cli, root, {"100. Setup": [
        "100.1. Each player begins the game with twenty life.",
        "100.2. Each player then draws a hand of seven cards."]})
    assert _lineage(tmp_path / "b" / "setup.yaml") == {"each-player-begins-the-game": {},
                                                       "each-player-then-draws-a": {
                                                           "split_from": "each-player-begins-the-game"}}
    assert _checked(tmp_path, root) == []


def test_a_rule_like_one_of_a_term_left_out_that_carries_over_with_others_is_not_moved_from_it(tmp_path,
                                                                                             import_cli):
    # --only "101. Turns": 'setup' is left out, so the rulebook carries it over whole, its first rule with it,
    # although the document now prints that rule in 'turns': a move would claim a clause still there.
    root = _base(tmp_path, import_cli, {"100. Setup": [SETUP, "100.2. Each player shuffles a deck of cards."],
                                        "101. Turns": [TURNS]})
    source = tmp_path / "b.txt"
    source.write_text(_document({"100. Setup": ["100.2. Each player shuffles a deck of cards."], "101. Turns": [
        TURNS, "101.2. Each player begins the game with twenty life points."]}), encoding="utf-8")
    result = import_cli(source, "--layout", "numbered", "--out", tmp_path / "b", "--rulebook", root,
                        "--only", "101. Turns")
    assert result.exit_code == 0, result.output
    assert _lineage(tmp_path / "b" / "turns.yaml")["each-player-begins-the-game"] == {}
    assert result.stdout.splitlines()[1:-2] == [
        f"{source}:15:1: turns#each-player-begins-the-game: its words are like those of "
        "setup#each-player-begins-the-game of edition 'a' (the same words), which term 'setup' carries over (it "
        "is not in the import): no moved_from proposed; if they moved here, withdraw or change term 'setup' and "
        "add moved_from: setup#each-player-begins-the-game [default: no moved_from; term 'setup' carries over]"]
    assert _checked(tmp_path, root) == []


def test_a_term_the_document_no_longer_has_is_withdrawn_and_a_rule_it_had_moved_from_it(tmp_path, import_cli):
    # The whole document is imported and no longer has 'setup': the term is withdrawn (nothing carries over
    # silently), so its rule printed in 'turns' now moved there.
    root = _base(tmp_path, import_cli, {"100. Setup": [SETUP, "100.2. Each player shuffles a deck of cards."],
                                        "101. Turns": [TURNS]})
    result, source = _on_top(tmp_path, import_cli, root, {"101. Turns": [
        TURNS, "101.2. Each player begins the game with twenty life points."]})
    assert _lineage(tmp_path / "b" / "turns.yaml")["each-player-begins-the-game"] == {
        "moved_from": "setup#each-player-begins-the-game"}
    assert (tmp_path / "b" / "setup.yaml").read_text(encoding="utf-8") == (
        "id: setup\nwithdrawn: true\neditor_notes: term 'setup' of edition 'a' is not in the document\n")
    assert result.stdout.splitlines()[1:-2] == [
        f"{source}: setup: term 'setup' of edition 'a' is not in the document: withdrawn? [default: withdrawn]",
        f"{source}:11:1: turns#each-player-begins-the-game: rulebook import proposes moved_from: "
        "setup#each-player-begins-the-game, as setup#each-player-begins-the-game of edition 'a' has the same "
        "words; confirm or remove it [default: moved_from as proposed]"]
    assert _checked(tmp_path, root) == []


FACES = "100.1. A card has two faces."
NAMES = "100.2. Each face has its own name and its own mana cost."


def test_a_rule_whose_sentence_moved_into_its_reworded_neighbour_is_merged_into_it(tmp_path, import_cli):
    # 100.2 is gone and every word of it is now in 100.1, which is reworded (7 of its 10 words kept: too few for
    # the pass that finds a merge by words alone, 80% of each) and matched by its number: a merge into it
    library = "100.2. A library's order may not be changed."
    root = _base(tmp_path, import_cli, {"100. Setup": ["100.1. Players may not look at the cards in a library.",
                                                       library]})
    result, source = _on_top(tmp_path, import_cli, root, {"100. Setup": [
        "100.1. No player may look at the cards in any library. A library's order may not be changed."]})
    assert _lineage(tmp_path / "b" / "setup.yaml") == {
        "players-may-not-look-at": {"merged_from": ["players-may-not-look-at", "a-library-s-order-may"]}}
    assert result.stdout.splitlines()[1:-2] == [
        f"{source}:9:1: setup#players-may-not-look-at: rulebook import proposes merged_from: "
        "players-may-not-look-at, a-library-s-order-may, as setup#a-library-s-order-may of edition 'a' is gone "
        "and every word of it is here, in setup#players-may-not-look-at (matched by its number 100.1.); confirm "
        "or remove it [default: merged_from as proposed]"]
    assert _checked(tmp_path, root) == []


def test_a_merge_keeps_the_id_of_the_rule_of_its_term_it_continues(tmp_path, import_cli):
    # Comprehensive Rules 2022-09-08 712.4 and 713.3 (Meld Cards), one rule 712.8 in 2023-04-14, when 713 went
    # into 712: the merged rule keeps the id of 712.4, its term's rule, rather than a slug of its new words
    old_712 = "712.4. Each face of a double-faced card has its own set of characteristics."
    old_713 = ("713.3. The front face of each meld card and the combined face formed by a meld pair each has its own "
               "set of characteristics.")
    root = _base(tmp_path, import_cli, {"712. Double-Faced Cards": [old_712], "713. Meld Cards": [old_713]})
    result, source = _on_top(tmp_path, import_cli, root, {"712. Double-Faced Cards": [
        "712.8. Each face of a transforming or modal double-faced card has its own set of characteristics. The "
        "front face of each meld card and the combined face formed by a meld pair each has its own set of "
        "characteristics."]})
    assert _lineage(tmp_path / "b" / "double-faced-cards.yaml") == {
        "each-face-of-a-double": {"merged_from": ["each-face-of-a-double", "meld-cards#the-front-face-of-each"]}}
    assert _checked(tmp_path, root) == []


def test_a_rule_that_still_holds_the_words_it_had_merges_nothing(tmp_path, import_cli):
    # 100.2 is gone; 100.1 held its words already (a rule that repeats another's): no merge from it
    both = "100.1. A card has two faces. Each face has its own name and its own mana cost."
    root = _base(tmp_path, import_cli, {"100. Setup": [both, NAMES]})
    result, _ = _on_top(tmp_path, import_cli, root, {"100. Setup": [both + " Its back face is its second."]})
    assert _lineage(tmp_path / "b" / "setup.yaml") == {"a-card-has-two-faces": {}}
    assert "merged_from" not in result.stdout
