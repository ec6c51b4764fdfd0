"""Join a layout's marked lines into entries, sections and blocks; report every line not placed.

The same for every layout. A block (paragraph, bullet, step or rule) runs on
over its wrapped lines: the next line continues it unless a blank line comes
between, or it is a bullet's or step's line that could not have been wrapped
(the line before it had room for its first word: see :func:`_wrapped`) and
does not start in lower case. Over
a page break (page furniture between blank lines) a block runs on when its
text does not yet end a sentence, or the next line starts in lower case.
Lines are joined with one space; a line ending in a hyphen that joins two
letters is joined without one ("multi-" + "brigade").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..diagnostics import Diagnostic, Location
from .layouts import Layout, Mark

#: A bullet's continuation line counts this many characters more than it holds: the marker's indent,
#: which the extraction dropped.
_INDENT = 5
#: A line followed by a word that would have fitted within this share of the widest line was not wrapped.
_ROOM = 0.9
_ENDS_SENTENCE = tuple(".!?:;”\"’)")


@dataclass(frozen=True)
class Printed:
    """A metadata line: its date (YYYY-MM-DD or None) and version label (or None), where it is."""

    date: str | None
    version: str | None
    text: str
    line: int


@dataclass(frozen=True)
class Block:
    """A passage that becomes one clause: its kind, text, printed number and first line."""

    kind: str  # paragraph | bullet | step | rule
    text: str
    number: str | None
    line: int
    col: int
    lines: tuple[int, ...]


@dataclass(frozen=True)
class Part:
    """A section of an entry: the text before any sub-heading (title None), or a sub-heading's."""

    kind: str
    title: str | None
    line: int
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Entry:
    name: str
    line: int
    col: int
    updated: Printed | None
    released: Printed | None
    parts: tuple[Part, ...]
    lines: tuple[int, int]  # the first and last line of the entry, for the tiling check

    @property
    def blocks(self) -> tuple[Block, ...]:
        return tuple(b for p in self.parts for b in p.blocks)


@dataclass(frozen=True)
class Document:
    entries: tuple[Entry, ...]
    chapters: tuple[str, ...]  # headings with no text of their own
    problems: tuple[Diagnostic, ...]
    marks: tuple[Mark, ...]


@dataclass
class _Open:
    kind: str
    number: str | None
    line: int
    col: int
    texts: list[str]
    lines: list[int]
    widths: list[int]  # each line's width as printed (with its marker's indent)

    def block(self) -> Block:
        return Block(self.kind, join(self.texts), self.number, self.line, self.col, tuple(self.lines))


@dataclass
class _Entry:
    name: str
    line: int
    col: int
    updated: Printed | None = None
    released: Printed | None = None
    parts: list[Part] = field(default_factory=list)
    part: tuple[str, str | None, int] | None = None  # the open section: kind, title, line
    blocks: list[Block] = field(default_factory=list)
    last: int = 0
    number: str | None = None  # a numbered section's printed number: one with nothing under it is reported


def join(texts: Sequence[str]) -> str:
    texts = [t for t in texts if t]  # a rule's number may stand alone on its line
    out = texts[0] if texts else ""
    for text in texts[1:]:
        if len(out) >= 2 and out.endswith("-") and out[-2].isalpha() and text[:1].isalpha() and text[:1].islower():
            out += text
        else:
            out += " " + text
    return out


def _wrapped(previous_width: int, next_text: str, widest: int) -> bool:
    """Whether a line of ``previous_width`` ended because ``next_text``'s first word did not fit."""
    word = next_text.split(" ", 1)[0]
    return previous_width + 1 + len(word) > widest * _ROOM


def assemble(lines: Sequence[str], marks: Sequence[Mark], layout: Layout, shown: str) -> Document:
    reading = _Assembler(lines, list(marks), layout, shown)  # a heading found to be text is marked again
    for i, mark in enumerate(reading.marks):
        reading.read(i, mark)
    reading.close_entry()
    return Document(tuple(reading.entries), tuple(reading.chapters), tuple(reading.problems), tuple(reading.marks))


