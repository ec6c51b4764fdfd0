"""The notice a publisher posts with a new edition: ``rulebook changelog EDITION``.

Drafted from the diff against the edition before it, in plain words for
players: per term, the rule changes first, each with the situations that
now play differently (the vocabulary's own sentences, answers as yes/no),
then the clarifications (words changed, no answer did). Editorial changes
(no word of a rule changed) are only counted.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..counts import counted
from ..model import Edition, Rulebook
from .engine import Change, DiffResult, diff_editions
from .level import CLARIFICATION, EDITORIAL, RULE_CHANGE


@dataclass(frozen=True)
class Played:
    """One situation that now plays differently, in words."""

    holds: tuple[str, ...]  # the vocabulary's sentences for what holds
    old: str
    new: str


@dataclass(frozen=True)
class Item:
    """One change as players read it."""

    ref: str  # term#clause, or the term for its heading
    what: str  # "New rule", "Rule withdrawn", "Rule changed", "Clarified", ...
    text: str  # the new text (the old one for a withdrawn rule)
    questions: tuple[str, ...]  # "Whether a heal ability may target the card: now says yes in more situations"
    played: tuple[Played, ...]


@dataclass(frozen=True)
class TermNotice:
    term: str
    name: str
    rule_changes: tuple[Item, ...]
    clarifications: tuple[Item, ...]


@dataclass(frozen=True)
class Changelog:
    edition: Edition
    previous: Edition | None
    terms: tuple[TermNotice, ...]
    editorial: int  # changes that touched no word of a rule

    @property
    def empty(self) -> bool:
        return not self.terms and not self.editorial


WHAT = {
    "added": "New rule", "removed": "Rule withdrawn", "split": "Rule split", "merged": "Rules merged",
    "moved": "Rule moved", "renamed": "Rule renamed", "renumbered": "Rule renumbered",
}


def previous_edition(book: Rulebook, edition: Edition) -> Edition | None:
    """The edition before this one in the rulebook's list (None for the first)."""
    at = book.editions.index(edition)
    return book.editions[at - 1] if at else None


def changelog(book: Rulebook, edition_id: str) -> Changelog:
    """The notice for ``edition_id`` against the edition before it."""
    edition = book.edition(edition_id)
    previous = previous_edition(book, edition)
    if previous is None:
        return Changelog(edition, None, (), 0)
    return from_diff(diff_editions(book, previous, book, edition), previous, edition)


def from_diff(result: DiffResult, previous: Edition, edition: Edition) -> Changelog:
    """The notice from a diff already made (the site's What changed page has one)."""
    from ..site.changes import DIRECTION_WORDS, question, situation

    def item(change: Change) -> Item:
        ref = f"{change.term}#{change.new_clause or change.old_clause}" if change.clause else change.term
        what = WHAT.get(change.kind, "Rule changed" if change.level == RULE_CHANGE else "Clarified")
        if change.clause is None:
            what = "Entry heading changed" if change.level == RULE_CHANGE else "Entry heading clarified"
        changed = [b for b in change.behaviours if b.direction != "equivalent"]
        questions = tuple(f"{question(previous, edition, b).rstrip('.')}: "
                          f"{DIRECTION_WORDS.get(b.direction, b.direction)}" for b in changed)
        # A predicate and the decision it feeds often share a witness: each situation once.
        played = tuple(dict.fromkeys(Played(*_played(situation(previous, edition, w)))
                                     for b in changed for w in b.witnesses))
        # A heading is read for its questions, not as text.
        text = "" if change.clause is None else change.new_text if change.new_text is not None else change.old_text
        return Item(ref, what, text or "", questions, played)

    names = {t.id: t.name for e in (previous, edition) for t in e.terms}
    grouped: dict[str, list[Change]] = {}
    for change in result.changes:
        grouped.setdefault(change.term, []).append(change)
    terms = []
    for term, changes in grouped.items():
        rules = tuple(item(c) for c in changes if c.level == RULE_CHANGE)
        clarified = tuple(item(c) for c in changes if c.level == CLARIFICATION)
        if rules or clarified:
            terms.append(TermNotice(term, names.get(term, term), rules, clarified))
    return Changelog(edition, previous, tuple(terms), sum(c.level == EDITORIAL for c in result.changes))


def _played(s) -> tuple[tuple[str, ...], str, str]:
    return tuple(s.holds), s.old, s.new


def render_markdown(log: Changelog) -> str:
    """The notice as Markdown (rule text is escaped as in the diff's comment)."""
    from .render_markdown import code, escape

    ed = log.edition
    lines = [f"# What changed in {escape(ed.title)}", ""]
    if log.previous is None:
        return "\n".join(lines + [f"{escape(ed.id)} is the first edition: there is nothing to compare it with.", ""])
    lines += [f"Changes from {escape(log.previous.title)} ({escape(log.previous.id)}) to {escape(ed.id)}"
              + (f", published {escape(ed.date)}" if ed.date else "") + ".", ""]
    if log.empty:
        return "\n".join(lines + ["No rule changed, and no word of one.", ""])
    for notice in log.terms:
        lines += [f"## {escape(notice.name)}", ""]
        if notice.rule_changes:
            lines += ["### Rule changes", ""]
            for it in notice.rule_changes:
                lines += _item(it, escape, code)
        if notice.clarifications:
            lines += ["### Clarifications", ""]
            for it in notice.clarifications:
                lines += _item(it, escape, code)
    if log.editorial:
        lines += [f"Also {counted(log.editorial, 'editorial change')} "
                  "(spelling, punctuation, numbering or links; no word of a rule).", ""]
    return "\n".join(lines)


def _item(it: Item, escape, code) -> list[str]:
    out = [f"- **{escape(it.what)}** ({code(it.ref)})" + (f": {escape(it.text)}" if it.text else "")]
    for q in it.questions:
        out.append(f"  - {escape(q)}.")
    for p in it.played:
        when = "; ".join(h.rstrip(".") for h in p.holds) or "None of the conditions it tests holds"
        out.append(f"  - {escape(when)}: was **{escape(p.old)}**, now **{escape(p.new)}**.")
    out.append("")
    return out
