"""The one test command (tools/test.sh), which the README gives and .ci/run calls.

It runs against stand-ins for apt-get and Python on a PATH that holds nothing
else, so what it would install on a fresh machine is seen without installing it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
LOG_STUB = '#!/bin/sh\necho "$(basename "$0") $*" >> "$STUB_LOG"\n'
# apt-get's stand-in logs, and 'installs' a package by putting a logging stand-in of its command on PATH.
APT_STUB = LOG_STUB + ('[ "$1" = install ] && for p in "$@"; do case "$p" in nodejs) c=node;; -*|install) continue;; '
                       '*) c="$p";; esac; cp "$0.log-stub" "$(dirname "$0")/$c"; done; exit 0\n')


def fake_machine(tmp_path: Path, *present: str) -> tuple[Path, dict[str, str]]:
    """A PATH with the shell tools the script uses, logging stand-ins for apt-get and python, and ``present``."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for tool in ("bash", "sh", "dirname", "basename", "id", "env", "cp"):
        (bin_ / tool).symlink_to(shutil.which(tool))
    for stub in ("python", *present):
        (bin_ / stub).write_text(LOG_STUB)
        (bin_ / stub).chmod(0o755)
    # as root the script calls apt-get itself, otherwise through sudo: a sudo that runs what it is
    # given makes the two the same, so the test runs (and means the same) as any user
    (bin_ / "sudo").write_text('#!/bin/sh\nexec "$@"\n')
    (bin_ / "sudo").chmod(0o755)
    (bin_ / "apt-get").write_text(APT_STUB)
    (bin_ / "apt-get.log-stub").write_text(LOG_STUB)
    for stub in ("apt-get", "apt-get.log-stub"):
        (bin_ / stub).chmod(0o755)
    log = tmp_path / "log"
    log.touch()
    return log, {"PATH": str(bin_), "STUB_LOG": str(log), "PYTHON": str(bin_ / "python")}


def run_script(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(ROOT / "tools" / "test.sh"), *args], env=env, capture_output=True, text=True,
                          timeout=60)


def test_on_a_fresh_machine_it_installs_chromium_nodejs_npm_git_axe_and_the_extras(tmp_path):
    log, env = fake_machine(tmp_path)
    result = run_script(env, "-m", "not browser")
    assert (result.returncode, result.stderr) == (0, "")
    assert log.read_text().splitlines() == [
        "apt-get update -qq",
        "apt-get install -y -qq chromium nodejs npm git",
        "npm ci --prefix tests/site --no-audit --no-fund --silent",
        "python -m pip install -q -e .[test]",
        "python -m pytest -q -p no:cacheprovider -m not browser"]


def test_with_everything_present_it_installs_only_the_package(tmp_path):
    log, env = fake_machine(tmp_path, "chromium", "node", "npm", "git")
    assert run_script(env).returncode == 0
    assert log.read_text().splitlines() == ["npm ci --prefix tests/site --no-audit --no-fund --silent",
                                            "python -m pip install -q -e .[test]",
                                            "python -m pytest -q -p no:cacheprovider"]


def test_the_readme_and_ci_use_this_one_command():
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)```", readme, re.S)
    assert "tools/test.sh\n" in blocks, "the README's test command"
    assert "exec tools/test.sh" in (ROOT / ".ci" / "run").read_text()
