"""Start-up: `rulebook check` imports no back-end library (site, diff, templates)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MINIMAL = ROOT / "tests" / "fixtures" / "minimal"
HEAVY = ("deepdiff", "mkdocs", "jinja2", "material", "rich")

PROBE = """
import contextlib, io, sys
import rulebook_compiler.cli
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        rulebook_compiler.cli.main.main(["check", sys.argv[1]], prog_name="rulebook", standalone_mode=False)
    except SystemExit as exc:
        assert not exc.code, exc.code
assert "no problems" in out.getvalue(), out.getvalue()
print(" ".join(sorted({name.split(".")[0] for name in sys.modules} & set(sys.argv[2:]))))
"""


def run_probe(*modules: str) -> list[str]:
    proc = subprocess.run([sys.executable, "-c", PROBE, str(MINIMAL), *modules],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def test_check_imports_no_heavy_library():
    assert run_probe(*HEAVY) == []


def test_the_probe_sees_what_check_does_import():
    # the same probe finds the libraries check needs, so an empty answer above means something
    assert run_probe("yaml", "click", *HEAVY) == ["click", "yaml"]


BLOCKED = """
import sys
for name in ("mkdocs", "material"):  # as where the site extra is not installed
    sys.modules[name] = None
import rulebook_compiler.cli
rulebook_compiler.cli.main.main(sys.argv[1:], prog_name="rulebook")
"""


def run_without_the_site_extra(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCKED, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_check_runs_without_the_site_extra():
    # The pre-commit hook installs the package's own dependencies only: no mkdocs-material.
    proc = run_without_the_site_extra("check", str(MINIMAL))
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout.endswith(": no problems\n")


def test_build_without_the_site_extra_says_what_to_install(tmp_path):
    proc = run_without_the_site_extra("build", "--rulebook", str(MINIMAL), "--out", str(tmp_path / "out"))
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == ("rulebook: error: 'rulebook build' needs mkdocs-material, which is not installed\n"
                           "  hint: pip install 'rulebook-compiler[site]' (from a clone: pip install '.[site]')\n")
    assert not (tmp_path / "out").exists()


MODULES = """
import contextlib, io, sys
import rulebook_compiler.cli
with contextlib.redirect_stdout(io.StringIO()):
    rulebook_compiler.cli.main.main(["check", sys.argv[1]], prog_name="rulebook", standalone_mode=False)
print(" ".join(sorted(set(sys.argv[2:]) & set(sys.modules))))
"""


def test_a_check_the_cache_holds_whole_does_not_import_the_build(tmp_path):
    # the first check builds the rulebook; the second is answered from the cache alone
    builder = ("rulebook_compiler.build", "rulebook_compiler.model", "rulebook_compiler.schema")
    env = {**os.environ, "RULEBOOK_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    env.pop("RULEBOOK_NO_CACHE", None)
    found = [subprocess.run([sys.executable, "-c", MODULES, str(MINIMAL), *builder], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60) for _ in range(2)]
    assert [(p.returncode, p.stdout, p.stderr) for p in found] == [
        (0, "rulebook_compiler.build rulebook_compiler.model rulebook_compiler.schema\n", ""), (0, "\n", "")]
