"""The review workflow files: the CI example runs the diff as Markdown; the hook runs check."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_ci_example_posts_the_markdown_diff_of_the_pull_request():
    workflow = yaml.safe_load((ROOT / "examples" / "ci" / "rulebook-diff.yml").read_text())
    steps = workflow["jobs"]["diff"]["steps"]
    runs = "\n".join(s.get("run", "") for s in steps)
    assert "rulebook check" in runs
    assert 'rulebook diff "git:origin/$BASE_REF" git:HEAD --format markdown >> rulebook-diff.md' in runs
    # GitHub's hardening guide: no ${{ }} expression is pasted into a shell script;
    # values reach it through the environment.
    assert "${{" not in runs
    diff_step = next(s for s in steps if "rulebook diff" in s.get("run", ""))
    assert diff_step["env"] == {"BASE_REF": "${{ github.base_ref }}"}
    # The marker that finds the comment again comes first: the body is cut at 65,000
    # characters, and a marker at the end was cut off with it (a new comment on each push).
    assert diff_step["run"].splitlines()[0] == "echo '<!-- rulebook-diff -->' > rulebook-diff.md"
    assert any(s.get("uses", "").startswith("actions/github-script") for s in steps)
    assert steps[0]["with"]["fetch-depth"] == 0  # git: sides need the base branch's commits
    assert workflow["permissions"]["pull-requests"] == "write"


def test_pre_commit_hook_runs_rulebook_check():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "rulebook-check")
    assert hook["entry"] == "rulebook check" and hook["pass_filenames"] is False
    import re
    assert re.search(hook["files"], "rulebook/editions/3.0.0/heal.yaml")
    assert re.search(hook["files"], "rulebook/vocabulary.yaml")
    assert not re.search(hook["files"], "README.md")


def _install_step(tmp_path: Path, cwd: Path, variable: str):
    """Run the CI example's install step in ``cwd`` with a pip that only logs what it is asked."""
    import os
    import shutil
    import subprocess

    workflow = yaml.safe_load((ROOT / "examples" / "ci" / "rulebook-diff.yml").read_text())
    (step,) = [s for s in workflow["jobs"]["diff"]["steps"] if s.get("name") == "Install rulebook-compiler"]
    assert step["env"] == {"RULEBOOK_COMPILER": "${{ vars.RULEBOOK_COMPILER }}"}
    bin_ = tmp_path / "bin"
    bin_.mkdir(exist_ok=True)
    (bin_ / "pip").write_text('#!/bin/sh\necho "pip $*"\n')
    (bin_ / "pip").chmod(0o755)
    env = {"PATH": f"{bin_}{os.pathsep}{os.path.dirname(shutil.which('grep'))}", "RULEBOOK_COMPILER": variable}
    return subprocess.run(["bash", "-e", "-c", step["run"]], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=30)


def test_ci_example_installs_the_compiler_from_the_repository_it_runs_in(tmp_path):
    # rulebook-compiler is not published: 'pip install rulebook-compiler' failed wherever the example was copied.
    run = _install_step(tmp_path, ROOT, "")
    assert (run.returncode, run.stdout, run.stderr) == (0, "pip install .\n", "")


def test_ci_example_elsewhere_installs_the_compiler_the_repository_variable_names(tmp_path):
    requirement = "rulebook-compiler @ git+https://example.org/x/rulebook-compiler@0123abc"
    run = _install_step(tmp_path, tmp_path, requirement)
    assert (run.returncode, run.stdout) == (0, f"pip install {requirement}\n")
    unset = _install_step(tmp_path, tmp_path, "")
    assert (unset.returncode, unset.stdout) == (1, "::error::set the repository variable RULEBOOK_COMPILER to a "
                                                   "pip requirement for rulebook-compiler\n")
