"""What a word is, for every comparison of rule text: the tokens of a text, its words, and its words
folded (case and typography) as the diff compares them.

Below the back ends: the diff's redlines and grades read words this way (``rulebook_compiler.diff``), and so
does the editors' record that a clause's rules were checked against its words
(``rulebook_compiler.rules_checked``), so that both agree on what changed a word.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"\w+(?:['’\-]\w+)*|\s+|[^\w\s]")

# Typographic variants that are the same word to a reader.
_TYPO = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "\u00a0": " "})


def tokens(text: str) -> list[str]:
    """Words, whitespace runs and punctuation marks; they join back to ``text``."""
    return _TOKEN.findall(text)


def words(text: str) -> list[str]:
    """The words of a text, without whitespace or punctuation."""
    return [t for t in _TOKEN.findall(text) if t[0].isalnum() or t[0] == "_"]


def normal_words(text: str) -> list[str]:
    """The words of a text, case and typography folded."""
    return [w.casefold() for w in words(text.translate(_TYPO))]
