"""A drift flag as data: its words and the identifiers it names, apart.

A flag names clause refs, procedures, facts, values and predicates among its
words ("no rule of its own; the heading of commander#r903-9a, ..."). Kept
apart from the words, each format writes each part as it writes identifiers
and words (``present.Write``): plain text and HTML as they are, the Markdown
comment an identifier as a code span (exact to copy) and words as escaped
prose. Nothing parses a flag's text back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Union


@dataclass(frozen=True)
class Ident:
    """An identifier a flag names (a clause ref, a procedure, a fact, a value, a predicate)."""

    name: str


Piece = Union[str, Ident]


@dataclass(frozen=True)
class Flag:
    """A drift flag: (text, is an identifier) parts in reading order, words never next to words."""

    parts: tuple[tuple[str, bool], ...]

    @property
    def text(self) -> str:
        """The flag as plain text and HTML show it (and JSON's ``drift``)."""
        return "".join(text for text, _ in self.parts)

    def __str__(self) -> str:  # templates write a flag as its text (HTML-escaped there)
        return self.text

    def written(self, ident: Callable[[str], str], words: Callable[[str], str]) -> str:
        """The flag as a format writes it: each identifier by ``ident``, each run of words by ``words``."""
        return "".join(ident(text) if is_ident else words(text) for text, is_ident in self.parts)


def flag(*pieces: Piece | Flag | Iterable[Piece]) -> Flag:
    """A flag from words (``str``), identifiers (``Ident``), lists of them (``listed``) and flags whose
    parts it takes in, in order."""
    parts: list[tuple[str, bool]] = []
    for piece in _flat(pieces):
        if isinstance(piece, Ident):
            parts.append((piece.name, True))
        elif piece:
            if parts and not parts[-1][1]:
                parts[-1] = (parts[-1][0] + piece, False)  # words next to words are one run
            else:
                parts.append((piece, False))
    return Flag(tuple(parts))


def listed(names: Iterable[str], sep: str = ", ") -> list[Piece]:
    """Identifiers one after another, ``sep`` between them: 'a, b, c' with a, b and c identifiers."""
    out: list[Piece] = []
    for name in names:
        if out:
            out.append(sep)
        out.append(Ident(name))
    return out


def _flat(pieces) -> Iterable[Piece]:
    for piece in pieces:
        if isinstance(piece, (str, Ident)):
            yield piece
        elif isinstance(piece, Flag):
            yield from (Ident(text) if is_ident else text for text, is_ident in piece.parts)
        else:
            yield from piece
