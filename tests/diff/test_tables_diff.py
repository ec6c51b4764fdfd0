"""A row added to a table keyed by two facts, as the diff tells it: the situations it takes
from the otherwise row (tests/fixtures/tables/a-row-added)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.cli import main

ROOT = Path(__file__).resolve().parents[1] / "fixtures" / "tables" / "a-row-added"


def test_a_row_added_takes_its_situation_from_the_otherwise_row(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_COLOR", "1")
    result = CliRunner().invoke(main, ["diff", "--rulebook", ".", "t1", "t2"])
    assert (result.exit_code, result.stdout) == (0, (
        "rulebook diff t1 -> t2: 1 semantic\n"
        "\n"
        "targeting\n"
        "  semantic  targeting#hold  editions/t2/targeting.yaml:22:9\n"
        "    Hold: Hero in Territory, Evil Character in Battle{+, Lost Soul: Top of Deck+}\n"
        "    behaviour: targeting.location changed: answer changed in 1 of 12 situations (see decisions below)\n"
        "    breaks conformance: 1 of 7 cases of t1's suite flips: targeting.location-cbe52bcfad48 "
        "(expected in_play, now deck)\n"
        "\n"
        "decisions, predicates and constraints:\n"
        "  changed  decision targeting.location (targeting): Where the ability looks for its targets.\n"
        "    targeting.location changed: answer changed in 1 of 12 situations\n"
        "      in_play -> deck in 1 situation: whenever ability is hold and card_type is lost_soul\n"
        "      when ability=hold, card_type=lost_soul: old in_play (targeting#all-other), new deck (targeting#hold)\n"
        "    changed by targeting#hold\n"
        "    breaks conformance: 1 of 7 cases of t1's suite flips: targeting.location-cbe52bcfad48 "
        "(expected in_play, now deck)\n"))
