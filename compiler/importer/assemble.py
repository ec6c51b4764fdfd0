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
    marks = list(marks)  # a heading found to be text is marked again (see _heading_as_text)
    problems: list[Diagnostic] = []
    entries: list[Entry] = []
    chapters: list[str] = []
    widest = _widest(lines, marks)
    entry: _Entry | None = None
    block: _Open | None = None
    gap_blank = gap_page = False  # what lies between the last content line and this one

    def unplaced(i: int, mark: Mark, why: str) -> None:
        problems.append(Diagnostic(Location(shown, i + 1, mark.col), f"line not placed: {why}",
                                   severity="warning", code="unplaced"))

    def close_block() -> None:
        nonlocal block
        if block is not None and entry is not None:
            entry.blocks.append(block.block())
        block = None

    def close_part() -> None:
        close_block()
        if entry is not None and entry.part is not None:
            kind, title, line = entry.part
            if title is not None and not entry.blocks:
                _heading_as_text(entry, title, line, marks)
            else:
                entry.parts.append(Part(kind, title, line, tuple(entry.blocks)))
        if entry is not None:
            entry.part, entry.blocks = None, []

    def close_entry() -> None:
        nonlocal entry
        close_part()
        if entry is None:
            return
        if entry.parts or entry.updated or entry.released:
            entries.append(Entry(entry.name, entry.line, entry.col, entry.updated, entry.released,
                                 tuple(entry.parts), (entry.line, entry.last)))
        elif entry.number is not None:  # a numbered section is a term: one without rules is lost
            unplaced(entry.line - 1, marks[entry.line - 1], f"the heading '{entry.name}' has no rule under it")
        else:
            chapters.append(entry.name)
        entry = None

    for i, mark in enumerate(marks):
        if mark.kind == "blank":
            gap_blank = True
            continue
        if mark.kind in ("front", "furniture"):
            gap_page = gap_page or mark.why == "page number"
            continue
        kind = mark.kind
        if mark.warning:
            problems.append(Diagnostic(Location(shown, i + 1, mark.col), mark.warning, severity="warning",
                                       code="read-as-text"))
        if entry is not None and kind not in ("entry", "chapter"):
            entry.last = i + 1
        if kind in ("entry", "chapter"):
            close_entry()
            entry = _Entry(mark.text, i + 1, mark.col, number=mark.number) if kind == "entry" else None
            if kind == "chapter":
                chapters.append(mark.text)
        elif kind in ("updated", "released"):
            if entry is None or entry.part is not None or getattr(entry, kind) is not None:
                unplaced(i, mark, f"a '{mark.text.split(':')[0]}' line that does not follow an entry's heading")
            else:
                setattr(entry, kind, Printed(mark.date, mark.version, mark.text, i + 1))
        elif kind == "section":
            if entry is None:
                unplaced(i, mark, f"the heading '{mark.text}' is outside any entry")
            else:
                close_part()
                entry.part = (layout.section_kind(mark.text), mark.text, i + 1)
        elif kind == "example" and block is not None:  # an example belongs to the rule it follows
            block.texts.append(mark.text)
            block.lines.append(i + 1)
            block.widths.append(len(lines[i].rstrip()))
        elif kind in ("bullet", "step", "rule", "example", "line", "text"):
            if entry is None:
                unplaced(i, mark, "text outside any entry")
            else:
                if entry.part is None:
                    entry.part = ("definition", None, i + 1)
                width = len(lines[i].rstrip())
                if (kind == "text" and block is not None
                        and _continues(block, mark, gap_blank, gap_page, widest[i], layout)):
                    block.texts.append(mark.text)
                    block.lines.append(i + 1)
                    block.widths.append(width + (_INDENT if block.kind != "paragraph" else 0))
                else:
                    close_block()
                    block = _Open("paragraph" if kind in ("text", "line", "example") else kind, mark.number, i + 1,
                                  mark.col,
                                  [mark.text], [i + 1], [width])
        else:  # pragma: no cover - a layout's own mark
            unplaced(i, mark, mark.why or f"a line of kind '{kind}'")
        gap_blank = gap_page = False
    close_entry()
    return Document(tuple(entries), tuple(chapters), tuple(problems), tuple(marks))


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
