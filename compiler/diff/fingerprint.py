"""Stable fingerprints of changes, so that review comments stay pinned to them."""

from __future__ import annotations

import hashlib
import json


def fingerprint(term: str, clause: str | None, kind: str, old_text: str | None, new_text: str | None) -> str:
    """16 hex digits from term, clause, kind and both texts; nothing else (no paths, no times)."""
    data = json.dumps([term, clause, kind, old_text, new_text], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:16]
