"""Rules logic checks, as Catala makes them: conflicts, empty decisions, dead rules.

Each is found by evaluating the decision in every allowed situation, and
reported with the situation that shows it.
"""

from __future__ import annotations

from typing import Mapping

from .conditions import Condition, refs
from .diagnostics import Diagnostic
from .evaluate import DecisionModel, show_state
from .model import Edition, Rulebook

MAX_STATES = 1 << 16  # beyond this a decision is left unchecked, and said so


def logic_problems(book: Rulebook) -> list[Diagnostic]:
    """Every conflict, empty situation and dead rule, over all editions."""
    problems: list[Diagnostic] = []
    done: set = set()
    tokens: dict[tuple, int] = {}
    for edition in book.editions:
        token = tokens.setdefault(_predicates_key(edition), len(tokens))
        conditions = {n: p.condition for n, p in edition.predicates.items()}
        for name in sorted(edition.decisions):
            key = (edition.decisions[name], edition.rules.get(name, ()), token)
            if key in done:  # the same rules over the same predicates: already checked
                continue
            done.add(key)
            model = DecisionModel(book.vocabulary, edition, name,
                                  predicates=_reachable(edition, name, conditions))
            problems.extend(decision_problems(model))
    return problems


def _reachable(edition: Edition, name: str, conditions: Mapping[str, Condition]) -> dict[str, Condition]:
    """The predicates a decision uses, directly or through others.

    The model needs no more, and copying all of an edition's predicates into
    every decision's model made checking grow with the square of the terms.
    """
    decision = edition.decisions[name]
    stack = [c for r in edition.rules.get(name, ()) for c in (r.when, r.test) if c is not None]
    if decision.given is not None:
        stack.append(decision.given)
    found: dict[str, Condition] = {}
    while stack:
        for ref in sorted(refs(stack.pop())):
            if ref in conditions and ref not in found:
                found[ref] = conditions[ref]
                stack.append(conditions[ref])
    return found


def _predicates_key(edition: Edition) -> tuple:
    """The edition's predicate definitions, compared once per edition.

    Decisions' keys hold a small token for it instead, so that building and
    hashing a key does not grow with the number of predicates.
    """
    return tuple(sorted((n, p.condition) for n, p in edition.predicates.items()))


def decision_problems(model: DecisionModel) -> list[Diagnostic]:
    decision = model.decision
    if model.space.size > MAX_STATES:
        return [Diagnostic(decision.loc, f"decision '{decision.name}' depends on {len(model.facts)} facts "
                           f"({model.space.size} situations); not checked for conflicts", severity="warning")]
    out: list[Diagnostic] = []
    applied = 0  # bit i: rule i answers in some allowed situation
    conflicts: set[frozenset] = set()
    empty_shown = False
    compiled = model._compiled
    # The default logic of DecisionModel.evaluate on bit sets, to find quickly the
    # situations with one answer standing (most of them); only the others are
    # evaluated in full, for their message. Full evaluation of every situation
    # was half of the time of checking a large rulebook.
    overrides = [sum(1 << j for j in model._overrides[i]) for i in range(len(compiled))]
    for state in model.states():
        answers = [c.answer(state) for c in compiled]
        answered = beaten = 0
        for i, a in enumerate(answers):
            if a is not None:
                answered |= 1 << i
                beaten |= overrides[i]
        applied |= answered  # a rule that answers but is overridden is live all the same
        standing = answered & ~beaten
        if standing and len({(type(a), a) for i, a in enumerate(answers) if standing >> i & 1}) == 1:
            continue
        result = model.evaluate(state)
        if result.conflict:
            key = frozenset(r.ref for r, _ in result.standing)
            if key not in conflicts:
                conflicts.add(key)
                first = min((r for r, _ in result.standing), key=lambda r: (r.loc.path, r.loc.line))
                out.append(Diagnostic(first.loc, f"decision '{decision.name}' is in conflict when "
                                      f"{show_state(state)}: {result.describe()}, and no rule is an "
                                      "exception to the other",
                                      "mark one rule 'exception_to' the other's clause, or narrow a 'when'"))
        elif result.empty and not empty_shown:
            empty_shown = True
            out.append(Diagnostic(decision.loc, f"decision '{decision.name}' has no answer when "
                                  f"{show_state(state)}",
                                  "add a rule for this situation, a constraint that rules it out, "
                                  "or a 'given' that puts it out of the question's scope"))
    for i, rule in enumerate(model.rules):
        if not applied >> i & 1:
            out.append(Diagnostic(rule.loc, f"rule of {rule.ref} for '{decision.name}' can never apply in an "
                                  "allowed situation (dead rule)",
                                  "check its 'when' against the vocabulary's constraints and the decision's 'given'"))
    return out
