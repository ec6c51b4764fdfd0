"""The condition language: syntax tree, parsing from YAML, and evaluation.

A condition is a fact or predicate name, a constant, or one of ``not``, ``all``,
``any``, ``is`` and ``in``, or a comparison on an ordered enum fact: ``before``,
``at_most``, ``after``, ``at_least`` (see docs/format.md). Names are resolved and typed
against the vocabulary and the edition's predicates by ``check_names``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Union

from .diagnostics import Diagnostic, Location, did_you_mean, placed
from .schema import IDENT, compiled_pattern
from .yamlsource import Document

State = Mapping[str, Union[bool, str]]


@dataclass(frozen=True)
class Const:
    value: bool
    loc: Location | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Ref:
    """A bool fact or a predicate, by name."""

    name: str
    loc: Location | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Not:
    arg: "Condition"
    loc: Location | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class All:
    args: tuple["Condition", ...]
    loc: Location | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Any_:
    args: tuple["Condition", ...]
    loc: Location | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class In:
    """An enum fact has one of the values; ``is`` is the one-value form."""

    fact: str
    values: tuple[str, ...]
    single: bool = False  # written as ``is``
    loc: Location | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Cmp:
    """An ordered enum fact compared with a value of its order, or with another fact of the same order.

    ``op`` is one of COMPARISONS; ``bound`` is a value, or a fact's name when ``against_fact``.
    What it means depends on the order, which the vocabulary holds: compiling it
    takes the orders (``compile_condition(..., orders=)``), so an edition whose
    vocabulary orders the values otherwise reads the same words its own way.
    """

    fact: str
    op: str
    bound: str
    against_fact: bool = False
    loc: Location | None = field(default=None, compare=False, repr=False)


Condition = Union[Const, Ref, Not, All, Any_, In, Cmp]

COMPARISONS = ("before", "at_most", "after", "at_least")
_FORMS = ("not", "all", "any", "is", "in", *COMPARISONS)
# How each comparison reads in a sentence: ``step is at or before declare_block``.
_COMPARISON_WORDS = {"before": "before", "at_most": "at or before", "after": "after", "at_least": "at or after"}


def admitted(order: tuple[str, ...], op: str, bound: str) -> tuple[str, ...]:
    """The values of ``order`` for which ``{op: {fact: bound}}`` holds, in order."""
    i = order.index(bound)
    if op == "before":
        return order[:i]
    if op == "at_most":
        return order[:i + 1]
    if op == "after":
        return order[i + 1:]
    return order[i:]


def order_holds(op: str, i: int, j: int) -> bool:
    """``op`` between two positions in one order."""
    if op == "before":
        return i < j
    if op == "at_most":
        return i <= j
    if op == "after":
        return i > j
    return i >= j

# Conditions are walked recursively (evaluation, export, describe); these caps keep
# every walker far from Python's recursion limit. A condition's depth counts each
# form and name as a level; a predicate's depth counts the predicates it uses, as
# the evaluator inlines them. A rule's condition is at most the sum of the two deep.
MAX_CONDITION_DEPTH = 32
MAX_PREDICATE_DEPTH = 64
_LIMITS = "(docs/format.md, Limits)"


def parse(doc: Document, path: tuple, value: Any, out: list[Diagnostic], _depth: int = 1) -> Condition | None:
    """Build a condition from its YAML value, reporting malformed parts to ``out``."""
    loc = doc.at(path)
    if _depth > MAX_CONDITION_DEPTH:
        out.append(Diagnostic(loc, f"condition nested more than {MAX_CONDITION_DEPTH} deep",
                              "name a part of it with 'defines' and use the name; the limit is "
                              f"MAX_CONDITION_DEPTH = {MAX_CONDITION_DEPTH} in rulebook_compiler/conditions.py {_LIMITS}"))
        return None
    if isinstance(value, bool):
        return Const(value, loc)
    if isinstance(value, str):
        if not compiled_pattern(IDENT).fullmatch(value):
            out.append(Diagnostic(loc, f"{value!r} is not a fact or predicate name",
                                  "names use lowercase letters, digits and underscores"))
            return None
        return Ref(value, loc)
    if not isinstance(value, dict) or len(value) != 1:
        out.append(Diagnostic(loc, "a condition is a name, true/false, or a mapping with one key of: "
                                   + ", ".join(_FORMS)))
        return None
    (form, arg), = value.items()
    sub = path + (form,)
    if form == "not":
        inner = parse(doc, sub, arg, out, _depth + 1)
        return Not(inner, loc) if inner is not None else None
    if form in ("all", "any"):
        if not isinstance(arg, list):
            out.append(Diagnostic(doc.at(sub), f"'{form}' takes a list of conditions"))
            return None
        items = [parse(doc, sub + (i,), item, out, _depth + 1) for i, item in enumerate(arg)]
        parsed = tuple(item for item in items if item is not None)
        if len(parsed) != len(items):
            return None
        return (All if form == "all" else Any_)(parsed, loc)
    if form in ("is", "in"):
        return _parse_enum_test(doc, sub, form, arg, loc, out)
    if form in COMPARISONS:
        return _parse_comparison(doc, sub, form, arg, loc, out)
    out.append(Diagnostic(doc.key_at(sub), f"unknown condition form '{form}'",
                          did_you_mean(form, _FORMS) or "forms: " + ", ".join(_FORMS)))
    return None


def _parse_enum_test(doc, sub, form, arg, loc, out) -> In | None:
    example = "{is: {phase: battle}}" if form == "is" else "{in: {phase: [preparation, discard]}}"
    if not isinstance(arg, dict) or len(arg) != 1:
        out.append(Diagnostic(doc.at(sub), f"'{form}' takes one fact and its value(s), like {example}"))
        return None
    (fact, values), = arg.items()
    if form == "is":
        if not isinstance(values, str):
            out.append(Diagnostic(doc.at(sub + (fact,)), f"'is' takes one value, like {example}"))
            return None
        return In(fact, (values,), True, loc)
    if not isinstance(values, list) or not values or not all(isinstance(v, str) for v in values):
        out.append(Diagnostic(doc.at(sub + (fact,)), f"'in' takes a non-empty list of values, like {example}"))
        return None
    return In(fact, tuple(values), False, loc)


def _parse_comparison(doc, sub, form, arg, loc, out) -> Cmp | None:
    if not isinstance(arg, dict) or len(arg) != 1:
        out.append(Diagnostic(doc.at(sub), f"'{form}' takes one ordered fact and a value, like "
                                           f"{{{form}: {{step: battle}}}} or {{{form}: {{step: {{fact: other_step}}}}}}"))
        return None
    (fact, bound), = arg.items()
    if isinstance(bound, str):
        return Cmp(fact, form, bound, False, loc)
    if isinstance(bound, dict) and len(bound) == 1 and isinstance(bound.get("fact"), str):
        return Cmp(fact, form, bound["fact"], True, loc)
    out.append(Diagnostic(doc.at(sub + (fact,)),
                          f"'{form}' takes one value or {{fact: NAME}}, like {{{form}: {{step: battle}}}}"))
    return None


@dataclass(frozen=True)
class Names:
    """What a condition may name: facts (type and values) and predicates."""

    facts: Mapping[str, tuple[str, ...] | None]  # enum values, or None for bool
    predicates: Iterable[str]
    ordered: Iterable[str] = frozenset()  # the enum facts whose values are in order
    # A fact, or 'fact=value', that an edition withdrew -> "by edition 'b' at FILE:LINE"
    withdrawn: Mapping[str, str] = field(default_factory=dict)


def check_names(cond: Condition, names: Names, out: list[Diagnostic]) -> None:
    """Report unknown names, unknown enum values and type mismatches."""
    # A caller that checks many conditions passes a frozenset once, not a copy per call.
    preds = names.predicates if isinstance(names.predicates, (set, frozenset)) else set(names.predicates)
    for node in walk(cond):
        if isinstance(node, Ref):
            if node.name in preds:
                continue
            if node.name in names.withdrawn:
                out.append(_withdrawn(node.loc, f"fact '{node.name}'", names.withdrawn[node.name]))
            elif node.name not in names.facts:
                out.append(Diagnostic(placed(node.loc), f"unknown fact or predicate '{node.name}'",
                                      did_you_mean(node.name, [*names.facts, *preds])))
            elif (enum := names.facts[node.name]) is not None:
                out.append(Diagnostic(placed(node.loc), f"fact '{node.name}' is an enum, not a bool",
                                      f"test it with {{is: {{{node.name}: VALUE}}}}; values: "
                                      + ", ".join(enum)))
        elif isinstance(node, In):
            if node.fact in names.withdrawn:
                out.append(_withdrawn(node.loc, f"fact '{node.fact}'", names.withdrawn[node.fact]))
                continue
            if node.fact not in names.facts:
                out.append(Diagnostic(placed(node.loc), f"unknown fact '{node.fact}'",
                                      did_you_mean(node.fact, names.facts)))
                continue
            values = names.facts[node.fact]
            if values is None:
                out.append(Diagnostic(placed(node.loc), f"fact '{node.fact}' is a bool; '{'is' if node.single else 'in'}' "
                                                "needs an enum fact", f"write '{node.fact}' or {{not: {node.fact}}}"))
                continue
            for value in node.values:
                if f"{node.fact}={value}" in names.withdrawn:
                    out.append(_withdrawn(node.loc, f"value '{value}' of fact '{node.fact}'",
                                          names.withdrawn[f"{node.fact}={value}"]))
                elif value not in values:
                    out.append(Diagnostic(placed(node.loc), f"'{value}' is not a value of fact '{node.fact}'",
                                          did_you_mean(value, values) or "values: " + ", ".join(values)))
        elif isinstance(node, Cmp):
            _check_comparison(node, names, out)


def _check_comparison(node: Cmp, names: Names, out: list[Diagnostic]) -> None:
    """A comparison needs an ordered fact, and a value of it or a fact of the same order."""
    withdrawn = [(f"fact '{n}'", n) for n in (node.fact, node.bound if node.against_fact else None) if n] \
        + ([(f"value '{node.bound}' of fact '{node.fact}'", f"{node.fact}={node.bound}")] if not node.against_fact else [])
    gone = [(what, key) for what, key in withdrawn if key in names.withdrawn]
    if gone:
        out.extend(_withdrawn(node.loc, what, names.withdrawn[key]) for what, key in gone)
        return
    if node.fact not in names.facts:
        out.append(Diagnostic(placed(node.loc), f"unknown fact '{node.fact}'", did_you_mean(node.fact, names.facts)))
        return
    values = names.facts[node.fact]
    if values is None:
        out.append(Diagnostic(placed(node.loc), f"fact '{node.fact}' is a bool; '{node.op}' needs an ordered enum fact",
                              f"write '{node.fact}' or {{not: {node.fact}}}"))
        return
    if node.fact not in names.ordered:
        out.append(Diagnostic(placed(node.loc), f"fact '{node.fact}' is not ordered; '{node.op}' needs an ordered fact",
                              "declare it with 'ordered: true' in vocabulary.yaml (its values listed in order), "
                              f"or list the values: {{in: {{{node.fact}: [...]}}}}"))
        return
    if not node.against_fact:
        if node.bound not in values:
            out.append(Diagnostic(placed(node.loc), f"'{node.bound}' is not a value of fact '{node.fact}'",
                                  did_you_mean(node.bound, values) or "values, in order: " + ", ".join(values)))
        return
    if node.bound not in names.facts:
        out.append(Diagnostic(placed(node.loc), f"unknown fact '{node.bound}'", did_you_mean(node.bound, names.facts)))
    elif node.bound not in names.ordered or names.facts[node.bound] != values:
        out.append(Diagnostic(placed(node.loc), f"'{node.op}' compares '{node.fact}' with '{node.bound}', "
                                        "whose values or order differ",
                              "a fact is compared only with a fact of the same values in the same order"))


def _withdrawn(loc: Location | None, what: str, where: str) -> Diagnostic:
    return Diagnostic(placed(loc), f"{what} was withdrawn {where}",
                      "an edition's conditions test only what its vocabulary has: "
                      "change the condition in this edition, or do not withdraw it")


def walk(cond: Condition) -> Iterable[Condition]:
    """Every node of a condition, outermost first."""
    stack = [cond]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, Not):
            stack.append(node.arg)
        elif isinstance(node, (All, Any_)):
            stack.extend(reversed(node.args))


def refs(cond: Condition) -> set[str]:
    """Names used as bare references (facts or predicates)."""
    return {n.name for n in walk(cond) if isinstance(n, Ref)}


def facts_used(cond: Condition, predicates: Mapping[str, Condition]) -> set[str]:
    """The facts a condition depends on, through the predicates it uses."""
    found: set[str] = set()
    seen: set[str] = set()
    stack = [cond]
    while stack:
        for node in walk(stack.pop()):
            if isinstance(node, (In, Cmp)):
                found.add(node.fact)
                if isinstance(node, Cmp) and node.against_fact:
                    found.add(node.bound)
            elif isinstance(node, Ref):
                if node.name in predicates:
                    if node.name not in seen:
                        seen.add(node.name)
                        stack.append(predicates[node.name])
                else:
                    found.add(node.name)
    return found


def depth(cond: Condition, predicates: Mapping[str, Condition], memo: dict[str, int] | None = None) -> int:
    """Levels of nesting, with the predicates it uses inlined (a use counts one level more).

    An explicit stack, so that any chain of predicates is measured without
    recursion; ``memo`` keeps predicates' depths between calls. A predicate met
    again inside its own definition (a cycle, reported by the checker) counts 1.
    """
    memo = {} if memo is None else memo
    found: dict[int, int] = {}
    active: set[str] = set()
    stack: list[tuple[Condition, bool, str | None]] = [(cond, False, None)]
    while stack:
        node, ready, name = stack.pop()
        if isinstance(node, Ref) and node.name in predicates:
            p = node.name
            if p in memo or (p in active and not ready):
                found[id(node)] = 1 + memo.get(p, 0)
            elif not ready:
                active.add(p)
                stack.append((node, True, name))
                stack.append((predicates[p], False, p))
                continue
            else:
                found[id(node)] = 1 + memo[p]
        elif isinstance(node, (Not, All, Any_)):
            children = (node.arg,) if isinstance(node, Not) else node.args
            if not ready:
                stack.append((node, True, name))
                stack.extend((c, False, None) for c in children)
                continue
            found[id(node)] = 1 + max((found[id(c)] for c in children), default=0)
        else:
            found[id(node)] = 1
        if name is not None:
            memo[name] = found[id(node)]
            active.discard(name)
    return found[id(cond)]


def size(cond: Condition, predicates: Mapping[str, Condition], memo: dict[str, int] | None = None) -> int:
    """Nodes evaluated at most, with the predicates it uses inlined (a use counts one more).

    It can be far larger than the text (a predicate used twice by one used twice
    by ...), which is why the logic checks count it. An explicit stack within a
    condition; it recurses only from a predicate's use into its definition, and
    checked chains of those are at most MAX_PREDICATE_DEPTH long.
    """
    memo = {} if memo is None else memo
    total = 0
    stack: list[tuple[Condition, int]] = [(cond, 1)]  # a node and how many times it is reached
    pending: dict[str, int] = {}
    while stack:
        node, times = stack.pop()
        total += times
        if isinstance(node, Ref) and node.name in predicates:
            name = node.name
            if name not in memo:
                if name in pending:  # a cycle, reported by the checker
                    continue
                pending[name] = 1
                memo[name] = size(predicates[name], predicates, memo)
                del pending[name]
            total += times * memo[name]
        elif isinstance(node, Not):
            stack.append((node.arg, times))
        elif isinstance(node, (All, Any_)):
            stack.extend((a, times) for a in node.args)
    return total


Compiled = Callable[[State], bool]


def compile_condition(cond: Condition, predicates: Mapping[str, Condition],
                      _cache: dict[str, Compiled] | None = None, *,
                      orders: Mapping[str, tuple[str, ...]] | None = None) -> Compiled:
    """A fast function of a state. Predicates are inlined; they must be acyclic.

    ``orders`` gives each ordered fact's values in order (``Vocabulary.orders``):
    comparisons need it (ValueError without). A cache is for one set of orders.
    """
    cache = {} if _cache is None else _cache
    orders = {} if orders is None else orders

    def build(node: Condition) -> Compiled:
        if isinstance(node, Const):
            v = node.value
            return lambda s: v
        if isinstance(node, Ref):
            name = node.name
            if name in predicates:
                if name not in cache:
                    cache[name] = build(predicates[name])
                return cache[name]
            return lambda s: s[name] is True
        if isinstance(node, Not):
            f = build(node.arg)
            return lambda s: not f(s)
        if isinstance(node, All):
            fs = tuple(build(a) for a in node.args)
            return lambda s: all(f(s) for f in fs)
        if isinstance(node, Any_):
            fs = tuple(build(a) for a in node.args)
            return lambda s: any(f(s) for f in fs)
        if isinstance(node, Cmp):
            return _compile_comparison(node, orders)
        fact, values = node.fact, frozenset(node.values)
        return lambda s: s[fact] in values

    return build(cond)


def _compile_comparison(node: Cmp, orders: Mapping[str, tuple[str, ...]]) -> Compiled:
    order = orders.get(node.fact)
    if order is None:
        raise ValueError(f"no order for fact '{node.fact}'; pass the vocabulary's orders")
    fact = node.fact
    if not node.against_fact:
        # a value outside the order (a situation another edition's vocabulary describes) admits nothing
        values = frozenset(admitted(order, node.op, node.bound)) if node.bound in order else frozenset()
        return lambda s: s[fact] in values
    position: dict[bool | str, int] = {v: i for i, v in enumerate(order)}
    other, op = node.bound, node.op
    return lambda s: s[fact] in position and s[other] in position and order_holds(op, position[s[fact]],
                                                                                position[s[other]])


def to_json(cond: Condition) -> Any:
    """The condition as it is written in YAML: the canonical exchange form."""
    if isinstance(cond, Const):
        return cond.value
    if isinstance(cond, Ref):
        return cond.name
    if isinstance(cond, Not):
        return {"not": to_json(cond.arg)}
    if isinstance(cond, All):
        return {"all": [to_json(a) for a in cond.args]}
    if isinstance(cond, Any_):
        return {"any": [to_json(a) for a in cond.args]}
    if isinstance(cond, Cmp):
        return {cond.op: {cond.fact: {"fact": cond.bound} if cond.against_fact else cond.bound}}
    if cond.single:
        return {"is": {cond.fact: cond.values[0]}}
    return {"in": {cond.fact: list(cond.values)}}


def from_json(value: Any) -> Condition:
    """Rebuild a condition from its exchange form (trusted, already checked)."""
    if isinstance(value, bool):
        return Const(value)
    if isinstance(value, str):
        return Ref(value)
    (form, arg), = value.items()
    if form == "not":
        return Not(from_json(arg))
    if form in ("all", "any"):
        return (All if form == "all" else Any_)(tuple(from_json(a) for a in arg))
    (fact, values), = arg.items()
    if form in COMPARISONS:
        return Cmp(fact, form, values["fact"], True) if isinstance(values, dict) else Cmp(fact, form, values)
    return In(fact, (values,), True) if form == "is" else In(fact, tuple(values))


def describe(cond: Condition) -> str:
    """Readable text: ``healable and not (phase is battle)``."""
    if isinstance(cond, Const):
        return "always" if cond.value else "never"
    if isinstance(cond, Ref):
        return cond.name
    if isinstance(cond, Not):
        return f"not {_wrap(cond.arg)}"
    if isinstance(cond, (All, Any_)):
        if not cond.args:
            return "always" if isinstance(cond, All) else "never"
        joiner = " and " if isinstance(cond, All) else " or "
        return joiner.join(_wrap(a) for a in cond.args)
    if isinstance(cond, Cmp):
        return f"{cond.fact} is {_COMPARISON_WORDS[cond.op]} {cond.bound}"
    if cond.single:
        return f"{cond.fact} is {cond.values[0]}"
    return f"{cond.fact} in {{{', '.join(cond.values)}}}"


def _wrap(cond: Condition) -> str:
    text = describe(cond)
    return f"({text})" if isinstance(cond, (All, Any_, In, Cmp)) and " " in text else text
