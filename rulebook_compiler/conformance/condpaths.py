"""Addressing the nodes of a condition, and the transformations mutation and coverage need."""

from __future__ import annotations

from typing import Iterator, Mapping

from ..conditions import All, Any_, Cmp, Condition, Const, In, Not, Ref

Path = tuple[int, ...]


def inline(cond: Condition, predicates: Mapping[str, Condition]) -> Condition:
    """The condition with every predicate replaced by its definition (predicates are acyclic)."""
    if isinstance(cond, Ref) and cond.name in predicates:
        return inline(predicates[cond.name], predicates)
    if isinstance(cond, Not):
        return Not(inline(cond.arg, predicates))
    if isinstance(cond, (All, Any_)):
        return type(cond)(tuple(inline(a, predicates) for a in cond.args))
    return cond


def nodes(cond: Condition, path: Path = ()) -> Iterator[tuple[Path, Condition]]:
    """Every node with its path (argument indexes from the root), outermost first."""
    yield path, cond
    if isinstance(cond, Not):
        yield from nodes(cond.arg, path + (0,))
    elif isinstance(cond, (All, Any_)):
        for i, arg in enumerate(cond.args):
            yield from nodes(arg, path + (i,))


def atoms(cond: Condition, predicates: Mapping[str, Condition]) -> Iterator[tuple[Path, Condition]]:
    """The leaves that test facts or constants (predicate references are leaves here too)."""
    for path, node in nodes(cond):
        if isinstance(node, (Ref, In, Const, Cmp)):
            yield path, node


def replace(cond: Condition, path: Path, new: Condition | None) -> Condition:
    """The condition with the node at ``path`` replaced, or dropped from its all/any when ``new`` is None."""
    if not path:
        if new is None:
            raise ValueError("cannot drop the root of a condition")
        return new
    head, rest = path[0], path[1:]
    if isinstance(cond, Not):
        return Not(replace(cond.arg, rest, new))
    if isinstance(cond, (All, Any_)):
        args = list(cond.args)
        if not rest and new is None:
            del args[head]
        else:
            args[head] = replace(args[head], rest, new)
        return type(cond)(tuple(args))
    raise ValueError(f"no node at {path}")
