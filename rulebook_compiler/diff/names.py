"""Decisions, predicates and constraints as changes of their own (issue 11, point 1).

A clause change says what its own rules answer differently
(``clause_behaviour``); what a whole decision now answers is said once, here,
under the decision, with the clause changes that made it. A name that exists
on one side only is reported ``added`` or ``removed`` with what it answers: a
decision's question (its meaning), the clauses whose rules answer it, and in
how many situations it answers each way (compared with nothing, by
``behaviour.compare``: the side without it gives "not defined" everywhere).
A constraint of one side only says how many situations of its facts it rules out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model import Answer, Edition, Vocabulary
from .behaviour import NOT_DEFINED, REASON_WORDS, Behaviour, Description, descriptions
from .vocabulary import FactChange, changed_constraints, fact_words

if TYPE_CHECKING:  # the record is the diff's (result imports this module)
    from .result import Conformance

ADDED, REMOVED, CHANGED = "added", "removed", "changed"


@dataclass(frozen=True)
class Answered:
    """The situations where a name of one side only gives one answer."""

    answer: Answer
    situations: int
    descriptions: tuple[Description, ...]
    undescribed: int = 0

    def as_json(self) -> dict:
        return {"answer": self.answer, "situations": self.situations,
                "descriptions": [d.text for d in self.descriptions]}


@dataclass(frozen=True)
class Charge:
    """A change charged with a name: the change as the formats name it (``present.clause_name``:
    'cure#curable', 'heal#a -> heal#b', 'battle (heading)'), its fingerprint (which finds it among the
    diff's changes), and the changed predicates it reached the name through (none when its own rules
    answer the name, or declare it)."""

    clause: str
    fingerprint: str
    through: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """As the text shows it: 'cure#curable (through curable)'."""
        return self.clause + (f" (through {', '.join(self.through)})" if self.through else "")

    def as_json(self) -> dict:
        return {"clause": self.clause, "fingerprint": self.fingerprint, "through": list(self.through)}


@dataclass(frozen=True)
class NameRef:
    """How a change names an entry of the diff's names: ``{"kind", "name", "status"}``."""

    kind: str  # decision | predicate | constraint
    name: str
    status: str  # added | removed | changed

    def as_json(self) -> dict:
        return {"kind": self.kind, "name": self.name, "status": self.status}


@dataclass(frozen=True)
class NameChange:
    """A decision, predicate or constraint added, removed, or whose answers changed."""

    kind: str  # decision | predicate | constraint
    name: str
    status: str  # added | removed | changed
    term: str | None  # the term that declares (defines) it; None for a constraint
    meaning: str | None  # the question it answers (the side that has it; the new one when both do)
    old_clauses: tuple[str, ...] = ()  # the clauses whose rules answer it (that define it), per side
    new_clauses: tuple[str, ...] = ()
    situations: int = 0  # allowed situations of its facts
    answers: tuple[Answered, ...] = ()  # added or removed: each answer it gives, most situations first
    behaviour: Behaviour | None = None  # changed: the whole comparison of old and new
    changes: tuple[Charge, ...] = ()  # the changes charged with it
    conformance: Conformance | None = None  # previous suite's cases that flip (rulebook_compiler.diff.conformance_impact)
    # added or removed: where it gives no answer, by reason ("not asked", "no rule", "conflict"), with counts
    unanswered_reasons: tuple[tuple[str, int], ...] = ()
    # changed: the changed predicates it uses (each an entry of its own), and the ordered facts whose
    # order the vocabulary changed that it reads (rulebook_compiler.diff.vocabulary.reordered)
    predicates: tuple[str, ...] = ()
    facts: tuple[str, ...] = ()
    old_meaning: str | None = None  # a constraint changed under its id: its former text, when that changed
    # changed: how the vocabulary changed each fact of ``facts`` (its values gained, lost, reordered); the
    # JSON has it under the diff's ``vocabulary``
    fact_changes: tuple[FactChange, ...] = ()
    # changed, its rules unchanged: the constraints added, withdrawn or changed in their condition that
    # change which situations of its facts are allowed, as (id, 'added' | 'withdrawn' | 'changed')
    constraints: tuple[tuple[str, str], ...] = ()

    @property
    def unanswered(self) -> int | None:
        """Added or removed: the situations where it gives no answer (None when changed: see behaviour)."""
        if self.status == CHANGED:
            return None
        return self.situations - sum(a.situations for a in self.answers)

    @property
    def ref(self) -> NameRef:
        """How a change names it: kind, name and status."""
        return NameRef(self.kind, self.name, self.status)

    def as_json(self) -> dict:
        return {"kind": self.kind, "name": self.name, "status": self.status, "term": self.term,
                "meaning": self.meaning, "old_clauses": list(self.old_clauses),
                "new_clauses": list(self.new_clauses), "changes": [c.text for c in self.changes],
                "situations": self.situations, "unanswered": self.unanswered,
                "answers": [a.as_json() for a in self.answers],
                "behaviour": self.behaviour.as_json() if self.behaviour else None,
                "conformance": None if self.conformance is None else self.conformance.as_json(),
                "unanswered_reasons": dict(self.unanswered_reasons),
                "predicates": list(self.predicates), "facts": list(self.facts), "old_meaning": self.old_meaning,
                # the changes as data: "changes" holds them as the text shows them
                "charged": [c.as_json() for c in self.changes],
                "constraints": [{"id": i, "change": how} for i, how in self.constraints]}


