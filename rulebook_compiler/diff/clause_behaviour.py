"""A decision's change restricted to the situations where some clauses decide it (issue 11, point 1).

``rulebook_compiler.diff.behaviour`` compares a whole decision. A clause is charged
only with the situations where its own rules stand (answer, not overridden)
on either side: there the new side's answers are taken, elsewhere the old
side's, and the two are compared as ``behaviour.compare`` compares any name.
Where its rules say the same on both sides but stand on one side only, another
clause's exception moved the answer: that clause is charged, this one is not
(``overridden_elsewhere``).
"""

from __future__ import annotations

from ..decision_sets import DecisionSets
from ..model import Vocabulary
from ..symbolic import Node, with_orders
from . import behaviour as B


def _sets(side: B.Side, name: str, core):
    """The side's model of the decision and its decision sets (None when the side has no such decision)."""
    if name not in side.edition.decisions:
        return None
    side.meaning("decision", name, core)  # builds the side's model of the decision
    model = side._models[name]
    return model, DecisionSets(model, with_orders(core, side.orders))


def decides(side: B.Side, name: str, core, refs: set[str]):
    """Where the rules of these clauses stand in the side's decision, where it is asked (nowhere when
    the side has no such decision)."""
    return _decides(_sets(side, name, core), core, refs)


def _decides(found, core, refs: set[str]):
    if found is None:
        return core.false
    model, sets = found
    region = core.false
    for rule, standing in zip(model.rules, sets.standing):
        if rule.clause in refs:
            region |= standing
    # Only where the decision is asked: elsewhere no rule decides, whatever it would say.
    return region & sets.given if sets.given is not None else region


def _own(found, core, refs: set[str]):
    """What the rules of these clauses say in a side's decision (``_sets``), where it is asked: where
    they stand, where they answer though overridden, each answer where they give it, and the
    clauses they are exceptions to."""
    model, sets = found
    given = core.true if sets.given is None else sets.given
    stand, overridden, targets = core.false, core.false, set()
    answers: dict[tuple, Node] = {}
    for i, rule in enumerate(model.rules):
        if rule.clause not in refs:
            continue
        stand |= sets.standing[i] & given
        overridden |= sets.applies[i] & ~sets.standing[i] & given
        for key, region in sets.answers[i].items():
            answers[key] = answers.get(key, core.false) | (region & given)
        targets.update(rule.exception_to)
    return stand, overridden, answers, targets


def _applies(found, core, clause: str):
    """Where the rules of this clause answer (overridden or not) in a side's decision (``_sets``)."""
    model, sets = found
    region = core.false
    for i, rule in enumerate(model.rules):
        if rule.clause == clause:
            region |= sets.applies[i]
    return region


def overridden_elsewhere(found: tuple, core, old_refs: set[str], new_refs: set[str]):
    """Where these clauses' rules say the same on both sides (``found``: each side's ``_sets``),
    stand on one side and are overridden on the other: there another clause's exception (added,
    dropped or changed) moved the answer, not these clauses, which are not charged with it. Where
    their own exceptions changed (a clause they override on one side only answers on the other
    side), they are: that precedence is theirs."""
    if found[0] is None or found[1] is None:
        return core.false
    (s_old, o_old, a_old, t_old), (s_new, o_new, a_new, t_new) = \
        _own(found[0], core, old_refs), _own(found[1], core, new_refs)
    same = (s_old | o_old) & (s_new | o_new)
    for key in a_old.keys() | a_new.keys():
        x, y = a_old.get(key, core.false), a_new.get(key, core.false)
        same &= (x & y) | (~x & ~y)
    region = same & ((s_old & o_new) | (s_new & o_old))
    # An exception these clauses declare on one side only decides where the clause it names
    # answers on the other side (where it was, or is now, not overridden by them).
    for target in t_new - t_old:
        region &= ~_applies(found[0], core, target)
    for target in t_old - t_new:
        region &= ~_applies(found[1], core, target)
    return region


def _asked(found, core):
    """Where a side asks the decision (its ``given``; nowhere when it has no such decision)."""
    if found is None:
        return core.false
    given = found[1].given
    return core.true if given is None else given


def clause_compare(name: str, sides: tuple[B.Side, B.Side], vocabulary: Vocabulary,
                   old_refs: set[str], new_refs: set[str], only_unasked: bool = False) -> B.Behaviour:
    """``name`` compared where the old clauses (``old_refs``) or the new ones decide it; with
    ``only_unasked``, only where they decide on one side and the other side does not ask the
    decision (its ``given`` changed): there the same rules answer in situations the other edition
    did not ask about, which is a change of the clause's behaviour even when its rules are the same."""
    old, new = sides
    core = B.shared_core(old, new, vocabulary)
    mo = old.meaning("decision", name, core)
    mn = new.meaning("decision", name, core)
    facts = sorted(mo.facts | mn.facts)
    # Each side with its own constraints (``behaviour.spaces``) before the two are mixed: where these
    # clauses decide, a situation that the new side rules out (or that the old one did) is theirs.
    allowed, own_old, own_new = B.spaces(core, old, new, vocabulary, facts)
    mo, mn = B.allowed_only(mo, own_old, core), B.allowed_only(mn, own_new, core)
    found = (_sets(old, name, core), _sets(new, name, core))
    mine_old, mine_new = _decides(found[0], core, old_refs), _decides(found[1], core, new_refs)
    mine = (mine_old & ~_asked(found[1], core)) | (mine_new & ~_asked(found[0], core)) if only_unasked \
        else (mine_old | mine_new) & ~overridden_elsewhere(found, core, old_refs, new_refs)
    outcomes = {}
    for key in mo.outcomes.keys() | mn.outcomes.keys():
        outcomes[key] = (mn.outcomes.get(key, core.false) & mine) | (mo.outcomes.get(key, core.false) & ~mine)

    def explain(state: dict):
        a, ca = mo.explain(state)
        b, cb = mn.explain(state)
        return (b, cb) if old_refs.intersection(ca) or new_refs.intersection(cb) else (a, ca)

    here = B.Meaning(mo.facts | mn.facts, outcomes, explain)
    return B.compared("decision", name, mo, here, core, allowed, facts, old.own, new.own)
