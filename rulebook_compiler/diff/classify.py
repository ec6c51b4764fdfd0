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

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterable, Iterator, Mapping

from ..jsonform import rule_json, table_json
from ..conditions import Cmp, Condition, In, Ref, walk
from ..conditions import to_json as cond_json
from ..model import Clause, Vocabulary
from ..words import normal_words  # the diff's notion of a word, shared with rulebook_compiler.rules_checked
from .match import Pairing

KINDS = ("added", "removed", "moved", "renamed", "renumbered", "split", "merged", "editorial", "reworded", "semantic")

SAME, EDITORIAL, REWORDED = "same", "editorial", "reworded"



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


def pairing_kind(p: Pairing) -> str | None:
    """The kind how the clauses were paired says: ``added``, ``removed``, ``split``, ``merged``; None for
    one clause paired with one (its kind is read from what changed: ``change_kind``)."""
    if p.matched_by is None:
        return "removed" if p.old else "added"
    if p.matched_by == "split" or len(p.new) > 1:
        return "split"
    if p.matched_by == "merge" or len(p.old) > 1:
        return "merged"
    return None


def term_kind(has_old: bool, has_new: bool) -> str | None:
    """A term's heading: ``added`` (no old side), ``removed`` (no new side), else None."""
    return "added" if not has_old else "removed" if not has_new else None


def has_meaning(meaning: Mapping[str, Any]) -> bool:
    """A clause's ``meaning_json`` holds something: a definition, rules, steps or a table."""
    return bool(meaning["defines"] or meaning["rules"] or meaning["steps"] or meaning["table"])


def extras_changed(p: Pairing) -> bool:
    """The pairing's links or predicate glosses differ (``extras_json``)."""
    return [extras_json(c) for c in p.old] != [extras_json(c) for c in p.new]


def same_but_place(p: Pairing) -> bool:
    """Nothing but meaning and text could differ: the same place, extras, ids and printed numbers."""
    return not p.moved and not extras_changed(p) and [c.id for c in p.old] == [c.id for c in p.new] \
        and [c.number for c in p.old] == [c.number for c in p.new]


@dataclass(frozen=True)
class Shape:
    """What the kind of a change of one clause paired with one (or of a heading) is read from."""

    pairing: Pairing | None  # None for a heading
    header: bool
    text: str  # ``text_kind`` (a cited number's change reads as editorial)
    old_text: str
    new_text: str
    meaning_changed: bool
    behaviour_changed: bool  # some play is answered differently, or a procedure's order changed
    rule_change: bool  # the level reads a rule change
    step_moved: bool  # a step of the same procedure at another place (``steps.renumbering``)


def change_kind(shape: Shape) -> str | None:
    """The kind of a change that pairing gives none (see the module docstring), from the strongest;
    None where nothing changed that a reviewer reads (the clause is listed for nothing)."""
    if shape.behaviour_changed or (shape.meaning_changed and shape.text == REWORDED and shape.rule_change):
        # The rules were rewritten with the words, and the words say a rule changed though the
        # model's answers did not: the meaning changed as written (a clause whose rules were
        # rewritten and whose answers and words say nothing changed is reworded).
        return "semantic"
    p = shape.pairing
    if p is not None:
        kind = _pairing_change(p, shape)
        if kind is not None:
            return kind
    if shape.text == REWORDED:
        return "reworded"
    if shape.text == EDITORIAL or shape.meaning_changed or shape.header or (p is not None and extras_changed(p)):
        return "editorial"
    return "moved" if p is not None and p.moved else None


def _pairing_change(p: Pairing, shape: Shape) -> str | None:
    """``moved`` to another term, ``renumbered`` or ``renamed``, from the pairing; None for none of them."""
    from .steps import only_number_changed, renumbered

    if {c.term for c in p.old} != {c.term for c in p.new}:
        return "moved"  # to another term: as such, whatever else changed but behaviour
    if shape.step_moved and only_number_changed(shape.old_text, shape.new_text):
        return "renumbered"  # its id may have changed too: the lineage note says so
    if shape.text != REWORDED and renumbered(p.old[0], p.new[0]):
        # Same words under another rule number (704.5k -> 704.5j): the numbering moved, not the rule.
        return "renumbered"
    if [c.id for c in p.old] != [c.id for c in p.new] and \
            not (shape.text == REWORDED and renumbered(p.old[0], p.new[0])):
        return "renamed"  # a rule number is no name: 903.11g reworded as 903.12g is reworded
    return None


def label(name: str) -> str:
    """How prose names a fact, a value or a predicate: its name in words ('discard_pile' -> 'discard pile')."""
    return name.replace("_", " ")


