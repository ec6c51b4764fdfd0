"""The layouts a document may be in: one small class per layout, all the rules that read one in one place.

A layout marks every line of the document with what it is (:class:`Mark`):
page furniture, an entry heading, a metadata line, a sub-heading, a bullet, a
numbered step or rule, or text. ``rulebook_compiler.importer.assemble`` then joins the
marks into entries, the same way for every layout.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

#: What a line can be.
KINDS = ("blank", "front", "furniture", "chapter", "entry", "updated", "released", "section",
         "bullet", "step", "rule", "example", "line", "text", "unplaced")


@dataclass(frozen=True)
class Mark:
    """What one line of the document is.

    ``text`` is the line's words without its marker (a bullet's glyph, a rule's
    number) and without trailing whitespace; ``col`` is the column where it
    starts. ``why`` names the artifact a furniture line is.
    """

    kind: str
    text: str = ""
    col: int = 1
    number: str | None = None  # a step's or a rule's printed number
    date: str | None = None  # metadata: YYYY-MM-DD
    version: str | None = None  # metadata: the version label without its "v"
    why: str = ""
    warning: str = ""  # what the reader should know about how the line was read (reported at it)


def blank(line: str) -> bool:
    return not line.strip()


def words_at(line: str, start: int = 0) -> Mark:
    """The text of ``line`` from ``start`` on, right-stripped, with its 1-based column."""
    rest = line[start:]
    stripped = rest.lstrip()
    return Mark("text", stripped.rstrip(), start + len(rest) - len(stripped) + 1)


_DATE = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")


def iso_date(printed: str) -> str | None:
    """'3/13/2026' -> '2026-03-13'; None for anything else."""
    match = _DATE.fullmatch(printed)
    if not match:
        return None
    month, day, year = (int(g) for g in match.groups())
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


class Layout:
    """The interface: a name, how to mark lines, and what a sub-heading's title makes of its section."""

    name = ""
    description = ""
    #: Sub-heading titles (lower case) that are the format's section kinds; others are 'named'.
    section_kinds: dict[str, str] = {}
    #: Whether a numbered block's number is printed text (kept in the clause's text) or data (``number``).
    number_in_text = True
    #: Blocks whose lines were wrapped to a measure: a next line continues one only if it could not have
    #: fitted on the line before (other blocks run on until a blank line).
    measured: tuple[str, ...] = ()

    def mark(self, lines: Sequence[str]) -> list[Mark]:  # pragma: no cover - each layout has its own
        raise NotImplementedError

    def no_entry(self, lines: Sequence[str]) -> tuple[int, int, str]:
        """Where to report, and the hint, when the layout finds no entry in a document."""
        return 1, 1, (f"an entry of this layout is {self.entry_looks}; is the document in another layout? "
                      f"(layouts: {', '.join(sorted(LAYOUTS))})")

    #: What an entry's heading looks like, for the hint of a document without any.
    entry_looks = "a heading"

    def section_kind(self, title: str) -> str:
        return self.section_kinds.get(title.strip().lower(), "named")

    def title(self, name: str) -> str:
        """The words of an entry's name that its id is made of (a printed number left out)."""
        return name


