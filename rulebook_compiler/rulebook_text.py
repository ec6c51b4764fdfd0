"""Edits of ``rulebook.yaml``'s text that keep every other byte: comments, quoting, order.

``rulebook publish`` sets a draft's ``status`` here instead of asking the editor to do it
by hand. The edit is made on the text, at the place the YAML loader reports for the value,
and is proved before it is returned: the edited text must read back as the old one with
that one value changed. Anything else (an anchor, a value on several lines) is refused
with the hand edit as the hint, never written half-right.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml

from .diagnostics import Diagnostic, Location
from .yamlsource import Document

# The scalar that starts where the loader says the value does: plain, or quoted either way.
_SCALAR = re.compile(r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*'|[A-Za-z_][A-Za-z0-9_-]*)""")


@dataclass(frozen=True)
class TextEdit:
    """The new text, or the problem that stopped the edit."""

    text: str | None
    problem: Diagnostic | None


def set_edition_status(doc: Document, text: str, edition_id: str, status: str) -> TextEdit:
    """``text`` (the file ``doc`` was read from) with edition ``edition_id``'s status set to ``status``."""
    index = _edition_index(doc.data, edition_id)
    if index is None:
        return TextEdit(None, Diagnostic(doc.at(("editions",)), f"rulebook.yaml declares no edition '{edition_id}'"))
    entry = doc.data["editions"][index]
    hint = f"set its 'status: {status}' in rulebook.yaml by hand, then run this again"
    if "status" not in entry:
        return TextEdit(None, Diagnostic(doc.at(("editions", index)), f"edition '{edition_id}' has no 'status' to set", hint))
    edited = _replace_scalar(text, doc.at(("editions", index, "status")), status)
    before = _reads_as(text)
    if edited is None or not isinstance(before, dict) or _reads_as(edited) != _with_status(before, index, status):
        return TextEdit(None, Diagnostic(doc.at(("editions", index, "status")),
                                         f"cannot set the status of edition '{edition_id}' in place", hint))
    return TextEdit(edited, None)


def _edition_index(data: Any, edition_id: str) -> int | None:
    editions = data.get("editions") if isinstance(data, dict) else None
    if not isinstance(editions, list):
        return None
    return next((i for i, e in enumerate(editions) if isinstance(e, dict) and str(e.get("id")) == edition_id), None)


def _replace_scalar(text: str, at: Location, value: str) -> str | None:
    """``text`` with the one-line scalar at ``at`` replaced by ``value``, or None if none is there."""
    lines = text.splitlines(keepends=True)
    if not 1 <= at.line <= len(lines):
        return None
    line = lines[at.line - 1]
    start = at.col - 1
    found = _SCALAR.match(line, start)
    if found is None:
        return None
    lines[at.line - 1] = line[:start] + value + line[found.end():]
    return "".join(lines)


def _with_status(data: dict, index: int, status: str) -> dict:
    editions = list(data["editions"])
    editions[index] = {**editions[index], "status": status}
    return {**data, "editions": editions}


def _reads_as(text: str) -> Any:
    # BaseLoader: every scalar as its text, as the project's loader reads them (dates stay strings)
    try:
        return yaml.load(text, Loader=yaml.BaseLoader)
    except yaml.YAMLError:
        return None
