"""A clause whose text and rules are unchanged, but whose decision's ``given`` changed (issue 11, point 1).

Fixture given-changed-clause-unchanged: v2 asks cure.may_target of every
character, v1 only of a poisoned one. Neither clause changed. cure#targets now
answers where v1 did not ask ("not asked" -> an answer): its own answers changed,
so it is listed, as a rule change, and refers to the decision. cure#stunned's
rule stands only for a poisoned character, where both editions ask: its answers
are the same and it is not listed.
"""

from __future__ import annotations

import json
import os

from rulebook_compiler.diff.names import NameRef

from tests.diff.test_names import DIFF, _result, _run as run_fixture

FIXTURE = DIFF / "given-changed-clause-unchanged"
TEXT = "A cure may target a character if and only if it is paralyzed."
NOTE = "text and rules unchanged; cure.may_target is asked in other situations: its given changed"
EXTENT = "cure.may_target changed: broadened in 2 of 8 situations; narrowed in none; otherwise changed in 2"


def _run(fmt: str) -> str:
    return run_fixture(FIXTURE.name, fmt)


def test_the_clause_that_now_answers_where_the_old_edition_did_not_ask_is_a_rule_change():
    result = _result(FIXTURE.name)
    assert [(c.clause, c.kind, c.level) for c in result.changes] == [
        (None, "semantic", "rule-change"), ("targets", "semantic", "rule-change")]
    targets = result.changes[1]
    assert (targets.old_text, targets.new_text, targets.names, targets.asked, targets.drift) == (
        TEXT, TEXT, (NameRef("decision", "cure.may_target", "changed"),),
        ("cure.may_target",), ())
    # its own answers: only where one side does not ask
    [own] = targets.behaviours
    assert [(t.old, t.old_reason, t.new, t.new_reason, t.situations, [d.text for d in t.descriptions])
            for t in own.transitions] == [
        (None, "not asked", False, None, 2, ["whenever not paralyzed and not poisoned"]),
        (None, "not asked", True, None, 2, ["whenever paralyzed and not poisoned"])]
    [name] = result.names
    assert (name.name, name.status, [c.as_json() for c in name.changes]) == ("cure.may_target", "changed", [
        {"clause": "cure (heading)", "fingerprint": result.changes[0].fingerprint, "through": []},
        {"clause": "cure#targets", "fingerprint": targets.fingerprint, "through": []}])


def test_the_text_lists_the_clause_with_a_note_and_refers_to_the_decision():
    lines = _run("text").splitlines()
    at = lines.index(f"  semantic  cure#targets  {os.path.relpath(FIXTURE)}/editions/v2/cure.yaml:11:9")
    assert lines[at + 1:at + 5] == [
        f"    ({NOTE})",
        f"    {TEXT}",
        f"    behaviour: {EXTENT} (see decisions below)",
        "",
    ]
    assert "cure#stunned" not in "\n".join(lines)
    assert lines[-1] == "    changed by cure (heading), cure#targets"
    assert lines[0] == "rulebook diff v1 -> v2: 2 semantic"


def test_markdown_lists_the_clause_with_a_note():
    lines = _run("markdown").splitlines()
    at = lines.index("#### semantic: `cure#targets`")
    assert lines[at + 3:at + 8] == [
        "<br>_text and rules unchanged; `cure.may_target` is asked in other situations: its given changed_",
        "",
        f"> {TEXT}",
        "",
        f"**Behaviour** of `cure.may_target`: **{EXTENT[len('cure.may_target '):]}** (see the decisions above)",
    ]
    assert "- `cure#targets` (semantic): `cure.may_target` changed: broadened in 2 of 8 situations; narrowed in " \
           "none; otherwise changed in 2" in lines


def test_html_and_json_list_the_clause():
    html = _run("html")
    assert '<h3><span class="kind">semantic</span> <code>cure#targets</code></h3>' in html
    assert f'<p class="loc"><em>{NOTE}</em></p>' in html
    data = json.loads(_run("json"))
    [targets] = [c for c in data["changes"] if c["clause"] == "targets"]
    assert (targets["kind"], targets["level"], targets["asked"], targets["names"], targets["redline"]) == (
        "semantic", "rule-change", ["cure.may_target"],
        [{"kind": "decision", "name": "cure.may_target", "status": "changed"}], [{"op": "equal", "text": TEXT}])
    assert data["summary"]["semantic"] == 2
