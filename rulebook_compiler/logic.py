"""Rules logic checks, as Catala makes them: conflicts, empty decisions, dead rules.

Each is a satisfiability question over the decision's situations, answered
symbolically (rulebook_compiler/decision_sets.py), and reported with the first
situation that shows it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Mapping

from .conditions import Condition, refs
from .diagnostics import Diagnostic
from .decision_sets import DecisionSets
from .evaluate import DecisionModel, show_state
from .symbolic import Core, vocabulary_core

if TYPE_CHECKING:
    from .proofs import Proofs
from .model import Edition, Rulebook
from . import progress

# Sets of rules in conflict reported per decision, at most (then one line with the count).
MAX_CONFLICTS_SHOWN = 32


def logic_problems(book: Rulebook, proofs: "Proofs | None" = None, groups: list | None = None) -> list[Diagnostic]:
    """Every conflict, empty situation and dead rule, over all editions.

    With ``proofs`` (rulebook_compiler/proofs.py), a decision whose inputs were proved
    before takes its problems from there, and the others are proved and kept.
    With ``groups``, each decision checked adds (edition id, decision, the edition
    whose file it is reported at, its problems) to it, in the order reported
    (rulebook_compiler/recheck.py proves again only those an edit touches).
    """
    problems: list[Diagnostic] = []
    first_had: dict[tuple, Edition] = {}  # rules over predicates -> the first edition that had them
    done: set[tuple] = set()  # ... and the vocabularies they were checked over
    tokens: dict[tuple, int] = {}
    vocabularies: dict = {}
    cores: dict = {}  # one BDD manager per vocabulary: decisions over it share its diagrams
    todo: list[tuple[Edition, Edition, DecisionModel, object]] = []
    for edition in book.editions:
        token = tokens.setdefault(predicates_key(edition), len(tokens))
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
            todo.append((edition, first, model, vocabulary))
    stored = proofs.stored([m for _, _, m, _ in todo]) if proofs is not None else {}
    for edition, first, model, vocabulary in todo:
        core = cores.get(vocabulary)
        if core is None:
            core = cores[vocabulary] = vocabulary_core(edition.vocabulary)

        def prove(model=model, core=core) -> list[Diagnostic]:
            return decision_problems(model, core)

        found = proofs.problems(model, prove, stored) if proofs is not None else prove()
        if first is not edition:  # reported at the earlier edition's file: say which edition fails
            found = [replace(p, message=f"{p.message}, in edition '{edition.id}', whose vocabulary differs "
                                        f"from that of edition '{first.id}'") for p in found]
        problems.extend(found)
        if groups is not None:
            groups.append((edition.id, model.decision.name, first.id, found))
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


def predicates_key(edition: Edition) -> tuple:
    """The edition's predicate definitions, compared once per edition.

    Decisions' keys hold a small token for it instead, so that building and
    hashing a key does not grow with the number of predicates.
    """
    return tuple(sorted((n, p.condition) for n, p in edition.predicates.items()))


def decision_problems(model: DecisionModel, core: Core | None = None) -> list[Diagnostic]:
    """The decision's conflicts, first empty situation and dead rules, each with the situation that shows it.

    Each is a question about sets of situations, answered on BDDs (rulebook_compiler/symbolic.py)
    without listing the situations; the situation shown is the first that enumeration
    would have met, and the problems come in the order it would have found them.
    """
    sets = DecisionSets(model, core)
    found: list[tuple[tuple, Diagnostic]] = _conflicts(sets)
    empty = sets.core.first(sets.empty, model.facts)
    if empty is not None:
        found.append((sets.core.rank(empty), Diagnostic(
            model.decision.loc, f"decision '{model.decision.name}' has no answer when {show_state(empty)}",
            "add a rule for this situation, a constraint that rules it out, "
            "or a 'given' that puts it out of the question's scope")))
    out = [d for _, d in sorted(found, key=lambda pair: pair[0])]
    for i, rule in enumerate(model.rules):
        if not sets.live(i):
            out.append(Diagnostic(rule.loc, f"rule of {rule.ref} for '{model.decision.name}' can never apply in an "
                                  "allowed situation (dead rule)",
                                  "check its 'when' against the vocabulary's constraints and the decision's 'given'"))
    return out


def _conflicts(sets: DecisionSets) -> list[tuple[tuple, Diagnostic]]:
    """One conflict per set of clauses left standing in disagreement, at its first situation.

    At most MAX_CONFLICTS_SHOWN of them: rules that disagree pairwise can stand in
    as many sets as the situations allow, and the rest are counted, not listed.
    """
    model, core = sets.model, sets.core
    left = sets.conflict
    shown: set[frozenset] = set()
    out: list[tuple[tuple, Diagnostic]] = []
    while True:
        state = core.first(left, model.facts)
        if state is None:
            return out
        if len(shown) == MAX_CONFLICTS_SHOWN:
            out.append((core.rank(state), Diagnostic(
                model.decision.loc,
                f"decision '{model.decision.name}' is in conflict in {sets.count(sets.conflict):,} situations in "
                f"all, with more sets of rules in conflict than the {MAX_CONFLICTS_SHOWN} shown",
                "resolve those shown and check again; the limit is MAX_CONFLICTS_SHOWN in rulebook_compiler/logic.py "
                "(docs/format.md, Limits)")))
            return out
        result = model.evaluate(state)
        standing = frozenset(i for i, region in enumerate(sets.standing)
                             if (region & core.situation(state)) != core.false)
        left &= ~sets.standing_exactly(standing)
        key = frozenset(r.ref for r, _ in result.standing)
        if key in shown:
            continue
        shown.add(key)
        first = min((r for r, _ in result.standing), key=lambda r: (r.loc.path, r.loc.line))
        out.append((core.rank(state), Diagnostic(
            first.loc, f"decision '{model.decision.name}' is in conflict when {show_state(state)}: "
                       f"{result.describe()}, and no rule is an exception to the other",
            "mark one rule 'exception_to' the other's clause, or narrow a 'when'")))