def of_side(kind: str, name: str, compared: Behaviour, edition: Edition, added: bool) -> NameChange:
    """A name of one side only: ``edition`` is the side that has it (the new one when ``added``)."""
    answers = tuple(Answered(answer, t.situations, t.descriptions, t.undescribed)
                    for t in compared.transitions
                    if (t.old_reason if added else t.new_reason) == NOT_DEFINED
                    and (t.new_reason if added else t.old_reason) is None  # it answers there
                    and (answer := t.new if added else t.old) is not None)
    term, meaning, clauses = _declared(kind, name, edition)
    return NameChange(kind, name, ADDED if added else REMOVED, term, meaning,
                      () if added else clauses, clauses if added else (), compared.situations, answers)


def changed(name: str, whole: Behaviour, old: Edition, new: Edition, kind: str = "decision") -> NameChange:
    """A decision (or predicate) both sides have whose answers changed somewhere."""
    term, meaning, new_clauses = _declared(kind, name, new)
    _, _, old_clauses = _declared(kind, name, old)
    return NameChange(kind, name, CHANGED, term, meaning, old_clauses, new_clauses, whole.situations,
                      behaviour=whole)


def _declared(kind: str, name: str, edition: Edition) -> tuple[str | None, str | None, tuple[str, ...]]:
    """The term, the meaning and the clauses (in order) of a name in an edition that has it."""
    if kind == "predicate":
        p = edition.predicates[name]
        return p.clause.split("#", 1)[0], p.meaning, (p.clause,)
    d = edition.decisions[name]
    return d.term, d.meaning, tuple(dict.fromkeys(r.clause for r in edition.rules.get(name, ())))


def constraints(old: Vocabulary, new: Vocabulary, vocabulary: Vocabulary) -> list[NameChange]:
    """The constraints of one side only, each with how many situations of its facts it rules out, and
    those changed under their id (text or condition), each with the situations it newly rules out and
    those it no longer rules out (counted over the facts of both versions, and described)."""
    from ..conditions import facts_used
    from ..symbolic import vocabulary_core

    old_ids, new_ids = {c.id: c for c in old.constraints}, {c.id: c for c in new.constraints}
    found = [(c, REMOVED) for i, c in old_ids.items() if i not in new_ids] + \
        [(c, ADDED) for i, c in new_ids.items() if i not in old_ids]
    changed = changed_constraints(old, new)
    if not found and not changed:
        return []
    core = vocabulary_core(vocabulary)
    out = []
    for c, status in found:
        facts = sorted(facts_used(c.never, {}))
        ruled_out = core.condition(c.never, {}) & core.valid(facts)
        total = core.count(core.valid(facts), facts)
        out.append(NameChange("constraint", c.id, status, None, c.text, situations=total,
                              answers=(Answered("ruled out", core.count(ruled_out, facts), ()),)))
    for was, now in changed:
        facts = sorted(facts_used(was.never, {}) | facts_used(now.never, {}))
        valid = core.valid(facts)
        before, after = core.condition(was.never, {}) & valid, core.condition(now.never, {}) & valid
        answers = tuple(_described(core, label, region, valid, facts)
                        for label, region in (("newly ruled out", after & ~before),
                                              ("no longer ruled out", before & ~after)) if region != core.false) \
            or (Answered("ruled out", core.count(after, facts), ()),)  # its words changed, not its condition
        out.append(NameChange("constraint", now.id, CHANGED, None, now.text, situations=core.count(valid, facts),
                              answers=answers, old_meaning=was.text if was.text != now.text else None))
    return out