class RegLayout(Layout):
    """The Redemption Exegesis Guide as extracted from its PDF (REG 11.0.0).

    - Front matter (title page, table of contents) runs up to the first entry.
      The table of contents names the entries: a heading line with one of
      those names (or with the part of one before its parenthesis: "Give"
      for "Give (Take)") is an entry, as is a heading followed by a "Last
      Updated" line. In the glossary ("Glossary of Terms" to the end) every heading is
      an entry and a lone capital letter is the alphabet's furniture.
    - A heading stands alone between blank lines (or a metadata line), is at
      most 60 characters, does not end with punctuation and does not open
      with a quotation mark. Other headings are sub-headings: sections.
    - "Last Updated: 3/13/2026 (v11.0.0)" and "Released: 8/10/2015 (v3.0.0)"
      follow an entry's heading; the version may be missing, and a "Last
      Updated:" may print nothing at all.
    - Bullets start with "•" or "●"; numbered steps with "1." "1)" or "1" and
      two spaces, lettered items with "a)" or "a" and two spaces. A step keeps
      its number in its text ("1. Verify ..."), as earlier editions print it.
    - Page furniture: lines holding only a page number, and "Return to Table
      of Contents".
    """

    name = "reg"
    description = "the Redemption Exegesis Guide's PDF text: entries, Last Updated/Released, bullets, steps"
    section_kinds = {"how to play": "how-to-play", "special conditions": "special-conditions",
                     "clarifications": "clarifications", "default conditions": "default-conditions"}
    number_in_text = True
    measured = ("bullet", "step")

    _PAGE = re.compile(r"\s*\d{1,4}\s*")
    _BACK = "Return to Table of Contents"
    # Linear in the line's length: no two unbounded repeats that can match the same character one after
    # the other (the spaces before an optional version were two \s* in a row: quadratic, issue 23).
    # The date may be missing too: REG 11.0.0 prints "Last Updated: " with nothing after it (Banish).
    _UPDATED = re.compile(r"\s*Last Updated:\s*(?:(\S+)(?:\s+\(v([^)\s]+)\))?\s*)?")
    _RELEASED = re.compile(r"\s*Released:\s*(\S+)(?:\s+\(v([^)\s]+)\))?\s*")
    # "o" and two or more spaces: a second-level bullet as a word processor prints it (REG 11.0.0, Used By)
    _BULLET = re.compile(r"\s*(?:[•●▪◦]\s+|o\s{2,})")
    _STEP = re.compile(r"\s*(\d{1,2}(?:[.)]\s+|\s{2,})|[a-z](?:\)\s+|\s{2,}))(?=\S)")
    _CONTENTS = "Table of Contents"
    _GLOSSARY = "Glossary of Terms"
    _LETTER = re.compile(r"[A-Z]")
    _MAX_HEADING = 60

    def mark(self, lines: Sequence[str]) -> list[Mark]:
        names, toc_end = self._contents(lines)
        marks = [self._line(lines, i, names) for i in range(len(lines))]
        glossary = False
        for i, m in enumerate(marks):
            if m.kind == "chapter" and m.text == self._GLOSSARY and i >= toc_end:  # not the contents' own line
                glossary = True
            elif glossary and m.kind == "section":
                marks[i] = Mark("entry", m.text, m.col)
            elif glossary and m.kind == "furniture" and m.why == "letter":
                marks[i] = Mark("furniture", m.text, m.col, why="a letter heading of the glossary")
        first = next((i for i, m in enumerate(marks) if m.kind in ("entry", "chapter") and i >= toc_end), len(marks))
        for i in range(first):
            if marks[i].kind != "blank":
                marks[i] = Mark("front", lines[i].strip(), why="front matter: title page and table of contents")
        return marks

    entry_looks = "a heading named in the table of contents or followed by a 'Last Updated' line"

    def no_entry(self, lines: Sequence[str]) -> tuple[int, int, str]:
        """A table of contents that never closes makes the whole document contents: say so, at it."""
        start = next((i for i, line in enumerate(lines) if line.strip() == self._CONTENTS), None)
        if start is not None and not any(line.strip().startswith(self._GLOSSARY) for line in lines[start + 1:]):
            return start + 1, words_at(lines[start]).col, (
                f"its table of contents runs to a '{self._GLOSSARY}' line, which this document does not have: "
                f"every line after '{self._CONTENTS}' was read as contents")
        return super().no_entry(lines)

    def _contents(self, lines: Sequence[str]) -> tuple[frozenset[str], int]:
        """The entry names the table of contents lists, and the line after it."""
        start = next((i for i, line in enumerate(lines) if line.strip() == self._CONTENTS), None)
        if start is None:
            return frozenset(), 0
        names: set[str] = set()
        for i in range(start + 1, len(lines)):
            name = lines[i].strip()
            if name.startswith(self._GLOSSARY):
                return frozenset(names), i + 1
            if name:
                names.add(name)
                # "Give (Take)" in the contents, "Give" over the entry: the name before its parenthesis too
                # (a split, not a pattern: a backtracking match is quadratic, tests/importer/test_import_bounds.py)
                if name.endswith(")") and " (" in name:
                    names.add(name[:name.rindex(" (")].rstrip())
        return frozenset(names), len(lines)

    def _line(self, lines: Sequence[str], i: int, names: frozenset[str]) -> Mark:
        line = lines[i].replace("\f", " ")
        stripped = line.strip()
        if not stripped:
            return Mark("blank")
        if self._PAGE.fullmatch(line):
            return Mark("furniture", stripped, why="page number")
        if stripped == self._BACK:
            return Mark("furniture", stripped, why="link to the table of contents")
        for kind, pattern in (("updated", self._UPDATED), ("released", self._RELEASED)):
            match = pattern.fullmatch(line)
            if match:
                return Mark(kind, stripped, date=iso_date(match[1]) if match[1] else None, version=match[2])
        bullet = self._BULLET.match(line)
        if bullet:
            return _replace(words_at(line, bullet.end()), kind="bullet")
        step = self._STEP.match(line)
        if step:
            # the number stays in the text, its marker's spaces made one: "1.   Add" -> "1. Add"
            text = words_at(line, step.end())
            marker = line[:step.end()].strip()
            return Mark("step", f"{marker} {text.text}", line.index(marker[0]) + 1, number=marker.rstrip(".)"))
        if stripped == self._GLOSSARY:
            return Mark("chapter", stripped, words_at(line).col)
        if self._LETTER.fullmatch(stripped):
            return Mark("furniture", stripped, words_at(line).col, why="letter")
        if self._heading(lines, i, stripped):
            kind = "entry" if stripped in names or self._metadata_next(lines, i) else "section"
            return Mark(kind, stripped, words_at(line).col)
        return words_at(line)

    def _heading(self, lines: Sequence[str], i: int, stripped: str) -> bool:
        if len(stripped) > self._MAX_HEADING or stripped[-1] in ".,;:!?" or stripped[0] in "“\"‘'(":
            return False
        before = i == 0 or blank(lines[i - 1]) or self._PAGE.fullmatch(lines[i - 1]) is not None
        after = (i + 1 == len(lines) or blank(lines[i + 1]) or self._metadata_next(lines, i)
                 or self._PAGE.fullmatch(lines[i + 1]) is not None)
        return before and after

    def _metadata_next(self, lines: Sequence[str], i: int) -> bool:
        return i + 1 < len(lines) and self._UPDATED.fullmatch(lines[i + 1]) is not None