class _Assembler:
    """``assemble``'s reading of the marks, in order: what it found so far, the entry and the block
    open, and what lies between the last content line and this one."""

    def __init__(self, lines: Sequence[str], marks: list[Mark], layout: Layout, shown: str) -> None:
        self.lines, self.marks, self.layout, self.shown = lines, marks, layout, shown
        self.problems: list[Diagnostic] = []
        self.entries: list[Entry] = []
        self.chapters: list[str] = []
        self.widest = _widest(lines, marks)
        self.entry: _Entry | None = None
        self.block: _Open | None = None
        self.gap_blank = self.gap_page = False  # what lies between the last content line and this one

    def unplaced(self, i: int, mark: Mark, why: str) -> None:
        self.problems.append(Diagnostic(Location(self.shown, i + 1, mark.col), f"line not placed: {why}",
                                        severity="warning", code="unplaced"))

    def close_block(self) -> None:
        if self.block is not None and self.entry is not None:
            self.entry.blocks.append(self.block.block())
        self.block = None

    def close_part(self) -> None:
        self.close_block()
        entry = self.entry
        if entry is not None and entry.part is not None:
            kind, title, line = entry.part
            if title is not None and not entry.blocks:
                _heading_as_text(entry, title, line, self.marks)
            else:
                entry.parts.append(Part(kind, title, line, tuple(entry.blocks)))
        if entry is not None:
            entry.part, entry.blocks = None, []

    def close_entry(self) -> None:
        self.close_part()
        entry = self.entry
        if entry is None:
            return
        if entry.parts or entry.updated or entry.released:
            self.entries.append(Entry(entry.name, entry.line, entry.col, entry.updated, entry.released,
                                      tuple(entry.parts), (entry.line, entry.last)))
        elif entry.number is not None:  # a numbered section is a term: one without rules is lost
            self.unplaced(entry.line - 1, self.marks[entry.line - 1], f"the heading '{entry.name}' has no rule under it")
        else:
            self.chapters.append(entry.name)
        self.entry = None

    def read(self, i: int, mark: Mark) -> None:
        """Line ``i`` (0-based) of the text, as its mark says."""
        if mark.kind == "blank":
            self.gap_blank = True
            return
        if mark.kind in ("front", "furniture"):
            self.gap_page = self.gap_page or mark.why == "page number"
            return
        if mark.warning:
            self.problems.append(Diagnostic(Location(self.shown, i + 1, mark.col), mark.warning, severity="warning",
                                            code="read-as-text"))
        if self.entry is not None and mark.kind not in ("entry", "chapter"):
            self.entry.last = i + 1
        self._place(i, mark, mark.kind)
        self.gap_blank = self.gap_page = False

    def _place(self, i: int, mark: Mark, kind: str) -> None:
        if kind in ("entry", "chapter"):
            self.close_entry()
            self.entry = _Entry(mark.text, i + 1, mark.col, number=mark.number) if kind == "entry" else None
            if kind == "chapter":
                self.chapters.append(mark.text)
        elif kind in ("updated", "released"):
            self._printed(i, mark, kind)
        elif kind == "section":
            if self.entry is None:
                self.unplaced(i, mark, f"the heading '{mark.text}' is outside any entry")
            else:
                self.close_part()
                self.entry.part = (self.layout.section_kind(mark.text), mark.text, i + 1)
        elif kind == "example" and self.block is not None:  # an example belongs to the rule it follows
            self.block.texts.append(mark.text)
            self.block.lines.append(i + 1)
            self.block.widths.append(len(self.lines[i].rstrip()))
        elif kind in ("bullet", "step", "rule", "example", "line", "text"):
            self._content(i, mark, kind)
        else:  # pragma: no cover - a layout's own mark
            self.unplaced(i, mark, mark.why or f"a line of kind '{kind}'")

    def _printed(self, i: int, mark: Mark, kind: str) -> None:
        """An "Updated:" or "Released:" line, which follows an entry's heading."""
        entry = self.entry
        if entry is None or entry.part is not None or getattr(entry, kind) is not None:
            self.unplaced(i, mark, f"a '{mark.text.split(':')[0]}' line that does not follow an entry's heading")
        else:
            setattr(entry, kind, Printed(mark.date, mark.version, mark.text, i + 1))

    def _content(self, i: int, mark: Mark, kind: str) -> None:
        """A line of an entry's text: a new block, or the next line of the block open."""
        entry = self.entry
        if entry is None:
            self.unplaced(i, mark, "text outside any entry")
            return
        if entry.part is None:
            entry.part = ("definition", None, i + 1)
        width = len(self.lines[i].rstrip())
        block = self.block
        if (kind == "text" and block is not None
                and _continues(block, mark, self.gap_blank, self.gap_page, self.widest[i], self.layout)):
            block.texts.append(mark.text)
            block.lines.append(i + 1)
            block.widths.append(width + (_INDENT if block.kind != "paragraph" else 0))
        else:
            self.close_block()
            self.block = _Open("paragraph" if kind in ("text", "line", "example") else kind, mark.number, i + 1,
                               mark.col, [mark.text], [i + 1], [width])


def _heading_as_text(entry: _Entry, title: str, line: int, marks: list[Mark]) -> None:
    """A sub-heading with nothing under it is a line of text ("See Poison and Disease" alone in its entry): a
    paragraph of the section before it (or of the entry's definition)."""
    col = marks[line - 1].col
    marks[line - 1] = Mark("text", title, col)
    block = Block("paragraph", title, None, line, col, (line,))
    if entry.parts:
        last = entry.parts[-1]
        entry.parts[-1] = Part(last.kind, last.title, last.line, last.blocks + (block,))
    else:
        entry.parts.append(Part("definition", None, line, (block,)))


def _continues(block: _Open, mark: Mark, gap_blank: bool, gap_page: bool, widest: int, layout: Layout) -> bool:
    if gap_page:  # a page break: the block runs on while its sentence does
        return mark.text[:1].islower() or not block.texts[-1].endswith(_ENDS_SENTENCE)
    if gap_blank:
        return False
    if block.kind not in layout.measured or mark.text[:1].islower() or mark.text[:1] == "(":
        return True  # no item starts in lower case, nor with a parenthesis
    return _wrapped(block.widths[-1], mark.text, widest)


def _widest(lines: Sequence[str], marks: Sequence[Mark]) -> list[int]:
    """For each line, the widest text line of its entry: the measure of a full line there."""
    out = [0] * len(marks)
    start = 0
    for end in [i for i, m in enumerate(marks) if m.kind in ("entry", "chapter")] + [len(marks)]:
        width = max((len(lines[i].rstrip()) for i in range(start, end)
                     if marks[i].kind in ("text", "bullet", "step", "rule", "example", "line")), default=0)
        for i in range(start, end):
            out[i] = width
        start = end
    return out