@dataclass(frozen=True)
class Labels:
    """The phrases that name a condition in prose, and the keys they stand for.

    Keys: a fact (``poisoned``), a value (``location=discard_pile``), a predicate.
    The vocabulary declares no aliases, so a label is a name in words, and
    only where it names the condition itself: a bool fact's or a predicate's
    name (``paralyzed``, ``being discarded``: the condition), an enum fact's
    name or a value's only when it is a phrase of two words or more
    (``current step``, ``discard pile``). A one-word enum name or value
    (``ability``, ``other``, ``heal``) is an ordinary English word that names
    no condition on its own, and is not matched.
    """

    phrases: Mapping[str, frozenset[str]]  # phrase -> the keys it names
    domains: Mapping[str, tuple[str, ...]]  # enum fact -> its values
    longest: int  # words in the longest phrase

    @cached_property
    def keys(self) -> dict[str, str]:
        """Each key a label names, with its (first) label, in order (worked out once: drift reads it per change)."""
        out: dict[str, str] = {}
        for phrase, keys in self.phrases.items():
            for key in sorted(keys):
                out.setdefault(key, phrase)
        return out

    @cached_property
    def values_of(self) -> dict[str, list[str]]:
        """Fact -> the keys of its values that have a label (``fact=value``), in the order of ``keys``."""
        out: dict[str, list[str]] = {}
        for key in self.keys:
            if "=" in key:
                out.setdefault(key.split("=", 1)[0], []).append(key)
        return out

    def near(self, said: set[str]) -> list[str]:
        """The keys with a label that ``_named`` can find named in ``said``, in the order of ``keys``: each
        key said, its fact, and that fact's values. Drift reads these, not every label of the edition,
        so its cost follows what a change's texts name."""
        found: set[str] = set()
        for key in said:
            fact = key.split("=", 1)[0]
            found |= {key, fact, *self.values_of.get(fact, ())}
        position = self._positions
        return sorted((k for k in found if k in position), key=position.__getitem__)

    @cached_property
    def _positions(self) -> dict[str, int]:
        return {k: i for i, k in enumerate(self.keys)}


def condition_labels(vocabulary: Vocabulary, predicates: Iterable[str]) -> Labels:
    """The labels of a vocabulary's facts and values and of the predicates (see ``Labels``)."""
    phrases: dict[str, set[str]] = {}

    def add(phrase: str, key: str) -> None:
        phrases.setdefault(phrase.casefold(), set()).add(key)

    for fact in vocabulary.facts:
        if fact.type == "bool" or " " in label(fact.name):
            add(label(fact.name), fact.name)
        for value in fact.values:
            if " " in label(value):
                add(label(value), f"{fact.name}={value}")
    for name in sorted(predicates):
        add(label(name), name)
    return Labels({p: frozenset(k) for p, k in phrases.items()},
                  {f.name: f.values for f in vocabulary.facts if f.type == "enum"},
                  max((p.count(" ") + 1 for p in phrases), default=0))


#: No phrases: what drift is given where it reads no labels (``level.reads_drift``).
NO_LABELS = Labels({}, {}, 0)


def mentions(text: str, labels: Labels, links: Iterable[str] = ()) -> set[str]:
    """The keys a text names by their labels, as whole words (looked up by word n-grams).

    ``links``: the phrases the clause links to other terms. Each is a name of
    its own, so no label is read across its edge ("described in Battle
    Resolution" does not name "in battle").
    """
    grams: set[str] = set()
    for part in _link_parts(text, links):
        ws = normal_words(part)
        grams |= {" ".join(ws[i:i + n]) for n in range(1, labels.longest + 1) for i in range(len(ws) - n + 1)}
    return {key for gram in grams & labels.phrases.keys() for key in labels.phrases[gram]}


def _link_parts(text: str, links: Iterable[str]) -> list[str]:
    """The text cut at each occurrence of a link's phrase (the phrases are parts of their own)."""
    phrases = sorted({p for p in links if p}, key=len, reverse=True)
    if not phrases:
        return [text]
    return re.split("(" + "|".join(map(re.escape, phrases)) + ")", text)


def clause_conditions(clause: Clause) -> list[Condition]:
    """The conditions of a clause's rules (their ``when`` and test) and of the predicate it defines."""
    found = [c for r in clause.rules for c in (r.when, r.test) if c is not None]
    return found + ([clause.defines.condition] if clause.defines else [])


class PredicateKeys(Mapping[str, set[str]]):
    """What each predicate tests, through the predicates it uses; each worked out when first asked.

    Drift asks only for the predicates a changed clause's text names, so one of
    these per edition serves every change of a diff and costs what they name,
    not the edition's thousands of predicates for each change.
    """

    def __init__(self, predicates: Mapping[str, Condition]):
        self._predicates = predicates
        self._keys: dict[str, set[str]] = {}

    def __getitem__(self, name: str) -> set[str]:
        if name not in self._keys:
            self._keys[name] = keys_tested([], self._predicates, (self._predicates[name],)) - {name}
        return self._keys[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._predicates)

    def __len__(self) -> int:
        return len(self._predicates)


