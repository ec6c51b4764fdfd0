"""``rulebook conformance run``: verdicts, summary, exit codes, and every kind of bad engine or case file."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
ENGINES = FIXTURES / "conformance" / "engines"
MINIMAL = FIXTURES / "minimal"
PY = sys.executable

POISONED = "cure.may_target[poisoned]"

# A hanging engine spends its timeout in full, once per hang; a healthy answer must beat it on a loaded
# machine. Starting a Python engine and its first answer took up to 0.44 s at nice 19 under a load of 6
# on 2 cores (so 0.5 s failed now and then); an in-process answer only waits for its thread's turn.
PROCESS_TIMEOUT = "3"
THREAD_TIMEOUT = "1"


def run(cli, *args):
    return cli("conformance", "run", "--rulebook", MINIMAL, "--edition", "v1", *args)


def test_good_engine_passes(cli, test_engines):
    code, out, err = run(cli, "--engine", f"{test_engines}:good")
    assert code == 0 and out.strip() == "2 passed, 0 failed"


def test_factory_gets_the_edition(cli, test_engines):
    assert run(cli, "--engine", f"{test_engines}:with_edition")[0] == 0
    code, out, _ = cli("conformance", "run", "--rulebook", MINIMAL, "--edition", "v2",
                       "--engine", f"{test_engines}:with_edition")
    assert code == 1 and "failed" in out.splitlines()[-1]


E = "rulebook_test_engines"  # what the test_engines fixture makes importable
DECIDE_HINT = ("  hint: an engine is an object with a decide(decision, facts) method, "
               "or a class or function that returns one\n")
USAGE_ERRORS = {
    "unknown module": (
        "--engine", "nosuch:Engine",
        "rulebook: error: --engine nosuch:Engine: engine module 'nosuch' not found\n"
        "  hint: put the folder that holds it on PYTHONPATH, or run from that folder\n"),
    "unknown attribute": (
        "--engine", f"{E}:nope",
        f"rulebook: error: --engine {E}:nope: engine module '{E}' has no attribute 'nope'\n"
        "  hint: it has: Good, NoDecideFactory, Raises, StepsEnd, WrongType, factory_raises, good, "
        "hangs, no_decide, with_edition\n"),
    "not MODULE:ATTR": (
        "--engine", "just_a_name",
        "rulebook: error: --engine just_a_name: not MODULE:ATTR\n"
        "  hint: name a module and an object in it, for example examples.engines.reference:engine\n"),
    "no decide": (
        "--engine", f"{E}:no_decide",
        f"rulebook: error: --engine {E}:no_decide: an object of type 'object' has no decide(decision, facts) method\n"
        + DECIDE_HINT),
    "factory without decide": (
        "--engine", f"{E}:NoDecideFactory",
        f"rulebook: error: --engine {E}:NoDecideFactory: the factory returned an object of type 'object', which has no "
        "decide(decision, facts) method\n" + DECIDE_HINT),
    "factory raises": (
        "--engine", f"{E}:factory_raises",
        f"rulebook: error: --engine {E}:factory_raises: the factory raised OSError: no licence file\n"),
    "command not found": (
        "--engine-cmd", "no-such-engine-binary --flag",
        "rulebook: error: --engine-cmd 'no-such-engine-binary --flag': cannot start 'no-such-engine-binary': "
        "No such file or directory\n"
        "  hint: give the program's path, or put its folder on PATH\n"),
    "command unparsable": (
        "--engine-cmd", "node 'engine.js",
        "rulebook: error: --engine-cmd \"node 'engine.js\": cannot be split into words: No closing quotation\n"
        "  hint: quote as a POSIX shell does\n"),
}


@pytest.mark.parametrize("what", sorted(USAGE_ERRORS))
def test_engine_that_cannot_be_loaded_or_started_is_a_usage_error_before_any_case_runs(cli, test_engines, what):
    option, value, stderr = USAGE_ERRORS[what]
    assert run(cli, option, value) == (2, "", stderr)


def test_engine_raises_on_one_case_and_the_run_goes_on(cli, test_engines):
    code, out, _ = run(cli, "--engine", f"{test_engines}:Raises")
    assert code == 1
    assert f"{POISONED} (cure.may_target-9d300d04bba8): engine raised RuntimeError: engine bug on poisoned" in out
    assert '  cure#targets: "Targets must be curable."' in out  # the deciding clause is quoted
    assert out.splitlines()[-1] == "1 passed, 1 failed"


def test_engine_hangs(cli, test_engines):
    code, out, _ = run(cli, "--engine", f"{test_engines}:hangs", "--timeout", THREAD_TIMEOUT)
    assert code == 1
    assert f"{POISONED} (cure.may_target-9d300d04bba8): engine did not answer within {THREAD_TIMEOUT} s (timeout)" in out
    assert out.splitlines()[-1] == "1 passed, 1 failed"


def test_wrong_type(cli, test_engines):
    code, out, _ = run(cli, "--engine", f"{test_engines}:WrongType")
    assert code == 1
    assert "engine returned 0 (int); this decision answers true or false" in out
    assert "engine returned 'yes' (str); this decision answers true or false" in out
    assert out.splitlines()[-1] == "0 passed, 2 failed"


def test_subprocess_engine(cli):
    code, out, _ = run(cli, "--engine-cmd", f"{PY} {ENGINES / 'good.py'}")
    assert code == 0 and out.strip() == "2 passed, 0 failed"


def test_subprocess_exits(cli):
    code, out, _ = run(cli, "--engine-cmd", f"{PY} {ENGINES / 'exits.py'}")
    assert code == 1
    assert (f"{POISONED} (cure.may_target-9d300d04bba8): engine process exited with status 3 without answering; "
            "its stderr ends: 'engine crashed: out of memory'") in out
    assert out.splitlines()[-1] == "1 passed, 1 failed"


def test_subprocess_writes_garbage(cli):
    code, out, _ = run(cli, "--engine-cmd", f"{PY} {ENGINES / 'garbage.py'}")
    assert code == 1
    assert "engine wrote 'DEBUG: thinking about it...' instead of a JSON answer line" in out
    assert out.splitlines()[-1] == "1 passed, 1 failed"


def test_subprocess_hangs_and_is_restarted(cli):
    code, out, _ = cli("conformance", "run", "--rulebook", MINIMAL, "--edition", "v2", "--timeout", PROCESS_TIMEOUT,
                       "--engine-cmd", f"{PY} {ENGINES / 'hangs.py'}")
    # The first case passes; the two poisoned ones hang; the engine started again answers the last one.
    timed_out = f"engine did not answer within {PROCESS_TIMEOUT} s (timeout); restarted it"
    assert (code, out) == (1, (
        f"cure.may_target[phase=preparation,poisoned] (cure.may_target-17fe84c62ef6): {timed_out}\n"
        "  situation: paralyzed=false, phase=preparation, poisoned=true\n"
        '  cure#targets: "Targets must be curable."\n'
        f"cure.may_target[phase=battle,poisoned] (cure.may_target-03428de9fdcf): {timed_out}\n"
        "  situation: paralyzed=false, phase=battle, poisoned=true\n"
        '  cure#not-in-battle: "Cure cannot be used in battle."\n'
        "cure.may_target[paralyzed,phase=preparation] (cure.may_target-62e7cab877fc): "
        "expected true, engine answered false\n"
        "  situation: paralyzed=true, phase=preparation, poisoned=false\n"
        '  cure#targets: "Targets must be curable."\n'
        "1 passed, 3 failed\n"))


def test_needs_exactly_one_engine(cli, test_engines):
    code, _, err = run(cli)
    assert code == 2 and "give --engine MODULE:ATTR or --engine-cmd COMMAND" in err


POISONED_ID, CLEAN_ID = "cure.may_target-9d300d04bba8", "cure.may_target-c624ac2d96b4"


def _case(data, case_id):
    """A case of a case file, by id."""
    (case,) = [c for c in data["cases"] if c["id"] == case_id]
    return case


def _generate(cli, tmp_path, edition="v1"):
    out = tmp_path / edition
    assert cli("conformance", "generate", "--rulebook", MINIMAL, "--edition", edition, "--out", out)[0] == 0
    return out / "cases.json"


def test_case_file_runs(cli, tmp_path, test_engines):
    cases = _generate(cli, tmp_path)
    code, out, err = run(cli, "--engine", f"{test_engines}:good", "--cases", cases)
    assert code == 0 and out.strip() == "2 passed, 0 failed" and err == ""


def test_case_file_of_another_edition(cli, tmp_path, test_engines):
    cases = _generate(cli, tmp_path, "v2")
    code, out, err = run(cli, "--engine", f"{test_engines}:good", "--cases", cases)
    assert code == 1
    assert "the cases are for edition 'v2', not 'v1'" in err


def test_case_file_edited_by_hand(cli, tmp_path, test_engines):
    cases = _generate(cli, tmp_path)
    data = json.loads(cases.read_text())
    _case(data, POISONED_ID)["expected"] = False  # someone "fixes" the poisoned case
    _case(data, CLEAN_ID)["facts"]["poisoned"] = True  # and edits the other's facts
    cases.write_text(json.dumps(data))
    code, out, err = run(cli, "--engine", f"{test_engines}:good", "--cases", cases)
    assert code == 1
    assert "case cure.may_target-c624ac2d96b4: its id does not match its decision and facts" in out
    assert "case cure.may_target-9d300d04bba8: its content does not match its check hash" in out
    assert out.splitlines()[-1] == "0 passed, 2 failed"


def test_case_removed_by_hand(cli, tmp_path, test_engines):
    cases = _generate(cli, tmp_path)
    data = json.loads(cases.read_text())
    data["cases"].remove(_case(data, POISONED_ID))  # the failing case, quietly dropped
    cases.write_text(json.dumps(data))
    code, out, err = run(cli, "--engine", f"{test_engines}:good", "--cases", cases)
    assert "cases were added, removed, reordered or edited by hand" in err
    assert ("case cure.may_target[poisoned] (cure.may_target-9d300d04bba8): missing from "
            f"{cases}: edition v1 has this case") in out
    assert code == 1 and out.splitlines()[-1] == "1 passed, 1 failed"


def test_case_file_stale_against_the_rulebook(cli, tmp_path, test_engines):
    """A case whose hashes were recomputed but whose answer is not the edition's is still caught."""
    from rulebook_compiler.conformance.suite import _check

    cases = _generate(cli, tmp_path)
    data = json.loads(cases.read_text())
    poisoned = _case(data, POISONED_ID)
    poisoned["expected"] = False
    poisoned["check"] = _check(poisoned)
    cases.write_text(json.dumps(data))
    code, out, _ = run(cli, "--engine", f"{test_engines}:good", "--cases", cases)
    assert code == 1
    assert "the case file expects false but edition v1 decides true" in out
    assert out.splitlines()[-1] == "1 passed, 1 failed"


