"""The notice a publisher posts with a new edition: ``rulebook changelog --edition EDITION``.

Drafted from the diff against the edition before it, in plain words for
players: per term, the rule changes first, each with the situations that
now play differently (the vocabulary's own sentences, answers as yes/no),
then the clarifications (words changed, no answer did). Editorial changes
(no word of a rule changed) are only counted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..counts import counted
from ..model import Edition, Rulebook
from .behaviour import CONFLICT, NO_RULE, NO_SITUATION, NOT_ASKED, NOT_DEFINED, Behaviour, Witness
from .classify import label
from .engine import diff_editions
from .result import Change, DiffResult
from .present import DIRECTION_WORDS, answer_words, question, renumbering
from .level import CLARIFICATION, EDITORIAL, RULE_CHANGE


@dataclass(frozen=True)
class Played:
    """Situations that now play differently, in words: the facts that matter, by their labels."""

    holds: tuple[str, ...]  # "paralyzed", "not poisoned", "phase is battle or end"; () in every situation
    old: str
    new: str

    @property
    def when(self) -> str:
        """'When paralyzed and not poisoned', 'In every situation'."""
        return "When " + " and ".join(self.holds) if self.holds else "In every situation"


@dataclass(frozen=True)
class Item:
    """One change as players read it."""

    ref: str  # term#clause, or the term for its heading
    what: str  # "New rule", "Rule withdrawn", "Rule changed", "Clarified", ...
    text: str  # the new text (the old one for a withdrawn rule)
    questions: tuple[str, ...]  # "Whether a heal ability may target the card: now says yes in more situations"
    played: tuple[Played, ...]
    numbers: tuple[str | None, str | None] | None = None  # its printed number, old and new, where it changed
    number: str | None = None  # the printed number players cite it by (``Change.number``), None when none


@dataclass(frozen=True)
class Renumbered:
    """A rule whose printed number changed and no word of it (an editorial change, otherwise only counted)."""

    ref: str
    old: str | None  # None: the rule had no number
    new: str | None


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
    renumbered: tuple[Renumbered, ...] = ()  # those of them that renumbered a rule: players cite rules by number

    @property
    def empty(self) -> bool:
        return not self.terms and not self.editorial


#: A side that gives no answer, as players read it after "was" / "now" (``behaviour`` gives the reason).
NO_ANSWER_WORDS = {NOT_ASKED: "not asked", NO_RULE: "answered by no rule",
                   CONFLICT: "in conflict between rules", NOT_DEFINED: "not a question",
                   NO_SITUATION: "not possible"}

# A clause's id is no word players read: a renamed clause is changed or clarified like any other.
WHAT = {
    "added": "New rule", "removed": "Rule withdrawn", "split": "Rule split", "merged": "Rules merged",
    "moved": "Rule moved", "renumbered": "Rule renumbered",
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
    return from_diff(diff_editions(book, previous, book, edition, rulings=False), previous, edition)


def from_diff(result: DiffResult, previous: Edition, edition: Edition) -> Changelog:
    """The notice from a diff already made (the site's What changed page has one)."""
    sides = _Sides(previous, edition, _domains(previous, edition))
    names = {t.id: t.name for e in (previous, edition) for t in e.terms}
    grouped: dict[str, list[Change]] = {}
    for change in result.changes:
        grouped.setdefault(change.term, []).append(change)
    vocabulary = by_vocabulary_items(result, sides.domains)
    terms = []
    for term in dict.fromkeys([*grouped, *vocabulary]):
        rules, clarified = _term_items(grouped.get(term, []), sides)
        rules += tuple(vocabulary.get(term, ()))
        if rules or clarified:
            terms.append(TermNotice(term, names.get(term, term), rules, clarified))
    renumbered = tuple(Renumbered(_ref(c), *pair) for c in result.changes
                       if c.level == EDITORIAL and c.clause is not None and (pair := renumbering(c)) is not None)
    return Changelog(edition, previous, tuple(terms), sum(c.level == EDITORIAL for c in result.changes), renumbered)


@dataclass(frozen=True)
class _Sides:
    """The two editions of a notice, and the values of each fact over both (``_domains``)."""

    previous: Edition
    edition: Edition
    domains: dict[str, tuple]


def _term_items(changes: list[Change], sides: _Sides) -> tuple[tuple[Item, ...], tuple[Item, ...]]:
    """A term's items: its rule changes (a new or withdrawn entry first) and its clarifications."""
    # A new or withdrawn entry is news before its clauses, whatever the level of its heading.
    entry = [c for c in changes if c.clause is None and c.kind in HEADING_WHAT]
    changes = entry + [c for c in changes if c not in entry]
    clauses = [_notice_item(c, sides) if c.clause is not None else None for c in changes]
    shown = frozenset(p for it in clauses if it is not None for p in it.played)
    items = [it if it is not None else _notice_item(c, sides, shown) for c, it in zip(changes, clauses)]
    return _by_level(changes, items, entry)


def _by_level(changes: list[Change], items: list[Item], entry: list[Change]) -> tuple[tuple[Item, ...], tuple[Item, ...]]:
    """The items of the rule changes (and of a new or withdrawn entry), and those of the clarifications."""
    rules = tuple(it for c, it in zip(changes, items) if c.level == RULE_CHANGE or c in entry)
    clarified = tuple(it for c, it in zip(changes, items) if c.level == CLARIFICATION and c not in entry)
    return rules, clarified


def _notice_item(change: Change, sides: _Sides, shown: frozenset = frozenset()) -> Item:
    """One change as the notice says it: what, its words, the questions it changed and the situations
    that play differently. ``shown``: what the term's clause items already say (a heading's
    decision-wide situations are those its clauses' rules answer), said once, under the clause."""
    previous, edition = sides.previous, sides.edition
    ref = f"{change.term}#{change.new_clause or change.old_clause}" if change.clause else change.term
    changed = [b for b in change.behaviours if b.direction != "equivalent"]
    # A predicate and the decision it feeds often share a witness, and two witnesses one
    # description: each line once.
    played = tuple(p for p in dict.fromkeys(played_words(b, w, sides.domains) for b in changed for w in b.witnesses)
                   if p not in shown)
    # A heading is read for its name, aliases and questions, not as text.
    text = heading_words(change, previous, edition) if change.clause is None \
        else change.new_text if change.new_text is not None else change.old_text
    return Item(ref, _what(change), text or "", _questions(change, changed, sides), played,
                renumbering(change) if change.numbers else None, change.number)


def _what(change: Change) -> str:
    """"Rule changed", "Clarified", "New entry", ...: what the item's line starts with."""
    if change.clause is None:
        return HEADING_WHAT.get(change.kind) or (
            "Entry heading changed" if change.level == RULE_CHANGE else "Entry heading clarified")
    return WHAT.get(change.kind, "Rule changed" if change.level == RULE_CHANGE else "Clarified")


def _questions(change: Change, changed: list[Behaviour], sides: _Sides) -> tuple[str, ...]:
    """The questions whose answers changed, with how; those of one side; those only reworded."""
    previous, edition = sides.previous, sides.edition
    # A question whose answers changed is said with them; one only reworded, with its former words.
    reworded = {n: was for n, was in reworded_questions(change, previous, edition).items()
                if not any(b.kind == "decision" and b.name == n for b in changed)}
    return tuple(f"{question(previous, edition, b).rstrip('.')}: "
                 f"{DIRECTION_WORDS.get(b.direction, b.direction)}" for b in changed) \
        + one_sided_questions(change, previous, edition) \
        + tuple(f"{edition.decisions[n].meaning.rstrip('.')}: the question reworded (was “{was}”)"
                for n, was in reworded.items())


def _ref(change: Change) -> str:
    return f"{change.new_term or change.term}#{change.new_clause or change.old_clause}"


HEADING_WHAT = {"added": "New entry", "removed": "Entry withdrawn"}
BY_VOCABULARY = "Changed by the vocabulary"


def by_vocabulary_items(result: DiffResult, domains: dict[str, tuple]) -> dict[str, list[Item]]:
    """The decisions and predicates whose answers the vocabulary alone changed (no clause change is
    charged with them: ``names.by_vocabulary``), per term that declares or defines them: each an item
    with its question, what changed them in the diff's words ("Changed by the vocabulary: fact phase
    gained value end") and the situations that now play differently."""
    from .names import by_vocabulary, part_text, through

    out: dict[str, list[Item]] = {}
    for n in by_vocabulary(result.names):
        said = tuple(_capitalised(part_text(part)) for part in through(n))
        behaviour = n.behaviour
        assert behaviour is not None  # a name the vocabulary changed was compared
        played = tuple(dict.fromkeys(played_words(behaviour, w, domains) for w in behaviour.witnesses))
        out.setdefault(n.term or "", []).append(Item(n.name, BY_VOCABULARY, n.meaning or "", said, played))
    return out


def _capitalised(words: str) -> str:
    return words[:1].upper() + words[1:]


def heading_words(change: Change, previous: Edition, edition: Edition) -> str:
    """What changed in a heading that both editions have, beside its questions: "Now named Cures (was
    Cure); also called Remedy; no longer called Mend." ("" when neither name nor aliases changed)."""
    was, now = previous.term_by_id.get(change.term), edition.term_by_id.get(change.term)
    if was is None or now is None:
        return ""
    parts = [f"now named {now.name} (was {was.name})"] if now.name != was.name else []
    added = [a for a in now.aliases if a not in was.aliases]
    withdrawn = [a for a in was.aliases if a not in now.aliases]
    parts += ["also called " + ", ".join(added)] if added else []
    parts += ["no longer called " + ", ".join(withdrawn)] if withdrawn else []
    words = "; ".join(parts)
    return _capitalised(words) + "." if words else ""


def reworded_questions(change: Change, previous: Edition, edition: Edition) -> dict[str, str]:
    """The decisions a heading declares in both editions whose question is worded otherwise: name ->
    the former words."""
    was, now = previous.term_by_id.get(change.term), edition.term_by_id.get(change.term)
    if change.clause is not None or was is None or now is None:
        return {}
    old = {d.name: d.meaning for d in was.decisions}
    return {d.name: old[d.name].rstrip(".") for d in now.decisions if d.name in old and old[d.name] != d.meaning}


def one_sided_questions(change: Change, previous: Edition, edition: Edition) -> tuple[str, ...]:
    """The questions one edition asks and the other does not, that this change declares (a heading)
    or answers (a clause's rules): "Whether ...: a new question", "Whether ...: no longer asked"."""
    def declared(e: Edition, term: str | None, clauses: str | None) -> dict[str, str]:
        if change.clause is None:
            t = e.term_by_id.get(change.term)
            return {d.name: d.meaning for d in t.decisions} if t else {}
        refs = [f"{term or change.term}#{c}" for c in (clauses or "").split("+") if c]
        return {r.decision: e.decisions[r.decision].meaning for ref in refs if ref in e.clause_by_ref
                for r in e.clause_by_ref[ref].rules if r.decision in e.decisions}

    old = declared(previous, change.old_term, change.old_clause)
    new = declared(edition, change.new_term, change.new_clause)
    return tuple([f"{new[n].rstrip('.')}: a new question" for n in new if n not in previous.decisions]
                 + [f"{old[n].rstrip('.')}: no longer asked" for n in old if n not in edition.decisions])


def _domains(previous: Edition, edition: Edition) -> dict[str, tuple]:
    """Each fact's values over both editions (the new one's first), as the diff compares them."""
    out: dict[str, tuple] = {}
    for vocabulary in (edition.vocabulary, previous.vocabulary):
        for fact in vocabulary.facts:
            out[fact.name] = tuple(dict.fromkeys(out.get(fact.name, ()) + fact.domain))
    return out


def played_words(behaviour: Behaviour, witness: Witness, domains: dict[str, tuple]) -> Played:
    """A witness as players read it: the facts of the description that covers it (every situation it
    names plays the same way: these are the facts that matter), or, past the descriptions, the witness's
    facts away from their resting value; each by its label."""
    facts = _covering(behaviour, witness)
    if facts is None:
        facts = tuple((f, (v,)) for f, v in witness.facts if v is not False and v != domains.get(f, (v,))[0])
    return Played(condition_words(facts, domains), _said(witness.old, witness.old_reason),
                  _said(witness.new, witness.new_reason))


def _covering(behaviour: Behaviour, witness: Witness) -> tuple | None:
    """The facts of the first description of the witness's transition that names its situation."""
    state = dict(witness.facts)
    for t in behaviour.transitions:
        if (t.old, t.old_reason, t.new, t.new_reason) != (witness.old, witness.old_reason,
                                                          witness.new, witness.new_reason):
            continue
        for d in t.descriptions:
            if all(state.get(f) in vs for f, vs in d.facts):
                return d.facts
    return None


# A fact's label is a short clause or phrase ("target is character", "brigade matches", "being
# discarded"): "not" goes where English puts it, after an auxiliary, before a participle or as
# "does not" with a verb; a label that is none of these (a noun or an adjective) takes "not" before it.
_AUXILIARIES = {"is", "are", "was", "were", "be", "been", "could", "may", "might", "must", "shall", "should",
                "will", "would", "does", "do", "did"}
_PREPOSITIONS = {"of", "to", "by", "from", "in", "on", "at", "for", "with", "into", "onto", "under", "over",
                 "during", "before", "after", "as", "through", "without", "within", "than"}


def negated(words: str) -> str:
    """A yes/no fact's label when the fact is false: 'target is not character', 'not being discarded',
    'brigade does not match', 'character cannot use enhancement', 'not own character'."""
    w = words.split(" ")
    found = _negated_verb(w)
    if found is not None:
        return found
    if len(w) == 1 or w[0].endswith(("ing", "ed")) or w[0] in _PREPOSITIONS:
        return f"not {words}"
    for i in range(1, len(w)):
        if w[i].endswith("ed") and w[i - 1] not in _PREPOSITIONS:
            return " ".join(w[:i] + ["not"] + w[i:])  # "modifier not granted to other cards"
    return _negated_present(w) or f"not {words}"


def _negated_verb(w: list[str]) -> str | None:
    """The words with their first "can", "has"/"have" or auxiliary negated; None when there is none."""
    for i, word in enumerate(w):
        if word == "can":
            return " ".join(w[:i] + ["cannot"] + w[i + 1:])
        if word in ("has", "have") and w[i + 1:i + 2] != ["been"]:
            return " ".join(w[:i] + ["does not have" if word == "has" else "do not have"] + w[i + 1:])
        if word in _AUXILIARIES or word in ("has", "have"):
            return " ".join(w[:i + 1] + ["not"] + w[i + 1:])
    return None


def _negated_present(w: list[str]) -> str | None:
    """The words with their first verb in the present ("matches") negated ("does not match"); None
    when there is none."""
    for i, word in enumerate(w):
        after = w[i + 1] if i + 1 < len(w) else None
        if (i and w[i - 1] in _PREPOSITIONS) or (not i and after in _PREPOSITIONS):
            continue  # "cards in hand": a plural noun, not a verb
        if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
            return " ".join(w[:i] + ["does not", _base_form(word)] + w[i + 1:])
    return None


def _base_form(verb: str) -> str:
    """'matches' -> 'match', 'specifies' -> 'specify', 'meets' -> 'meet'."""
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("ches", "shes", "sses", "xes", "zes")):
        return verb[:-2]
    return verb[:-1]


