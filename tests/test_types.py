"""The package type-checks: ``python -m mypy`` (its settings: ``[tool.mypy]`` in pyproject.toml)
reports no error.

A test of the suite, so the one test command (tools/test.sh, which CI runs) fails on a type error
like on any failing test. mypy and the stubs it needs are in the ``test`` extra; without them the
run fails here ("No module named mypy"), it is never skipped.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_reports_no_error_in_the_package():
    # the files and the strictness come from pyproject.toml, as for `python -m mypy` at the root;
    # its incremental cache (.mypy_cache/, ignored by git) makes a run after a small edit take seconds
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    shown = done.stdout + done.stderr
    assert done.returncode == 0, shown
    assert done.stdout.splitlines()[-1].startswith("Success: no issues found in "), shown
