"""The broken-rulebook corpus: every kind of bad input gets its exact, positioned message.

Each folder under tests/fixtures/broken/ is tests/fixtures/minimal with one
thing broken (the folder name says what); its ``expected.txt`` is exactly what
``rulebook check FOLDER`` prints on stderr, run from tests/fixtures/broken/.
Inputs too big to commit (a 10 MB string, a 17 MB file) are generated here.

Every case runs the real command in a subprocess, so a crash would show as a
traceback or a status other than 1, and a hang as a timeout. The timeout is a
guard against hangs (an alias bomb must be stopped, not expanded), not a
performance measurement; those live in bench/.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"
BROKEN = FIXTURES / "broken"
MINIMAL = FIXTURES / "minimal"
HANG_GUARD = 60  # seconds; each case takes well under one

CASES = sorted(p.name for p in BROKEN.iterdir() if (p / "expected.txt").is_file())


def run_check(*args: str, cwd: Path, **variables: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", **variables}
    return subprocess.run([sys.executable, "-m", "rulebook_compiler", "check", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=HANG_GUARD)


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under root with its bytes and modification time."""
    return {str(p.relative_to(root)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(root.rglob("*")) if p.is_file()}


def assert_clean_failure(proc: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout == ""


def test_the_corpus_is_large_enough():
    assert len(CASES) >= 30


@pytest.mark.parametrize("case", CASES)
def test_broken_rulebook(case: str):
    before = snapshot(BROKEN / case)
    proc = run_check(case, cwd=BROKEN)
    assert_clean_failure(proc)
    assert proc.stderr == (BROKEN / case / "expected.txt").read_text(encoding="utf-8")
    assert snapshot(BROKEN / case) == before, "check must never write to the sources"


def test_each_case_differs_from_minimal_in_its_own_way():
    """Guard against a case folder that lost its breakage (and would test nothing new)."""
    base = {k: v[0] for k, v in snapshot(MINIMAL).items()}
    seen: dict[tuple, str] = {}
    for case in CASES:
        files = {k: v[0] for k, v in snapshot(BROKEN / case).items() if k != "expected.txt"}
        diff = tuple(sorted((k, files.get(k)) for k in files.keys() | base.keys() if files.get(k) != base.get(k)))
        assert diff, f"{case} is identical to minimal"
        assert diff not in seen, f"{case} breaks the same thing as {seen[diff]}"
        seen[diff] = case


def _copy_minimal(tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    shutil.copytree(MINIMAL, root)
    return root


def test_ten_megabyte_string(tmp_path):
    root = _copy_minimal(tmp_path, "huge-string")
    path = root / "editions" / "v2" / "cure.yaml"
    text = path.read_text()
    old = "text: Cure cannot be used in battle."
    assert old in text
    path.write_text(text.replace(old, "text: " + "x" * 10_000_000))
    proc = run_check("huge-string", cwd=tmp_path)
    assert_clean_failure(proc)
    assert proc.stderr == (
        "huge-string/editions/v2/cure.yaml:20:15: error: "
        "text of 10,000,000 characters is longer than the limit of 100,000\n"
        "  hint: split it into several clauses\n"
        "1 problem found\n")


def test_file_over_the_size_limit(tmp_path):
    root = _copy_minimal(tmp_path, "huge-file")
    path = root / "editions" / "v2" / "cure.yaml"
    # 17 MiB of comment lines: valid YAML, but over the 16 MiB limit of a file
    with path.open("a") as out:
        line = "# " + "x" * 1022 + "\n"
        out.write(line * (17 * 1024))
    size = path.stat().st_size
    proc = run_check("huge-file", cwd=tmp_path)
    assert_clean_failure(proc)
    assert proc.stderr == (
        f"huge-file/editions/v2/cure.yaml:1:1: error: file is {size:,} bytes, "
        "over the limit of 16,777,216 (16 MiB)\n"
        "  hint: split the term, or move long notes out of the rulebook\n"
        "1 problem found\n")


def test_problems_are_reported_in_path_order_with_a_count():
    expected = (BROKEN / "many-problems-in-many-files" / "expected.txt").read_text().splitlines()
    located = [line for line in expected if not line.startswith("  hint:")][:-1]
    assert len(located) >= 4
    assert located == sorted(located, key=lambda l: (l.split(":")[0], int(l.split(":")[1])))
    assert expected[-1] == f"{len(located)} problems found"


@pytest.mark.parametrize("args", [["a", "b"], ["--no-such-option"], ["-x"]])
def test_usage_errors_exit_2(args):
    proc = run_check(*args, cwd=BROKEN)
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.returncode == 2
    assert proc.stderr.startswith("rulebook: error: ")


def test_check_leaves_a_clean_rulebook_untouched():
    before = snapshot(MINIMAL)
    proc = run_check(str(MINIMAL), cwd=BROKEN)
    assert proc.returncode == 0, proc.stderr
    assert snapshot(MINIMAL) == before


def test_a_file_given_for_the_folder_is_a_usage_error_that_says_which_folder_to_pass():
    # a usage error (issue 25.1): exit 2, one error line and its hint, as every command gives it
    proc = run_check("../minimal/rulebook.yaml", cwd=BROKEN)
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        2, "", "rulebook: error: '../minimal/rulebook.yaml' is a file, not a rulebook folder\n"
               "  hint: give the folder that holds it: rulebook check ../minimal\n")


def test_a_missing_folder_is_a_usage_error_that_names_it():
    proc = run_check("no-such-folder", cwd=BROKEN)
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        2, "", "rulebook: error: no such rulebook folder: 'no-such-folder'\n"
               "  hint: give the folder that holds rulebook.yaml\n")


def _hostile_module():
    spec = importlib.util.spec_from_file_location("bench_hostile", FIXTURES.parent.parent / "bench" / "hostile.py")
    hostile = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hostile)
    return hostile


