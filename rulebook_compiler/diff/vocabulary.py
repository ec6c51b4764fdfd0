"""What an edition's vocabulary changed: facts, enum values and constraints added, changed, withdrawn.

Each edition has its own vocabulary (docs/format.md, A vocabulary per
edition); a diff of two editions says how the two differ before it says what
their rules do with it. Facts are compared by name, constraints by id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..conditions import Cmp, Condition, In, Ref, facts_used, walk
from ..conditions import to_json as cond_json
from ..model import Constraint, Fact, Term, Vocabulary


@dataclass(frozen=True)
class FactChange:
    """A fact both vocabularies have, changed."""

    name: str
    values_added: tuple[str, ...]
    values_withdrawn: tuple[str, ...]
    old_meaning: str | None  # both None when the meaning is unchanged
    new_meaning: str | None
    old_type: str | None  # both None when the type is unchanged
    new_type: str | None
    old_order: tuple[str, ...] | None = None  # an ordered fact's values, both None unless they changed
    new_order: tuple[str, ...] | None = None

    def as_json(self) -> dict:
        return {"name": self.name, "values_added": list(self.values_added),
                "values_withdrawn": list(self.values_withdrawn),
                "meaning": {"old": self.old_meaning, "new": self.new_meaning} if self.new_meaning is not None else None,
                "type": {"old": self.old_type, "new": self.new_type} if self.new_type is not None else None,
                "order": {"old": list(self.old_order or ()), "new": list(self.new_order)}
                if self.new_order is not None else None}


@dataclass(frozen=True)
class VocabularyChanges:
    facts_added: tuple[str, ...] = ()
    facts_withdrawn: tuple[str, ...] = ()
    facts_changed: tuple[FactChange, ...] = ()
    constraints_added: tuple[str, ...] = ()
    constraints_withdrawn: tuple[str, ...] = ()
    constraints_changed: tuple[str, ...] = ()  # text or condition

    @property
    def empty(self) -> bool:
        return not (self.facts_added or self.facts_withdrawn or self.facts_changed or self.constraints_added
                    or self.constraints_withdrawn or self.constraints_changed)

    def as_json(self) -> dict:
        return {"facts": {"added": list(self.facts_added), "withdrawn": list(self.facts_withdrawn),
                          "changed": [c.as_json() for c in self.facts_changed]},
                "constraints": {"added": list(self.constraints_added),
                                "withdrawn": list(self.constraints_withdrawn),
                                "changed": list(self.constraints_changed)}}

    def lines(self) -> list[str]:
        """One line per change, in words: what the renderers print."""
        out = [f"fact added: {n}" for n in self.facts_added]
        out += [f"fact withdrawn: {n}" for n in self.facts_withdrawn]
        for c in self.facts_changed:
            parts = []
            if c.new_type is not None:
                parts.append(f"type {c.old_type} -> {c.new_type}")
            if c.values_added:
                parts.append("values added: " + ", ".join(c.values_added))
            if c.values_withdrawn:
                parts.append("values withdrawn: " + ", ".join(c.values_withdrawn))
            if c.new_order is not None:
                parts.append("order: " + " < ".join(c.new_order))
            if c.new_meaning is not None:
                parts.append("meaning changed")
            out.append(f"fact changed: {c.name} ({'; '.join(parts)})")
        out += [f"constraint added: {i}" for i in self.constraints_added]
        out += [f"constraint withdrawn: {i}" for i in self.constraints_withdrawn]
        out += [f"constraint changed: {i}" for i in self.constraints_changed]
        return out


NO_CHANGES = VocabularyChanges()


def vocabulary_changes(old: Vocabulary, new: Vocabulary) -> VocabularyChanges:
    """How ``new`` differs from ``old`` (in the order each lists its facts and constraints)."""
    if old == new:
        return NO_CHANGES
    return VocabularyChanges(*_fact_changes(old, new), *_constraint_changes(old, new))


def _fact_changes(old: Vocabulary, new: Vocabulary) -> tuple[tuple[str, ...], tuple[str, ...], tuple[FactChange, ...]]:
    """The facts added, withdrawn, and changed in a way the report says."""
    old_facts, new_facts = old.by_name, new.by_name
    changed = [_fact_change(old_facts[f.name], f) for f in new.facts
               if f.name in old_facts and old_facts[f.name] != f]
    return (tuple(f.name for f in new.facts if f.name not in old_facts),
            tuple(f.name for f in old.facts if f.name not in new_facts),
            tuple(c for c in changed if _said(c)))


def _constraint_changes(old: Vocabulary, new: Vocabulary) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The ids of the constraints added, withdrawn, and changed (``changed_constraints``)."""
    old_constraints = {c.id: c for c in old.constraints}
    new_constraints = {c.id: c for c in new.constraints}
    return (tuple(c.id for c in new.constraints if c.id not in old_constraints),
            tuple(c.id for c in old.constraints if c.id not in new_constraints),
            tuple(c.id for _, c in changed_constraints(old, new)))


