"""Ids for imported terms, sections and clauses: slugs of their words, unique where they must be."""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable

_WORDS = 5  # a clause's id: a slug of its first words
_MAX = 48


def slug(text: str, words: int | None = None, limit: int = _MAX) -> str:
    """'Banish (Remove from the game)' -> 'banish-remove-from-the-game'; '' when no letter or digit."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    parts = re.findall(r"[a-z0-9]+", ascii_text)
    if words is not None:
        parts = parts[:words]
    out = ""
    for part in parts:
        if out and len(out) + 1 + len(part) > limit:
            break
        out = f"{out}-{part}" if out else part[:limit]
    return out


def clause_slug(text: str, kind: str, number: str | None, number_in_text: bool) -> str:
    """A numbered step keeps its printed number's id ('step-3', as earlier editions have it); others (a lettered
    item too) their first words."""
    if kind == "step" and number and number.isdigit() and number_in_text:
        return f"step-{number}"
    return slug(text, _WORDS) or "clause"


class Ids:
    """The ids taken in one scope (a term's clauses, an import's terms), and the next to give each.

    ``take(wanted)`` is ``wanted``, or ``wanted-2``, ``wanted-3``... the first
    not taken. The next number is kept per wanted id, so that 40,000 clauses
    with the same first words cost two probes each, not a walk over -2, -3 ...
    each time (issue 23: 115 s of CPU). A number stepped over (taken by an id
    of its own, as "x-2" is) is never probed again for that id: at most one
    extra probe per id taken, over the whole scope.
    """

    def __init__(self, taken: Iterable[str] = ()):
        self._taken = set(taken)
        self._next: dict[str, int] = {}

    def _free(self, name: str) -> bool:
        return name not in self._taken

    def take(self, wanted: str) -> str:
        name = wanted
        if not self._free(name):
            n = self._next.get(wanted, 2)
            while not self._free(f"{wanted}-{n}"):
                n += 1
            name, self._next[wanted] = f"{wanted}-{n}", n + 1
        self._taken.add(name)
        return name
