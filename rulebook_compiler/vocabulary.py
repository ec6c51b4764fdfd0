"""Each edition's vocabulary: vocabulary.yaml, then each edition's ``_vocabulary.yaml`` in turn.

The first edition's vocabulary is vocabulary.yaml (as changed by its own
``_vocabulary.yaml``, if it has one). A later edition starts from the previous
edition's and may add, change and withdraw facts, enum values and
constraints; an edition without ``_vocabulary.yaml`` has its predecessor's
vocabulary, the very same object. Withdrawals apply first, then changes, then
additions, so a fact can be withdrawn and declared again with another type.

Every problem is reported at the overlay's line: withdrawing or changing what
the previous edition does not have, adding what it has, a constraint left
naming a withdrawn fact or value. Conditions of terms that still use a
withdrawn fact or value are reported by ``conditions.check_names`` at the
condition, naming the line that withdrew it (``Resolved.withdrawn``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from . import conditions as C
from .counts import counted
from .diagnostics import Diagnostic, did_you_mean
from .model import Constraint, Fact, Vocabulary
from .yamlsource import Document

#: The name of an edition's vocabulary overlay in its folder: a term id is a slug and
#: never starts with '_', so no term file can have this name.
OVERLAY_FILE = "_vocabulary.yaml"


@dataclass(frozen=True)
class Resolved:
    """An edition's vocabulary, and what earlier editions (or it) withdrew: name -> where."""

    vocabulary: Vocabulary
    withdrawn: dict[str, str] = field(default_factory=dict)  # fact or 'fact=value' -> "by edition 'x' at F:L"

    def names(self, predicates: Iterable[str] = ()) -> C.Names:
        """What a condition of this edition may name: its facts (enum values, which are ordered),
        these predicates, and what it withdrew (for the messages)."""
        facts = self.vocabulary.facts
        return C.Names({f.name: (f.values if f.type == "enum" else None) for f in facts}, frozenset(predicates),
                       frozenset(f.name for f in facts if f.ordered), withdrawn=self.withdrawn)


def read_base(doc: Document, problems: list[Diagnostic]) -> Resolved:
    """vocabulary.yaml: the vocabulary before any edition changes it."""
    facts: dict[str, Fact] = {}
    for i, raw in enumerate(doc.data.get("facts") or []):
        path = ("facts", i)
        if raw["name"] in facts:
            problems.append(Diagnostic(doc.at(path + ("name",)), f"duplicate fact '{raw['name']}'",
                                       f"first declared at line {facts[raw['name']].loc.line}"))
            continue
        fact = _fact(doc, path, raw, problems)
        facts[fact.name] = fact
    base = Resolved(Vocabulary(tuple(facts.values()), ()))
    constraints: dict[str, Constraint] = {}
    for i, raw in enumerate(doc.data.get("constraints") or []):
        path = ("constraints", i)
        if raw["id"] in constraints:
            problems.append(Diagnostic(doc.at(path + ("id",)), f"duplicate constraint id '{raw['id']}'"))
        constraint = _constraint(doc, path, raw, base.names(), problems)
        if constraint is not None:
            constraints.setdefault(constraint.id, constraint)
    # A repeated id is an error: which one is kept does not matter, the model is not built.
    return Resolved(Vocabulary(tuple(facts.values()), tuple(constraints.values())))


def apply_overlay(previous: Resolved, doc: Document, edition: str, problems: list[Diagnostic]) -> Resolved:
    """The edition's vocabulary: the previous edition's as ``doc`` (its _vocabulary.yaml) changes it."""
    return _Overlay(previous, doc, edition, problems).apply()


# What each verb of an overlay requires of the previous edition, and what to say otherwise.
_HAS = {"change": True, "withdraw": True, "add": False}
_FIX = {("fact", "change"): "add it under 'facts: add'",
        ("fact", "withdraw"): "check the fact's name, or remove it from 'withdraw'",
        ("fact", "add"): "change it under 'facts: change', or withdraw it first",
        ("constraint", "change"): "add it under 'constraints: add'",
        ("constraint", "withdraw"): "check the constraint's id, or remove it from 'withdraw'",
        ("constraint", "add"): "replace it under 'constraints: change'"}


