"""Exact sizes of a behaviour change, its descriptions, and every format that shows them (issue 10, point 2).

The comparison counts the allowed situations of each way the answer changed
(old yes, new no; old yes, new not asked; ...) with the symbolic core, so a
decision whose facts are tied to 30 others (bench/hostile.py; it took
minutes to enumerate, then was cut off by a step budget) is compared whole.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from rulebook_compiler.conditions import All, Any_, In, Not, Ref
from rulebook_compiler.diagnostics import Location
from rulebook_compiler.diff.behaviour import Side, compare, transition_lines
from rulebook_compiler.model import Decision, Fact, Rule, Vocabulary

HERE = Location("t.yaml", 1, 1)


@pytest.fixture
def tied(tmp_path, monkeypatch, hostile) -> Path:
    """t.q over fact a, tied by 30 constraints to 30 others; v2 turns its base answer from no to yes."""
    root = hostile.tied_constraints(tmp_path / "two", 30)
    rulebook = root / "rulebook.yaml"
    rulebook.write_text(rulebook.read_text(encoding="utf-8") + "  - {id: v2, title: Two, date: null, status: draft}\n",
                        encoding="utf-8")
    shutil.copytree(root / "editions" / "v1", root / "editions" / "v2")
    term = root / "editions" / "v2" / "t.yaml"
    text = term.read_text(encoding="utf-8")
    term.write_text(text.replace("rules: [{decision: t.q, value: false}]", "rules: [{decision: t.q, value: true}]"),
                    encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return Path("two")


def _rulebook(*args: str) -> tuple[int, str, str]:
    from rulebook_compiler.cli import main

    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


TEXT = ("rulebook diff v1 -> v2: 1 semantic\n"
        "\n"
        "t\n"
        "  semantic  t#base  two/editions/v2/t.yaml:9:9\n"
        "    Base.\n"
        "    behaviour: t.q broadened in 1 of 2 situations; narrowed in none (see decisions below)\n"
        "    breaks conformance: 1 of 2 cases of v1's suite flips: t.q-eceff4d20050 (expected no, now yes)\n"
        "    used by: t#top (exception in t.q, broadened)\n"
        "    drift: the machine-readable meaning changed but the text did not\n"
        "\n"
        "decisions, predicates and constraints:\n"
        "  changed  decision t.q (t): Q.\n"
        "    t.q broadened in 1 of 2 situations; narrowed in none\n"
        "      no -> yes in 1 situation: whenever not a\n"
        "      when no fact holds: old no (t#base), new yes (t#base)\n"
        "    changed by t#base\n"
        "    breaks conformance: 1 of 2 cases of v1's suite flips: t.q-eceff4d20050 (expected no, now yes)\n")


def test_text(tied):
    assert _rulebook("diff", "--rulebook", tied, "--no-cache", "v1", "v2") == (0, TEXT, "")


def test_json(tied):
    code, out, err = _rulebook("diff", "--rulebook", tied, "--no-cache", "--format", "json", "v1", "v2")
    assert (code, err) == (0, "")
    (change,) = json.loads(out)["changes"]
    # where a holds, the 30 others must too: one allowed situation each way, and t#top answers yes in both
    assert change["behaviour"] == {
        "name": "t.q", "kind": "decision", "direction": "broadened",
        "witnesses": [{"facts": {"a": False}, "old": False, "new": True, "old_clauses": ["t#base"],
                       "new_clauses": ["t#base"], "old_unknown": [], "new_unknown": [],
                           "old_reason": None, "new_reason": None}],
        "situations": 2, "changed": 1, "broadened": 1, "narrowed": 0,
        "transitions": [{"old": False, "old_reason": None, "new": True, "new_reason": None, "situations": 1,
                         "descriptions": [{"facts": {"a": [False]}, "situations": 1, "text": "whenever not a"}],
                         "undescribed": 0}]}
    assert [(i["ref"], i["direction"]) for i in change["impact"]] == [("t#top", "broadened")]


def test_markdown(tied):
    code, out, err = _rulebook("diff", "--rulebook", tied, "--no-cache", "--format", "markdown", "v1", "v2")
    assert (code, err) == (0, "")
    # The decision's change is listed once, under the decisions; the clause refers to it.
    start = out.index("### Decisions")
    assert out[start:out.index("| situation")] == (
        "### Decisions, predicates and constraints\n"
        "\n"
        "- `t.q` (decision, changed): broadened in 1 of 2 situations; narrowed in none; changed by `t#base`; "
        "**breaks conformance**: 1 of 2 cases of v1's suite flips\n"
        "  - no → yes in 1 situation: whenever not a\n"
        "\n"
        "  ")
    assert "**Behaviour** of `t.q`: **broadened in 1 of 2 situations; narrowed in none** (see the decisions above)\n" \
        in out


def test_html(tied):
    code, out, err = _rulebook("diff", "--rulebook", tied, "--no-cache", "--format", "html", "v1", "v2")
    assert (code, err) == (0, "")
    start = out.index('<article id="name-decision-t.q"')
    assert out[start:out.index("<table>", start)] == (
        '<article id="name-decision-t.q" class="name changed">\n'
        "<h3><span class=\"kind\">changed</span> decision <code>t.q</code> (t)</h3>\n"
        "<p>Q.</p><p><strong>broadened in 1 of 2 situations; narrowed in none</strong></p>\n"
        "<ul><li>no → yes in 1 situation: whenever not a</li></ul>\n")
    assert ("<p>Behaviour of <code>t.q</code>: <strong>broadened in 1 of 2 situations; narrowed in none</strong> "
            '(see <a href="#names">the decisions</a>)</p>') in out


def test_history(tied):
    code, out, err = _rulebook("history", "--rulebook", tied, "t")
    assert (code, err) == (0, "")
    assert out.endswith("\n" + TEXT)


def _side(vocabulary: Vocabulary, rules: list[Rule], kind: str = "bool", given=None, values=()) -> Side:
    decision = Decision("t.q", kind, tuple(values), "Q.", given, "t", HERE)
    return Side(None, SimpleNamespace(decisions={"t.q": decision}, rules={"t.q": tuple(rules)}, predicates={}),
                vocabulary, None)


def _rule(clause: str, value, when=None, exception_to=()) -> Rule:
    return Rule("t.q", f"t#{clause}", "value", when, value, None, tuple(exception_to), None, None, HERE)


def test_situations_one_side_does_not_answer_are_counted_on_their_own():
    """Old says yes everywhere; new asks only when b holds and has no rule where c holds."""
    vocabulary = Vocabulary(tuple(Fact(n, "bool", (), "M.", HERE) for n in "abc"), ())
    old = _side(vocabulary, [_rule("c0", True, Ref("a")), _rule("c1", True, Any_((Not(Ref("a")),)))])
    new = _side(vocabulary, [_rule("c0", True, All((Ref("a"), Not(Ref("c"))))), _rule("c1", False, Not(Ref("a")))],
                given=Ref("b"))
    b = compare("decision", "t.q", old, new, vocabulary)
    assert [(t.old, t.new, t.new_reason, t.situations, [d.text for d in t.descriptions], t.undescribed)
            for t in b.transitions] == [
        (True, None, "not asked", 4, ["whenever not b"], 0),
        (True, False, None, 2, ["whenever not a and b"], 0),
        (True, None, "no rule", 1, ["whenever a and b and c"], 0)]
    assert (b.direction, b.situations, b.changed, b.narrowed, b.broadened) == ("narrowed", 8, 7, 7, 0)
    assert b.extent() == "narrowed in 7 of 8 situations; broadened in none"


def test_an_enum_decision_states_how_many_situations_changed_answer():
    vocabulary = Vocabulary((Fact("ability", "enum", ("attack", "interrupt", "negate", "prevent", "heal"), "M.", HERE),
                             Fact("quick", "bool", (), "M.", HERE)), ())
    hand = ("hand", "deck")
    old = _side(vocabulary, [_rule("c0", "deck")], "enum", values=hand)
    new = _side(vocabulary, [_rule("c0", "deck"),
                             _rule("c1", "hand", All((In("ability", ("interrupt", "negate", "prevent"), False),
                                                      Ref("quick"))), ["t#c0"])], "enum", values=hand)
    b = compare("decision", "t.q", old, new, vocabulary)
    assert b.extent() == "changed: answer changed in 3 of 10 situations"
    assert [(t.old, t.new, t.situations, [d.text for d in t.descriptions]) for t in b.transitions] == [
        ("deck", "hand", 3, ["whenever ability is one of interrupt, negate, prevent and quick"])]


def test_descriptions_past_the_cap_say_how_many_situations_they_leave():
    """a xor b xor c xor d changes: eight situations, no two of which one description can join."""
    vocabulary = Vocabulary(tuple(Fact(n, "bool", (), "M.", HERE) for n in "abcd"), ())

    def xor(x, y):
        return Any_((All((x, Not(y))), All((Not(x), y))))

    odd = xor(xor(Ref("a"), Ref("b")), xor(Ref("c"), Ref("d")))
    old = _side(vocabulary, [_rule("c0", False)])
    new = _side(vocabulary, [_rule("c0", False), _rule("c1", True, odd, ["t#c0"])])
    b = compare("decision", "t.q", old, new, vocabulary)
    (t,) = b.transitions
    assert (t.situations, len(t.descriptions), t.undescribed) == (8, 4, 4)
    assert [d.text for d in t.descriptions] == [
        "whenever not a and not b and not c and d", "whenever not a and not b and c and not d",
        "whenever not a and b and not c and not d", "whenever not a and b and c and d"]
    assert transition_lines(b) == ["no -> yes in 8 situations:", "  whenever not a and not b and not c and d",
                                   "  whenever not a and not b and c and not d",
                                   "  whenever not a and b and not c and not d", "  whenever not a and b and c and d",
                                   "  and 4 other situations"]


def test_counts_are_exact_past_the_precision_of_a_float():
    """60 facts: the change holds in 2**58 + ... situations, which a float would round."""
    vocabulary = Vocabulary(tuple(Fact(f"f{i:02d}", "bool", (), "M.", HERE) for i in range(60)), ())
    old = _side(vocabulary, [_rule("c0", True, Any_(tuple(Ref(f"f{i:02d}") for i in range(60))))])
    new = _side(vocabulary, [_rule("c0", True, All((Ref("f00"), Ref("f01"))))])
    b = compare("decision", "t.q", old, new, vocabulary)
    (t,) = b.transitions
    # old says yes wherever some fact holds, new only where f00 and f01 do; both have no rule elsewhere
    assert (t.old, t.new_reason, t.situations) == (True, "no rule", 2 ** 60 - 1 - 2 ** 58)
    assert b.extent() == f"narrowed in {2 ** 60 - 1 - 2 ** 58:,} of {2 ** 60:,} situations; broadened in none"


def test_the_sites_what_changed_gives_the_count(tied):
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.diff.engine import diff_editions
    from rulebook_compiler.site.changes import effects

    book = load_rulebook(tied)
    old, new = book.edition("v1"), book.edition("v2")
    (change,) = diff_editions(book, old, book, new).changes
    assert [(e.name, e.direction, e.size) for e in effects(book, old, new, change)] == [
        ("t.q", "now says yes in more situations", "changed in 1 of 2 situations")]
