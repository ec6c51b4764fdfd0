"""``rulebook ask``: a decision's answer for some facts, with the clauses that give it.

The fixture (tests/fixtures/ask) has one edition: cure.may_target requires ``curable``
(poisoned or paralyzed, clause 1.1) by clause 1.2, and cure#not-in-battle, an exception
to it, forbids it in battle; cure.saves is asked only of a character being discarded,
and a constraint says a character in a discard pile is not being discarded.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.cli import main

ASK = Path(__file__).resolve().parent / "fixtures" / "ask"


def _runner() -> CliRunner:
    return CliRunner(mix_stderr=False) if "mix_stderr" in CliRunner.__init__.__code__.co_varnames \
        else CliRunner()


def ask(*args: str, root: Path = ASK):
    return _runner().invoke(main, ["ask", "--rulebook", str(root), *args])


def test_a_decided_situation_gives_the_rule_that_applied_and_the_one_it_overrode():
    result = ask("cure.may_target", "--fact", "phase=battle", "--fact", "poisoned=true")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "cure.may_target, edition v1, when phase=battle, poisoned=true\n"
        "Answer: false\n"
        "\n"
        "Rules that applied:\n"
        "  cure#not-in-battle: says false, an exception to cure#targets\n"
        "    Cure cannot be used in battle.\n"
        "    terms/cure/#not-in-battle\n"
        "\n"
        "Overridden by an exception:\n"
        "  cure#targets (1.2): would say true; overridden by cure#not-in-battle\n"
        "    Targets must be curable.\n"
        "    terms/cure/#targets\n")


def test_facts_left_out_that_cannot_change_the_answer_leave_it_decided():
    # in battle the exception answers whatever the character is: paralyzed and poisoned do not matter
    result = ask("cure.may_target", "--fact", "phase=battle", "--edition", "v1")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:2] == ["cure.may_target, edition v1, when phase=battle", "Answer: false"]
    # the rule overridden would have said either, depending on the facts not given
    assert "  cure#targets (1.2): would say false or true; overridden by cure#not-in-battle" in \
        result.stdout.splitlines()


def test_the_definitions_the_applied_rules_use_are_cited_with_their_numbers():
    result = ask("cure.may_target", "--fact", "phase=preparation", "--fact", "paralyzed=true")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "cure.may_target, edition v1, when paralyzed=true, phase=preparation\n"
        "Answer: true\n"
        "\n"
        "Rules that applied:\n"
        "  cure#targets (1.2): says true\n"
        "    Targets must be curable.\n"
        "    terms/cure/#targets\n"
        "\n"
        "Definitions they use:\n"
        "  cure#curable (1.1): defines curable\n"
        "    A character is curable if it is poisoned or paralyzed.\n"
        "    terms/cure/#curable\n")


def test_an_undecided_situation_names_the_facts_it_needs_with_their_values():
    result = ask("cure.may_target", "--fact", "phase=preparation")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "cure.may_target, edition v1, when phase=preparation\n"
        "Answer: not decided yet; it could be false or true\n"
        "\n"
        "Facts needed (not given):\n"
        "  paralyzed: false, true\n"
        "  poisoned: false, true\n")


def test_a_situation_outside_the_decisions_given_is_not_asked():
    result = ask("cure.saves", "--fact", "being_discarded=false")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "cure.saves, edition v1, when being_discarded=false\n"
        "Answer: not asked: the decision is asked only when being_discarded\n")


def test_the_constraints_decide_through_a_fact_the_decision_does_not_test():
    # in a discard pile, hence not being discarded (the constraint): not asked, and said so
    result = ask("cure.saves", "--fact", "in_discard_pile=true")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "cure.saves, edition v1, when in_discard_pile=true\n"
        "Answer: not asked: the decision is asked only when being_discarded\n"
        "\n"
        "Note: cure.saves does not test in_discard_pile; it counts only through the constraints.\n")


def test_not_asked_is_one_of_the_possible_outcomes_when_undecided():
    result = ask("cure.saves")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "cure.saves, edition v1, in any situation\n"
        "Answer: not decided yet; it could be true or not asked\n"
        "\n"
        "Facts needed (not given):\n"
        "  being_discarded: false, true\n")


def test_a_situation_the_constraints_rule_out_is_said_to_be_none_and_exits_1():
    result = ask("cure.saves", "--fact", "being_discarded=true", "--fact", "in_discard_pile=true")
    assert (result.exit_code, result.stderr) == (1, "")
    assert result.stdout == (
        "cure.saves, edition v1, when being_discarded=true, in_discard_pile=true\n"
        "No such situation: constraint pile-not-being-discarded rules it out "
        "(A character already in a discard pile is not being discarded.)\n")


def test_no_rule_answers_where_every_rule_is_silent(tmp_path):
    root = tmp_path / "ask"
    shutil.copytree(ASK, root)
    term = root / "editions" / "v1" / "cure.yaml"
    # targets now only permits: outside battle an incurable character gets no answer
    term.write_text(term.read_text().replace("{decision: cure.may_target, requires: curable}",
                                             "{decision: cure.may_target, permits: curable}"))
    result = ask("cure.may_target", "--fact", "phase=discard", "--fact", "poisoned=false",
                 "--fact", "paralyzed=false", root=root)
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "cure.may_target, edition v1, when paralyzed=false, phase=discard, poisoned=false\n"
        "Answer: no rule answers\n")


def test_the_json_form_has_the_documented_shape():
    result = ask("cure.may_target", "--fact", "phase=battle", "--fact", "poisoned=true", "--json",
                 "--base-url", "https://rules.example.org/glossary")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "format": "rulebook-ask/1",
        "edition": "v1",
        "decision": "cure.may_target",
        "facts": {"phase": "battle", "poisoned": True},
        "status": "decided",
        "answer": False,
        "possible": [],
        "applied": [{
            "rule": "cure#not-in-battle", "clause": "cure#not-in-battle", "term": "cure", "number": None,
            "text": "Cure cannot be used in battle.",
            "url": "https://rules.example.org/glossary/terms/cure/#not-in-battle",
            "says": [False], "exception_to": ["cure#targets"], "everywhere": True, "overridden_by": []}],
        "overridden": [{
            "rule": "cure#targets", "clause": "cure#targets", "term": "cure", "number": "1.2",
            "text": "Targets must be curable.", "url": "https://rules.example.org/glossary/terms/cure/#targets",
            "says": [True], "exception_to": [], "everywhere": True, "overridden_by": ["cure#not-in-battle"]}],
        "definitions": [],
        "missing": [],
        "not_tested": [],
        "ignored": [],
        "given": None,
        "ruled_out_by": [],
    }


def test_the_json_form_of_an_undecided_and_an_impossible_situation(tmp_path):
    undecided = json.loads(ask("cure.saves", "--json").stdout)
    assert {k: undecided[k] for k in ("status", "answer", "possible", "missing", "given")} == {
        "status": "undecided", "answer": None,
        "possible": [{"status": "decided", "answer": True}, {"status": "not_asked", "answer": None}],
        "missing": [{"fact": "being_discarded", "values": [False, True]}],
        "given": "being_discarded"}
    result = ask("cure.saves", "--json", "--situation", str(_situation(tmp_path,
        {"being_discarded": True, "in_discard_pile": True})))
    assert result.exit_code == 1
    impossible = json.loads(result.stdout)
    assert {k: impossible[k] for k in ("status", "answer", "ruled_out_by")} == {
        "status": "impossible", "answer": None,
        "ruled_out_by": [{"id": "pile-not-being-discarded",
                          "text": "A character already in a discard pile is not being discarded."}]}


def _situation(folder: Path, data, name: str = "situation.json") -> Path:
    path = folder / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def test_a_situation_file_and_fact_flags_combine(tmp_path):
    path = _situation(tmp_path, {"phase": "preparation"})
    result = ask("cure.may_target", "--situation", str(path), "--fact", "poisoned=true")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:2] == [
        "cure.may_target, edition v1, when phase=preparation, poisoned=true", "Answer: true"]


def _usage(result) -> str:
    assert result.exit_code == 2, result.output
    return result.stderr.splitlines()[0]


def test_an_unknown_decision_is_a_usage_error_with_did_you_mean():
    assert _usage(ask("cure.may_targt")) == (
        "rulebook: error: DECISION: edition 'v1' has no decision 'cure.may_targt'; "
        "did you mean 'cure.may_target'?")


def test_an_unknown_fact_is_a_usage_error_with_did_you_mean():
    assert _usage(ask("cure.may_target", "--fact", "poisond=true")) == (
        "rulebook: error: --fact: edition 'v1' has no fact 'poisond'; did you mean 'poisoned'?")


def test_an_unknown_value_is_a_usage_error_with_the_values():
    assert _usage(ask("cure.may_target", "--fact", "phase=batle")) == (
        "rulebook: error: --fact: fact 'phase' has no value 'batle'; did you mean 'battle'? "
        "(its values: preparation, battle, discard)")
    assert _usage(ask("cure.may_target", "--fact", "poisoned=yes")) == (
        "rulebook: error: --fact: fact 'poisoned' is true or false, not 'yes'")


def test_malformed_facts_are_usage_errors():
    assert _usage(ask("cure.may_target", "--fact", "poisoned")) == (
        "rulebook: error: --fact: 'poisoned' is not NAME=VALUE")
    assert _usage(ask("cure.may_target", "--fact", "poisoned=true", "--fact", "poisoned=false")) == (
        "rulebook: error: --fact: fact 'poisoned' is given twice")


def test_a_bad_situation_file_is_a_usage_error_at_its_place(tmp_path):
    bad = _situation(tmp_path, '{"phase": "battle",\n  "poisoned": tru}')
    assert _usage(ask("cure.may_target", "--situation", str(bad))) == (
        f"rulebook: error: --situation: {bad}:2:15: not JSON: Expecting value")
    listed = _situation(tmp_path, '["phase"]', "list.json")
    assert _usage(ask("cure.may_target", "--situation", str(listed))) == (
        f"rulebook: error: --situation: {listed}: not an object of facts and their values")
    typed = _situation(tmp_path, {"poisoned": "true"}, "typed.json")
    assert _usage(ask("cure.may_target", "--situation", str(typed))) == (
        "rulebook: error: --situation: fact 'poisoned' is true or false, not 'true' (a string)")


def test_an_unknown_edition_is_a_usage_error():
    result = ask("cure.may_target", "--edition", "v9")
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "rulebook: error: unknown edition 'v9'\n  hint: editions: v1\n")


def test_rule_text_is_escaped_for_the_terminal(tmp_path):
    root = tmp_path / "ask"
    shutil.copytree(ASK, root)
    term = root / "editions" / "v1" / "cure.yaml"
    term.write_text(term.read_text().replace("text: Cure cannot be used in battle.",
                                             "text: \"Cure cannot \\u202e be used in battle.\""))
    result = ask("cure.may_target", "--fact", "phase=battle", root=root)
    assert result.exit_code == 0, result.output
    assert "    Cure cannot \\u202e be used in battle." in result.stdout.splitlines()
    assert "\u202e" not in result.stdout


def _enumerated(edition, decision: str, facts: dict) -> set:
    """The outcomes of every completion of ``facts``, listed one by one (the cross-check only)."""
    from rulebook_compiler.evaluate import DecisionModel, Space
    from rulebook_compiler.ask import NOT_ASKED, Outcome
    from rulebook_compiler.conditions import compile_condition

    model = DecisionModel(edition.vocabulary, edition, decision)
    given = model.decision.given
    asked = compile_condition(given, model.predicates) if given is not None else None
    found = set()
    for state in Space(edition.vocabulary, {f.name for f in edition.vocabulary.facts}).states():
        if any(state[f] != v for f, v in facts.items()):
            continue
        if asked is not None and not asked(state):
            found.add(Outcome(NOT_ASKED))
            continue
        result = model.evaluate(state)
        found.add(Outcome("decided", result.answer) if result.answer is not None
                  else Outcome("conflict" if result.conflict else "no_answer"))
    return found


def test_decided_means_every_completion_gives_the_same_outcome_as_enumeration_finds():
    import itertools

    from rulebook_compiler.ask import ask as answer
    from rulebook_compiler.build import check
    from rulebook_compiler.symbolic import vocabulary_core

    book, problems = check(ASK)
    assert problems == []
    edition = book.latest
    core = vocabulary_core(edition.vocabulary)
    facts = edition.vocabulary.facts
    for decision in ("cure.may_target", "cure.saves"):
        for choice in itertools.product(*[(None,) + f.domain for f in facts]):
            given = {f.name: v for f, v in zip(facts, choice) if v is not None}
            asked = answer(edition, decision, given, core=core)
            expected = _enumerated(edition, decision, given)
            if not expected:
                assert asked.status == "impossible", (decision, given)
            elif len(expected) > 1:
                assert (asked.status, set(asked.possible)) == ("undecided", expected), (decision, given)
            else:
                (one,) = expected
                assert (asked.status, asked.answer) == (one.status, one.answer), (decision, given)


def _doc_blocks(kind: str) -> list[str]:
    text = (Path(__file__).resolve().parent.parent / "docs" / "ask.md").read_text(encoding="utf-8")
    return [block.split("\n```", 1)[0] for block in text.split(f"```{kind}\n")[1:]]


def test_the_console_examples_of_docs_ask_md_are_what_ask_prints():
    import shlex

    blocks = _doc_blocks("console")
    assert len(blocks) == 3
    for block in blocks:
        command, _, printed = block.partition("\n")
        args = shlex.split(command.removeprefix("$ rulebook ask "))
        result = ask(*args)
        assert result.stdout == printed + "\n", command


def test_the_json_example_of_docs_ask_md_is_what_ask_prints():
    (block,) = _doc_blocks("json")
    assert json.loads(ask("cure.saves", "--json").stdout) == json.loads(block)


def test_rules_that_stand_in_only_some_completions_are_marked():
    # an incurable character: outside battle cure#targets says false, in battle the exception does
    result = ask("cure.may_target", "--fact", "poisoned=false", "--fact", "paralyzed=false")
    assert result.exit_code == 0, result.output
    some = " (in some of the situations these facts allow)"
    assert result.stdout == (
        "cure.may_target, edition v1, when paralyzed=false, poisoned=false\n"
        "Answer: false\n"
        "\n"
        "Rules that applied:\n"
        f"  cure#targets (1.2): says false{some}\n"
        "    Targets must be curable.\n"
        "    terms/cure/#targets\n"
        f"  cure#not-in-battle: says false, an exception to cure#targets{some}\n"
        "    Cure cannot be used in battle.\n"
        "    terms/cure/#not-in-battle\n"
        "\n"
        "Overridden by an exception:\n"
        f"  cure#targets (1.2): would say false; overridden by cure#not-in-battle{some}\n"
        "    Targets must be curable.\n"
        "    terms/cure/#targets\n"
        "\n"
        "Definitions they use:\n"
        "  cure#curable (1.1): defines curable\n"
        "    A character is curable if it is poisoned or paralyzed.\n"
        "    terms/cure/#curable\n")


def test_rules_in_conflict_are_listed_with_what_each_says(tmp_path):
    root = tmp_path / "ask"
    shutil.copytree(ASK, root)
    term = root / "editions" / "v1" / "cure.yaml"
    term.write_text(term.read_text().replace("            exception_to: [cure#targets]\n", ""))
    result = ask("cure.may_target", "--fact", "phase=battle", "--fact", "poisoned=true", root=root)
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "cure.may_target, edition v1, when phase=battle, poisoned=true\n"
        "Answer: in conflict: rules left standing answer differently, and no rule is an exception to the other\n"
        "\n"
        "Rules that applied:\n"
        "  cure#targets (1.2): says true\n"
        "    Targets must be curable.\n"
        "    terms/cure/#targets\n"
        "  cure#not-in-battle: says false\n"
        "    Cure cannot be used in battle.\n"
        "    terms/cure/#not-in-battle\n"
        "\n"
        "Definitions they use:\n"
        "  cure#curable (1.1): defines curable\n"
        "    A character is curable if it is poisoned or paralyzed.\n"
        "    terms/cure/#curable\n")


def test_a_fact_that_neither_the_rules_nor_the_constraints_tie_is_said_to_be_ignored(tmp_path):
    root = tmp_path / "ask"
    shutil.copytree(ASK, root)
    vocabulary = root / "vocabulary.yaml"
    vocabulary.write_text(vocabulary.read_text().replace("constraints:", (
        "  - name: face_down\n    type: bool\n    meaning: The card is face down.\nconstraints:")))
    result = ask("cure.may_target", "--fact", "phase=battle", "--fact", "face_down=true",
                 "--fact", "in_discard_pile=false", root=root)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-3:] == [
        "Note: cure.may_target does not test in_discard_pile; it counts only through the constraints.",
        "",
        "Note: cure.may_target does not test face_down, and no constraint ties it to another fact: ignored."]
    assert json.loads(ask("cure.may_target", "--fact", "face_down=true", "--json", root=root).stdout)[
        "ignored"] == ["face_down"]