def _items(raw: list | None, key: str, *read: str):
    """(index, item) of the items that have ``key`` and the keys ``read`` (what is read of each item
    unconditionally): the schema has reported the others as lacking a required key."""
    return [(i, item) for i, item in enumerate(raw or [])
            if isinstance(item, dict) and key in item and all(k in item for k in read)]


class _Overlay:
    """One _vocabulary.yaml applied to the previous edition's vocabulary: withdrawals, changes, additions."""

    def __init__(self, previous: Resolved, doc: Document, edition: str, problems: list[Diagnostic]):
        self.doc, self.edition, self.problems = doc, edition, problems
        self.facts = {f.name: f for f in previous.vocabulary.facts}
        self.constraints = {c.id: c for c in previous.vocabulary.constraints}
        self.withdrawn = dict(previous.withdrawn)

    def apply(self) -> Resolved:
        raw_facts = self.doc.data.get("facts") or {}
        raw_constraints = self.doc.data.get("constraints") or {}
        for i, name in enumerate(raw_facts.get("withdraw") or []):
            if self.present("fact", "withdraw", name, self.facts, ("facts", "withdraw", i)):
                del self.facts[name]
                self.withdrawn[name] = self.where(("facts", "withdraw", i))
        for i, raw in _items(raw_facts.get("change"), "name"):
            path = ("facts", "change", i)
            if self.present("fact", "change", raw["name"], self.facts, path + ("name",)):
                self.change_fact(path, raw)
        for i, raw in _items(raw_facts.get("add"), "name", "type", "meaning"):
            path = ("facts", "add", i)
            if self.present("fact", "add", raw["name"], self.facts, path + ("name",)):
                self.facts[raw["name"]] = _fact(self.doc, path, raw, self.problems)
                self.withdrawn = {k: v for k, v in self.withdrawn.items()
                                  if k != raw["name"] and not k.startswith(raw["name"] + "=")}
        names = Resolved(Vocabulary(tuple(self.facts.values()), ()), self.withdrawn).names()
        for i, cid in enumerate(raw_constraints.get("withdraw") or []):
            if self.present("constraint", "withdraw", cid, self.constraints, ("constraints", "withdraw", i)):
                del self.constraints[cid]
        for verb in ("change", "add"):
            for i, raw in _items(raw_constraints.get(verb), "id", "text", "never"):
                path = ("constraints", verb, i)
                if self.present("constraint", verb, raw["id"], self.constraints, path + ("id",)):
                    new = _constraint(self.doc, path, raw, names, self.problems)
                    if new is not None:
                        self.constraints[new.id] = new
        stated = {raw["id"] for verb in ("change", "add") for _, raw in _items(raw_constraints.get(verb), "id")}
        for constraint in self.constraints.values():
            if constraint.id not in stated:  # kept from an earlier edition: its facts may be gone
                _kept_constraint(constraint, names, self.edition, self.problems)
        return Resolved(Vocabulary(tuple(self.facts.values()), tuple(self.constraints.values())), self.withdrawn)

    def present(self, kind: str, verb: str, name: str, known: dict, path: tuple) -> bool:
        """Whether the previous edition has (or, to add, lacks) ``name``; an error at ``path`` if not."""
        if (name in known) == _HAS[verb]:
            return True
        has = "does not have" if _HAS[verb] else "already has"
        hint = (did_you_mean(name, known) if _HAS[verb] else None) or _FIX[(kind, verb)]
        self.error(path, f"edition '{self.edition}' {verb}s {kind} '{name}', which the previous edition {has}",
                   hint)
        return False

    def where(self, path: tuple) -> str:
        loc = self.doc.at(path)
        return f"by edition '{self.edition}' at {loc.path}:{loc.line}"

    def error(self, path: tuple, message: str, hint: str | None = None) -> None:
        self.problems.append(Diagnostic(self.doc.at(path), message, hint))

    def change_fact(self, path: tuple, raw: dict) -> None:
        name, old = raw["name"], self.facts[raw["name"]]
        if not any(k in raw for k in ("meaning", "add_values", "withdraw_values", "order")):
            self.error(path, f"a change of fact '{name}' says nothing to change",
                       "give its new 'meaning', 'add_values', 'withdraw_values' or 'order'")
            return
        if old.type == "bool" and ("add_values" in raw or "withdraw_values" in raw):
            self.error(path + ("add_values" if "add_values" in raw else "withdraw_values",),
                       f"fact '{name}' is a bool and has no values", "withdraw it and add it again as 'type: enum'")
            return
        values = list(old.values)
        for j, value in enumerate(raw.get("withdraw_values") or []):
            if value not in values:
                self.error(path + ("withdraw_values", j), f"edition '{self.edition}' withdraws value '{value}' of "
                                                          f"fact '{name}', which the previous edition does not have",
                           did_you_mean(value, values) or "values: " + ", ".join(values))
                continue
            values.remove(value)
            self.withdrawn[f"{name}={value}"] = self.where(path + ("withdraw_values", j))
        for j, value in enumerate(raw.get("add_values") or []):
            if value in values:
                self.error(path + ("add_values", j), f"value '{value}' of fact '{name}' is already in the previous "
                                                     "edition, or listed twice")
                continue
            values.append(value)
            self.withdrawn.pop(f"{name}={value}", None)
        if old.type == "enum" and len(values) < 2:
            self.error(path, f"enum fact '{name}' would be left with {counted(len(values), 'value')}",
                       "an enum fact has at least two values; withdraw the fact instead")
        # An ordered fact's added values come last in its order, unless 'order' restates it.
        if "order" in raw:
            values = self.restated_order(path + ("order",), raw["order"], old, values)
        self.facts[name] = Fact(name, old.type, tuple(values), raw.get("meaning", old.meaning), self.doc.at(path),
                                old.ordered)


    def restated_order(self, path: tuple, order: list[str], old: Fact, values: list[str]) -> list[str]:
        """An ordered fact's values in the order a change restates (each of them once), or an error and ``values``."""
        if not old.ordered:
            self.error(path, f"fact '{old.name}' is not ordered; it has no order to restate",
                       "declare it 'ordered: true' where it is added, or drop 'order'")
            return values
        wrong = list(dict.fromkeys(f"{v} twice" for i, v in enumerate(order) if v in order[:i]))
        wrong += [f"{v} is not one of them" for v in dict.fromkeys(order) if v not in values]
        wrong += [f"{v} missing" for v in values if v not in order]
        if wrong:
            self.error(path, f"the order of fact '{old.name}' must list each of its values once: " + ", ".join(wrong),
                       "its values: " + ", ".join(values))
            return values
        return list(order)


