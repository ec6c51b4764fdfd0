"""Problems found in rulebook sources, reported as ``path:line:col: error: message``."""

from __future__ import annotations

import difflib
import re
import sys
import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence


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


#: Where a problem is placed when its node has no location: every node read from the sources
#: has one; only a model built in code (a test's) has None, and its problems still print.
NOWHERE = Location("<unplaced>")


def placed(loc: Location | None) -> Location:
    return NOWHERE if loc is None else loc


@dataclass(frozen=True)
class Diagnostic:
    location: Location
    message: str
    hint: str | None = None
    severity: str = "error"
    code: str = field(default="", compare=False)  # a stable name for the kind of problem

    def __str__(self) -> str:
        """The problem as printed to a terminal: file names, names and text quoted
        from the sources are untrusted, so every part is made printable here, once."""
        text = printable(f"{self.location}: {self.severity}: {self.message}")
        if self.hint:
            text += f"\n  hint: {printable(self.hint)}"
        return text


class RulebookError(Exception):
    """Raised with every problem found, never just the first."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = sorted(set(diagnostics), key=sort_key)
        super().__init__("\n".join(map(str, self.diagnostics)))


def sort_key(d: Diagnostic):
    # Every field that prints: problems alike but for their hint came out in a set's order, which
    # changes with PYTHONHASHSEED, and the same sources must give the same bytes.
    return (d.location.path, d.location.line, d.location.col, d.message, d.hint is not None, d.hint or "",
            d.severity)


# Each suggestion compares the name with every candidate: 10,000 misspelt names
# against 2,000 facts made check run for minutes. Within one check (see
# suggestion_budget) suggestions stop, and the problems are reported without
# hints, once this many comparisons are spent (a second or two at worst).
SUGGESTION_BUDGET = 20_000
suggestions_left: ContextVar[int | None] = ContextVar("suggestions_left", default=None)


@contextmanager
def suggestion_budget(comparisons: int = SUGGESTION_BUDGET) -> Iterator[None]:
    """Bound the comparisons that closest() makes in this block (deterministically)."""
    token = suggestions_left.set(comparisons)
    try:
        yield
    finally:
        suggestions_left.reset(token)


def closest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate nearest to a misspelt name, if any is near enough (and within budget)."""
    left = suggestions_left.get()
    if left is None:  # outside check (diff's editions, history's terms): each suggestion bounded alike
        left = SUGGESTION_BUDGET
    elif left <= 0:
        return None  # spent: not even the candidates are gathered again
    pool = sorted(set(candidates))
    if suggestions_left.get() is not None:
        suggestions_left.set(max(left - len(pool), 0))
    if left < len(pool):
        return None
    matches = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    return matches[0] if matches else None


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    match = closest(name, candidates)
    return f"did you mean '{match}'?" if match else None


# What a terminal acts on rather than shows, by Unicode category, not by list:
# Cc (C0, C1, DEL: an escape sequence would recolour, move or retitle the
# terminal, a CR overwrite a line, a LF forge one), Cf (the bidi controls
# reorder what is shown, "Trojan Source"; the others are invisible), Zl and Zp
# (line breaks to some terminals and pagers) and Cs (a lone surrogate cannot
# even be encoded). ZWNJ and ZWJ stay: emoji sequences and Persian or Indic
# words need them, and they neither move nor reorder anything.
_ACTED_ON = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
_JOINERS = frozenset({"\u200c", "\u200d"})
_NOT_PLAIN_ASCII = re.compile("[^\x20-\x7e]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: str, keep: str = "") -> str:
    """Untrusted text (a file name, rule text) safe to print on a terminal.

    Each character a terminal would act on (see ``_ACTED_ON``) and not in
    ``keep`` is written as Python writes it in a string (``\\x1b``, ``\\r``,
    ``\\u202e``); rule text keeps its line breaks and tabs with ``keep="\\n\\t"``.
    """
    return _NOT_PLAIN_ASCII.sub(lambda m: _shown(m.group(), keep), text)


def _shown(char: str, keep: str) -> str:
    if char in keep or char in _JOINERS or unicodedata.category(char) not in _ACTED_ON:
        return char
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def survive_any_encoding() -> None:
    """Make stdout and stderr escape what their encoding cannot carry, not raise.

    Under PYTHONIOENCODING=ascii, or a C locale with a pipe, printing a title
    with an accent ended every command in a UnicodeEncodeError traceback, after
    its work was done. Called once, where the command starts.
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)  # absent on a replaced stream (tests)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def write_utf8(text: str) -> None:
    """Write a document that is UTF-8 by definition (JSON) to stdout, whatever the locale."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a replaced stream (tests): it takes text
        sys.stdout.write(text)
        return
    sys.stdout.flush()
    buffer.write(text.encode("utf-8"))
    buffer.flush()


def report(problems: Sequence[Diagnostic]) -> None:
    """Print every problem and a count to stderr, colour only on a terminal (the commands' and
    ``rulebook serve``'s way of showing a failed check)."""
    import os

    import click

    from .counts import counted

    colour = sys.stderr.isatty() and "NO_COLOR" not in os.environ
    for problem in problems:
        text = str(problem)
        if colour:
            text = text.replace(": error: ", ": \x1b[1;31merror\x1b[0m: ", 1)
        click.echo(text, err=True)
    count = sum(p.severity == "error" for p in problems)
    if count:
        click.echo(f"{counted(count, 'problem')} found", err=True)