def test_case_file_not_json(cli, tmp_path, test_engines):
    bad = tmp_path / "cases.json"
    bad.write_text("{nope")
    code, _, err = run(cli, "--engine", f"{test_engines}:good", "--cases", bad)
    assert code == 1 and "not a JSON case file" in err


def test_expectations_track_known_failures(cli, tmp_path, test_engines):
    known = tmp_path / "known.txt"
    code, out, _ = run(cli, "--engine", f"{test_engines}:Raises", "--write-expectations", known)
    assert code == 1
    assert known.read_text() == ("# Known failures of an engine on edition v1: one case id a line, name after '#'.\n"
                                 "cure.may_target-9d300d04bba8  # cure.may_target[poisoned]\n")
    code, out, _ = run(cli, "--engine", f"{test_engines}:Raises", "--expectations", known)
    assert code == 0 and out.strip() == "1 passed, 0 failed, 1 known failure"
    # fixed since: the file must be updated
    code, out, _ = run(cli, "--engine", f"{test_engines}:good", "--expectations", known)
    assert code == 1 and "passes but the expectations file lists it" in out


def test_expectations_naming_no_case(cli, tmp_path, test_engines):
    known = tmp_path / "known.txt"
    known.write_text("# known\ncure.may_target[poisoned]\ncure.may_targte[-]\n")
    code, _, err = run(cli, "--engine", f"{test_engines}:good", "--expectations", known)
    assert code == 1 and f"{known}:3:1: error: 'cure.may_targte[-]' is not a case of this suite" in err