def _fact_change(before: Fact, fact: Fact) -> FactChange:
    """How a fact both sides have differs: values gained and lost, meaning, type, and order."""
    retyped = before.type != fact.type
    # An ordered fact's comparisons read its order: say it whenever its values change.
    reordered = fact.ordered and before.values != fact.values
    remeant = before.meaning != fact.meaning
    return FactChange(
        fact.name, tuple(v for v in fact.values if v not in before.values),
        tuple(v for v in before.values if v not in fact.values),
        before.meaning if remeant else None, fact.meaning if remeant else None,
        before.type if retyped else None, fact.type if retyped else None,
        before.values if reordered else None, fact.values if reordered else None)


def _said(c: FactChange) -> bool:
    """Whether a fact's change is one the report says (values, meaning, type or order)."""
    return bool(c.values_added or c.values_withdrawn or c.new_meaning is not None
                or c.new_type is not None or c.new_order is not None)


def changed_constraints(old: Vocabulary, new: Vocabulary) -> list[tuple[Constraint, Constraint]]:
    """The constraints both sides have under one id whose text or condition changed, as (old, new), in
    the new side's order."""
    olds = {c.id: c for c in old.constraints}
    return [(olds[c.id], c) for c in new.constraints
            if c.id in olds and (olds[c.id].text, cond_json(olds[c.id].never)) != (c.text, cond_json(c.never))]


def reordered(changes: VocabularyChanges) -> tuple[str, ...]:
    """The ordered facts whose order changed (a value inserted, withdrawn or moved): every comparison
    that reads them reads anew, so what unchanged rules answer may change (``readers``)."""
    return tuple(c.name for c in changes.facts_changed if c.new_order is not None)


def lacking(changes: VocabularyChanges) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """The values of enum facts that each side lacks: (those the new side added, those it withdrew).

    Compared over both vocabularies, an unchanged rule reads a value of an unordered fact the same way
    on both sides (an ``is``/``in`` test does not list it), and the old side places a value new to an
    ordered fact before or after nothing; but the side that lacks the value could not describe a
    situation with it, where the other side's rules now answer (through a default, ``otherwise``, a
    ``not``, a comparison). A name that reads such a fact and whose rules did not change is compared
    with the lacking side giving no answer there (``behaviour.compare``'s ``lacks``). Everything else a
    vocabulary changes is a changed rule: a rule that names a fact or value one side lacks, or reads a
    fact as another type, is compared with its term."""
    return ({c.name: c.values_added for c in changes.facts_changed if c.values_added},
            {c.name: c.values_withdrawn for c in changes.facts_changed if c.values_withdrawn})


