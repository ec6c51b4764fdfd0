"""The "What changed" page's view of ``rulebook_compiler.diff``'s report, in plain words.

The diff decides what changed and how (``rulebook_compiler.diff.engine.diff_editions``);
this module only says it for readers: a witness situation becomes the
vocabulary's own sentences for the facts that hold, answers become yes/no.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..diff.present import DIRECTION_WORDS, answer_words, question
from ..model import Edition, Rulebook

KIND_WORDS = {
    "added": "added", "removed": "removed", "moved": "moved", "renamed": "renamed", "renumbered": "renumbered", "split": "split",
    "merged": "merged", "editorial": "editorial", "reworded": "reworded", "semantic": "changes the rules",
}

@dataclass(frozen=True)
class Situation:
    """A witness in words: what holds, and the answers before and after."""

    holds: tuple[str, ...]  # sentences, one per fact away from its resting value, enums with their value
    old: str
    new: str
    old_clauses: tuple[str, ...]
    new_clauses: tuple[str, ...]
    # "Edition a could not describe this situation: it does not know ...", for each edition that could not
    unknown: tuple[str, ...] = ()


@dataclass(frozen=True)
class Effect:
    name: str
    kind: str  # predicate | decision
    question: str  # the decision's or predicate's meaning, if the rulebook gives one
    direction: str
    situations: tuple[Situation, ...]
    size: str = ""  # "changed in 3 of 64 situations": the exact count (rulebook_compiler/diff/behaviour.py)


def outcome_words(value: Any, reason: str | None) -> str:
    """An answer, or why there is none: "not asked" (outside the question's given), "no rule answers"..."""
    from ..diff.behaviour import REASON_WORDS

    return REASON_WORDS[reason] if reason is not None else answer_words(value)


def situation(old: Edition, new: Edition, witness) -> Situation:
    """A witness in words: each fact in the newer edition's sentence (the older's for a withdrawn one)."""
    facts = {**old.vocabulary.by_name, **new.vocabulary.by_name}
    holds = []
    for name, value in witness.facts:
        fact = facts.get(name)
        meaning = fact.meaning if fact is not None else name
        if fact is not None and fact.type == "enum":
            holds.append(f"{meaning.rstrip('.')}: {answer_words(value)}.")
        elif value is True:
            holds.append(meaning)
    unknown = tuple(f"Edition {edition.id} could not describe this situation: it does not know "
                    + ", ".join(_unknown_words(n, facts) for n in names) + "."
                    for edition, names in ((old, witness.old_unknown), (new, witness.new_unknown)) if names)
    return Situation(tuple(holds), outcome_words(witness.old, witness.old_reason),
                     outcome_words(witness.new, witness.new_reason),
                     tuple(witness.old_clauses), tuple(witness.new_clauses), unknown)


def _unknown_words(name: str, facts) -> str:
    """'the fact "The character is diseased."' or 'the value end of "The phase of the turn."'."""
    fact, _, value = name.partition("=")
    meaning = facts[fact].meaning.rstrip(".") if fact in facts else fact
    return f"the value {answer_words(value)} of “{meaning}”" if value else f"the fact “{meaning}”"


def vocabulary_words(changes, old: Edition, new: Edition) -> list[str]:
    """How the newer edition's vocabulary differs from the older's, in the vocabulary's own sentences."""
    was, now = old.vocabulary.by_name, new.vocabulary.by_name
    out = [f"New fact: {now[n].meaning}" for n in changes.facts_added]
    out += [f"No longer a fact: {was[n].meaning}" for n in changes.facts_withdrawn]
    for c in changes.facts_changed:
        parts = []
        if c.values_added:
            parts.append("new values " + ", ".join(answer_words(v) for v in c.values_added))
        if c.values_withdrawn:
            parts.append("values withdrawn " + ", ".join(answer_words(v) for v in c.values_withdrawn))
        if c.new_type is not None:
            parts.append(f"now {'an enum' if c.new_type == 'enum' else 'yes or no'}")
        if c.new_order is not None:
            parts.append("in order " + ", ".join(answer_words(v) for v in c.new_order))
        if c.new_meaning is not None:
            parts.append(f"was “{c.old_meaning.rstrip('.')}”")
        out.append(f"{now[c.name].meaning.rstrip('.')}: {'; '.join(parts)}.")
    constraints_was = {c.id: c for c in old.vocabulary.constraints}
    constraints_now = {c.id: c for c in new.vocabulary.constraints}
    out += [f"New constraint: {constraints_now[i].text}" for i in changes.constraints_added]
    out += [f"Constraint withdrawn: {constraints_was[i].text}" for i in changes.constraints_withdrawn]
    out += [f"Constraint changed: {constraints_now[i].text}" for i in changes.constraints_changed]
    return out


def effects(book: Rulebook, old: Edition, new: Edition, change) -> list[Effect]:
    """The behaviours of a change that some situation tells apart, in words."""
    return [Effect(b.name, b.kind, question(old, new, b), DIRECTION_WORDS.get(b.direction, b.direction),
                   tuple(situation(old, new, w) for w in b.witnesses),
                   f"changed in {b.changed:,} of {b.situations:,} situations")
            for b in change.behaviours if b.witnesses]


@dataclass(frozen=True)
class NameEntry:
    """A decision, predicate or constraint of the diff's list (``rulebook_compiler.diff.names``), in the words of
    the diff's text and Markdown: each line a run of (words, names) pieces, each name shown as code."""

    kind: str
    name: str
    status: str
    meaning: str
    lines: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...]


