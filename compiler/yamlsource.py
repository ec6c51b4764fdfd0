"""Safe YAML loading that keeps the line and column of every value.

The C parser (libyaml) composes the node tree when present; we construct plain
Python values from it ourselves, so that positions survive, duplicate keys and
custom tags are errors, scalars keep their text (dates stay strings), and an
alias bomb is stopped by a node budget instead of exhausting memory.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .diagnostics import Diagnostic, Location

try:  # libyaml's parser and composer; pure Python only where it is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the platform's PyYAML build
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_NODES = 1_000_000
MAX_STRING = 100_000
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")

Path_ = tuple  # a path into a document: keys and list indexes

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"


@dataclass
class Document:
    """One YAML file as plain values, with where each value and key stands."""

    path: str
    data: Any
    positions: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[Path_, tuple[int, int]] = field(default_factory=dict)

    def at(self, path: Path_ = ()) -> Location:
        """The location of the value at ``path``, or of its nearest parent."""
        while path not in self.positions and path:
            path = path[:-1]
        line, col = self.positions.get(path, (1, 1))
        return Location(self.path, line, col)

    def key_at(self, path: Path_) -> Location:
        """The location of the key whose value is at ``path``."""
        if path in self.key_positions:
            line, col = self.key_positions[path]
            return Location(self.path, line, col)
        return self.at(path)


class _Budget(Exception):
    pass


def load(path: Path | str, display: str | None = None) -> tuple[Document | None, list[Diagnostic]]:
    """Load one YAML file; on failure return no document and its problems."""
    path = Path(path)
    shown = display or str(path)
    try:
        size = os.path.getsize(path)
        if size > MAX_FILE_BYTES:
            return None, [Diagnostic(Location(shown, 1, 1),
                                     f"file is {size:,} bytes, over the limit of {MAX_FILE_BYTES:,} (16 MiB)",
                                     "split the term, or move long notes out of the rulebook")]
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Diagnostic(Location(shown), f"cannot read file: {exc.strerror}")]
    return parse(raw, shown)


def parse(raw: bytes, shown: str) -> tuple[Document | None, list[Diagnostic]]:
    """Parse YAML bytes into a positioned document."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, [Diagnostic(Location(shown, line, col),
                                 f"invalid UTF-8 byte 0x{raw[exc.start]:02x}",
                                 "save the file as UTF-8")]
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        return None, [_syntax_error(exc, shown, text)]
    except yaml.YAMLError as exc:  # pragma: no cover - unmarked errors are rare
        return None, [Diagnostic(Location(shown, 1, 1), f"invalid YAML: {exc}")]
    if node is None:
        return None, [Diagnostic(Location(shown, 1, 1), "file is empty",
                                 "a rulebook file holds a mapping of keys to values")]
    doc = Document(shown, None)
    problems: list[Diagnostic] = []
    builder = _Builder(doc, problems)
    try:
        doc.data = builder.value(node, ())
    except _Budget:
        return None, [_budget_error(doc, node)]
    return (None if problems else doc), problems


def _budget_error(doc: Document, root) -> Diagnostic:
    """Where an alias bomb went off: the top-level key whose value blew the budget."""
    top = [path for path in doc.key_positions if len(path) == 1]
    limit = f"more than {MAX_NODES:,} values through aliases"
    hint = ("an alias ('*name') repeats the value anchored as '&name'; "
            "aliases nested this deep are refused so that loading stays bounded")
    if top:
        return Diagnostic(doc.key_at(top[-1]), f"'{top[-1][0]}' expands to {limit}", hint)
    mark = root.start_mark
    return Diagnostic(Location(doc.path, mark.line + 1, mark.column + 1), f"the file expands to {limit}", hint)


# libyaml's contexts, said in words a rules committee uses
_CONTEXTS = {
    "while parsing a flow sequence": "the list that opens with '[' at {where}",
    "while parsing a flow mapping": "the mapping that opens with '{{' at {where}",
    "while parsing a block collection": "the list that starts at {where}",
    "while parsing a block mapping": "the mapping that starts at {where}",
    "while scanning a quoted scalar": "the quoted text that starts at {where}",
    "while parsing a quoted scalar": "the quoted text that starts at {where}",
}


