"""Generated suites: cases.json, a pytest module that is safe whatever the rule text holds, the pytest plugin."""

from __future__ import annotations

import importlib.util
import json
import os
import py_compile
import shutil
import subprocess
import sys
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CONFORMANCE = FIXTURES / "conformance"
ENGINES = CONFORMANCE / "engines"
MINIMAL = FIXTURES / "minimal"
ROOT = FIXTURES.parent.parent
HOSTILE_TEXT = ("Targets must be \"poisoned\"; \"\"\"; import os; os.system('touch PWNED')\n"
                "''' {{ x }} {% raw %} \\ \\x00 \u2028 end")


def _pytest(*args, cwd):
    # this tree's compiler, not whichever one is installed, and the test engines
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ENGINES)])}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(cwd),
                           *map(str, args)],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_hostile_text_stays_data(cli, tmp_path):
    out = tmp_path / "suite"
    code, _, _ = cli("conformance", "generate", "--rulebook", CONFORMANCE / "hostile", "--edition", "v1", "--out", out)
    assert code == 0
    module = out / "test_conformance.py"
    py_compile.compile(str(module), doraise=True)
    spec = importlib.util.spec_from_file_location("generated_hostile", module)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)  # imports without running anything the text says
    (targets,) = [q for c in loaded.CASES if c["name"] == "cure.may_target[poisoned]" for q in c["clauses"]]
    assert targets == {"ref": "cure#targets", "text": HOSTILE_TEXT}
    assert loaded.RULEBOOK.startswith('Hostile """; import os')
    assert not (tmp_path / "PWNED").exists() and not Path("PWNED").exists()
    data = json.loads((out / "cases.json").read_text())
    assert {c["name"]: c["clauses"] for c in data["cases"]}["cure.may_target[poisoned]"] == [
        {"ref": "cure#targets", "text": HOSTILE_TEXT}]


def test_generate_is_deterministic(cli, tmp_path):
    for name in ("a", "b"):
        assert cli("conformance", "generate", "--rulebook", MINIMAL, "--edition", "v2", "--out", tmp_path / name)[0] == 0
    for f in ("cases.json", "test_conformance.py"):
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes()


def test_case_file_format(cli, tmp_path):
    cli("conformance", "generate", "--rulebook", MINIMAL, "--edition", "v2", "--max-exhaustive", "4096",
        "--out", tmp_path)
    data = json.loads((tmp_path / "cases.json").read_text())
    assert data["format"] == "rulebook-conformance/1" and data["edition"] == "v2"
    case = next(c for c in data["cases"] if c["name"] == "cure.may_target[phase=battle,poisoned]")
    assert case["facts"] == {"paralyzed": False, "phase": "battle", "poisoned": True}
    assert case["expected"] is False
    assert case["clauses"] == [{"ref": "cure#not-in-battle", "text": "Cure cannot be used in battle."}]
    (decision,) = [d for d in data["decisions"] if d["decision"] == "cure.may_target"]
    assert (decision["strategy"], decision["cases"], len(data["decisions"])) == ("exhaustive", 12, 1)


def test_generated_module_runs_with_the_plugin(cli, tmp_path):
    cli("conformance", "generate", "--rulebook", CONFORMANCE / "hostile", "--edition", "v1", "--out", tmp_path)
    ok = _pytest("test_conformance.py", "--rulebook-engine", "rulebook_test_engines:good", cwd=tmp_path)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "2 passed" in ok.stdout
    bad = _pytest("test_conformance.py", "-v", "--rulebook-engine", "rulebook_test_engines:Raises", cwd=tmp_path)
    assert bad.returncode == 1
    assert "FAILED test_conformance.py::test_case[cure.may_target[poisoned]]" in bad.stdout
    assert "engine raised RuntimeError: engine bug on poisoned characters" in bad.stdout
    assert "cure#targets: \"Targets must be \"poisoned\"" in bad.stdout  # the failure quotes the clause


def test_generated_module_with_expectations(cli, tmp_path):
    cli("conformance", "generate", "--rulebook", MINIMAL, "--edition", "v1", "--out", tmp_path)
    (tmp_path / "known.txt").write_text("cure.may_target-9d300d04bba8\n")
    result = _pytest("test_conformance.py", "--rulebook-engine", "rulebook_test_engines:Raises",
                     "--rulebook-expectations", "known.txt", cwd=tmp_path)
    assert result.returncode == 0 and "1 passed, 1 xfailed" in result.stdout


# pytest ends a usage error with an empty line
NO_ENGINE = "ERROR: no engine: give --rulebook-engine MODULE:ATTR or --rulebook-engine-cmd COMMAND\n\n"


