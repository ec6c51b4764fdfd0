"""``rulebook changelog``: answers that the vocabulary alone changed (issue 11, points 1 and 7).

Fixtures: tests/fixtures/diff/unordered-value-added (v2 adds the value end to
the unordered fact phase and rewords a clause of concede) and
tests/fixtures/diff/vocabulary-only (v2 also inserts a value into the ordered
fact battle_step). No clause of turn or battle changed, but their decisions
answer in situations v1 did not have, or answer differently: the notice lists
each under its term's rule changes, in the words of the diff's text and
Markdown ("changed by the vocabulary: fact phase gained value end").
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "diff"


def _changelog(fixture: str) -> str:
    result = CliRunner().invoke(main, ["changelog", "--edition", "v2", "--rulebook", str(FIXTURES / fixture)],
                                catch_exceptions=False)
    assert (result.exit_code, result.stderr) == (0, "")
    return result.stdout


def test_the_notice_lists_the_answers_a_new_value_gave():
    assert _changelog("unordered-value-added") == (
        "# What changed in An end phase\n\n"
        "Changes from Two phases (v1) to v2.\n\n"
        "## Concede\n\n### Clarifications\n\n"
        "- **Clarified** (`concede#always`): A player may concede the game at any time.\n\n"
        "## Turn\n\n### Rule changes\n\n"
        "- **Changed by the vocabulary** (`turn.may_attack`): Whether the player may attack now.\n"
        "  - Changed by the vocabulary: fact phase gained value end.\n"
        "  - When phase is end: was **not possible**, now **no**.\n\n"
        "- **Changed by the vocabulary** (`turn.may_pass`): Whether the player may pass now.\n"
        "  - Changed by the vocabulary: fact phase gained value end.\n"
        "  - When phase is end: was **not possible**, now **yes**.\n")


def test_the_notice_lists_the_answers_a_reordered_fact_changed():
    assert _changelog("vocabulary-only") == (
        "# What changed in A step inserted\n\n"
        "Changes from Three steps (v1) to v2.\n\n"
        "## Battle\n\n### Rule changes\n\n"
        "- **Changed by the vocabulary** (`battle.may_play_enhancement`): "
        "Whether an enhancement may be played now.\n"
        "  - Uses changed predicate before_resolution.\n"
        "  - Changed by the vocabulary: fact battle_step gained value special_initiative.\n"
        "  - When battle step is special initiative: was **not possible**, now **yes**.\n\n"
        "- **Changed by the vocabulary** (`battle.may_retreat`): Whether the hero may retreat.\n"
        "  - Changed by the vocabulary: fact phase gained value end.\n"
        "  - When phase is end: was **not possible**, now **no**.\n\n"
        "- **Changed by the vocabulary** (`before_resolution`): The step comes before resolution.\n"
        "  - Changed by the vocabulary: fact battle_step gained value special_initiative.\n"
        "  - When battle step is special initiative: was **not possible**, now **yes**.\n")
