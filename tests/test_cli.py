"""The check command: summary when clean, problems and exit statuses otherwise."""

import shutil
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from rulebook_compiler.cli import main

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_clean_rulebook_prints_a_summary():
    result = CliRunner().invoke(main, ["check", str(FIXTURES / "minimal")])
    assert result.exit_code == 0
    assert result.output == ("Minimal: 2 editions (v1, v2), 1 term, latest v2 with 1 term and 3 clauses: "
                             "no problems\n")


def test_problems_exit_1_with_every_problem(tmp_path):
    root = tmp_path / "rb"
    shutil.copytree(FIXTURES / "minimal", root)
    path = root / "editions" / "v2" / "cure.yaml"
    path.write_text(path.read_text().replace("poisoned, paralyzed", "poisned, paralysed"))
    result = CliRunner().invoke(main, ["check", str(root)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[-1] == "2 problems found"
    assert sum(": error: unknown fact or predicate" in line for line in lines) == 2


def test_usage_error_exits_2():
    result = CliRunner().invoke(main, ["check", "--no-such-option"])
    assert result.exit_code == 2


def test_bundled_rulebook_checks_clean_from_the_command_line():
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, "-m", "rulebook_compiler", "check"], cwd=root, capture_output=True, text=True)
    assert (proc.returncode, proc.stderr) == (0, "")
    # Whatever editions the bundled rulebook holds: its own list, read from the YAML, heads the summary.
    import yaml
    top = yaml.safe_load((root / "rulebook" / "rulebook.yaml").read_text())
    ids = [e["id"] for e in top["editions"]]
    assert proc.stdout.startswith(f"{top['title']}: {len(ids)} editions ({', '.join(ids)}), ")
    assert proc.stdout.endswith(": no problems\n")


def test_unwritable_output_is_a_clear_error(tmp_path):
    """Every command that writes says which path it cannot write, without a traceback."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    minimal = str(FIXTURES / "minimal")
    cases = {
        "export": (["export", "--rulebook", minimal, "--out", str(blocker / "x.json")],
                   f"rulebook: error: cannot write '{blocker}/x.json': File exists\n"),
        "conformance generate": (
            ["conformance", "generate", "--rulebook", minimal, "--edition", "v1", "--out", str(blocker / "suite")],
            f"rulebook: error: cannot write '{blocker}/suite': File exists\n"),
    }
    for name, (args, stderr) in cases.items():
        result = CliRunner().invoke(main, args)
        assert (result.exit_code, result.stdout, result.stderr) == (1, "", stderr), name
        # the command ended through its own error path (SystemExit), not an escaping exception
        assert type(result.exception) is SystemExit, name


def test_a_rulebook_in_a_subfolder_is_named_with_args(tmp_path, monkeypatch):
    # The pre-commit hook runs 'rulebook check' at the repository's root; a rulebook elsewhere needs args.
    shutil.copytree(FIXTURES / "minimal", tmp_path / "games" / "cure" / "rulebook")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check"], prog_name="rulebook")
    assert (result.exit_code, result.stdout) == (2, "")  # a usage error (issue 25.1)
    assert result.stderr == (
        "rulebook: error: no rulebook.yaml in this folder, nor in ./rulebook\n"
        "  hint: name the rulebook folder: rulebook check games/cure/rulebook; for the pre-commit hook, "
        "add args: [games/cure/rulebook] under id: rulebook-check in .pre-commit-config.yaml\n")


def test_no_rulebook_anywhere_says_how_to_name_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check"], prog_name="rulebook")
    assert result.exit_code == 2
    assert result.stderr == (
        "rulebook: error: no rulebook.yaml in this folder, nor in ./rulebook\n"
        "  hint: name the rulebook folder: rulebook check PATH; for the pre-commit hook, "
        "add args: [PATH] under id: rulebook-check in .pre-commit-config.yaml (or start one: rulebook init)\n")
