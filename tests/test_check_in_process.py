"""The broken-rulebook corpus (tests/fixtures/broken/) through ``check`` in this process.

tests/test_broken_rulebooks.py runs each case as a real command in a subprocess (crashes,
exit statuses, hangs). This runs the same cases through the click command in the test's own
process, expecting the same exact stderr: a coverage tool or a mutation tester
(docs/mutation.md) can then see which code each case reaches, which it cannot across a
process boundary.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main

BROKEN = Path(__file__).resolve().parent / "fixtures" / "broken"
CASES = sorted(p.name for p in BROKEN.iterdir() if (p / "expected.txt").is_file())


@pytest.mark.parametrize("case", CASES)
def test_broken_rulebook_in_process(case: str, monkeypatch):
    monkeypatch.chdir(BROKEN)  # expected.txt names paths relative to the corpus folder
    monkeypatch.setenv("NO_COLOR", "1")
    result = CliRunner().invoke(main, ["check", case])
    assert (result.exit_code, result.stdout) == (1, ""), result.output
    assert type(result.exception) is SystemExit
    assert result.stderr == (BROKEN / case / "expected.txt").read_text(encoding="utf-8")
