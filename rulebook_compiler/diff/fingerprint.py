"""Stable fingerprints of changes, so that review comments stay pinned to them."""

from __future__ import annotations

import hashlib
import json


def fingerprint(term: str, clause: str | None, kind: str, old_text: str | None, new_text: str | None,
                numbers: dict | None = None) -> str:
    """16 hex digits from term, clause, kind, both texts and, when they differ, the printed numbers
    (``Change.numbers``); nothing else (no paths, no times). The numbers only where they changed: every
    other change keeps the fingerprint it had, and a clause renumbered otherwise is another change."""
    parts = [term, clause, kind, old_text, new_text] + ([numbers["old"], numbers["new"]] if numbers else [])
    data = json.dumps(parts, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:16]