def _syntax_error(exc: yaml.MarkedYAMLError, shown: str, text: str) -> Diagnostic:
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    problem = exc.problem or "invalid YAML"
    context = exc.context or ""
    cmark = exc.context_mark
    inside = ""
    if cmark is not None and context in _CONTEXTS:
        inside = _CONTEXTS[context].format(where=f"line {cmark.line + 1}, column {cmark.column + 1}")
    hint = None
    lines = text.splitlines()
    if "\t" in problem or "tab character" in problem or (
            0 < line <= len(lines) and "\t" in lines[line - 1][: max(col, 1)]):
        problem = "tab character where YAML allows only spaces"
        hint = "indent with spaces, not tabs"
    elif problem == "found unexpected end of stream" and "quoted scalar" in context and cmark is not None:
        # point at the opening quote: the end of the file is no help
        line, col = cmark.line + 1, cmark.column + 1
        quote = text.splitlines()[cmark.line][cmark.column] if cmark.line < len(lines) else '"'
        problem = "the quoted text that starts here is never closed"
        hint = f"end it with a matching quote ({quote})"
    elif problem.startswith("did not find expected ',' or") and inside:
        closer = problem[-2]
        kind = "list" if closer == "]" else "mapping"
        problem = f"expected ',' or '{closer}' in {inside}"
        hint = f"close the {kind} with '{closer}', and separate its items with ','"
    elif problem in ("did not find expected '-' indicator", "did not find expected key") and inside:
        item = "item" if "list" in inside else "key"
        problem = f"bad indentation: this is not a new {item} of {inside}"
        hint = "the items of a list, and the keys of a mapping, start in the same column"
    elif problem == "mapping values are not allowed in this context":
        problem = "':' cannot start a key here"
        hint = ("if the ':' is part of the text, put the whole text in quotes; "
                "otherwise check this line's indentation")
    elif problem == "but found another document":
        problem = "a second document ('---') in one file"
        hint = "a rulebook file holds one document; remove the '---' line or split the file"
    elif inside:
        problem = f"{problem} in {inside}"
    elif context:
        problem = f"{problem} ({context})"
    return Diagnostic(Location(shown, line, col), f"invalid YAML: {problem}", hint)


def _show_tag(tag: str) -> str:
    """A tag as it is written in the file: ``!!python/object``, not its full URI."""
    return "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag


_TAG_HINT = "rulebook files hold only text, numbers, true/false, lists and mappings; remove the tag"


class _Builder:
    def __init__(self, doc: Document, problems: list[Diagnostic]):
        self.doc = doc
        self.problems = problems
        self.nodes = 0

    def _loc(self, node) -> Location:
        return Location(self.doc.path, node.start_mark.line + 1, node.start_mark.column + 1)

    def _error(self, node, message: str, hint: str | None = None) -> None:
        self.problems.append(Diagnostic(self._loc(node), message, hint))

    def value(self, node, path: Path_) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _Budget
        self.doc.positions[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ:
                self._error(node, f"YAML tag '{_show_tag(node.tag)}' is not allowed", _TAG_HINT)
            return [self.value(item, path + (i,)) for i, item in enumerate(node.value)]
        return self._scalar(node)

    def _mapping(self, node, path: Path_) -> dict:
        if node.tag != _MAP:
            self._error(node, f"YAML tag '{_show_tag(node.tag)}' is not allowed", _TAG_HINT)
        result: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                self._error(key_node, "merge keys ('<<') are not allowed",
                            "write the keys out in full")
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                self._error(key_node, "a key must be a plain string")
                continue
            key = self._scalar(key_node)
            if not isinstance(key, str):
                key = str(key_node.value)
            if key in result:
                first = self.doc.key_positions[path + (key,)]
                self._error(key_node, f"duplicate key '{key}'",
                            f"first given at line {first[0]}")
                continue
            self.doc.key_positions[path + (key,)] = (key_node.start_mark.line + 1,
                                                     key_node.start_mark.column + 1)
            result[key] = self.value(value_node, path + (key,))
        return result

    def _scalar(self, node) -> Any:
        tag, text = node.tag, node.value
        if len(text) > MAX_STRING:
            self._error(node, f"text of {len(text):,} characters is longer than the limit of {MAX_STRING:,}",
                        "split it into several clauses")
            return ""
        if tag == _STR or tag == _TIMESTAMP:
            bad = _CONTROL.search(text)
            if bad:
                # rule text lands in terminals too: an escape sequence there would be code
                self._error(node, f"control character U+{ord(bad.group()):04X} is not allowed in text",
                            "remove it; rule text holds printable characters, tabs and line breaks only")
                return ""
            return text
        if tag == _NULL:
            return None
        if tag == _BOOL:
            return text.lower() in ("true", "yes", "on")
        if tag == _INT:
            try:
                return int(text.replace("_", ""), 0)
            except ValueError:
                return text
        if tag == _FLOAT:
            try:
                return float(text.replace("_", ""))
            except ValueError:
                return text
        self._error(node, f"YAML tag '{_show_tag(tag)}' is not allowed", _TAG_HINT)
        return text