def test_generated_module_without_engine_is_a_usage_error(cli, tmp_path):
    cli("conformance", "generate", "--rulebook", MINIMAL, "--edition", "v1", "--out", tmp_path)
    result = _pytest("test_conformance.py", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (4, NO_ENGINE)


def test_engine_that_cannot_be_imported_is_a_usage_error_before_any_case_runs(cli, tmp_path):
    cli("conformance", "generate", "--rulebook", MINIMAL, "--edition", "v1", "--out", tmp_path)
    result = _pytest("test_conformance.py", "--rulebook-engine", "nosuch:Engine", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (4, (
        "ERROR: --rulebook-engine nosuch:Engine: engine module 'nosuch' not found\n"
        "  hint: put the folder that holds it on PYTHONPATH, or run from that folder\n\n"))
    assert "passed" not in result.stdout and "failed" not in result.stdout


def test_engine_command_that_cannot_start_is_a_usage_error(tmp_path):
    result = _pytest("--rulebook", MINIMAL, "--rulebook-edition", "v1", "--rulebook-engine-cmd",
                     "no-such-engine-binary", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (4, (
        "ERROR: --rulebook-engine-cmd no-such-engine-binary: cannot start 'no-such-engine-binary': "
        "No such file or directory\n"
        "  hint: give the program's path, or put its folder on PATH\n\n"))


def test_plugin_reports_stale_expectations_as_the_cli_does(cli, tmp_path, test_engines):
    cli("conformance", "generate", "--rulebook", MINIMAL, "--edition", "v1", "--out", tmp_path)
    (tmp_path / "known.txt").write_text("# known\ncure.may_targte[-]\n")
    result = _pytest("test_conformance.py", "--rulebook-engine", "rulebook_test_engines:good",
                     "--rulebook-expectations", "known.txt", cwd=tmp_path)
    assert result.returncode == 1
    assert "known.txt:2:1: error: 'cure.may_targte[-]' is not a case of this suite" in result.stdout.splitlines()
    assert result.stdout.splitlines()[-1].startswith("1 failed, 2 passed")
    code, _, err = cli("conformance", "run", "--rulebook", MINIMAL, "--edition", "v1",
                       "--engine", f"{test_engines}:good", "--expectations", tmp_path / "known.txt")
    assert (code, err) == (1, f"{tmp_path / 'known.txt'}:2:1: error: 'cure.may_targte[-]' is not a case of this suite\n")


def test_plugin_collects_an_edition(tmp_path):
    result = _pytest("--rulebook", MINIMAL, "--rulebook-edition", "v2", "--rulebook-engine-cmd",
                     f"{sys.executable} {ENGINES / 'good.py'}", "-v", cwd=tmp_path)
    # good.py answers "poisoned", which v2 gets wrong for paralysis and for the battle phase
    # a rulebook outside pytest's rootdir: its cases go by the absolute path of its rulebook.yaml
    # the id as pytest's summary gives it (with CI set, pytest adds " - REASON" to the line)
    assert f"{MINIMAL}/rulebook.yaml::v2::cure.may_target[paralyzed,phase=preparation]" in _failed_ids(result.stdout)
    assert "2 failed, 2 passed" in result.stdout
    assert 'cure#not-in-battle: "Cure cannot be used in battle."' in result.stdout
    assert result.returncode == 1


def test_plugin_unknown_edition(tmp_path):
    result = _pytest("--rulebook", MINIMAL, "--rulebook-edition", "v9", "--rulebook-engine", "x:y", cwd=tmp_path)
    assert result.returncode != 0 and "unknown edition 'v9'" in result.stderr


def _failed_ids(stdout: str) -> list[str]:
    return [line.split(" ", 1)[1].split(" - ", 1)[0] for line in stdout.splitlines() if line.startswith("FAILED ")]


def test_a_failing_case_id_can_be_passed_back_to_pytest(tmp_path):
    engine = f"{sys.executable} {ENGINES / 'good.py'}"
    shutil.copytree(MINIMAL, tmp_path / "rulebook")
    first = _pytest("--rulebook-edition", "v2", "--rulebook-engine-cmd", engine, "-rf", cwd=tmp_path)
    failed = _failed_ids(first.stdout)
    assert failed == ["rulebook/rulebook.yaml::v2::cure.may_target[phase=battle,poisoned]",
                      "rulebook/rulebook.yaml::v2::cure.may_target[paralyzed,phase=preparation]"]
    again = _pytest(failed[0], "--rulebook-engine-cmd", engine, "-rf", cwd=tmp_path)
    assert _failed_ids(again.stdout) == failed[:1]
    assert again.stdout.splitlines()[-1].startswith("1 failed in ")
    # the edition too: all its cases, and no other edition's
    edition = _pytest("rulebook/rulebook.yaml::v2", "--rulebook-engine-cmd", engine, "-rf", cwd=tmp_path)
    assert _failed_ids(edition.stdout) == failed
    assert edition.stdout.splitlines()[-1].startswith("2 failed, 2 passed in ")


def test_the_readme_line_from_a_clone_root_runs_only_the_cases():
    # From the clone's root, pytest's testpaths would add the project's own suite (and its imports of examples/).
    (line,) = [s for s in (ROOT / "README.md").read_text().splitlines() if s.startswith("pytest rulebook ")]
    args = line.split("#")[0].split()[1:]
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--co", *args],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    ids = [s for s in result.stdout.splitlines() if "::" in s]
    assert ids and all(i.startswith("rulebook/rulebook.yaml::2012::") for i in ids), ids[:5]