def _hostile(tmp_path: Path, case: str, size: int) -> Path:
    """A rulebook from bench/hostile.py, generated here: too big (or too repetitive) to commit."""
    return _hostile_module().CASES[case](tmp_path / case, size)


def test_a_chain_of_a_thousand_predicates(tmp_path):
    # once a RecursionError traceback in the cycle finder
    from rulebook_compiler.conditions import MAX_PREDICATE_DEPTH as LIMIT

    _hostile(tmp_path, "predicate-chain", 1000)
    proc = run_check("predicate-chain", cwd=tmp_path)
    assert_clean_failure(proc)
    first = 1000 - LIMIT  # the predicate where the chain goes over the limit
    line, col = 9 + first, len(f"      - {{id: p{first}, text: P{first}., defines: ") + 1
    assert proc.stderr == (
        f"predicate-chain/editions/v1/t.yaml:{line}:{col}: error: predicate 'p{first}' nests {LIMIT + 1} deep "
        f"through the predicates it uses (p{first} -> p{first + 1} -> p{first + 2} -> ... -> p1000), "
        f"over the limit of {LIMIT}\n"
        "  hint: define it with fewer predicates in a chain; the limit is "
        f"MAX_PREDICATE_DEPTH = {LIMIT} in rulebook_compiler/conditions.py (docs/format.md, Limits)\n"
        "1 problem found\n")


def test_a_when_nested_320_not_deep(tmp_path):
    # once passed check, then failed in every command that walked it (the diff pickled it);
    # nested this deep it is refused by the loader already
    from rulebook_compiler.yamlsource import MAX_DEPTH as LIMIT

    _hostile(tmp_path, "deep-not", 320)
    proc = run_check("deep-not", cwd=tmp_path)
    assert_clean_failure(proc)
    assert proc.stderr == (
        f"deep-not/editions/v1/t.yaml:13:{74 + 6 * (LIMIT - 7)}: error: lists and mappings nested more than "
        f"{LIMIT} deep\n"
        f"  hint: a rulebook file needs far less; the limit is MAX_DEPTH = {LIMIT} in rulebook_compiler/yamlsource.py "
        "(docs/format.md, Limits)\n"
        "1 problem found\n")


def test_a_when_nested_deeper_than_the_condition_limit(tmp_path):
    from rulebook_compiler.conditions import MAX_CONDITION_DEPTH as LIMIT

    _hostile(tmp_path, "deep-not", LIMIT + 10)
    proc = run_check("deep-not", cwd=tmp_path)
    assert_clean_failure(proc)
    assert proc.stderr == (
        f"deep-not/editions/v1/t.yaml:13:{74 + 6 * LIMIT}: error: condition nested more than {LIMIT} deep\n"
        "  hint: name a part of it with 'defines' and use the name; the limit is "
        f"MAX_CONDITION_DEPTH = {LIMIT} in rulebook_compiler/conditions.py (docs/format.md, Limits)\n"
        "1 problem found\n")


