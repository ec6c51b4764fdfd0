"""Shared fixtures: where the bundled rulebook and the small fixtures live."""

from __future__ import annotations

from pathlib import Path

import os

import pytest
from hypothesis import settings

# CI explores the same examples on every run (a failure there is reproducible and never
# flaky); a developer's runs draw new examples and keep failures in .hypothesis/.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
BUNDLED = ROOT / "rulebook"


@pytest.fixture(scope="session")
def bundled():
    """The bundled Redemption rulebook, checked."""
    from compiler.build import load_rulebook

    return load_rulebook(BUNDLED)


@pytest.fixture(scope="session")
def minimal():
    from compiler.build import load_rulebook

    return load_rulebook(FIXTURES / "minimal")


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch):
    """No test reads or writes the user's rulebook cache."""
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path_factory.mktemp("rulebook-cache")))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
