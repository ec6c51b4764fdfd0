"""The diff over comparisons: a restatement as a comparison is editorial, a moved boundary is a rule change."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.cli import main
from rulebook_compiler.diagnostics import Location
from rulebook_compiler.diff.behaviour import merged_vocabulary
from rulebook_compiler.model import Fact, Vocabulary

ORDERED = Path(__file__).resolve().parent.parent / "fixtures" / "ordered"


def test_nine_spelled_out_rules_restated_as_one_comparison_is_editorial(monkeypatch):
    monkeypatch.chdir(ORDERED)
    result = CliRunner().invoke(main, ["diff", "o1", "o2", "--rulebook", "."])
    assert (result.exit_code, result.output) == (0, (
        "rulebook diff o1 -> o2: 1 editorial\n"
        "\n"
        "ability-activation-order\n"
        "  editorial  ability-activation-order#up-to-current-step  editions/o2/ability-activation-order.yaml:15:9\n"
        "    Only the abilities up to the current step activate.\n"
        "    behaviour: ability_activation.activates equivalent in all 81 situations\n"))


def test_a_comparison_moved_off_its_bound_is_narrowed_with_the_boundary_as_witness(tmp_path, monkeypatch):
    shutil.copytree(ORDERED, tmp_path / "old")
    shutil.copytree(ORDERED, tmp_path / "new")
    path = tmp_path / "new" / "editions" / "o2" / "ability-activation-order.yaml"
    path.write_text(path.read_text().replace("{at_most: {ability_step: {fact: current_step}}}",
                                             "{before: {ability_step: {fact: current_step}}}"))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["diff", "old", "new"])
    clause = "ability-activation-order#up-to-current-step"
    # Two folders are compared whole: the record's lines, then o2's diff (the only edition that changed).
    head, edition = result.output.split("\n\n", 1)
    assert head == "rulebook diff old -> new: 1 edition changed\neditions:\n  o2 (draft): content: 1 semantic"
    assert (result.exit_code, edition) == (0, (
        "rulebook diff old (o2) -> new (o2): 1 semantic\n"
        "\n"
        "ability-activation-order\n"
        f"  semantic  {clause}  new/editions/o2/ability-activation-order.yaml:15:9\n"
        "    Only the abilities up to the current step activate.\n"
        "    behaviour: ability_activation.activates narrowed in 9 of 81 situations; broadened in none"
        " (see decisions below)\n"
        "    breaks conformance: 1 of 3 cases of o2's suite flips: ability_activation.activates-42176fe18574 "
        "(expected yes, now no)\n"
        "    drift: the machine-readable meaning changed but the text did not\n"
        "\n"
        "decisions, predicates and constraints:\n"
        "  changed  decision ability_activation.activates (ability-activation-order): "
        "Whether the ability has activated by the current step.\n"
        "    ability_activation.activates narrowed in 9 of 81 situations; broadened in none\n"
        "      yes -> no in 9 situations:\n"
        "        whenever ability_step is verify_status and current_step is verify_status\n"
        "        whenever ability_step is written_abilities and current_step is written_abilities\n"
        "        whenever ability_step is gained_abilities and current_step is gained_abilities\n"
        "        whenever ability_step is weapon_abilities and current_step is weapon_abilities\n"
        "        and 5 other situations\n"
        "      when ability_step=verify_status, current_step=verify_status: "
        f"old yes ({clause}), new no ({clause})\n"
        "      when ability_step=written_abilities, current_step=written_abilities: "
        f"old yes ({clause}), new no ({clause})\n"
        f"    changed by {clause}\n"
        "    breaks conformance: 1 of 3 cases of o2's suite flips: ability_activation.activates-42176fe18574 "
        "(expected yes, now no)\n"))


def test_merged_vocabulary_keeps_an_order_and_places_old_only_values_after_their_predecessor():
    where = Location("vocabulary.yaml")
    old = Vocabulary((Fact("step", "enum", ("a", "b", "c"), "S.", where, True),
                      Fact("phase", "enum", ("x", "y"), "P.", where)), ())
    new = Vocabulary((Fact("step", "enum", ("a", "n", "c"), "S.", where, True),
                      Fact("phase", "enum", ("y", "z"), "P.", where)), ())
    merged = merged_vocabulary(old, new)
    assert merged.orders == {"step": ("a", "b", "n", "c")}
    assert merged.by_name["phase"].values == ("x", "y", "z")


def test_a_comparison_in_a_decisions_given_is_described_in_words(tmp_path, monkeypatch):
    shutil.copytree(ORDERED, tmp_path / "old")
    shutil.copytree(ORDERED, tmp_path / "new")
    path = tmp_path / "new" / "editions" / "o2" / "ability-activation-order.yaml"
    meaning = "meaning: Whether the blocked status of the characters in battle has been verified.\n"
    path.write_text(path.read_text().replace(meaning, meaning + "    given: {after: {current_step: verify_status}}\n"))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["diff", "old", "new"])
    edition = result.output.split("\n\n", 1)[1]  # after the whole-rulebook record's lines: o2's diff
    assert (result.exit_code, edition.splitlines()[6]) == (
        0, "    Decision ability_activation.blocked_status_known (bool): Whether the blocked status of the "
           "characters in battle has been verified.{+ (asked when current_step is after verify_status)+}")