def condition_words(facts: tuple, domains: dict[str, tuple]) -> tuple[str, ...]:
    """('paralyzed', 'not poisoned', 'target location is territory or battle', 'phase is not draw')."""
    out = []
    for name, values in facts:
        domain = domains.get(name, tuple(values))
        if set(domain) <= {True, False}:
            out.append(label(name) if values == (True,) else negated(label(name)))
            continue
        others = [v for v in domain if v not in values]
        if len(others) == 1 and len(values) > 1:
            out.append(f"{label(name)} is not {label(others[0])}")
        else:
            shown = [label(v) for v in values]
            out.append(f"{label(name)} is " + (f"{', '.join(shown[:-1])} or {shown[-1]}" if len(shown) > 1
                                                 else shown[0]))
    return tuple(out)


def _said(value, reason: str | None) -> str:
    return NO_ANSWER_WORDS[reason] if reason is not None else answer_words(value)


def render_markdown(log: Changelog) -> str:
    """The notice as Markdown (rule text is escaped as in the diff's comment)."""
    from .render_markdown import code, escape

    ed = log.edition
    lines = [f"# What changed in {escape(ed.title, inline=True)}", ""]
    if log.previous is None:
        return "\n".join(lines + [f"{escape(ed.id)} is the first edition: there is nothing to compare it with.", ""])
    # Mid-line: "5.0.0" opens no list there, so it is written without a backslash.
    lines += [f"Changes from {escape(log.previous.title, inline=True)} ({escape(log.previous.id, inline=True)}) "
              f"to {escape(ed.id, inline=True)}" + _dated(ed, escape) + ".", ""]
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
    if log.renumbered:
        lines += ["Renumbered, with the same words:", ""]
        lines += [f"- {_number(r.old, escape)} → {_number(r.new, escape)} ({code(r.ref)})" for r in log.renumbered]
        lines.append("")
    return "\n".join(lines)


