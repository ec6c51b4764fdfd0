"""Safe YAML loading that keeps the line and column of every value.

The C parser (libyaml) reads the events when present; we build plain Python
values from them ourselves, on an explicit stack, so that positions survive,
duplicate keys and custom tags are errors, scalars keep their text (dates stay
strings), nesting is capped (MAX_DEPTH) before anything recurses, and an alias
bomb is stopped by a node budget, charged as it is built, instead of
exhausting memory. (libyaml's own composer recurses in C: 50,000 nested lists
crashed it.) Nothing downstream changes the values, so an alias shares them.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from dataclasses import dataclass, field
from typing import Any

import yaml
import yaml.composer
from yaml.resolver import Resolver

from .diagnostics import Diagnostic, Location

try:  # libyaml's parser and composer; pure Python only where it is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the platform's PyYAML build
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]  # the pure-Python class stands in

MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_NODES = 1_000_000
MAX_DEPTH = 100  # lists and mappings inside each other; conditions need far less
MAX_STRING = 100_000
CONTROL_CHARACTERS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def control_character(text: str) -> str | None:
    """The first character of ``text`` that a rulebook's YAML text may not hold, or None.

    For text a command writes into a source (a reason in the corrections log): the next
    check would refuse it.
    """
    bad = CONTROL_CHARACTERS.search(text)
    return bad.group() if bad else None

Path_ = tuple  # a path into a document: keys and list indexes

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_MERGE = "tag:yaml.org,2002:merge"
_RESOLVER = Resolver()  # YAML 1.1's implicit types, as PyYAML's safe loader resolves them
_RESOLVED: dict[tuple, str] = {}  # (a scalar's text, its implicit flags) -> the tag _RESOLVER gives it


class Document:
    """One YAML file as plain values, with where each value and key stands.

    Places are kept in a tree of (parent place, key) steps rather than one tuple
    per value, so that they take memory in proportion to the values, whatever
    the nesting.
    """

    def __init__(self, path: str, data: Any = None):
        self.path = path
        self.data = data
        self._steps: dict[tuple[int, Any], int] = {}  # (parent place, key) -> place
        self._value_at: list[tuple[int, int]] = []  # place -> (line, col) of its value
        self._key_at: dict[int, tuple[int, int]] = {}  # place -> (line, col) of its key

    def _place(self, parent: int | None, key: Any, mark) -> int:
        """A new place for a value that starts at ``mark`` (the root when parent is None)."""
        place = len(self._value_at)
        self._value_at.append((mark.line + 1, mark.column + 1))
        if parent is not None:
            self._steps[(parent, key)] = place
        return place

    def _find(self, path: Path_) -> tuple[int, bool]:
        """The place at ``path``, or its nearest known parent; whether it is exact."""
        place = 0
        for key in path:
            nxt = self._steps.get((place, key))
            if nxt is None:
                return place, False
            place = nxt
        return place, True

    def _loc(self, line_col: tuple[int, int]) -> Location:
        return Location(self.path, *line_col)

    def at(self, path: Path_ = ()) -> Location:
        """The location of the value at ``path``, or of its nearest parent."""
        if not self._value_at:
            return Location(self.path, 1, 1)
        place, _ = self._find(path)
        return self._loc(self._value_at[place])

    def key_at(self, path: Path_) -> Location:
        """The location of the key whose value is at ``path``."""
        place, exact = self._find(path)
        if exact and place in self._key_at:
            return self._loc(self._key_at[place])
        return self.at(path)

    def top_keys(self) -> list[str]:
        """The keys of the top-level mapping, in the order they were read."""
        return [key for (parent, key) in self._steps if parent == 0 and self._steps[(parent, key)] in self._key_at]


class _Budget(Exception):
    pass


class _TooDeep(Exception):
    def __init__(self, mark):
        self.mark = mark


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
    doc = Document(shown, None)
    problems: list[Diagnostic] = []
    builder = _Builder(doc, problems)
    try:
        found = builder.build(_Loader(text))
    except yaml.MarkedYAMLError as exc:
        return None, [_syntax_error(exc, shown, text)]
    except yaml.YAMLError as exc:  # pragma: no cover - unmarked errors are rare
        return None, [Diagnostic(Location(shown, 1, 1), f"invalid YAML: {exc}")]
    except _Budget:
        return None, [_budget_error(doc)]
    except _TooDeep as exc:
        return None, [_depth_error(Location(shown, exc.mark.line + 1, exc.mark.column + 1))]
    if not found:
        return None, [Diagnostic(Location(shown, 1, 1), "file is empty",
                                 "a rulebook file holds a mapping of keys to values")]
    return (None if problems else doc), problems


def _depth_error(loc: Location) -> Diagnostic:
    return Diagnostic(loc, f"lists and mappings nested more than {MAX_DEPTH} deep",
                      f"a rulebook file needs far less; the limit is MAX_DEPTH = {MAX_DEPTH} "
                      "in rulebook_compiler/yamlsource.py (docs/format.md, Limits)")


def _budget_error(doc: Document) -> Diagnostic:
    """Where an alias bomb went off: the top-level key whose value blew the budget."""
    top = [(key,) for key in doc.top_keys()]
    limit = f"more than {MAX_NODES:,} values through aliases"
    hint = ("an alias ('*name') repeats the value anchored as '&name'; "
            "aliases nested this deep are refused so that loading stays bounded")
    if top:
        return Diagnostic(doc.key_at(top[-1]), f"'{top[-1][0]}' expands to {limit}", hint)
    return Diagnostic(doc.at(), f"the file expands to {limit}", hint)


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
    if problem == "exceeded maximum nesting depth":
        # libyaml >= 0.2.6 (PyYAML 6.0.4's wheels) has a nesting limit of its own, which its
        # scanner can reach before our cap sees the level past MAX_DEPTH: one limit, one message.
        return _depth_error(Location(shown, line, col))
    context = exc.context or ""
    cmark = exc.context_mark
    inside = ""
    if cmark is not None and context in _CONTEXTS:
        inside = _CONTEXTS[context].format(where=f"line {cmark.line + 1}, column {cmark.column + 1}")
    lines = text.splitlines()
    if "\t" in problem or "tab character" in problem or (
            0 < line <= len(lines) and "\t" in lines[line - 1][: max(col, 1)]):
        return Diagnostic(Location(shown, line, col), "invalid YAML: tab character where YAML allows only spaces",
                          "indent with spaces, not tabs")
    if problem == "found unexpected end of stream" and "quoted scalar" in context and cmark is not None:
        # point at the opening quote: the end of the file is no help
        quote = lines[cmark.line][cmark.column] if cmark.line < len(lines) else '"'
        return Diagnostic(Location(shown, cmark.line + 1, cmark.column + 1),
                          "invalid YAML: the quoted text that starts here is never closed",
                          f"end it with a matching quote ({quote})")
    problem, hint = _reworded(problem, inside, context)
    return Diagnostic(Location(shown, line, col), f"invalid YAML: {problem}", hint)


def _reworded(problem: str, inside: str, context: str) -> tuple[str, str | None]:
    """The parser's problem in a writer's words, with a hint where one fits; ``inside``: the list or
    mapping it is in ("the list that starts at line 3, column 5"), or ""."""
    if problem.startswith("did not find expected ',' or") and inside:
        closer = problem[-2]
        kind = "list" if closer == "]" else "mapping"
        return f"expected ',' or '{closer}' in {inside}", f"close the {kind} with '{closer}', and separate its items with ','"
    if problem in ("did not find expected '-' indicator", "did not find expected key") and inside:
        item = "item" if "list" in inside else "key"
        return (f"bad indentation: this is not a new {item} of {inside}",
                "the items of a list, and the keys of a mapping, start in the same column")
    if problem == "mapping values are not allowed in this context":
        return "':' cannot start a key here", ("if the ':' is part of the text, put the whole text in quotes; "
                                               "otherwise check this line's indentation")
    if problem == "but found another document":
        return ("a second document ('---') in one file",
                "a rulebook file holds one document; remove the '---' line or split the file")
    if inside:
        return f"{problem} in {inside}", None
    if context:
        return f"{problem} ({context})", None
    return problem, None


def _show_tag(tag: str) -> str:
    """A tag as it is written in the file: ``!!python/object``, not its full URI."""
    return "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag


_TAG_HINT = "rulebook files hold only text, numbers, true/false, lists and mappings; remove the tag"


_EXPECT_KEY = object()  # a mapping waits for a key
_DISCARD = object()  # the value after a refused key is built but not kept


@dataclass
class _Open:
    """A list or a mapping being built: the explicit stack replaces recursion."""

    value: Any  # list or dict
    place: int
    anchor: str | None
    start: int  # the node count when it opened: its size is the difference
    mark: Any  # where it opens
    height: int = 1  # levels of nesting from here down
    key: Any = _EXPECT_KEY  # mappings: the key whose value comes next
    key_mark: Any = None
    first_line: dict = field(default_factory=dict)  # mappings: key -> line it was first given


class _Builder:
    """Plain values from the parser's events, with an explicit stack.

    No recursion, so no nesting can exhaust the stack; nesting deeper than
    MAX_DEPTH is refused as it opens, before the parser reads further, so that
    no later walker of the values runs out of stack either. An alias reuses
    the value built for its anchor (values are never changed after loading)
    and is charged that value's size against the budget at once: an alias bomb
    is refused after work in proportion to the file, not to its expansion.
    """

    def __init__(self, doc: Document, problems: list[Diagnostic]):
        self.doc = doc
        self.problems = problems
        self.nodes = 0
        self.anchors: dict[str, tuple[Any, int, int]] = {}  # anchor -> (value, size, height)
        self.anchor_marks: dict[str, Any] = {}
        self.stack: list[_Open] = []

    def _error(self, mark, message: str, hint: str | None = None) -> None:
        self.problems.append(Diagnostic(Location(self.doc.path, mark.line + 1, mark.column + 1), message, hint))

    def _count(self, n: int) -> None:
        self.nodes += n
        if self.nodes > MAX_NODES:
            raise _Budget

    def build(self, loader) -> bool:
        """Build the document from the parser's events; False when the stream holds none."""
        try:
            return self._build(loader)
        finally:
            loader.dispose()

    def _build(self, loader) -> bool:
        documents = 0
        # the loader's own methods, not yaml.parse's generator: a third less time per event
        check, get = loader.check_event, loader.get_event
        while check():
            event = get()
            kind = type(event)
            if kind is yaml.ScalarEvent:
                self.nodes += 1  # _count(1) and _anchor, inline: this branch runs for every scalar
                if self.nodes > MAX_NODES:
                    raise _Budget
                node = yaml.ScalarNode(self._tag(event, yaml.ScalarNode), event.value, event.start_mark)
                if event.anchor is not None:
                    self._anchor(event.anchor, event.start_mark)
                # a merge key ('<<') is reported as such by _key, not also as a tag
                value = None if node.tag == _MERGE and self._expects_key() else self._scalar(node)
                if event.anchor:
                    self.anchors[event.anchor] = (value, 1, 0)
                self._add(value, 0, event.start_mark, scalar=node)
            elif kind is yaml.SequenceStartEvent or kind is yaml.MappingStartEvent:
                self._open(event, kind is yaml.MappingStartEvent)
            elif kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
                done = self.stack.pop()
                if done.anchor:
                    self.anchors[done.anchor] = (done.value, self.nodes - done.start, done.height)
                self._add(done.value, done.height, done.mark, placed=True)
            elif kind is yaml.AliasEvent:
                self._alias(event)
            elif kind is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise yaml.composer.ComposerError("expected a single document in the stream", None,
                                                      "but found another document", event.start_mark)
        return documents > 0

    def _tag(self, event, kind) -> str:
        tag = event.tag
        if tag is None or tag == "!":
            if kind is not yaml.ScalarNode:
                return _RESOLVER.resolve(kind, None, event.implicit)
            # The same short scalars (keys, names, values) recur in every file: resolving each by
            # PyYAML's regular expressions again was a twentieth of check's time (bench_check.py).
            key = (event.value, event.implicit)
            found = _RESOLVED.get(key)
            if found is None:
                found = _RESOLVER.resolve(kind, event.value, event.implicit)
                if len(event.value) <= 64 and len(_RESOLVED) < 100_000:
                    _RESOLVED[key] = found
            return found
        return tag

    def _anchor(self, anchor: str | None, mark) -> None:
        if anchor is None:
            return
        if anchor in self.anchor_marks:
            raise yaml.composer.ComposerError("found duplicate anchor; first occurrence",
                                              self.anchor_marks[anchor], "second occurrence", mark)
        self.anchor_marks[anchor] = mark

    def _place(self, mark):
        """The place of the next value in the innermost open collection (None: discarded)."""
        if not self.stack:
            return self.doc._place(None, None, mark)
        top = self.stack[-1]
        if isinstance(top.value, list):
            return self.doc._place(top.place, len(top.value), mark)
        if top.key is _EXPECT_KEY or top.key is _DISCARD:
            return None
        place = self.doc._place(top.place, top.key, mark)
        self.doc._key_at[place] = (top.key_mark.line + 1, top.key_mark.column + 1)
        return place

    def _add(self, value: Any, height: int, mark, scalar=None, placed: bool = False) -> None:
        """Put a finished value into the innermost open collection.

        ``placed``: a collection got its place when it opened (its items needed it).
        """
        if not self.stack:
            if not placed:
                self._place(mark)
            self.doc.data = value
            return
        top = self.stack[-1]
        if isinstance(top.value, list):
            if not placed:
                self._place(mark)
            top.value.append(value)
        elif top.key is _EXPECT_KEY:
            top.key, top.key_mark = self._key(scalar, value, mark, top), mark
        elif top.key is _DISCARD:
            top.key = _EXPECT_KEY
        else:
            if not placed:
                self._place(mark)
            top.value[top.key] = value
            top.key = _EXPECT_KEY
        if height >= top.height:
            top.height = height + 1

    def _expects_key(self) -> bool:
        return bool(self.stack) and isinstance(self.stack[-1].value, dict) and self.stack[-1].key is _EXPECT_KEY

    def _key(self, scalar, value: Any, mark, top: _Open) -> Any:
        """The key a mapping's next value goes under, or _DISCARD with the reason reported."""
        if scalar is None:
            self._error(mark, "a key must be a plain string")
            return _DISCARD
        if scalar.tag == _MERGE:
            self._error(mark, "merge keys ('<<') are not allowed", "write the keys out in full")
            return _DISCARD
        key = value if isinstance(value, str) else str(scalar.value)
        if key in top.first_line:
            self._error(mark, f"duplicate key '{key}'", f"first given at line {top.first_line[key]}")
            return _DISCARD
        top.first_line[key] = mark.line + 1
        return key

    def _open(self, event, mapping: bool) -> None:
        if len(self.stack) + 1 > MAX_DEPTH:
            raise _TooDeep(event.start_mark)
        self._count(1)
        self._anchor(event.anchor, event.start_mark)
        tag = self._tag(event, yaml.MappingNode if mapping else yaml.SequenceNode)
        if tag != (_MAP if mapping else _SEQ):
            self._error(event.start_mark, f"YAML tag '{_show_tag(tag)}' is not allowed", _TAG_HINT)
        place = self._place(event.start_mark)
        if place is None:  # a key, or the value of a refused key: nowhere in the document
            place = self.doc._place(-1, len(self.doc._value_at), event.start_mark)
        self.stack.append(_Open({} if mapping else [], place, event.anchor, self.nodes - 1, event.start_mark))

    def _alias(self, event) -> None:
        if event.anchor not in self.anchors:
            if event.anchor in self.anchor_marks:
                self._error(event.start_mark, f"alias '*{event.anchor}' inside the value it repeats",
                            "an alias cannot repeat a value that contains it")
                self._add(None, 0, event.start_mark)
                return
            raise yaml.composer.ComposerError(None, None, "found undefined alias", event.start_mark)
        value, size, height = self.anchors[event.anchor]
        if len(self.stack) + height > MAX_DEPTH:
            raise _TooDeep(event.start_mark)
        self._count(size)
        self._add(value, height, event.start_mark)

    def _scalar(self, node) -> Any:
        tag, text = node.tag, node.value
        if len(text) > MAX_STRING:
            self._error(node.start_mark, f"text of {len(text):,} characters is longer than the limit of {MAX_STRING:,}",
                        "split it into several clauses")
            return ""
        if tag == _STR or tag == _TIMESTAMP:
            bad = CONTROL_CHARACTERS.search(text)
            if bad:
                # rule text lands in terminals too: an escape sequence there would be code
                self._error(node.start_mark, f"control character U+{ord(bad.group()):04X} is not allowed in text",
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
        self._error(node.start_mark, f"YAML tag '{_show_tag(tag)}' is not allowed", _TAG_HINT)
        return text