STEPS = FIXTURES / "conformance" / "steps"
KNOCK = "door.order.next_step[current_step=door#knock]"  # a step's clause ref holds '#'


def run_steps(cli, *args):
    return cli("conformance", "run", "--rulebook", STEPS, "--edition", "s1", *args)


def test_names_holding_hash_round_trip_through_expectations(cli, tmp_path, test_engines):
    known = tmp_path / "known.txt"
    code, out, _ = run_steps(cli, "--engine", f"{test_engines}:StepsEnd", "--write-expectations", known)
    assert code == 1 and out.splitlines()[-1] == "1 passed, 2 failed"
    assert known.read_text() == (
        "# Known failures of an engine on edition s1: one case id a line, name after '#'.\n"
        "door.order.next_step-d389fc528016  # door.order.next_step[current_step=start]\n"
        "door.order.next_step-8eef0e79d5e8  # door.order.next_step[current_step=door#knock]\n")
    code, out, err = run_steps(cli, "--engine", f"{test_engines}:StepsEnd", "--expectations", known)
    assert (code, out, err) == (0, "1 passed, 0 failed, 2 known failures\n", "")


def test_names_holding_hash_are_listed_quoted(cli, tmp_path, test_engines):
    known = tmp_path / "known.txt"
    known.write_text(f'"{KNOCK}"  # quoted, so the \'#\' is part of the name\n'
                     '  "door.order.next_step[current_step=start]"\n')
    code, out, err = run_steps(cli, "--engine", f"{test_engines}:StepsEnd", "--expectations", known)
    assert (code, out, err) == (0, "1 passed, 0 failed, 2 known failures\n", "")


