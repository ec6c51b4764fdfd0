"""Every diff test gets its own empty cache, never the user's."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path_factory.mktemp("rulebook-cache")))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