def _replace(mark: Mark, **changes) -> Mark:
    from dataclasses import replace

    return replace(mark, **changes)


class NumberedLayout(Layout):
    """Numbered rule documents with a glossary at the end, as comprehensive rules of card games are.

    - Front matter (title, introduction, contents) runs to the end of the
      contents, which close with "Credits"; from the body's "Credits" line to
      the end is back matter (furniture).
    - "1. Game Concepts" (one digit) is a chapter; "100. General" (three
      digits) a section of rules: an entry, whose name is printed with its
      number and whose id is a slug of its title.
    - "100.1." and "100.1a" start a rule; the number is the clause's
      ``number``, not its text. The text follows on the same line or the
      next ("901.4.All" too: no space after a number that ends with a dot);
      lines up to a blank line run on. An "Example:" line belongs to the rule
      before it, after a blank line too. A line that begins like a rule
      number but is not one ("901.5x1") is text, with a warning.
    - From the body's "Glossary" line on, a line after a blank line names an
      entry, and each line under it is a clause of its own.
    """

    name = "numbered"
    description = "numbered rule documents (rules like 100.1a, a glossary at the end)"
    number_in_text = False
    _CHAPTER = re.compile(r"(\d)\.\s+(\S.*)")
    _SECTION = re.compile(r"(\d{3})\.\s+(\S.*)")
    _RULE = re.compile(r"(\d{3}\.\d+[a-z]?\.?)(?:(?=\s|$)|(?<=\.)(?=[A-Z]))")
    _LIKE_RULE = re.compile(r"\d{3}\.\d\S*")
    _EXAMPLE = re.compile(r"Examples?:")
    entry_looks = "a numbered section heading like '100. General'"
    _CONTENTS, _GLOSSARY, _CREDITS = "Contents", "Glossary", "Credits"

    def mark(self, lines: Sequence[str]) -> list[Mark]:
        body = self._body(lines)
        marks: list[Mark] = []
        part = "front"
        for i, line in enumerate(lines):
            stripped = line.strip()
            if i < body:
                marks.append(Mark("blank") if not stripped else Mark("front", stripped, why="front matter"))
                continue
            if stripped == self._GLOSSARY and part == "rules":
                part = "glossary"
                marks.append(Mark("chapter", stripped, words_at(line).col))
                continue
            if stripped == self._CREDITS and part in ("rules", "glossary"):
                part = "back"
            if part == "front":
                part = "rules"
            if not stripped:
                marks.append(Mark("blank"))
            elif part == "back":
                marks.append(Mark("furniture", stripped, why="back matter: credits"))
            elif part == "glossary":
                new_entry = i == 0 or blank(lines[i - 1])
                marks.append(Mark("entry", stripped, words_at(line).col) if new_entry
                             else _replace(words_at(line), kind="line"))
            else:
                marks.append(self._rules_line(line, stripped))
        return marks

    def _body(self, lines: Sequence[str]) -> int:
        """The first line after the contents (0 when the document has none)."""
        start = next((i for i, line in enumerate(lines) if line.strip() == self._CONTENTS), None)
        if start is None:
            return 0
        end = next((i for i in range(start, len(lines)) if lines[i].strip() == self._CREDITS), None)
        return 0 if end is None else end + 1

    def _rules_line(self, line: str, stripped: str) -> Mark:
        rule = self._RULE.match(line.lstrip())
        if rule:
            start = len(line) - len(line.lstrip())
            text = words_at(line, start + rule.end())
            return Mark("rule", text.text, start + 1, number=rule[1])
        section = self._SECTION.fullmatch(stripped)
        if section:
            return Mark("entry", stripped, words_at(line).col, number=section[1])
        if self._CHAPTER.fullmatch(stripped):
            return Mark("chapter", stripped, words_at(line).col)
        if self._EXAMPLE.match(stripped):
            return _replace(words_at(line), kind="example")
        like = self._LIKE_RULE.match(stripped)
        if like:
            return _replace(words_at(line), warning=f"'{like[0]}' begins like a rule number but is not one "
                                                    "(like 100.1. or 100.1a): the line is read as text")
        return words_at(line)

    def title(self, name: str) -> str:
        """'100. General' -> 'General': what a section's id is made of."""
        section = self._SECTION.fullmatch(name)
        return section[2] if section else name


LAYOUTS: dict[str, Layout] = {layout.name: layout for layout in (RegLayout(), NumberedLayout())}