def _described(core, label: str, region, allowed, facts: list[str]) -> Answered:
    """The situations of ``region`` as an answer of their own: counted, and described as a transition is."""
    return Answered(label, core.count(region, facts), *descriptions(core, region, allowed, facts))


def words(change: NameChange) -> list[tuple[str, list[str]]]:
    """What a name of one side only answers, as (head, descriptions) like ``behaviour.transition_words``:
    ('answers no in 1 of 2 situations', ['whenever paralyzed']), ..., ('no answer in 1 situation', []);
    the past tense for a removed one. A constraint: ('rules out 2 of 4 situations', [])."""
    if change.kind == "constraint" and change.status == CHANGED:
        return _constraint_changed(change)
    if change.kind == "constraint":
        verb = "rules out" if change.status == ADDED else "ruled out"
        return [(f"{verb} {change.answers[0].situations:,} of {_many(change.situations)}", [])]
    if not change.answers:
        return [(f"no rule answers it in any of {_many(change.situations)}", [])]
    out = _answers_words(change)
    # Each reason in its own words ("not asked" is outside the question's given, not a rule missing).
    out += [(f"{REASON_WORDS[reason]} in {_many(n)}", []) for reason, n in change.unanswered_reasons]
    rest = (change.unanswered or 0) - sum(n for _, n in change.unanswered_reasons)  # added or removed: not None
    if rest:
        out.append((f"no answer in {_many(rest)}", []))
    return out


def _answers_words(change: NameChange) -> list[tuple[str, list[str]]]:
    """Each answer of a name of one side: 'answers yes in 1 of 2 situations' (the first out of all
    the situations), with its descriptions."""
    verb = "answers" if change.status == ADDED else "answered"
    out = []
    for i, a in enumerate(change.answers):
        said = "yes" if a.answer is True else "no" if a.answer is False else str(a.answer)
        size = f"{a.situations:,} of {_many(change.situations)}" if i == 0 else _many(a.situations)
        out.append((f"{verb} {said} in {size}", [d.text for d in a.descriptions]
                    + ([f"and {_many(a.undescribed, 'other situation')}"] if a.undescribed else [])))
    return out


#: How a changed constraint's answers read ("newly rules out 1 of 6 situations").
CONSTRAINT_WORDS = {"newly ruled out": "newly rules out", "no longer ruled out": "no longer rules out"}


def _constraint_changed(change: NameChange) -> list[tuple[str, list[str]]]:
    """A constraint changed under its id: its former words, then what it newly rules out and what it no
    longer rules out, or, its condition the same, 'rules out the same 1 of 6 situations'; the first count
    out of all the situations of its facts."""
    out: list[tuple[str, list[str]]] = [(f"old text: {change.old_meaning}", [])] if change.old_meaning is not None else []
    for i, a in enumerate(change.answers):
        size = f"{a.situations:,} of {_many(change.situations)}" if i == 0 else _many(a.situations)
        out.append((f"{CONSTRAINT_WORDS.get(str(a.answer), 'rules out the same')} {size}", [d.text for d in a.descriptions]
                    + ([f"and {_many(a.undescribed, 'other situation')}"] if a.undescribed else [])))
    return out


def word_lines(change: NameChange, indent: str = "  ") -> list[str]:
    """``words`` for the text format: a head with its one description, else the descriptions under it."""
    lines = []
    for head, parts in words(change):
        if len(parts) == 1:
            lines.append(f"{head}: {parts[0]}")
        else:
            lines.append(head + (":" if parts else ""))
            lines.extend(indent + part for part in parts)
    return lines


def _many(n: int, word: str = "situation") -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def changed_by(change: NameChange) -> str:
    """'changed by heal#a, heal#b'; 'added with battle#step-2': the changes that refer to it."""
    verb = "changed by" if change.status == CHANGED else f"{change.status} with"
    return f"{verb} {', '.join(c.text for c in change.changes)}"


