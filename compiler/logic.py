"""Rules logic checks, as Catala makes them: conflicts, empty decisions, dead rules.

Each is found by evaluating the decision in every allowed situation, and
reported with the situation that shows it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from .conditions import Condition, refs
from .diagnostics import Diagnostic, Location
from .budget import DEFAULT_MAX_STEPS, STEPS_VARIABLE, Budget, LimitError, OverBudget, max_steps
from .evaluate import DecisionModel, show_state
from .model import Edition, Rulebook
from . import progress

MAX_STATES = 1 << 16  # beyond this a decision is left unchecked, and said so


def logic_problems(book: Rulebook) -> list[Diagnostic]:
    """Every conflict, empty situation and dead rule, over all editions."""
    try:
        limit = max_steps()
    except LimitError as exc:
        return [Diagnostic(Location(STEPS_VARIABLE), exc.message, exc.hint)]
    problems: list[Diagnostic] = []
    first_had: dict[tuple, Edition] = {}  # rules over predicates -> the first edition that had them
    done: set[tuple] = set()  # ... and the vocabularies they were checked over
    tokens: dict[tuple, int] = {}
    vocabularies: dict = {}
    for edition in book.editions:
        token = tokens.setdefault(_predicates_key(edition), len(tokens))
        vocabulary = vocabularies.setdefault(edition.vocabulary, len(vocabularies))
        conditions = {n: p.condition for n, p in edition.predicates.items()}
        for name in progress.track(sorted(edition.decisions), "decisions"):
            key = (edition.decisions[name], edition.rules.get(name, ()), token)
            first = first_had.setdefault(key, edition)
            # The same rules over the same predicates and vocabulary: already checked. Over another
            # vocabulary (values added, a constraint withdrawn) they may fail where they did not.
            if (key, vocabulary) in done:
                continue
            done.add((key, vocabulary))
            model = DecisionModel(edition.vocabulary, edition, name,
                                  predicates=_reachable(edition, name, conditions))
            found = decision_problems(model, limit)
            if first is not edition:  # reported at the earlier edition's file: say which edition fails
                found = [replace(p, message=f"{p.message}, in edition '{edition.id}', whose vocabulary differs "
                                            f"from that of edition '{first.id}'") for p in found]
            problems.extend(found)
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


def decision_problems(model: DecisionModel, limit: int = DEFAULT_MAX_STEPS) -> list[Diagnostic]:
    """The decision's problems, searched within ``limit`` condition steps (a warning beyond)."""
    decision = model.decision
    if model.space.size > MAX_STATES:
        return [Diagnostic(decision.loc, f"decision '{decision.name}' depends on {len(model.facts)} facts "
                           f"({model.space.size:,} situations, over the limit of {MAX_STATES:,}); "
                           "not checked for conflicts, empty situations or dead rules",
                           "make it depend on fewer facts (split the decision, or narrow it with 'given'); "
                           "the limit is MAX_STATES in compiler/logic.py (docs/format.md, Limits)",
                           severity="warning", code="logic-not-checked")]
    out: list[Diagnostic] = []
    try:
        applied = _search(model, Budget(limit), out)
    except OverBudget:
        space = model.space
        ties = f" and the {len(space.extra)} its constraints tie to them" if space.extra else ""
        out.append(Diagnostic(decision.loc, f"decision '{decision.name}' is too large to check: its "
                              f"{len(model.facts)} facts{ties} take more than {limit:,} condition steps to search "
                              f"({space.size:,} situations); not checked for dead rules, and for conflicts "
                              "and empty situations beyond those reported",
                              f"raise the limit with the environment variable {STEPS_VARIABLE} (it bounds the time "
                              "of check), or make the decision and its constraints depend on fewer facts",
                              severity="warning", code="logic-not-checked"))
        return out
    for i, rule in enumerate(model.rules):
        if not applied >> i & 1:
            out.append(Diagnostic(rule.loc, f"rule of {rule.ref} for '{decision.name}' can never apply in an "
                                  "allowed situation (dead rule)",
                                  "check its 'when' against the vocabulary's constraints and the decision's 'given'"))
    return out


def _search(model: DecisionModel, budget: Budget, out: list[Diagnostic]) -> int:
    """Report conflicts and the first empty situation; return the rules that apply somewhere (bits)."""
    decision = model.decision
    applied = 0  # bit i: rule i answers in some allowed situation
    conflicts: set[frozenset] = set()
    empty_shown = False
    compiled = model._compiled
    # The default logic of DecisionModel.evaluate on bit sets, to find quickly the
    # situations with one answer standing (most of them); only the others are
    # evaluated in full, for their message. Full evaluation of every situation
    # was half of the time of checking a large rulebook.
    overrides = model._override_bits
    for state in model.states(budget):
        budget.spend(model.rules_cost)
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
    return applied
