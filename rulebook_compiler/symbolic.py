"""The symbolic core: facts, conditions, rules and decisions as binary decision diagrams.

Every logic question the compiler asks -- conflict, empty, dead rule (``logic``),
how many situations changed answer (``diff``), which cases decide a condition
and which mutants differ (``conformance``) -- is a question about sets of
situations. A reduced ordered BDD (CUDD, through ``dd.cudd``) holds such a set
canonically, so satisfiability is a comparison with ``false``, equivalence is
``==``, and the number of situations is a walk over the diagram's nodes, all
without listing the situations one by one.

Why CUDD (bench/symbolic_candidates.py, figures in bench/README.md): on our
decisions it answered every question, counts included, in 8-360 ms up to 80
facts with 30 linked ones; python-sat was as fast at satisfiability but cannot
count, z3 was 2-4x slower and large, and pyeda blew up with constraints.

Encoding: a bool fact is one variable; an enum fact of k values is
``ceil(log2 k)`` variables holding the value's index, with the codes past k
ruled out by ``valid``. A situation is read back in the order the reference
evaluator lists situations (facts by name, values in vocabulary order, False
before True), so the first situation of a set is the one enumeration would
have met first: witnesses do not change with the method.
"""

from __future__ import annotations

import copy
import sys
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from .conditions import All, Any_, Cmp, Condition, Const, Not, Ref, admitted, order_holds
from .model import Answer

if TYPE_CHECKING:
    from .model import Vocabulary


def _cudd() -> Any:
    """The dd.cudd module, loaded on first use (only commands that reason about rules need it).

    dd imports networkx when it can, for drawing diagrams, which we never do: that
    import alone costs about 190 ms of start-up, so it is made to fail here.
    """
    if "dd.cudd" not in sys.modules and "networkx" not in sys.modules:
        sys.modules["networkx"] = None  # type: ignore[assignment]  # dd falls back without it
        try:
            import dd.cudd
        finally:
            del sys.modules["networkx"]
    import dd.cudd
    return dd.cudd


Node = Any  # a dd.cudd Function