def clauses_words(change: NameChange) -> str | None:
    """'rules in battle#step-2 (old)': the clauses whose rules answer it, on the side that has them."""
    if change.kind == "constraint":
        return None
    verb = "defined in" if change.kind == "predicate" else "rules in"
    if change.status == CHANGED:
        # a changed predicate's one defining clause (both, when it moved); a changed decision's rules are
        # in its witnesses and in the changes charged with it
        if change.kind != "predicate" or not change.new_clauses:
            return None
        moved = change.old_clauses and change.old_clauses != change.new_clauses
        return f"{verb} {', '.join(change.new_clauses)}" + (
            f" (old: {', '.join(change.old_clauses)})" if moved else "")
    if change.status == REMOVED:
        return f"{verb} {', '.join(change.old_clauses)} (old)" if change.old_clauses else None
    return f"{verb} {', '.join(change.new_clauses)}" if change.new_clauses else None


Part = tuple[tuple[str, tuple[str, ...]], ...]


def through(change: NameChange) -> list[Part]:
    """What else changed its answers, each a part of (words, names) pieces, the formats showing each name
    as code: (('uses changed predicate', ('curable',)),); per fact it reads whose change the vocabulary
    made, (('changed by the vocabulary: fact', ('phase',)), ('gained value', ('end',))) when no clause
    change is charged with it, else (('reads changed fact', ...), ...); per constraint that ties a fact it
    reads, (('changed by the vocabulary: constraint', ('hand-not-poisoned',)), ('withdrawn', ())) (only
    a name whose rules did not change has them)."""
    out: list[Part] = []
    if change.predicates:
        out.append((("uses changed predicate", change.predicates),))
    # no clause change charged with it: the vocabulary alone changed its answers
    words = "reads changed fact" if change.changes else "changed by the vocabulary: fact"
    how = {c.name: fact_words(c) for c in change.fact_changes}
    out += [((words, (fact,)),) + how.get(fact, ()) for fact in change.facts]
    words = "reads changed constraint" if change.changes else "changed by the vocabulary: constraint"
    out += [((words, (cid,)), (change_how, ())) for cid, change_how in change.constraints]
    return out


def part_text(part: Part) -> str:
    """A part of ``through`` as plain text: 'changed by the vocabulary: fact phase gained value end'."""
    return " ".join(f"{words} {', '.join(names)}" if names else words for words, names in part)


def by_vocabulary(names) -> list[NameChange]:
    """The decisions and predicates whose answers changed with no clause change charged with them:
    the vocabulary alone changed them (an ordered fact's order: a value inserted, withdrawn or moved; a
    value added to or withdrawn from an unordered fact, giving answers where one side had no situation;
    a constraint added, withdrawn or changed, ruling situations in or out)."""
    return [n for n in names if n.status == CHANGED and (n.facts or n.constraints) and not n.changes]


def rule_change(change: NameChange) -> bool:
    """Whether an entry changes play with no clause change to carry a level (``--fail-on rule-change``):
    a decision or predicate whose answers the vocabulary changed (``facts``, ``constraints``), or a constraint that rules
    out, or back in, some situation (added or withdrawn ruling some out, or changed in its condition: a
    constraint says which situations can arise in play). A constraint reworded with the same
    condition, or one that rules out none, does not."""
    if change.kind != "constraint":
        return change.status == CHANGED and bool(change.facts or change.constraints)
    if change.status == CHANGED:
        return any(a.answer in CONSTRAINT_WORDS for a in change.answers)
    return change.answers[0].situations > 0


def by_vocabulary_counts(names) -> str | None:
    """'1 decision, 1 predicate': how many ``by_vocabulary`` found, per kind; None when none."""
    found = by_vocabulary(names)
    counts = [_many(n, kind) for kind in ("decision", "predicate") if (n := sum(x.kind == kind for x in found))]
    return ", ".join(counts) or None


def through_lines(change: NameChange) -> list[str]:
    """``through`` for the text format: 'uses changed predicate curable'."""
    return [part_text(part) for part in through(change)]


def heading(change: NameChange) -> str:
    """'removed  decision battle.may_rescue (battle): Whether a rescue may be attempted.'"""
    where = f" ({change.term})" if change.term else ""
    return f"{change.status}  {change.kind} {change.name}{where}" + (f": {change.meaning}" if change.meaning else "")
