"""rulebook import --layout numbered: comprehensive rules (numbered rules, a glossary), renumbered versions."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from rulebook_compiler.build import check
from rulebook_compiler.importer.layouts import LAYOUTS
from rulebook_compiler.importer.run import run_import

NUMBERED = Path(__file__).resolve().parent.parent / "fixtures" / "importer" / "numbered"
V1 = NUMBERED / "cr-2022-excerpt.txt"
V2 = NUMBERED / "cr-renumbered.txt"


def _rules(path: Path) -> list[tuple[str, str | None, str]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [(c["id"], c.get("number"), c["text"]) for s in data["sections"] for c in s["clauses"]]


def test_sections_are_terms_and_printed_numbers_are_data(tmp_path, import_cli):
    result = import_cli(V1, "--layout", "numbered", "--out", tmp_path)
    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout == f"imported 6 terms and 15 clauses into {tmp_path}; 0 lines not placed\n"
    assert sorted(p.name for p in tmp_path.glob("*.yaml")) == [
        "_sources.yaml", "block-alone.yaml", "color.yaml", "copy.yaml", "general.yaml", "players.yaml",
        "the-magic-golden-rules.yaml"]
    assert yaml.safe_load((tmp_path / "general.yaml").read_text(encoding="utf-8"))["name"] == "100. General"
    assert _rules(tmp_path / "general.yaml")[:2] == [
        ("these-magic-rules-apply-to", "100.1.", "These Magic rules apply to any Magic game with two or more "
                                                 "players, including two-player games and multiplayer games."),
        ("a-two-player-game-is", "100.1a", "A two-player game is a game that begins with only two players.")]


def test_an_example_line_runs_on_in_its_rule(tmp_path, import_cli):
    import_cli(V1, "--layout", "numbered", "--out", tmp_path)
    golden = {number: text for _, number, text in _rules(tmp_path / "the-magic-golden-rules.yaml")}
    assert golden["101.2."].endswith("the \"can't\" effect takes precedence. Example: If one effect reads \"You "
                                     "may play an additional land this turn\" and another reads \"You can't play "
                                     "lands this turn,\" the effect that precludes you from playing lands wins.")


def test_each_glossary_line_is_a_clause(tmp_path, import_cli):
    import_cli(V1, "--layout", "numbered", "--out", tmp_path)
    assert [t for _, _, t in _rules(tmp_path / "copy.yaml")] == [
        "1. To create a new object whose copiable values have been set to those of another object.",
        "2. An object whose copiable values have been set to those of another object.",
        "See rule 707, \"Copying Objects.\""]


def test_the_clauses_tile_each_entry_of_both_versions(untiled):
    for source in (V1, V2):
        assert untiled(run_import(source, LAYOUTS["numbered"]), source) == [], source.name


def _rulebook_of_v1(tmp_path, import_cli) -> Path:
    root = tmp_path / "rb"
    import_cli(V1, "--layout", "numbered", "--out", tmp_path / "v1")
    shutil.copytree(tmp_path / "v1", root / "editions" / "v1", ignore=shutil.ignore_patterns(".*"))
    (root / "vocabulary.yaml").write_text("facts: []\n")
    (root / "rulebook.yaml").write_text("title: CR\npublisher: P\neditions:\n"
                                        "  - {id: v1, title: July 2022, date: '2022-07-08', status: draft}\n")
    return root


def test_a_renumbered_rule_keeps_its_id_by_its_text(tmp_path, import_cli):
    root = _rulebook_of_v1(tmp_path, import_cli)
    result = import_cli(V2, "--layout", "numbered", "--out", tmp_path / "v2", "--rulebook", root)
    assert result.exit_code == 0, result.output
    assert _rules(tmp_path / "v2" / "general.yaml") == [
        ("these-magic-rules-apply-to", "100.1.", "These Magic rules apply to any Magic game with two or more "
                                                 "players, including two-player games and multiplayer games."),
        ("a-game-begins-with-two", "100.1a", "A game begins with two or more players."),
        ("a-two-player-game-is", "100.1b", "A two-player game is a game that begins with only two players."),
        ("a-multiplayer-game-is-a", "100.1c", "A multiplayer game is a game that begins with more than two "
                                              "players. See section 8, \"Multiplayer Rules.\""),
    ]
    assert _rules(tmp_path / "v2" / "players.yaml") == [
        ("in-a-two-player-game", "102.2.", "In a two-player game, a player's opponent is the other player in that "
                                           "game.")]


def test_the_renumbered_version_is_the_next_edition(tmp_path, import_cli):
    root = _rulebook_of_v1(tmp_path, import_cli)
    import_cli(V2, "--layout", "numbered", "--out", tmp_path / "v2", "--rulebook", root)
    shutil.copytree(tmp_path / "v2", root / "editions" / "v2", ignore=shutil.ignore_patterns(".*"))
    with open(root / "rulebook.yaml", "a", encoding="utf-8") as fh:
        fh.write("  - {id: v2, title: Renumbered, date: null, status: draft}\n")
    book, problems = check(root)
    assert [str(p) for p in problems] == []
    general = {c.id: c.number for c in book.edition("v2").term_by_id["general"].clauses}
    assert general == {"these-magic-rules-apply-to": "100.1.", "a-game-begins-with-two": "100.1a",
                       "a-two-player-game-is": "100.1b", "a-multiplayer-game-is-a": "100.1c"}
    assert book.edition("v1").term_by_id["general"].clauses[1].number == "100.1a"


def test_a_rule_matched_by_number_alone_is_a_decision(tmp_path, import_cli):
    root = _rulebook_of_v1(tmp_path, import_cli)
    source = tmp_path / "v2.txt"
    source.write_text("Contents\n\nCredits\n\n1. Game Concepts\n\n102. Players\n\n"
                      "102.2. In a game of two players, the opponent of a player is the one other player.\n\n"
                      "Credits\n", encoding="utf-8")
    # --only: the other terms of v1, which this document lacks, carry over (a whole document withdraws them)
    result = import_cli(source, "--layout", "numbered", "--out", tmp_path / "v2", "--rulebook", root,
                        "--only", "102. Players")
    # 52%: difflib's ratio of the two word sequences, 2 * 7 words matched / (16 + 11) words
    assert result.stdout.splitlines()[1:-2] == [
        f"{source}:7:1: players#a-player-is-one-of: clause 'a-player-is-one-of' of edition 'v1' is not in the "
        "import: removed? (a term file replaces the whole term; a patch could keep it) [default: removed]",
        f"{source}:9:1: players#in-a-two-player-game: matched to players#in-a-two-player-game of edition 'v1' "
        "by its number 102.2. alone (words 52% alike): same rule? [default: the same rule, its id kept]",
    ]
