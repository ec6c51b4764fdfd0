"""Start-up: `rulebook check` imports no back-end library (site, diff, templates)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MINIMAL = ROOT / "tests" / "fixtures" / "minimal"
HEAVY = ("deepdiff", "mkdocs", "jinja2", "material", "rich")

PROBE = """
import contextlib, io, sys
import compiler.cli
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        compiler.cli.main.main(["check", sys.argv[1]], prog_name="rulebook", standalone_mode=False)
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