def _dated(edition: Edition, escape) -> str:
    """", published 2015-08-10", or ", a draft dated 2016-07" (a draft is not published); "" without a date."""
    if not edition.date:
        return ""
    return (", published " if edition.status == "published" else ", a draft dated ") + _date(edition.date, escape)


def _number(number: str | None, escape) -> str:
    return escape(number, inline=True) if number is not None else "no number"


def _date(date: str, escape) -> str:
    """A date as rulebook.yaml writes it (YYYY-MM-DD, YYYY-MM or YYYY) as it is: digits and hyphens
    link nothing, so no word joiner goes after its hyphens; anything else escaped."""
    return date if re.fullmatch(r"\d{4}(-\d{2}(-\d{2})?)?", date) else escape(date, inline=True)


def _item(it: Item, escape, code) -> list[str]:
    renumbered = f"; renumbered {_number(it.numbers[0], escape)} → {_number(it.numbers[1], escape)}" \
        if it.numbers else ""
    # The number players cite first; a renumbered rule says both of its numbers after its ref instead.
    number = f"{escape(it.number, inline=True)}, " if it.number and not it.numbers else ""
    out = [f"- **{escape(it.what, inline=True)}** ({number}{code(it.ref)}{renumbered})"
           + (f": {escape(it.text, inline=True)}" if it.text else "")]
    for q in it.questions:
        out.append(f"  - {escape(q)}.")
    for p in it.played:
        out.append(f"  - {escape(p.when)}: was **{escape(p.old, inline=True)}**, now **{escape(p.new, inline=True)}**.")
    out.append("")
    return out
