"""Loading a checked rulebook for a command: the model, or a ``LoadError`` carrying every problem.

The library never exits: the command layer (``rulebook_compiler.commands.common.load_or_exit``)
turns a ``LoadError`` into the report and exit 1.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .diagnostics import Diagnostic
from .where import default_root, missing_default_rulebook

if TYPE_CHECKING:
    from .model import Rulebook


class LoadError(Exception):
    """The rulebook did not build: its problems, in the order the check gave them."""

    def __init__(self, problems: list[Diagnostic]):
        super().__init__(f"{len(problems)} problems")
        self.problems = problems


def load(root: Path | None, locked: bool = True) -> Rulebook:
    """The checked rulebook at ``root`` (None: ./rulebook, else the current folder); its lock's
    problems fail it too, unless ``locked`` is False (``build.check``)."""
    from .build import check

    missing = missing_default_rulebook() if root is None else None
    book, problems = (None, [missing]) if missing else check(root or default_root(), locked=locked)
    if book is None:
        raise LoadError(problems)
    return book
