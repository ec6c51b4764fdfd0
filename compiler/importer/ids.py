"""Ids for imported terms, sections and clauses: slugs of their words, unique where they must be."""

from __future__ import annotations

import re
import unicodedata

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


def unique(wanted: str, taken: set[str]) -> str:
    """``wanted``, or ``wanted-2``, ``wanted-3``... the first not in ``taken`` (which it joins)."""
    name, n = wanted, 1
    while name in taken:
        n += 1
        name = f"{wanted}-{n}"
    taken.add(name)
    return name