def test_expectations_file_that_cannot_be_read_as_entries(cli, tmp_path, test_engines):
    known = tmp_path / "known.txt"
    known.write_text('"door.order.next_step[current_step=start]\n'
                     f'{KNOCK}\n'
                     'door.order.next_step-d389fc528016 extra\n')
    code, out, err = run_steps(cli, "--engine", f"{test_engines}:StepsEnd", "--expectations", known)
    assert (code, out) == (1, "")
    assert err == (
        f"{known}:1:1: error: the quoted entry does not end on its line\n"
        "  hint: a quoted entry is a JSON string: \"name\", with \\\" for a quote inside it\n"
        f"{known}:2:1: error: 'door.order.next_step[current_step=door' is not a case of this suite\n"
        f"{known}:3:35: error: one entry a line: 'extra' follows 'door.order.next_step-d389fc528016'\n"
        "  hint: quote a case name that holds spaces or '#' as a JSON string: \"name\"\n")


def test_write_expectations_into_the_rulebook_is_a_usage_error_before_any_case_runs(cli, tmp_path, test_engines):
    import shutil
    book = tmp_path / "book"
    shutil.copytree(MINIMAL, book)
    before = {p: p.read_bytes() for p in book.rglob("*") if p.is_file()}
    target = book / "vocabulary.yaml"
    code, out, err = cli("conformance", "run", "--rulebook", book, "--edition", "v1",
                         "--engine", f"{test_engines}:Raises", "--write-expectations", target)
    assert (code, out) == (2, "")
    assert err.splitlines()[0] == (f"rulebook: error: --write-expectations: '{target}' is inside "
                                    f"the rulebook folder '{book}'; an output may not overlap an input, "
                                    "choose another path")
    assert {p: p.read_bytes() for p in book.rglob("*") if p.is_file()} == before


def test_a_failure_message_shows_rule_text_as_the_terminal_should(cli, test_engines, tmp_path):
    # A clause's text is quoted in the message: raw, its carriage return overwrote the
    # line and a bidi control reordered it on the terminal; its line break forged a line.
    import shutil

    book = tmp_path / "book"
    shutil.copytree(MINIMAL, book)
    path = book / "editions" / "v1" / "cure.yaml"
    path.write_text(path.read_text().replace("text: Targets must be curable.",
                                             'text: "Targets must\\r be \\u202ecurable.\\nforged: line"'))
    code, out, err = cli("conformance", "run", "--rulebook", book, "--edition", "v1",
                         "--engine", f"{test_engines}:Raises")
    assert code == 1
    assert '  cure#targets: "Targets must\\r be \\u202ecurable.\\nforged: line"' in out.splitlines()
    assert not {"\r", "\u202e"} & set(out)


def test_ids_from_a_case_file_or_an_expectations_file_are_printed_escaped(cli, tmp_path, test_engines):
    # Both files can come from a repository: raw, an id's escape sequence or bidi
    # control reached the terminal (or a CI log) as it was.
    cases = _generate(cli, tmp_path)
    data = json.loads(cases.read_text())
    _case(data, CLEAN_ID)["id"] = "evil\x1b]0;owned\x07\u202e"
    cases.write_text(json.dumps(data))
    code, out, err = run(cli, "--engine", f"{test_engines}:good", "--cases", cases)
    assert code == 1
    assert "case evil\\x1b]0;owned\\x07\\u202e: its id does not match its decision and facts (edited by hand?)" \
        in out.splitlines()
    known = tmp_path / "known.txt"
    known.write_text('nosuch\x1b]0;owned\x07\u202e\n"forged\\nline"\n')
    code, out, err = run(cli, "--engine", f"{test_engines}:good", "--expectations", known)
    assert (code, err) == (1, f"{known}:1:1: error: 'nosuch\\x1b]0;owned\\x07\\u202e' is not a case of this suite\n"
                              f"{known}:2:1: error: 'forged\\nline' is not a case of this suite\n")