def test_a_cycle_in_a_long_chain_of_predicates_is_found_without_recursion(tmp_path):
    root = _hostile(tmp_path, "predicate-chain", 3000)
    term = root / "editions" / "v1" / "t.yaml"
    term.write_text(term.read_text().replace("name: p3000, as: a}", "name: p3000, as: p0}"))
    proc = run_check("predicate-chain", cwd=tmp_path)
    assert_clean_failure(proc)
    lines = proc.stderr.splitlines()
    assert lines[0].startswith("predicate-chain/editions/v1/t.yaml:9:38: error: predicate definitions form a cycle: "
                               "p0 -> p1 -> p2 -> ")
    assert lines[0].endswith(" -> p2999 -> p3000 -> p0")
    assert lines[1:] == ["  hint: define one of " + ", ".join(f"'p{i}'" for i in sorted(range(3001), key=str))
                         + " without using the others", "1 problem found"]


def test_constraints_tying_a_decision_to_30_facts_are_checked_at_once(tmp_path):
    # once minutes of search (20 ties: 4 s; 25: several minutes), then a step budget and a
    # warning; now one existential over the tied facts, answered symbolically
    _hostile(tmp_path, "tied-constraints", 30)
    proc = run_check("tied-constraints", cwd=tmp_path)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout.endswith(": no problems\n")


def test_a_400_kb_condition_is_checked_and_its_dead_rule_found(tmp_path):
    # once 213 s, then a warning that it was not searched; its 'when' can never hold
    root = _hostile(tmp_path, "wide-condition", 10_000)
    assert (root / "editions" / "v1" / "t.yaml").stat().st_size > 380_000
    proc = run_check("wide-condition", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr == (
        "wide-condition/editions/v1/t.yaml:13:13: error: rule of t#top for 't.q' can never apply in an allowed "
        "situation (dead rule)\n"
        "  hint: check its 'when' against the vocabulary's constraints and the decision's 'given'\n"
        "1 problem found\n")


def test_control_characters_in_a_file_name_are_escaped_on_the_terminal(tmp_path):
    # once printed raw: an escape sequence in a file name could retitle or clear the terminal
    root = _copy_minimal(tmp_path, "name")
    (root / "editions" / "v2" / "cure.yaml").rename(root / "editions" / "v2" / "cure\x1b]0;owned\x07\r.yaml")
    proc = run_check("name", cwd=tmp_path)
    assert_clean_failure(proc)
    assert proc.stderr == (
        "name/editions/v2/cure\\x1b]0;owned\\x07\\r.yaml:1:5: error: "
        "term id 'cure' does not match the file name 'cure\\x1b]0;owned\\x07\\r.yaml'\n"
        "  hint: rename the file to 'cure.yaml'\n"
        "1 problem found\n")


def test_a_terminal_in_colour_gets_escaped_names_too(tmp_path):
    from rulebook_compiler.diagnostics import Diagnostic, Location

    problem = Diagnostic(Location("a\x1b[2Jb.yaml", 1, 2), "bad \x1b[31m", "hint \x9b")
    assert str(problem) == "a\\x1b[2Jb.yaml:1:2: error: bad \\x1b[31m\n  hint: hint \\x9b"


def _accented(tmp_path: Path) -> Path:
    root = _copy_minimal(tmp_path, "accented")
    main = root / "rulebook.yaml"
    main.write_text(main.read_text().replace("title: Minimal", "title: Règles — “Minimal” 🃏"), encoding="utf-8")
    return root


@pytest.mark.parametrize("variables", [{"PYTHONIOENCODING": "ascii"}, {"PYTHONIOENCODING": "latin-1"},
                                       {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}],
                         ids=["ascii", "latin-1", "C-locale"])
def test_output_survives_a_stdout_that_is_not_utf8(tmp_path, variables):
    # once a UnicodeEncodeError traceback after the work was done
    _accented(tmp_path)
    env = {**os.environ, "NO_COLOR": "1", **variables}
    if "PYTHONIOENCODING" not in variables:
        env.pop("PYTHONIOENCODING", None)

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "rulebook_compiler", *args], cwd=tmp_path, env=env,
                              capture_output=True, timeout=HANG_GUARD)

    proc = run("check", "accented")
    assert (proc.returncode, proc.stderr) == (0, b"")
    # what the stream cannot carry is escaped (or click writes UTF-8): the line is whole
    assert proc.stdout.startswith(b"R")
    assert proc.stdout.endswith(b": 2 editions (v1, v2), 1 term, latest v2 with 1 term and 3 clauses: no problems\n")

    proc = run("export", "--rulebook", "accented")
    assert (proc.returncode, proc.stderr) == (0, b"")
    # JSON is UTF-8 whatever the locale: the exact document, parseable
    assert json.loads(proc.stdout.decode("utf-8"))["rulebook"]["title"] == "Règles — “Minimal” 🃏"

    (tmp_path / "accented" / "editions" / "v2" / "cure.yaml").write_text("id: cure\nname: Cüre\n", encoding="utf-8")
    proc = run("check", "accented")
    assert proc.returncode == 1
    assert b"Traceback" not in proc.stderr
    assert proc.stderr.endswith(b"1 problem found\n")


