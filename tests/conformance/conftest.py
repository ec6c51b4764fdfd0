"""Helpers for the conformance tests: run the CLI, find the fixtures, import the test engines."""

from __future__ import annotations

import sys
import pytest
from click.testing import CliRunner

from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CONFORMANCE = FIXTURES / "conformance"
ENGINES = CONFORMANCE / "engines"
MINIMAL = FIXTURES / "minimal"
ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture
def cli():
    """``cli(*args)`` runs ``rulebook ARGS`` in-process; returns (exit code, stdout, stderr)."""
    from rulebook_compiler.cli import main

    def run(*args: str):
        result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
        return result.exit_code, result.stdout, result.stderr

    return run


@pytest.fixture
def test_engines(monkeypatch):
    monkeypatch.syspath_prepend(str(ENGINES))
    sys.modules.pop("rulebook_test_engines", None)
    return "rulebook_test_engines"