def _fact(doc: Document, path: tuple, raw: dict, problems: list[Diagnostic]) -> Fact:
    name, values = raw["name"], tuple(raw.get("values") or ())
    if raw["type"] == "enum" and not values:
        problems.append(Diagnostic(doc.at(path), f"enum fact '{name}' lacks its 'values'"))
    if raw["type"] == "bool" and values:
        problems.append(Diagnostic(doc.key_at(path + ("values",)), f"bool fact '{name}' cannot have values",
                                   "make it 'type: enum', or drop 'values'"))
    if raw["type"] == "bool" and raw.get("ordered"):
        problems.append(Diagnostic(doc.key_at(path + ("ordered",)), f"bool fact '{name}' cannot be ordered",
                                   "only an enum fact's values have an order; drop 'ordered'"))
    seen: set[str] = set()
    for j, value in enumerate(values):
        if value in seen:
            problems.append(Diagnostic(doc.at(path + ("values", j)), f"value '{value}' is listed twice"))
        seen.add(value)
    return Fact(name, raw["type"], values, raw["meaning"], doc.at(path),
                raw["type"] == "enum" and bool(raw.get("ordered")))


def _constraint(doc: Document, path: tuple, raw: dict, names: C.Names,
                problems: list[Diagnostic]) -> Constraint | None:
    cond = C.parse(doc, path + ("never",), raw["never"], problems)
    if cond is None:
        return None
    C.check_names(cond, names, problems)
    return Constraint(raw["id"], raw["text"], cond, doc.at(path))


def _kept_constraint(constraint: Constraint, names: C.Names, edition: str, problems: list[Diagnostic]) -> None:
    """A constraint of an earlier edition that this edition keeps must name only what it still has."""
    found: list[Diagnostic] = []
    C.check_names(constraint.never, names, found)
    for problem in found:
        problems.append(Diagnostic(problem.location,
                                   f"{problem.message}, but edition '{edition}' keeps constraint '{constraint.id}'",
                                   f"withdraw the constraint in edition '{edition}' ('constraints: withdraw'), "
                                   "or replace it ('constraints: change')"))