def names(report) -> list[NameEntry]:
    """Each decision, predicate and constraint the diff lists: where its rules are, what it answers (one
    side only) or how its answers changed (counts, then each transition with its descriptions), what else
    changed it (a predicate it uses, the vocabulary), the changes charged with it, the cases that flip."""
    from ..diff.names import changed_by, clauses_words, through, words as name_words
    from ..diff.behaviour import transition_words
    from ..diff.conformance_impact import flips_words

    def said(head: str, parts: list[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return ((f"{head}: {'; '.join(parts)}" if parts else head, ()),)

    out = []
    for n in report.names:
        lines = [said(w, []) for w in (clauses_words(n),) if w]
        if n.behaviour is not None:
            lines.append(said(n.behaviour.extent(), []))
            lines += [said(*transition_words(t, "→")) for t in n.behaviour.transitions]
            lines += through(n)
        else:
            lines += [said(head, parts) for head, parts in name_words(n)]
        if n.changes:
            lines.append(said(changed_by(n), []))
        if flips_words(n.conformance):
            lines.append(said(f"breaks conformance: {flips_words(n.conformance)}", []))
        out.append(NameEntry(n.kind, n.name, n.status, n.meaning or "", tuple(lines)))
    return out


def by_vocabulary(report) -> str | None:
    """'2 decisions, 1 predicate': the answers the vocabulary alone changed, as the Markdown summary
    counts them; None when it changed none."""
    from ..diff.names import by_vocabulary_counts

    return by_vocabulary_counts(report.names)


def by_term(rows: list[tuple]) -> list[tuple[str, list[tuple]]]:
    """The page's rows (change, anchor, effects) by term, in the diff's order (the document's,
    ``rulebook_compiler.numbers.term_key``); Jinja's groupby would sort them by term id."""
    groups: dict[str, list[tuple]] = {}
    for row in rows:
        groups.setdefault(row[0].term, []).append(row)
    return list(groups.items())


def anchors(changes) -> list[str]:
    """One unique anchor per change: TERM--CLAUSE ('--' is never in a slug)."""
    seen: dict[str, int] = {}
    out = []
    for change in changes:
        base = f"{change.term}--{change.clause or change.new_clause or change.old_clause or '_entry'}"
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.append(base if n == 0 else f"{base}_{n + 1}")
    return out


def drift(change) -> tuple[str, ...]:
    """The change's drift flags, each in the diff's own words (its HTML report prints each as "Drift: ..."):
    why a clause with no rule of its own, a sentence moved and reworded, or an unread predicate's change
    was graded no rule change, and words the text now names (or no longer names) that its rules do not test
    (or still test). Review notes: the page shows them under each change and counts them in the summary,
    never in "For players". The one place the page reads them, so a change in how the diff carries them
    is made here: each is a ``flags.Flag`` kept as data, shown as its text (the HTML report's words),
    which the template escapes."""
    return tuple(flag.text for flag in change.drift)


def breaks(change) -> str | None:
    """What of the previous edition's suite the change breaks, as the diff says it
    ("1 of 2 cases of v1's suite flips: ..."), or None."""
    from ..diff.conformance_impact import flips_words

    return flips_words(change.conformance)


def inside(change):
    """What changed inside the clause, as every format of the diff shows it (``rulebook_compiler.diff.inside.view``):
    the count, and the changed items and sentences with their redlines; None when the redline says it all."""
    from ..diff.inside import view

    return view(change)


def provider(book: Rulebook) -> Callable[[Edition, Edition], Any] | None:
    """``diff_editions`` bound to this rulebook, or None when ``rulebook_compiler.diff`` lacks it.

    With the conformance impact, which the page shows: the old suite's cases are generated for the
    changed decisions only, from the terms each reads (``conformance_impact.reading``), so its cost
    follows the change (bench/README.md, "What changed" pages)."""
    try:
        from ..diff.engine import diff_editions
    except ImportError:
        return None
    return lambda old, new: diff_editions(book, old, book, new)
