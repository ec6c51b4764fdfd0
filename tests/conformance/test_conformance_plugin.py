"""The pytest plugin: where it finds the rulebook, and a generated module that refuses a changed edition."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
ENGINES = FIXTURES / "conformance" / "engines"
MINIMAL = FIXTURES / "minimal"
ROOT = FIXTURES.parent.parent
GOOD = f"{sys.executable} {ENGINES / 'good.py'}"  # answers "poisoned": v1 right, v2 wrong in two cases


def _pytest(*args, cwd):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ENGINES)])}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(cwd),
                           *map(str, args)],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def _game(tmp_path: Path) -> Path:
    """A project whose tests live beside its rulebook: game/rulebook and game/tests (the cwd)."""
    shutil.copytree(MINIMAL, tmp_path / "game" / "rulebook")
    (tmp_path / "game" / "tests").mkdir()
    return tmp_path / "game" / "tests"


def _last(result) -> str:
    return result.stdout.splitlines()[-1].split(" in ")[0]


def test_a_rulebook_folder_given_as_a_path_is_the_plugins_rulebook(tmp_path):
    cwd = _game(tmp_path)
    result = _pytest("../rulebook", "--rulebook-edition", "v2", "--rulebook-engine-cmd", GOOD, cwd=cwd)
    assert (result.returncode, _last(result)) == (1, "2 failed, 2 passed"), result.stdout + result.stderr


def test_a_rulebook_folder_given_as_a_path_runs_every_edition_without_the_option(tmp_path):
    cwd = _game(tmp_path)
    result = _pytest("../rulebook", "--rulebook-engine-cmd", GOOD, cwd=cwd)
    # v1: 2 cases, both right; v2: 4 cases, 2 wrong
    assert (result.returncode, _last(result)) == (1, "2 failed, 4 passed"), result.stdout + result.stderr


def test_a_rulebook_yaml_given_as_a_path_is_the_plugins_rulebook(tmp_path):
    cwd = _game(tmp_path)
    result = _pytest("../rulebook/rulebook.yaml", "--rulebook-edition", "v1", "--rulebook-engine-cmd", GOOD, cwd=cwd)
    assert (result.returncode, _last(result)) == (0, "2 passed"), result.stdout + result.stderr


def test_two_rulebook_folders_are_a_usage_error(tmp_path):
    cwd = _game(tmp_path)
    result = _pytest("../rulebook", "--rulebook", MINIMAL, "--rulebook-engine-cmd", GOOD, cwd=cwd)
    assert (result.returncode, result.stderr) == (4, (
        f"ERROR: two rulebook folders: ../rulebook (a path) and {MINIMAL} (--rulebook)\n"
        "  hint: give the rulebook folder once, as a path or with --rulebook DIR\n\n"))


def test_no_rulebook_found_names_the_option(tmp_path):
    result = _pytest("--rulebook-edition", "v1", "--rulebook-engine-cmd", GOOD, cwd=tmp_path)
    assert (result.returncode, result.stderr) == (4, (
        "ERROR: no rulebook: neither ./rulebook nor the current folder holds rulebook.yaml\n"
        "  hint: name the rulebook folder as a path (pytest path/to/rulebook) or with --rulebook DIR\n\n"))


def _generate(tmp_path: Path, edition: str = "v1") -> None:
    from click.testing import CliRunner
    from rulebook_compiler.cli import main

    result = CliRunner().invoke(main, ["conformance", "generate", "--rulebook", str(tmp_path / "rulebook"),
                                       "--edition", edition, "--out", str(tmp_path / "suite")])
    assert result.exit_code == 0, result.output


def _change_a_rule(tmp_path: Path) -> None:
    term = tmp_path / "rulebook" / "editions" / "v1" / "cure.yaml"
    term.write_text(term.read_text().replace("Targets must be curable.", "Targets must be curable, always."))


def test_a_generated_module_passes_while_its_edition_is_unchanged(tmp_path):
    shutil.copytree(MINIMAL, tmp_path / "rulebook")
    _generate(tmp_path)
    result = _pytest("suite/test_conformance.py", "--rulebook-engine", "rulebook_test_engines:good", cwd=tmp_path)
    assert (result.returncode, _last(result)) == (0, "2 passed"), result.stdout + result.stderr


def test_a_generated_module_refuses_an_edition_that_changed(tmp_path):
    shutil.copytree(MINIMAL, tmp_path / "rulebook")
    _generate(tmp_path)
    _change_a_rule(tmp_path)
    result = _pytest("suite/test_conformance.py", "--rulebook-engine", "rulebook_test_engines:good", "-rf",
                     cwd=tmp_path)
    assert (result.returncode, _last(result)) == (1, "2 failed"), result.stdout + result.stderr
    lines = result.stdout.splitlines()
    from rulebook_compiler.build import check
    from rulebook_compiler.conformance.cases import edition_digest

    book, _ = check(tmp_path / "rulebook")
    now = edition_digest(book.edition_by_id["v1"])
    generated = (tmp_path / "suite" / "test_conformance.py").read_text().split("SOURCE_DIGEST = '")[1][:16]
    assert generated != now
    message = (f"suite/test_conformance.py: edition v1 changed since this module was generated "
               f"(digest {generated}, now {now}); its cases may be stale")
    hint = "  hint: regenerate with: rulebook conformance generate --rulebook rulebook --edition v1 --out suite"
    # each failure's own report (the short summary after it repeats the hint, cut or not by the terminal's width)
    failures = lines[:next(i for i, line in enumerate(lines) if "short test summary info" in line)]
    assert (failures.count(message), failures.count(hint)) == (2, 2), result.stdout
    # `conformance run` says the same cases are stale
    from click.testing import CliRunner
    from rulebook_compiler.cli import main

    run = CliRunner().invoke(main, ["conformance", "run", "--rulebook", str(tmp_path / "rulebook"), "--edition",
                                    "v1", "--engine-cmd", GOOD, "--cases", str(tmp_path / "suite" / "cases.json")])
    assert "generated from another version of edition v1" in run.stderr


def test_a_generated_module_from_before_digests_is_refused(tmp_path):
    shutil.copytree(MINIMAL, tmp_path / "rulebook")
    _generate(tmp_path)
    module = tmp_path / "suite" / "test_conformance.py"
    module.write_text("\n".join(l for l in module.read_text().splitlines() if not l.startswith("SOURCE_DIGEST")))
    result = _pytest("suite/test_conformance.py", "--rulebook-engine", "rulebook_test_engines:good", cwd=tmp_path)
    assert (result.returncode, _last(result)) == (1, "2 failed"), result.stdout + result.stderr
    assert ("suite/test_conformance.py: the module names no digest of edition v1 (generated by an older "
            "rulebook-compiler); its cases may be stale") in result.stdout.splitlines()


def test_a_generated_module_without_its_rulebook_runs_with_a_warning(tmp_path):
    shutil.copytree(MINIMAL, tmp_path / "rulebook")
    _generate(tmp_path)
    shutil.rmtree(tmp_path / "rulebook")
    result = _pytest("suite/test_conformance.py", "--rulebook-engine", "rulebook_test_engines:good", cwd=tmp_path)
    assert (result.returncode, _last(result)) == (0, "2 passed, 1 warning"), result.stdout + result.stderr
    warning = ("PytestWarning: suite/test_conformance.py: no rulebook to compare edition v1 with, so its cases "
               "are not checked for staleness; give the rulebook folder with --rulebook DIR")
    assert [line.split(": ", 1)[1] for line in result.stdout.splitlines() if ": PytestWarning: " in line] == [warning]


def test_the_old_spelling_rulebook_dir_still_works_with_a_deprecation_warning(tmp_path):
    # --rulebook DIR is the plugin's option, as it is every rulebook command's (issue 25.1, docs/cli.md)
    result = _pytest("--rulebook-dir", MINIMAL, "--rulebook-edition", "v1", "--rulebook-engine-cmd", GOOD,
                     cwd=tmp_path)
    assert (result.returncode, _last(result).split(",")[0]) == (0, "2 passed"), result.stdout + result.stderr
    said = [line.split(": ", 1)[1] for line in result.stdout.splitlines() if "--rulebook-dir" in line]
    assert said == ["PytestWarning: --rulebook-dir is deprecated; use --rulebook DIR, as the rulebook command does"]


def test_the_old_and_the_new_spelling_naming_two_folders_are_a_usage_error(tmp_path):
    cwd = _game(tmp_path)
    result = _pytest("--rulebook", "../rulebook", "--rulebook-dir", MINIMAL, "--rulebook-engine-cmd", GOOD, cwd=cwd)
    assert (result.returncode, result.stderr) == (4, (
        f"ERROR: two rulebook folders: ../rulebook (--rulebook) and {MINIMAL} (--rulebook-dir)\n"
        "  hint: give the rulebook folder once, as a path or with --rulebook DIR\n\n"))
