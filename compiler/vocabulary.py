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
    facts = {f.name: f for f in previous.vocabulary.facts}
    constraints = {c.id: c for c in previous.vocabulary.constraints}
    withdrawn = dict(previous.withdrawn)
    raw_facts = doc.data.get("facts") or {}
    raw_constraints = doc.data.get("constraints") or {}

    def at(path: tuple) -> str:
        loc = doc.at(path)
        return f"by edition '{edition}' at {loc.path}:{loc.line}"

    def error(path: tuple, message: str, hint: str | None = None) -> None:
        problems.append(Diagnostic(doc.at(path), message, hint))

    for i, name in enumerate(raw_facts.get("withdraw") or []):
        path = ("facts", "withdraw", i)
        if name not in facts:
            error(path, f"edition '{edition}' withdraws fact '{name}', which the previous edition does not have",
                  did_you_mean(name, facts) or "check the fact's name, or remove it from 'withdraw'")
            continue
        del facts[name]
        withdrawn[name] = at(path)
    for i, raw in enumerate(raw_facts.get("change") or []):
        path = ("facts", "change", i)
        _change_fact(doc, path, raw, facts, withdrawn, edition, at, error)
    for i, raw in enumerate(raw_facts.get("add") or []):
        path = ("facts", "add", i)
        if raw["name"] in facts:
            error(path + ("name",), f"edition '{edition}' adds fact '{raw['name']}', which the previous "
                                    "edition already has", "change it under 'facts: change', or withdraw it first")
            continue
        facts[raw["name"]] = _fact(doc, path, raw, problems)
        withdrawn = {k: v for k, v in withdrawn.items() if k != raw["name"] and not k.startswith(raw["name"] + "=")}
    names = Resolved(Vocabulary(tuple(facts.values()), ()), withdrawn).names()
    for i, cid in enumerate(raw_constraints.get("withdraw") or []):
        if constraints.pop(cid, None) is None:
            error(("constraints", "withdraw", i),
                  f"edition '{edition}' withdraws constraint '{cid}', which the previous edition does not have",
                  did_you_mean(cid, constraints) or "check the constraint's id, or remove it from 'withdraw'")
    for i, raw in enumerate(raw_constraints.get("change") or []):
        path = ("constraints", "change", i)
        if raw["id"] not in constraints:
            error(path + ("id",), f"edition '{edition}' changes constraint '{raw['id']}', which the previous "
                                  "edition does not have", did_you_mean(raw["id"], constraints)
                  or "add it under 'constraints: add'")
            continue
        new = _constraint(doc, path, raw, names, problems)
        if new is not None:
            constraints[new.id] = new
    for i, raw in enumerate(raw_constraints.get("add") or []):
        path = ("constraints", "add", i)
        if raw["id"] in constraints:
            error(path + ("id",), f"edition '{edition}' adds constraint '{raw['id']}', which the previous "
                                  "edition already has", "replace it under 'constraints: change'")
            continue
        new = _constraint(doc, path, raw, names, problems)
        if new is not None:
            constraints[new.id] = new
    changed = {raw["id"] for key in ("change", "add") for raw in raw_constraints.get(key) or []}
    for constraint in constraints.values():
        if constraint.id not in changed:  # kept from an earlier edition: its facts may be gone
            _kept_constraint(constraint, names, edition, problems)
    return Resolved(Vocabulary(tuple(facts.values()), tuple(constraints.values())), withdrawn)


def _change_fact(doc: Document, path: tuple, raw: dict, facts: dict[str, Fact], withdrawn: dict[str, str],
                 edition: str, at, error) -> None:
    name = raw["name"]
    old = facts.get(name)
    if old is None:
        error(path + ("name",), f"edition '{edition}' changes fact '{name}', which the previous edition "
                                "does not have", did_you_mean(name, facts) or "add it under 'facts: add'")
        return
    if not any(k in raw for k in ("meaning", "add_values", "withdraw_values")):
        error(path, f"a change of fact '{name}' says nothing to change",
              "give its new 'meaning', 'add_values' or 'withdraw_values'")
        return
    values = list(old.values)
    if old.type == "bool" and ("add_values" in raw or "withdraw_values" in raw):
        key = "add_values" if "add_values" in raw else "withdraw_values"
        error(path + (key,), f"fact '{name}' is a bool and has no values",
              "withdraw it and add it again as 'type: enum'")
        return
    for j, value in enumerate(raw.get("withdraw_values") or []):
        if value not in values:
            error(path + ("withdraw_values", j), f"edition '{edition}' withdraws value '{value}' of fact "
                                                 f"'{name}', which the previous edition does not have",
                  did_you_mean(value, values) or "values: " + ", ".join(values))
            continue
        values.remove(value)
        withdrawn[f"{name}={value}"] = at(path + ("withdraw_values", j))
    for j, value in enumerate(raw.get("add_values") or []):
        if value in values:
            error(path + ("add_values", j), f"value '{value}' of fact '{name}' is already in the previous "
                                            "edition, or listed twice")
            continue
        values.append(value)
        withdrawn.pop(f"{name}={value}", None)
    if old.type == "enum" and len(values) < 2:
        error(path, f"enum fact '{name}' would be left with {len(values)} value{'s' if len(values) != 1 else ''}",
              "an enum fact has at least two values; withdraw the fact instead")
    # An ordered fact's added values come last in its order.
    facts[name] = Fact(name, old.type, tuple(values), raw.get("meaning", old.meaning), doc.at(path), old.ordered)


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

