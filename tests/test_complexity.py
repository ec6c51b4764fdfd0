"""Cyclomatic complexity, as radon counts it, stays small (issue 22, the project's code style).

Two limits: no function (or method, or function nested in one) above ``DIFF_LIMIT`` in
``rulebook_compiler/diff/``, and none above ``PACKAGE_LIMIT`` anywhere in the package. A failure lists
each offender as ``path:line: name complexity N``, the form an editor jumps to.

``ALLOWED`` names functions allowed over their limit while a change splits them; it is empty
since the diff engine's redesign landed (it held the engine's, its levels' and its
classification's eleven). It is exact both ways: a function listed there that no longer exceeds
its limit (or no longer exists) fails too, so that the list only shrinks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from radon.complexity import cc_visit  # the test extra's: a missing radon fails, never skips

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "rulebook_compiler"
DIFF = PACKAGE / "diff"
DIFF_LIMIT = 15
PACKAGE_LIMIT = 25

#: (path, name) -> the complexity it had when listed, for the record; the integrator empties this
#: once rulebook_compiler/diff/engine.py, level.py and classify.py are split (issue 22).
ALLOWED: dict[tuple[str, str], int] = {}  # emptied when the engine's redesign landed (issue 22)


@dataclass(frozen=True)
class Measured:
    path: str  # relative to the repository, with forward slashes
    line: int
    name: str  # Class.method for a method, outer.inner for a nested function
    complexity: int

    @property
    def limit(self) -> int:
        return DIFF_LIMIT if self.path.startswith("rulebook_compiler/diff/") else PACKAGE_LIMIT

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.name} complexity {self.complexity}"


def _blocks(block, prefix: str = "") -> Iterator[tuple[str, object]]:
    """Every function of a radon block (a function or a class), nested ones and methods included."""
    name = f"{prefix}{block.name}"
    if hasattr(block, "methods"):  # a class
        for method in block.methods:
            yield from _blocks(method, f"{name}.")
        for inner in block.inner_classes:
            yield from _blocks(inner, f"{name}.")
        return
    yield name, block
    for closure in block.closures:
        yield from _blocks(closure, f"{name}.")


def measured() -> list[Measured]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        out += sorted((Measured(rel, b.lineno, name, b.complexity) for name, b in _walk(path.read_text(encoding="utf-8"))),
                      key=lambda m: (m.line, m.name))
    return out


def _walk(source: str) -> Iterator[tuple[str, object]]:
    """radon lists each method twice, in its class and on its own: it is read once, in its class."""
    for block in cc_visit(source):
        if not getattr(block, "is_method", False):
            yield from _blocks(block)


def test_no_function_is_over_its_limit():
    over = [str(m) for m in measured() if m.complexity > m.limit and (m.path, m.name) not in ALLOWED]
    assert over == []


def test_every_allowed_function_is_still_over_its_limit():
    still = {(m.path, m.name) for m in measured() if m.complexity > m.limit}
    assert [f"{path}: {name} (listed at complexity {n})" for (path, name), n in ALLOWED.items()
            if (path, name) not in still] == []


def test_the_walk_reads_methods_nested_functions_and_the_limits_by_place():
    source = ("class A:\n"
              "    def m(self, x):\n"
              "        def inner(y):\n"
              "            return 1 if y else 2\n"
              "        return inner(x)\n"
              "def f():\n"
              "    pass\n")
    assert sorted((b.lineno, name, b.complexity) for name, b in _walk(source)) == [
        (2, "A.m", 1), (3, "A.m.inner", 2), (6, "f", 1)]
    assert str(Measured("rulebook_compiler/diff/x.py", 3, "A.m", 16)) == "rulebook_compiler/diff/x.py:3: A.m complexity 16"
    assert (Measured("rulebook_compiler/diff/x.py", 1, "f", 1).limit, Measured("rulebook_compiler/build.py", 1, "f", 1).limit) == (15, 25)