class Core:
    """One BDD manager and the encoding of one domain of facts.

    ``domains`` maps each fact to its values (``(False, True)`` for a bool fact);
    ``orders`` gives the ordered facts' values in order (comparisons need it).
    Every fact is given its variables when the core is made (see ``__init__``).
    """

    def __init__(self, domains: Mapping[str, Sequence[Answer]], orders: Mapping[str, Sequence[str]] | None = None):
        self.bdd = _cudd().BDD()
        # Canonical diagrams do not depend on the variable order, but their size
        # does: with facts in name order a decision list of 40 exceptions over 60
        # facts grew to 535,802 nodes (11 s); CUDD's sifting keeps it near 100
        # (0.2 s). Sifting is deterministic, and every answer read back is
        # semantic (counts, first situations), so outputs do not depend on it.
        self.bdd.configure(reordering=True)
        self.domains = {f: tuple(d) for f, d in domains.items()}
        self.orders = dict(orders or {})
        self.true = self.bdd.true
        self.false = self.bdd.false
        self._bits: dict[str, tuple[str, ...]] = {}
        self._eq: dict[str, dict[Answer, Node]] = {}
        self._valid: dict[str, Node] = {}
        # Every variable is declared now, before any diagram is built: CUDD's group
        # sifting (automatic, or asked for) followed by a variable declared later
        # left the manager answering NULL to the next operation (dd 0.6.0; seen in
        # conformance generate, tests/test_symbolic.py shows the case).
        for fact in sorted(self.domains):
            self.bits(fact)

    # -- facts ----------------------------------------------------------------
    def bits(self, fact: str) -> tuple[str, ...]:
        """The variables that encode a fact (declared on first use)."""
        if fact not in self._bits:
            k = len(self.domains[fact])
            n = 1 if self._is_bool(fact) else max(1, (k - 1).bit_length())
            names = tuple(f"{fact}'{i}" for i in range(n))
            self.bdd.declare(*names)
            self._bits[fact] = names
            self._encode(fact, names)
        return self._bits[fact]

    def _is_bool(self, fact: str) -> bool:
        return self.domains[fact] == (False, True)

    def _encode(self, fact: str, names: tuple[str, ...]) -> None:
        variables = [self.bdd.var(n) for n in names]
        eq: dict[Answer, Node] = {}
        if self._is_bool(fact):
            eq[False], eq[True] = ~variables[0], variables[0]
        else:
            for index, value in enumerate(self.domains[fact]):
                code = self.true
                for b, var in enumerate(variables):  # most significant bit first
                    bit = index >> (len(variables) - 1 - b) & 1
                    code &= var if bit else ~var
                eq[value] = code
        self._eq[fact] = eq
        valid = self.false
        for code in eq.values():
            valid |= code
        self._valid[fact] = valid

    def eq(self, fact: str, value: Answer) -> Node:
        """The situations where the fact has this value (none for a value outside its domain)."""
        self.bits(fact)
        return self._eq[fact].get(value, self.false)

    def valid(self, facts: Iterable[str]) -> Node:
        """The encodings that stand for a value of each fact."""
        out = self.true
        for f in facts:
            self.bits(f)
            out &= self._valid[f]
        return out

    def variables(self, facts: Iterable[str]) -> list[str]:
        return [b for f in facts for b in self.bits(f)]

    def exists(self, facts: Iterable[str], u: Node) -> Node:
        names = self.variables(facts)
        return self.bdd.exist(names, u) if names else u

    # -- conditions -------------------------------------------------------------
    def condition(self, cond: Condition, predicates: Mapping[str, Condition],
                  memo: dict[str, Node] | None = None) -> Node:
        """The situations where a condition holds; predicates are inlined (``memo`` keeps them)."""
        memo = {} if memo is None else memo
        return self._build(cond, predicates, memo)

    def _build(self, node: Condition, predicates: Mapping[str, Condition], memo: dict[str, Node]) -> Node:
        if isinstance(node, Const):
            return self.true if node.value else self.false
        if isinstance(node, Ref):
            if node.name in predicates:
                if node.name not in memo:
                    memo[node.name] = self._build(predicates[node.name], predicates, memo)
                return memo[node.name]
            return self.eq(node.name, True)
        if isinstance(node, Not):
            return ~self._build(node.arg, predicates, memo)
        if isinstance(node, All):
            out = self.true
            for a in node.args:
                out &= self._build(a, predicates, memo)
            return out
        if isinstance(node, Any_):
            out = self.false
            for a in node.args:
                out |= self._build(a, predicates, memo)
            return out
        if isinstance(node, Cmp):
            return self._comparison(node)
        return self.one_of(node.fact, node.values)

    def one_of(self, fact: str, values: Iterable[Answer]) -> Node:
        out = self.false
        for v in values:
            out |= self.eq(fact, v)
        return out

    def _comparison(self, node: Cmp) -> Node:
        order = self.orders.get(node.fact)
        if order is None:
            raise ValueError(f"no order for fact '{node.fact}'; pass the vocabulary's orders")
        if not node.against_fact:
            # a bound outside the order (another edition's value) admits nothing, as the evaluator says
            return self.one_of(node.fact, admitted(tuple(order), node.op, node.bound)) if node.bound in order \
                else self.false
        out = self.false
        for i, a in enumerate(order):
            for j, b in enumerate(order):
                if order_holds(node.op, i, j):
                    out |= self.eq(node.fact, a) & self.eq(node.bound, b)
        return out

    # -- reading sets back ------------------------------------------------------
    def first_in(self, u: Node, facts: Sequence[str]) -> dict[str, Answer]:
        """``first`` of a region its caller knows is not empty."""
        found = self.first(u, facts)
        assert found is not None, "the first situation of an empty region"
        return found

    def first(self, u: Node, facts: Sequence[str]) -> dict[str, Answer] | None:
        """The first situation of ``u`` over ``facts`` in enumeration order, or None when empty.

        Facts are fixed one at a time, by name, each to its first value that
        leaves some situation: the order in which enumeration would meet them.
        """
        if u == self.false:
            return None
        state: dict[str, Answer] = {}
        for f in sorted(facts):
            for value in self.domains[f]:
                narrowed = u & self.eq(f, value)
                if narrowed != self.false:
                    state[f] = value
                    u = narrowed
                    break
        return state

    def rank(self, state: Mapping[str, Answer]) -> tuple[int, ...]:
        """Where a situation comes in enumeration order (facts by name)."""
        return tuple(self.domains[f].index(state[f]) for f in sorted(state))

    def situation(self, state: Mapping[str, Answer]) -> Node:
        out = self.true
        for f, v in state.items():
            out &= self.eq(f, v)
        return out

    def count(self, u: Node, facts: Iterable[str]) -> int:
        """How many situations over ``facts`` are in ``u`` (exact; ``u`` must be within ``valid(facts)``).

        CUDD's own count is a float, exact only below 2**53; this walks the
        nodes once with Python integers. Complemented edges count as the rest.
        """
        names = self.variables(facts)
        level = self.bdd.level_of_var
        position = {lv: i for i, lv in enumerate(sorted(level(n) for n in names))}
        total = len(position)
        memo: dict[int, int] = {}

        def at(node: Node) -> int:
            return total if node in (self.true, self.false) else position[node.level]

        def below(node: Node) -> int:  # satisfying assignments of the variables from node's position on
            if node == self.true:
                return 1
            if node == self.false:
                return 0
            key = int(node)
            if key not in memo:
                if node.negated:
                    memo[key] = (1 << (total - at(node))) - below(~node)
                else:
                    p = at(node)
                    lo, hi = node.low, node.high
                    memo[key] = (below(lo) << (at(lo) - p - 1)) + (below(hi) << (at(hi) - p - 1))
            return memo[key]

        limit = sys.getrecursionlimit()
        if 2 * total + 50 > limit:  # one frame per variable, and one more per complemented edge
            sys.setrecursionlimit(2 * total + 50)
        return below(u) << at(u)

    def situations(self, u: Node, facts: Sequence[str], limit: int) -> list[dict[str, Answer]]:
        """Up to ``limit`` situations of ``u``, in enumeration order."""
        found: list[dict[str, Answer]] = []
        while len(found) < limit:
            state = self.first(u, facts)
            if state is None:
                break
            found.append(state)
            u &= ~self.situation(state)
        return found


def vocabulary_core(vocabulary: "Vocabulary", orders: Mapping[str, Sequence[str]] | None = None) -> Core:
    """A core over a vocabulary's facts (``orders`` defaults to the vocabulary's own)."""
    return Core({f.name: f.domain for f in vocabulary.facts}, vocabulary.orders if orders is None else orders)


def with_orders(core: Core, orders: Mapping[str, Sequence[str]]) -> Core:
    """The same manager and encoding, comparing ordered facts in another order.

    The diff reads each edition's comparisons in that edition's own order over
    the two vocabularies joined: both sides' sets must live in one manager to be
    compared, so the view shares everything but ``orders`` (facts declared
    through either are declared for both).
    """
    view = copy.copy(core)
    view.orders = dict(orders)
    return view
