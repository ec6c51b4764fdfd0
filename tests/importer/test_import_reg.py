"""rulebook import --layout reg on an excerpt of the REG 11.0.0 PDF text (tests/fixtures/importer/reg)."""

from __future__ import annotations

import shutil

import yaml

from rulebook_compiler.build import check
from rulebook_compiler.importer.layouts import LAYOUTS
from rulebook_compiler.importer.run import run_import

from pathlib import Path

EXCERPT = Path(__file__).resolve().parent.parent / "fixtures" / "importer" / "reg" / "reg-excerpt.txt"


def test_imports_every_entry_and_reports_the_release_without_version(tmp_path, import_cli):
    result = import_cli(EXCERPT, "--layout", "reg", "--out", tmp_path / "out")
    assert result.exit_code == 0
    assert result.stdout == f"imported 7 terms and 24 clauses into {tmp_path / 'out'}; 0 lines not placed\n"
    assert result.stderr == (f"{EXCERPT}:82:1: warning: 'Released: 7/26/2011' names no version: kept in the "
                             "term's editor notes\n  hint: add the version label by hand if the editors know it\n")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        ".rulebook-output", "_sources.yaml", "abilities.yaml", "ability-activation-order.yaml", "action-priority.yaml",
        "battle-resolution.yaml", "cannot-be-negated.yaml", "multi-brigade.yaml", "special-ability-structure.yaml"]


def test_a_listing_entry_becomes_metadata_sections_and_clauses(tmp_path, import_cli):
    import_cli(EXCERPT, "--layout", "reg", "--out", tmp_path)
    assert (tmp_path / "cannot-be-negated.yaml").read_text(encoding="utf-8") == """\
id: cannot-be-negated
name: Cannot be Negated
updated:
  date: '2021-06-21'
  version: 7.1.0
editor_notes: 'The entry prints "Released: 7/26/2011" without a version label.'
sections:
- key: how-to-play
  kind: how-to-play
  title: How to Play
  clauses:
  - id: the-cannot-be-negated-modifier
    text: >-
      The cannot be negated modifier modifies an ability, making it so that the modified
      ability cannot be affected by any interrupt, prevent or negate effect. The modified
      ability can still be targeted by the interrupt, prevent or negate effect.
  - id: an-ability-cannot-be-modified
    text: >-
      An ability cannot be modified by cannot be negated retroactively; it has cannot
      be negated when the card it is on is played or not at all.
- key: special-conditions
  kind: special-conditions
  title: Special Conditions
  clauses:
  - id: all-abilities-on-dominants-are
    text: All abilities on Dominants are cannot be negated.
"""


