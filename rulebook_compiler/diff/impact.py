"""Who uses a predicate or a decision: the clauses and terms a change reaches.

"healable is used by heal#targets-healable (rule for heal.may_target)". The
index is built once per edition, and only when some meaning changed; the index itself
(``rulebook_compiler.uses``) sits below the back ends, so that the cache can store it too.
"""

from __future__ import annotations

from functools import cached_property

from ..model import Edition
from ..uses import Use, refs, uses_index

__all__ = ["Use", "Uses", "refs", "uses_index"]  # Use, refs and uses_index live in rulebook_compiler.uses


class Uses:
    """The uses of predicates in one edition, and of decisions (by their rules)."""

    def __init__(self, edition: Edition | None = None, index: dict[str, list[Use]] | None = None):
        """From an edition (indexed when first asked), or from an index built before."""
        self.edition = edition
        if index is not None:
            self.__dict__["_index"] = index

    @cached_property
    def _index(self) -> dict[str, list[Use]]:
        assert self.edition is not None, "Uses made from an index has it already"
        return uses_index(self.edition.terms)

    @property
    def index(self) -> dict[str, list[Use]]:
        """Name -> its uses, in term order (what the cache stores)."""
        return self._index

    def of(self, name: str) -> list[Use]:
        """Direct uses of a predicate (or of a clause, for exceptions)."""
        return self._index.get(name, [])

    def dependents(self, names: set[tuple[str, str]]) -> set[tuple[str, str]]:
        """Every predicate and decision that depends on these, transitively."""
        seen = set(names)
        stack = [n for k, n in names if k == "predicate"]
        while stack:
            name = stack.pop()
            for use in self.of(name):
                if use.user not in seen:
                    seen.add(use.user)
                    if use.user[0] == "predicate":
                        stack.append(use.user[1])
        return seen