def ruling(old: Vocabulary, new: Vocabulary) -> tuple[tuple[str, str, frozenset[str]], ...]:
    """The constraints whose change may change what unchanged rules answer, as (id, how, facts): those
    added or withdrawn (how: 'added', 'withdrawn'), and those changed under their id in their condition
    ('changed'; a new text alone rules out the same). ``facts``: the facts each tests (both versions'
    when changed): the situations of a name's facts that a side allows depend on the constraints that
    test one of them (``decision_sets.allowed_space``), so only a name that reads one of those may
    answer differently for it.

    One added or withdrawn whose condition the other side states too (under another id) rules out
    nothing new, unless it reads an ordered fact whose order changed, and is left out."""
    found = _one_sided(old, new)
    changed = [(c.id, was.never, c.never) for was, c in changed_constraints(old, new)
               if cond_json(was.never) != cond_json(c.never)]
    if not found and not changed:
        return ()
    moved = {f for f in old.orders.keys() | new.orders.keys() if old.orders.get(f) != new.orders.get(f)}
    tested = [(c.id, how, facts_used(c.never, {})) for c, how, other in found if not _restated(c, other, moved)]
    tested += [(i, "changed", facts_used(was, {}) | facts_used(now, {})) for i, was, now in changed]
    return tuple((i, how, frozenset(facts)) for i, how, facts in tested)


def _one_sided(old: Vocabulary, new: Vocabulary) -> list[tuple[Constraint, str, Vocabulary]]:
    """The constraints withdrawn, then those added, each with how and the other side's vocabulary."""
    olds, news = {c.id: c for c in old.constraints}, {c.id: c for c in new.constraints}
    return [(c, "withdrawn", new) for i, c in olds.items() if i not in news] + \
        [(c, "added", old) for i, c in news.items() if i not in olds]


def _restated(c: Constraint, other: Vocabulary, moved: set[str]) -> bool:
    """Whether the other side states the condition of a constraint added or withdrawn (under another id),
    and it reads no ordered fact whose order changed (``moved``): it rules out nothing new."""
    return cond_json(c.never) in [cond_json(x.never) for x in other.constraints] \
        and not facts_used(c.never, {}) & moved


def fact_words(change: FactChange) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """What happened to a fact's values, as (words, values) for the formats to show each value as code:
    (('gained value', ('end',)), ('and lost values', ('upkeep', 'draw'))); ('reordered', ()) when an
    ordered fact's values moved beyond what was added or withdrawn."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for verb, values in (("gained", change.values_added), ("lost", change.values_withdrawn)):
        if values:
            out.append((f"{'and ' if out else ''}{verb} value{'s' if len(values) > 1 else ''}", values))
    if change.new_order is not None and change.old_order is not None:  # both or neither (as_json)
        kept = [v for v in change.old_order if v in change.new_order]
        if kept != [v for v in change.new_order if v in change.old_order]:
            out.append(("and reordered" if out else "reordered", ()))
    return tuple(out)


def readers(terms: Iterable[Term], facts: set[str]) -> dict[tuple[str, str], set[str]]:
    """(kind, name) -> the facts of ``facts`` that the predicate's condition, or the decision's
    ``given`` and rules, read themselves (through another predicate is that predicate's reading)."""
    found: dict[tuple[str, str], set[str]] = {}

    def note(key: tuple[str, str], cond: Condition | None) -> None:
        if cond is None:
            return
        read = set()
        for n in walk(cond):
            if isinstance(n, (In, Cmp)):
                read.add(n.fact)
                if isinstance(n, Cmp) and n.against_fact:
                    read.add(n.bound)
            elif isinstance(n, Ref):  # a yes/no fact (or a predicate, which no fact is named after)
                read.add(n.name)
        if read & facts:
            found.setdefault(key, set()).update(read & facts)

    for term in terms:
        for d in term.decisions:
            note(("decision", d.name), d.given)
        for clause in (c for section in term.sections for c in section.clauses):
            if clause.defines:
                note(("predicate", clause.defines.name), clause.defines.condition)
            for rule in clause.rules:
                note(("decision", rule.decision), rule.when)
                note(("decision", rule.decision), rule.test)
    return found
