"""Where a condition changes value when one of its nodes does: every node's Boolean difference, in one pass.

MC/DC asks, for each atomic condition, in which situations it alone decides
the answer; mutation asks where a condition with one node changed answers
otherwise. Asking each on a variant of the condition rebuilds the whole
condition per node: quadratic (a 400 KB condition of 30,000 atoms took hours).

A condition is a tree, so a change at one node reaches the root along one path
of ``all``/``any``/``not`` nodes, and only where the node's siblings let it
through. The Boolean difference of the root with respect to node p (the
situations where flipping p, and only p, flips the root) is therefore

    D(root) = true
    D(child i of not x) = D(x)
    D(child i of all x) = D(x) and every other child of x holds
    D(child i of any x) = D(x) and no other child of x holds

and "every other child" is the product of a prefix and a suffix of the
children, kept for each all/any node: one pass of O(nodes) BDD operations
gives every node's difference. A node changed from value N to N' changes the
root exactly where ``(N xor N') and D(p)``; negating an atom is the case
N' = not N, where it is ``D(p)``. Each node is one occurrence (predicates are
leaves here, or inlined before: the tree is not shared), which is what makes
the formula exact; tests/conformance/test_flips.py checks it against
variants and enumeration.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..conditions import All, Any_, Condition, Not
from ..symbolic import Core, Node
from .condpaths import Path


@dataclass(frozen=True)
class Change:
    """One node of a condition changed: ``drop`` operand ``arg`` (an index) of the all/any at ``path``,
    ``swap`` the all/any at ``path`` for the other, or ``replace`` the node at ``path`` by ``arg``."""

    path: Path
    kind: str  # drop | swap | replace
    arg: int | Condition | None = None  # drop: an index; replace: the new node


class Flips:
    """A condition's nodes, each with where it holds and the root's Boolean difference with respect to it.

    Predicate references are leaves (their definitions' diagrams, from
    ``memo``); pass an inlined condition to reach the facts inside them.
    """

    def __init__(self, core: Core, cond: Condition, predicates: Mapping[str, Condition],
                 memo: dict[str, Node] | None = None):
        self.core = core
        self.predicates = predicates
        self.memo = {} if memo is None else memo
        self.value: dict[Path, Node] = {}
        self.difference: dict[Path, Node] = {}
        self._nodes: dict[Path, Condition] = {}
        self._prefix: dict[Path, list[Node]] = {}  # all/any: the first k children combined, k = 0..n
        self._suffix: dict[Path, list[Node]] = {}  # all/any: the children from k on combined, k = 0..n
        self._values(cond, ())
        self._differences(cond, (), core.true)

    def _values(self, node: Condition, path: Path) -> Node:
        core = self.core
        self._nodes[path] = node
        if isinstance(node, Not):
            out = ~self._values(node.arg, path + (0,))
        elif isinstance(node, (All, Any_)):
            values = [self._values(a, path + (i,)) for i, a in enumerate(node.args)]
            conj = isinstance(node, All)
            unit = core.true if conj else core.false
            prefix, suffix = [unit], [unit]
            for v in values:
                prefix.append(prefix[-1] & v if conj else prefix[-1] | v)
            for v in reversed(values):
                suffix.append(v & suffix[-1] if conj else v | suffix[-1])
            suffix.reverse()
            self._prefix[path], self._suffix[path] = prefix, suffix
            out = prefix[-1]
        else:
            out = core.condition(node, self.predicates, self.memo)
        self.value[path] = out
        return out

    def _others(self, path: Path, i: int) -> Node:
        """The all/any at ``path`` without its operand i."""
        prefix, suffix = self._prefix[path], self._suffix[path]
        return prefix[i] & suffix[i + 1] if isinstance(self._nodes[path], All) else prefix[i] | suffix[i + 1]

    def _differences(self, node: Condition, path: Path, difference: Node) -> None:
        self.difference[path] = difference
        if isinstance(node, Not):
            self._differences(node.arg, path + (0,), difference)
        elif isinstance(node, (All, Any_)):
            conj = isinstance(node, All)
            for i, arg in enumerate(node.args):
                others = self._others(path, i)
                self._differences(arg, path + (i,), difference & (others if conj else ~others))

    def changed(self, change: Change) -> Node:
        """The situations where the condition with this one change differs from the condition."""
        path = change.path
        if change.kind == "drop":
            assert isinstance(change.arg, int)
            new = self._others(path, change.arg)
        elif change.kind == "swap":
            node = self._nodes[path]
            assert isinstance(node, (All, Any_))
            conj = not isinstance(node, All)
            new = self.core.true if conj else self.core.false
            for i in range(len(node.args)):
                child = self.value[path + (i,)]
                new = new & child if conj else new | child
        elif isinstance(change.arg, Not) and change.arg.arg == self._nodes[path]:
            return self.difference[path]  # negated: differs wherever the node decides
        else:
            assert change.arg is not None and not isinstance(change.arg, int)
            new = self.core.condition(change.arg, self.predicates, self.memo)
        return self.core.bdd.apply("xor", self.value[path], new) & self.difference[path]
