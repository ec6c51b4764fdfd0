"""rulebook_compiler/build.py's observer: what a build tells whoever watches it (rulebook_compiler/recheck.py records
from it), through the public interface, without subclassing the builder."""

from __future__ import annotations

import ast
import os
from pathlib import Path

from rulebook_compiler.build import Builder

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PACKAGE = Path(__file__).resolve().parent.parent / "rulebook_compiler"


class Calls:
    """Each call as a line: the hook, the file or term, and how many problems the step added."""

    def __init__(self, root: Path):
        self.root = root
        self.builder = Builder(root, self)
        self.lines: list[str] = []

    def _added(self, before: int) -> int:
        return len(self.builder.problems) - before

    def loaded(self, path: Path, before: int) -> None:
        self.lines.append(f"loaded {path.relative_to(self.root).as_posix()} +{self._added(before)}")

    def reading_editions(self) -> None:
        self.lines.append("reading_editions")

    def term_file(self, doc, term_file, before: int) -> None:
        self.lines.append(f"term_file {term_file.edition}/{term_file.term.id} +{self._added(before)}")

    def names_checked(self, term, before: int) -> None:
        self.lines.append(f"names_checked {term.edition}/{term.id} +{self._added(before)}")

    def editions_resolved(self, editions: list) -> None:
        self.lines.append("editions_resolved " + " ".join(e.id for e in editions))


def test_a_build_tells_its_observer_each_step_in_order():
    calls = Calls(FIXTURES / "minimal")
    calls.builder.build()
    assert calls.lines == [
        "loaded rulebook.yaml +0", "loaded vocabulary.yaml +0", "reading_editions",
        "loaded editions/v1/cure.yaml +0", "term_file v1/cure +0",
        "loaded editions/v2/cure.yaml +0", "term_file v2/cure +0",
        "names_checked v1/cure +0", "names_checked v2/cure +0", "editions_resolved v1 v2"]


def test_no_module_subclasses_the_builder():
    """recheck records a build as a watcher (issue 22): the builder's private steps stay its own."""
    found = []
    for folder, _, names in os.walk(PACKAGE):
        for name in names:
            if name.endswith(".py"):
                path = Path(folder) / name
                for node in ast.walk(ast.parse(path.read_text())):
                    if isinstance(node, ast.ClassDef):
                        bases = [ast.unparse(b) for b in node.bases]
                        found += [f"{path.relative_to(PACKAGE)}: {node.name}({b})" for b in bases
                                  if b.split(".")[-1] == "Builder"]
    assert found == []
