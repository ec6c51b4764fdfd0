"""Problems found in rulebook sources, reported as ``path:line:col: error: message``."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Iterable


@dataclass(frozen=True, order=True)
class Location:
    """A place in a source file; line and column count from 1."""

    path: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line <= 0:
            return self.path
        return f"{self.path}:{self.line}:{self.col}"

    def as_json(self) -> dict:
        return {"path": self.path, "line": self.line, "col": self.col}


@dataclass(frozen=True)
class Diagnostic:
    location: Location
    message: str
    hint: str | None = None
    severity: str = "error"
    code: str = field(default="", compare=False)  # a stable name for the kind of problem

    def __str__(self) -> str:
        text = f"{self.location}: {self.severity}: {self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


class RulebookError(Exception):
    """Raised with every problem found, never just the first."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = sorted(set(diagnostics), key=_sort_key)
        super().__init__("\n".join(map(str, self.diagnostics)))


def _sort_key(d: Diagnostic):
    return (d.location.path, d.location.line, d.location.col, d.message)


def closest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate nearest to a misspelt name, if any is near enough."""
    matches = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return matches[0] if matches else None


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    match = closest(name, candidates)
    return f"did you mean '{match}'?" if match else None


# C0 and C1 control characters and DEL: printed raw, an escape sequence would
# recolour, move or retitle the terminal, a CR overwrite a line, a LF forge one.
_TERMINAL_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: str, keep: str = "") -> str:
    """Untrusted text (a file name, rule text) safe to print on a terminal.

    Each control character not in ``keep`` is written as Python writes it in a
    string (``\\x1b``, ``\\r``, ``\\n``); rule text keeps its line breaks and tabs
    with ``keep="\\n\\t"``.
    """
    return _TERMINAL_CONTROL.sub(
        lambda m: m.group() if m.group() in keep else _NAMED.get(m.group(), f"\\x{ord(m.group()):02x}"), text)
