"""The changes charged with a decision, predicate or constraint, as data (issue 11; "escape by
construction, not by list").

Each entry of a name's ``changes`` said, in words, which change made it and through which changed
predicate ("cure#curable (through curable)"), and the Markdown parsed those words back to write the
ref and the predicate as code. The JSON now carries each charge as data (``charged``: the change's
name as the formats show it, its fingerprint among ``changes``, and the changed predicates it
reached the name through), and every format writes from that data. ``changes`` keeps its words.
"""

from __future__ import annotations

import json

from tests.diff.test_names import _run


def _names(fixture: str) -> tuple[dict, dict]:
    data = json.loads(_run(fixture, "json"))
    return {n["name"]: n for n in data["names"]}, {(c["term"], c["clause"]): c["fingerprint"] for c in data["changes"]}


def test_json_charges_a_decision_through_a_changed_predicate_as_data():
    """predicate-answers-changed: cure#curable widens the predicate curable, which cure.may_target uses."""
    names, fingerprints = _names("predicate-answers-changed")
    curable = fingerprints[("cure", "curable")]
    assert (names["curable"]["changes"], names["curable"]["charged"]) == (
        ["cure#curable"], [{"clause": "cure#curable", "fingerprint": curable, "through": []}])
    assert (names["cure.may_target"]["changes"], names["cure.may_target"]["charged"]) == (
        ["cure#curable (through curable)"],
        [{"clause": "cure#curable", "fingerprint": curable, "through": ["curable"]}])


def test_json_charges_a_heading_and_a_clause_each_with_its_change():
    """rules-to-a-new-decision: the heading declares the decisions, battle#step-2's rules move to them."""
    names, fingerprints = _names("rules-to-a-new-decision")
    expected = [{"clause": "battle (heading)", "fingerprint": fingerprints[("battle", None)], "through": []},
                {"clause": "battle#step-2", "fingerprint": fingerprints[("battle", "step-2")], "through": []}]
    assert names["battle.may_rescue"]["charged"] == expected
    assert names["battle.rescue_succeeds"]["charged"] == expected
