"""The example engines against the bundled rulebook's suites.

The 2012 engines (Python and Node.js, written from the 2012 text) pass the 2012
suite and fail the 4.0.0-draft suite on exactly the cases where the two
editions decide differently, computed here from the two reference evaluators.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook_compiler.conformance.cases import build_suite
from rulebook_compiler.conformance.engines import PythonAdapter, SubprocessAdapter
from rulebook_compiler.conformance.reference import ReferenceEngine
from rulebook_compiler.conformance.runner import run_cases

ROOT = Path(__file__).resolve().parent.parent.parent
NODE = shutil.which("node")


def _failures(adapter, suite):
    values = {d.decision: d.values for d in suite.decisions}
    try:
        verdicts = run_cases(adapter, suite.cases, values)
    finally:
        adapter.close()
    return {v.case_id for v in verdicts if not v.ok}


def _python_2012():
    from examples.engines.heal2012 import Heal2012

    return PythonAdapter(Heal2012())


def _node_2012(edition):
    assert NODE, "the Node.js example engine needs node on PATH (.ci/run installs Debian's nodejs)"
    return SubprocessAdapter(f"{NODE} {ROOT / 'examples/engines/heal2012.js'}", edition)


def differing(book, old_id, new_id):
    """Cases of the new suite that the old edition answers otherwise, or not at all."""
    old = ReferenceEngine(book, book.edition_by_id[old_id])
    suite = build_suite(book, book.edition_by_id[new_id])
    out = set()
    for case in suite.cases:
        try:
            answer = old.decide(case.decision, case.facts_dict)
        except (KeyError, ValueError):
            answer = None
        if answer != case.expected:
            out.add(case.id)
    return out


@pytest.mark.parametrize("edition", ["2012", "3.0.0", "4.0.0-draft", "5.0.0"])
def test_reference_engine_passes_every_edition(bundled, edition, monkeypatch):
    monkeypatch.chdir(ROOT)
    from examples.engines.reference import engine

    suite = build_suite(bundled, bundled.edition_by_id[edition])
    assert _failures(PythonAdapter(engine(edition, str(ROOT / "rulebook"))), suite) == set()


@pytest.mark.parametrize("make", ["python", "node"])
def test_2012_engine_passes_2012_and_fails_exactly_where_editions_differ(bundled, make):
    adapter = (lambda e: _python_2012()) if make == "python" else _node_2012
    suite_2012 = build_suite(bundled, bundled.edition_by_id["2012"])
    assert _failures(adapter("2012"), suite_2012) == set()
    suite_4 = build_suite(bundled, bundled.edition_by_id["4.0.0-draft"])
    expected = differing(bundled, "2012", "4.0.0-draft")
    assert expected  # the editions do differ (paralysis, healing while being discarded, ...)
    assert _failures(adapter("4.0.0-draft"), suite_4) == expected


def test_differing_set_includes_the_known_change(bundled):
    """4.0.0-draft heals paralysis, which 2012 does not mention: a paralyzed-only target differs."""
    diff = differing(bundled, "2012", "4.0.0-draft")
    suite = build_suite(bundled, bundled.edition_by_id["4.0.0-draft"])
    paralyzed_only = [c for c in suite.cases if c.decision == "heal.may_target"
                      and c.facts_dict.get("paralyzed") and not c.facts_dict.get("poisoned")
                      and not c.facts_dict.get("diseased") and not c.facts_dict.get("being_discarded")
                      and not c.facts_dict.get("discarded_earlier_this_turn")
                      and not c.facts_dict.get("card_specifies_target_requirement") and c.expected is True]
    assert paralyzed_only and all(c.id in diff for c in paralyzed_only)