def test_at_every_depth_limit_each_command_completes(tmp_path):
    # what check accepts, every later command walks without running out of stack:
    # a rule's 'when' MAX_CONDITION_DEPTH deep around a predicate MAX_PREDICATE_DEPTH deep
    from rulebook_compiler.conditions import MAX_CONDITION_DEPTH, MAX_PREDICATE_DEPTH

    old = _hostile(tmp_path, "predicate-chain", MAX_PREDICATE_DEPTH - 1)
    term = old / "editions" / "v1" / "t.yaml"
    nots = MAX_CONDITION_DEPTH - 1  # and the name p0 is a level: the when is at the limit
    term.write_text(term.read_text().replace("when: p0}", "when: " + "{not: " * nots + "p0" + "}" * nots + "}"))
    new = tmp_path / "new"
    shutil.copytree(old, new)
    term = new / "editions" / "v1" / "t.yaml"
    term.write_text(term.read_text().replace("value: true, exception_to", "value: false, exception_to"))
    env = {**os.environ, "NO_COLOR": "1"}
    commands = [["check", str(old)], ["check", str(new)], ["export", "--rulebook", str(old)],
                *(["diff", str(old), str(new), "--format", f] for f in ("text", "json", "markdown", "html")),
                ["history", "t", "--rulebook", str(old)],
                ["conformance", "generate", "--rulebook", str(old), "--edition", "v1", "--out", str(tmp_path / "c")],
                ["conformance", "mutants", "--rulebook", str(old), "--edition", "v1"]]
    for args in commands:
        proc = subprocess.run([sys.executable, "-m", "rulebook_compiler", *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=HANG_GUARD)
        assert (args, proc.returncode, proc.stderr) == (args, 0, "")


def test_control_characters_in_a_command_line_value_are_escaped(tmp_path):
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "rulebook_compiler", "export", "--rulebook", str(MINIMAL),
                           "--edition", "v9\x1b]0;owned\x07"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=HANG_GUARD)
    assert proc.returncode == 2
    assert proc.stderr == "rulebook: error: unknown edition 'v9\\x1b]0;owned\\x07'\n  hint: editions: v1, v2\n"


def test_ten_thousand_misspelt_names_get_hints_within_a_budget(tmp_path):
    # 10,000 unknown names against 2,000 facts once ran for minutes, all in "did you mean";
    # every problem is still reported, the hints stop once their comparisons are spent
    import rulebook_compiler.diagnostics as D

    facts = [f"fact_number_{i}" for i in range(2000)]
    names = [f"fact_numbr_{i}" for i in range(10_000)]
    when = "{any: [" + ", ".join(names) + "]}"
    hostile = _hostile_module()
    hostile._write(tmp_path / "misspelt", facts, hostile._term(hostile._base_rule(when)))
    proc = run_check("misspelt", cwd=tmp_path)
    assert_clean_failure(proc)
    lines = proc.stderr.splitlines()
    assert lines[-1] == "10000 problems found"
    hinted = D.SUGGESTION_BUDGET // len(facts)
    assert lines[:2] == ["misspelt/editions/v1/t.yaml:13:81: error: unknown fact or predicate 'fact_numbr_0'",
                         "  hint: did you mean 'fact_number_0'?"]
    assert sum(line.startswith("  hint: ") for line in lines) == hinted


def test_a_chain_of_6400_exceptions_is_checked(tmp_path):
    # the override table was one search per rule: more than 100 s and 600 MB for this 490 KB
    # file (past the hang guard); now about 2 s
    _hostile(tmp_path, "exception-chain", 80)
    proc = run_check("exception-chain", cwd=tmp_path)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout == "Hostile: 1 edition (v1), 1 term, latest v1 with 1 term and 80 clauses: no problems\n"
