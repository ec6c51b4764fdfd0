"""The editors' record that a clause's rules were checked against its words (``rules_checked``).

Where a modelled clause's words change in substance and its answers do not, the diff flags the words
its rules do not account for and ``--fail-on rule-change`` counts the change as a rule change
(``rulebook_compiler.diff.unaccounted``) until the editors record, on the clause, that they checked its rules
against the new words. The record is the digest of the words they read, not a yes: it goes stale by
itself when the words change again, and ``check`` says so where it is written (``rulebook_compiler.build``).
It is editor data, as ``editor_notes`` is: no part of a published edition's locked content
(``rulebook_compiler.lock``).
"""

from __future__ import annotations

import hashlib

from .words import normal_words  # the diff's own notion of a word (rulebook_compiler.words)

#: Hex digits of the record: enough that words read once are not mistaken for others.
DIGITS = 12


def words_digest(text: str) -> str:
    """The first ``DIGITS`` hex digits of the SHA-256 of the text's words, case and typography
    folded, joined by one space (UTF-8): punctuation and case change no record, a word does."""
    return hashlib.sha256(" ".join(normal_words(text)).encode("utf-8")).hexdigest()[:DIGITS]
