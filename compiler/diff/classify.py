"""What kind of change a pairing is, and whether prose and meaning drifted apart.

Kinds, from the strongest: ``added``, ``removed``, ``split``, ``merged`` (by
how the clauses were paired), ``semantic`` (the machine-readable meaning
changed and some situation is decided differently, or a procedure's order
changed), ``moved`` to another term and ``renamed`` (another id in its term),
whatever their words, ``reworded`` (words changed, meaning the same),
``editorial`` (only punctuation, typography, whitespace or case changed; or
a link or an equivalent restatement of the meaning), ``moved`` within its
term (nothing but the place changed).
"""

from __future__ import annotations

from typing import Any, Iterable

from ..export import rule_json, table_json
from ..conditions import to_json as cond_json
from ..model import Clause, Vocabulary
from .redline import words

KINDS = ("added", "removed", "moved", "renamed", "renumbered", "split", "merged", "editorial", "reworded", "semantic")

SAME, EDITORIAL, REWORDED = "same", "editorial", "reworded"

# Typographic variants that are the same word to a reader.
_TYPO = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "\u00a0": " "})


def normal_words(text: str) -> list[str]:
    """The words of a text, case and typography folded."""
    return [w.casefold() for w in words(text.translate(_TYPO))]


def text_kind(old: str, new: str) -> str:
    """``same``, ``editorial`` (no word changed) or ``reworded``."""
    if old == new:
        return SAME
    return EDITORIAL if normal_words(old) == normal_words(new) else REWORDED


def meaning_json(clause: Clause) -> dict[str, Any]:
    """The machine-readable parts of a clause, as plain values (no ids of its own)."""
    return {
        "defines": None if clause.defines is None else {
            "name": clause.defines.name, "as": cond_json(clause.defines.condition)},
        "rules": [rule_json(r) | {"notes": None} for r in clause.rules if not r.from_table],
        "steps": None if clause.steps is None else {
            "procedure": clause.steps.procedure, "order": [x.split("#", 1)[1] for x in clause.steps.order]},
        "table": None if clause.table is None else table_json(clause.table),
    }


def extras_json(clause: Clause) -> dict[str, Any]:
    """The parts that carry no meaning but are published: links, a predicate's gloss.

    Notes are left out on purpose: they are the editors' annotations (where a
    text comes from, how it was read), not words of the rule, and a change to
    them alone is no change to review.
    """
    return {
        "links": [[l.phrase, l.term, l.clause] for l in clause.links],
        "predicate_meaning": clause.defines.meaning if clause.defines else None,
    }


def names_of(clauses: Iterable[Clause]) -> list[tuple[str, str]]:
    """The predicates these clauses define and the decisions their rules feed, in order."""
    found: dict[tuple[str, str], None] = {}
    for c in clauses:
        if c.defines:
            found[("predicate", c.defines.name)] = None
        for r in c.rules:
            found[("decision", r.decision)] = None
    return list(found)


def steps_changed(old: Iterable[Clause], new: Iterable[Clause]) -> bool:
    def steps(cs):
        return [(c.steps.procedure, [x.split("#", 1)[1] for x in c.steps.order]) for c in cs if c.steps]
    return steps(old) != steps(new)


def condition_phrases(vocabulary: Vocabulary, predicates: Iterable[str]) -> dict[str, str]:
    """Phrases that name a condition in prose (``being discarded``) and the name they stand for."""
    phrases: dict[str, str] = {}
    for fact in vocabulary.facts:
        phrases[fact.name.replace("_", " ")] = fact.name
        for value in fact.values:
            phrases[value.replace("_", " ")] = f"{fact.name}={value}"
    for name in predicates:
        phrases[name.replace("_", " ")] = name
    return phrases


class Phrases(dict):
    """``condition_phrases`` with the word count of the longest phrase, counted once."""

    def __init__(self, phrases: dict[str, str]):
        super().__init__(phrases)
        self.longest = max((p.count(" ") + 1 for p in phrases), default=0)


def named_conditions(text: str, phrases: dict[str, str]) -> set[str]:
    """The condition phrases a text names, as whole words (looked up by word n-grams)."""
    ws = normal_words(text)
    longest = phrases.longest if isinstance(phrases, Phrases) else max((p.count(" ") + 1 for p in phrases), default=0)
    grams = {" ".join(ws[i:i + n]) for n in range(1, longest + 1) for i in range(len(ws) - n + 1)}
    return grams & phrases.keys()


def drift(text: str, meaning_changed: bool, behaviour_changed: bool, has_meaning: bool,
          old_text: str, new_text: str, phrases: dict[str, str]) -> list[str]:
    """Flags for prose and meaning that moved apart (``text`` is the text kind)."""
    flags = []
    if behaviour_changed and text in (SAME, EDITORIAL):
        flags.append("the machine-readable meaning changed but the text did not")
    if has_meaning and text == REWORDED and not behaviour_changed:
        gained = sorted(named_conditions(new_text, phrases) - named_conditions(old_text, phrases))
        if gained:
            flags.append("the text now names " + ", ".join(f"'{g}'" for g in gained)
                         + " but the machine-readable meaning did not change")
    return flags