def keys_tested(clauses: Iterable[Clause], predicates: Mapping[str, Condition],
                conditions: Iterable[Condition] = ()) -> set[str]:
    """The keys the clauses' conditions name: facts, values (``f=v``) and predicates, through the
    predicates they use (``predicates``: their conditions); a defined predicate is its own."""
    found: set[str] = set()
    seen: set[str] = set()
    stack: list[Condition] = list(conditions)
    for clause in clauses:
        if clause.defines:
            found.add(clause.defines.name)
        stack += clause_conditions(clause)
    while stack:
        for node in walk(stack.pop()):
            if isinstance(node, Ref):
                found.add(node.name)
                if node.name in predicates and node.name not in seen:
                    seen.add(node.name)
                    stack.append(predicates[node.name])
            elif isinstance(node, In):
                found |= {node.fact} | {f"{node.fact}={v}" for v in node.values}
            elif isinstance(node, Cmp):
                found |= {node.fact, node.bound} if node.against_fact else {node.fact, f"{node.fact}={node.bound}"}
    return found


def predicate_refs(clauses: Iterable[Clause]) -> set[str]:
    """The names the clauses' conditions refer to (predicates and bool facts alike)."""
    return {n.name for c in clauses for cond in clause_conditions(c) for n in walk(cond) if isinstance(n, Ref)}


@dataclass(frozen=True)
class Side:
    """One side of a clause's change as drift reads it."""

    text: str
    tested: set[str]  # ``keys_tested``
    links: tuple[str, ...] = ()  # the phrases its clauses link
    covers: Mapping[str, set[str]] = field(default_factory=dict)  # a predicate it tests -> what that tests

    def said(self, labels: Labels) -> set[str]:
        """What the text names; naming a predicate the rules use names what it tests ("healable")."""
        found = mentions(self.text, labels, self.links)
        return found.union(*(self.covers.get(k, set()) for k in found))


def drift(text: str, behaviour_changed: bool, has_meaning: bool, old: Side, new: Side, labels: Labels) -> list[str]:
    """Flags for prose and meaning that moved apart (``text`` is the text kind).

    Past "the meaning changed but the text did not", a reworded clause with
    rules compares, for each fact and value that has a label, what the texts
    name with what the rules test (``keys_tested``): the text newly names one
    that no rule tests on either side, or it stops naming one that the rules
    test on both. A value counts as tested wherever its fact is tested at all,
    and as named wherever its fact is. A text that newly names what the new
    rules test says what changed: no flag.

    Rules that newly test (or stop testing) what neither text names are not
    flagged: labels are names, and prose names most facts otherwise (the
    values of "target card type" as "Characters, Artifacts", "ability step" as
    "the step it falls in"). On REG 5.0.0 -> 11.0.0 such flags were 14 on 11
    clauses, none of them a real drift. Declared aliases would allow them.
    """
    flags = []
    if behaviour_changed and text in (SAME, EDITORIAL):
        flags.append("the machine-readable meaning changed but the text did not")
    if not (has_meaning and text == REWORDED):
        return flags
    now_names, no_longer = _drifted(old, new, labels)
    if now_names:
        flags.append(f"the text now names {_phrases(now_names, labels)}, which no rule of this clause tests")
    if no_longer:
        flags.append(f"the text no longer names {_phrases(no_longer, labels)}, which its rules still test")
    return flags


def _drifted(old: Side, new: Side, labels: Labels) -> tuple[list[str], list[str]]:
    """(the keys the text now names that no rule tests on either side, those it no longer names that
    the rules test on both), in the order of the labels (see ``drift``)."""
    said_old, said_new = old.said(labels), new.said(labels)
    any_old, any_new = _all_values(old.tested, labels), _all_values(new.tested, labels)
    now_names, no_longer = [], []
    for key in labels.near(said_old | said_new):
        named_old, named_new = _named(key, said_old), _named(key, said_new)
        if named_new and not named_old and key not in any_old and key not in any_new:
            now_names.append(key)
        elif named_old and not named_new and key in old.tested and key in new.tested:
            no_longer.append(key)
    return now_names, no_longer


def _phrases(keys: list[str], labels: Labels) -> str:
    """"'a', 'b'" in order of the labels; a fact is left out where one of its values is listed."""
    valued = {k.split("=", 1)[0] for k in keys if "=" in k}
    names = labels.keys
    return ", ".join(f"'{p}'" for p in sorted(names[k] for k in keys if k not in valued))


def _named(key: str, said: set[str]) -> bool:
    """A value is named where it or its fact is; a fact where it or one of its values is."""
    fact = key.split("=", 1)[0]
    return key in said or fact in said or ("=" not in key and any(k.startswith(key + "=") for k in said))


def _all_values(keys: set[str], labels: Labels) -> set[str]:
    """Tested keys with every value of each enum fact they test (a test of a fact decides each value)."""
    return keys | {f"{f}={v}" for f in keys if f in labels.domains for v in labels.domains[f]}
