"""A decision's change restricted to the situations where some clauses decide it (issue 11, point 1).

``compiler.diff.behaviour`` compares a whole decision. A clause is charged
only with the situations where its own rules stand (answer, not overridden)
on either side: there the new side's answers are taken, elsewhere the old
side's, and the two are compared as ``behaviour.compare`` compares any name.
"""

from __future__ import annotations

from ..decision_sets import DecisionSets
from ..model import Vocabulary
from ..symbolic import with_orders
from . import behaviour as B


class _Restricted:
    """A side whose meaning of one decision is given (what ``compare`` reads of a side)."""

    def __init__(self, side: B.Side, meaning):
        self.own = side.own
        self._meaning = meaning
        self._core = None

    def meaning(self, kind: str, name: str, core) -> object:
        return self._meaning


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
    found = _sets(side, name, core)
    if found is None:
        return core.false
    model, sets = found
    region = core.false
    for rule, standing in zip(model.rules, sets.standing):
        if rule.clause in refs:
            region |= standing
    # Only where the decision is asked: elsewhere no rule decides, whatever it would say.
    return region & sets.given if sets.given is not None else region


def asked(side: B.Side, name: str, core):
    """Where the side asks the decision (its ``given``; nowhere when it has no such decision)."""
    found = _sets(side, name, core)
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
    core = B._shared_core(old, new, vocabulary)
    mo = old.meaning("decision", name, core)
    mn = new.meaning("decision", name, core)
    mine_old, mine_new = decides(old, name, core, old_refs), decides(new, name, core, new_refs)
    mine = (mine_old & ~asked(new, name, core)) | (mine_new & ~asked(old, name, core)) if only_unasked \
        else mine_old | mine_new
    outcomes = {}
    for key in mo.outcomes.keys() | mn.outcomes.keys():
        outcomes[key] = (mn.outcomes.get(key, core.false) & mine) | (mo.outcomes.get(key, core.false) & ~mine)

    def explain(state: dict):
        a, ca = mo.explain(state)
        b, cb = mn.explain(state)
        return (b, cb) if old_refs.intersection(ca) or new_refs.intersection(cb) else (a, ca)

    here = B._Meaning(mo.facts | mn.facts, outcomes, explain)
    r_old, r_new = _Restricted(old, mo), _Restricted(new, here)
    r_old._core = (r_new, vocabulary, core)  # the same manager as the sides' (behaviour._shared_core)
    return B.compare("decision", name, r_old, r_new, vocabulary)