def _clauses(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [(c["id"], c["text"]) for s in data["sections"] for c in s["clauses"]]


def test_numbered_steps_keep_their_number_and_a_step_id(tmp_path, import_cli):
    import_cli(EXCERPT, "--layout", "reg", "--out", tmp_path)
    assert [i for i, _ in _clauses(tmp_path / "ability-activation-order.yaml")] == [
        "when-one-or-more-characters", "step-1", "step-2"]
    assert _clauses(tmp_path / "action-priority.yaml")[1:] == [
        ("step-1", "1) each player can use any pending triggered effects they control,"),
        ("step-2", "2) then each player can play a Dominant,"),
        ("step-3", "3) then each player can use a manually triggered effect they control.")]


def test_a_paragraph_runs_on_over_a_page_break_and_bullets_around_one_stay_apart(tmp_path, import_cli):
    import_cli(EXCERPT, "--layout", "reg", "--out", tmp_path)
    abilities = dict(_clauses(tmp_path / "abilities.yaml"))
    assert abilities["an-effect-targets-a-card"].endswith(
        "so the pronouns don’t refer to anything if there was no original target.")
    battle = [t for _, t in _clauses(tmp_path / "battle-resolution.yaml")]
    assert battle[1:5] == ["Evil Character wins", "Hero wins", "Mutual destruction", "Stalemate"]


def test_a_word_hyphenated_at_a_line_end_is_joined_whole(tmp_path, import_cli):
    import_cli(EXCERPT, "--layout", "reg", "--out", tmp_path)
    assert _clauses(tmp_path / "multi-brigade.yaml") == [(
        "a-multi-brigade-card-has", "A multi-brigade card has more than one brigade in the icon box. "
        "A dual icon card is multi-brigade if the targeted identity has more than one brigade.")]


def test_the_clauses_tile_each_entry_of_the_source(untiled):
    """Every word of each entry, in order, is in its clauses, and nothing else is: apart from the documented
    artifacts (whitespace, page furniture, headings and metadata lines, list glyphs)."""
    result = run_import(EXCERPT, LAYOUTS["reg"])
    assert len(result.terms) == len(result.document.entries) == 7
    assert untiled(result, EXCERPT) == []


def test_imported_files_are_a_rulebook_edition_that_passes_check(tmp_path, import_cli):
    import_cli(EXCERPT, "--layout", "reg", "--out", tmp_path / "out")
    root = tmp_path / "rb"
    (root / "editions").mkdir(parents=True)
    shutil.copytree(tmp_path / "out", root / "editions" / "11.0.0", ignore=shutil.ignore_patterns(".*"))
    (root / "vocabulary.yaml").write_text("facts: []\n")
    (root / "rulebook.yaml").write_text(
        "title: T\npublisher: P\neditions:\n  - {id: 11.0.0, title: REG, date: '2026-03-13', status: draft}\n")
    book, problems = check(root)
    assert [str(p) for p in problems] == []
    assert [t.id for t in book.latest.terms] == [
        "abilities", "ability-activation-order", "action-priority", "battle-resolution", "cannot-be-negated",
        "multi-brigade", "special-ability-structure"]


def test_the_same_source_gives_the_same_bytes(tmp_path, import_cli):
    import_cli(EXCERPT, "--layout", "reg", "--out", tmp_path / "a")
    import_cli(EXCERPT, "--layout", "reg", "--out", tmp_path / "b")
    for path in sorted((tmp_path / "a").glob("*.yaml")):
        assert path.read_bytes() == (tmp_path / "b" / path.name).read_bytes()


def test_only_imports_the_entries_named(tmp_path, import_cli):
    result = import_cli(EXCERPT, "--layout", "reg", "--out", tmp_path, "--only", "Abilities", "--only", "Multi-Brigade")
    assert result.exit_code == 0
    assert sorted(p.name for p in tmp_path.glob("*.yaml")) == ["_sources.yaml", "abilities.yaml",
                                                                "multi-brigade.yaml"]


def test_only_an_entry_the_source_does_not_have_is_an_error_with_a_hint(tmp_path, import_cli):
    result = import_cli(EXCERPT, "--layout", "reg", "--out", tmp_path / "out", "--only", "Abilties")
    assert result.exit_code == 1
    assert result.stderr == (f"{EXCERPT}: error: no entry is named 'Abilties'\n  hint: did you mean 'Abilities'?\n"
                             f"{EXCERPT}:82:1: warning: 'Released: 7/26/2011' names no version: kept in the term's "
                             "editor notes\n  hint: add the version label by hand if the editors know it\n"
                             "1 problem found\n")
    assert not (tmp_path / "out").exists()


SUB_ITEMS = EXCERPT.parent / "sub-items.txt"


def test_lettered_and_numbered_sub_items_are_steps_and_a_line_in_lower_case_runs_on(tmp_path, import_cli):
    """Lines of REG 11.0.0's Immune and Protect and Interrupt: "a     Mutual ..." is an item, not text; "have a
    character ..." ends item 3, though the line before it looks short next to the entry's widest."""
    import_cli(SUB_ITEMS, "--layout", "reg", "--out", tmp_path)
    assert [i for i, _ in _clauses(tmp_path / "immune-and-protect.yaml")] == [
        "step-3", "a-mutual-destruction-if-all", "b-evil-characters-winning-if", "c-heroes-winning-if-all",
        "d-stalemate-if-not-all"]  # a step's id names its number (as earlier editions' do), an item's its words
    assert [t for _, t in _clauses(tmp_path / "immune-and-protect.yaml")] == [
        "3 After determining (1) or (2) for each character in battle, the state of the battle is:",
        "a Mutual destruction if all Heroes in battle and all Evil Characters in battle are being defeated.",
        "b Evil Characters winning if all Heroes but not all Evil Characters in battle are being defeated.",
        "c Heroes winning if all Evil Characters but not all Heroes in battle are being defeated.",
        "d Stalemate if not all Heroes in battle and not all Evil Characters in battle are being defeated."]
    assert [t for _, t in _clauses(tmp_path / "interrupt.yaml")][-1] == (
        "3 The ability is on an Enhancement that was in battle while the ability was interrupted, but does not "
        "have a character in battle that can use it.")


def test_the_clauses_tile_the_sub_items(untiled):
    assert untiled(run_import(SUB_ITEMS, LAYOUTS["reg"]), SUB_ITEMS) == []


def test_clause_ids_are_unique_in_the_term_across_its_sections(tmp_path, import_cli):
    source = tmp_path / "guide.txt"
    source.write_text("Table of Contents \nHeal \nGlossary of Terms \n \nHeal \n \n1. Draw a card. \n \n"
                      "How to Play \n \n1. Draw a card. \n2. Discard a card. \n", encoding="utf-8")
    import_cli(source, "--layout", "reg", "--out", tmp_path / "out")
    assert [i for i, _ in _clauses(tmp_path / "out" / "heal.yaml")] == ["step-1", "step-1-2", "step-2"]


def test_a_heading_with_nothing_under_it_is_a_line_of_text(tmp_path, import_cli):
    """REG 11.0.0's Disease entry: "See Poison and Disease" stands alone, like a sub-heading, and is its text."""
    source = tmp_path / "guide.txt"
    source.write_text("Table of Contents \nDisease \nHeal \nGlossary of Terms Jump to letter \n \n41 \n \nDisease \n"
                      " \n \nSee Poison and Disease \n \n                          \n49 \n \nHeal \n \nA heal "
                      "effect removes poison. \n", encoding="utf-8")
    result = import_cli(source, "--layout", "reg", "--out", tmp_path / "out")
    assert result.stderr == ""
    data = yaml.safe_load((tmp_path / "out" / "disease.yaml").read_text(encoding="utf-8"))
    assert data["sections"] == [{"key": "definition", "kind": "definition", "title": None, "clauses": [
        {"id": "see-poison-and-disease", "text": "See Poison and Disease"}]}]


def test_a_second_import_into_the_same_folder_replaces_it_whole(tmp_path, import_cli):
    import_cli(EXCERPT, "--layout", "reg", "--out", tmp_path / "out")
    result = import_cli(EXCERPT, "--layout", "reg", "--out", tmp_path / "out", "--only", "Abilities")
    assert result.exit_code == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [".rulebook-output", "_sources.yaml",
                                                                     "abilities.yaml"]


def test_an_empty_last_updated_line_is_metadata_and_its_entry_an_entry(tmp_path, import_cli):
    """REG 11.0.0's Banish: "Banish (Remove from the game)" in the contents, "Banish" over an empty
    "Last Updated:" and a "Released" line: an entry with its release, the empty line in the editor notes."""
    source = tmp_path / "guide.txt"
    source.write_text("Table of Contents \nBanish (Remove from the game) \nGlossary of Terms \n \nBanish \n"
                      "Last Updated:  \nReleased: 5/10/2017 (v4.1.0)\n \nHow to Play \n \nBanish the card. \n",
                      encoding="utf-8")
    result = import_cli(source, "--layout", "reg", "--out", tmp_path / "out")
    assert result.exit_code == 0
    assert result.stdout == f"imported 1 term and 1 clause into {tmp_path / 'out'}; 0 lines not placed\n"
    assert result.stderr == (f"{source}:6:1: warning: 'Last Updated:' is empty: kept in the term's editor notes\n"
                             "  hint: add the date and version by hand if the editors know them\n")
    assert (tmp_path / "out" / "banish.yaml").read_text(encoding="utf-8") == """\
id: banish
name: Banish
released:
  date: '2017-05-10'
  version: 4.1.0
editor_notes: The entry prints "Last Updated:" with no date and no version.
sections:
- key: how-to-play
  kind: how-to-play
  title: How to Play
  clauses:
  - id: banish-the-card
    text: Banish the card.
"""


def test_a_heading_the_contents_name_with_a_parenthesis_after_it_is_an_entry(tmp_path, import_cli):
    """REG 11.0.0's Give: the contents list "Give (Take)", the heading is "Give" (no metadata after it, a
    "See" line under it): the entry after Gain, not a section of Gain."""
    source = tmp_path / "guide.txt"
    source.write_text("Table of Contents \nGain \nGive (Take) \nGlossary of Terms \n \nGain \n \nGain a card. \n \n"
                      "Give \n \n \nSee Take and Give \n", encoding="utf-8")
    result = import_cli(source, "--layout", "reg", "--out", tmp_path / "out")
    assert result.stdout == f"imported 2 terms and 2 clauses into {tmp_path / 'out'}; 0 lines not placed\n"
    assert [_clauses(tmp_path / "out" / f"{t}.yaml") for t in ("gain", "give")] == [
        [("gain-a-card", "Gain a card.")], [("see-take-and-give", "See Take and Give")]]


def test_a_sub_bullet_printed_as_o_is_a_bullet_without_its_glyph(tmp_path, import_cli, untiled):
    """REG 11.0.0's Used By: second-level bullets print as "o" and spaces (a word processor's glyph)."""
    source = tmp_path / "guide.txt"
    source.write_text("Table of Contents \nGlossary of Terms \n \nGlossary of Terms \n \nUsed By \n \nUsed when: \n"
                      "•    it is moved unless: \no   it is a weapon OR \no   it is placed \n", encoding="utf-8")
    import_cli(source, "--layout", "reg", "--out", tmp_path / "out")
    assert [t for _, t in _clauses(tmp_path / "out" / "used-by.yaml")] == [
        "Used when:", "it is moved unless:", "it is a weapon OR", "it is placed"]
    assert untiled(run_import(source, LAYOUTS["reg"]), source) == []


GUIDE = Path(__file__).resolve().parents[2] / "rulebook" / "sources" / "REG_PDF_11.0.0.txt"


def test_the_clauses_tile_every_entry_of_the_whole_guide(untiled):
    """The bundled REG 11.0.0 text, every entry of its four chapters: the clauses hold each entry's words."""
    result = run_import(GUIDE, LAYOUTS["reg"])
    assert len(result.terms) == len(result.document.entries)
    assert untiled(result, GUIDE) == []
