"""The diff as JSON: the contract in docs/diff.md (deterministic bytes)."""

from __future__ import annotations

from ..jsonform import dumps
from .result import DiffResult


def render(result: DiffResult) -> str:
    return dumps(result.as_json())
