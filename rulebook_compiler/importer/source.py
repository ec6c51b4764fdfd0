"""Read the document to import: UTF-8 plain text, bounded in size, or a clean error."""

from __future__ import annotations

import os
from pathlib import Path

from ..diagnostics import Diagnostic, Location
from ..yamlsource import CONTROL_CHARACTERS  # what a term file may not hold: refused here, not after writing one

#: The largest document read; a publisher's guide extracted from its PDF is a few hundred KiB.
MAX_SOURCE_BYTES = 16 * 1024 * 1024


def read_lines(path: Path, shown: str | None = None) -> tuple[list[str] | None, list[Diagnostic]]:
    """The document's lines (line breaks removed, line 1 first), or None and the problems."""
    shown = shown or str(path)
    try:
        if os.path.isdir(path):
            return None, [Diagnostic(Location(shown), "is a folder, not a text file",
                                     "give the plain text extracted from the document, like guide.txt")]
        size = os.path.getsize(path)
        if size > MAX_SOURCE_BYTES:
            return None, [Diagnostic(Location(shown, 1, 1),
                                     f"file is {size:,} bytes, over the limit of {MAX_SOURCE_BYTES:,}",
                                     "import the document in parts, or raise MAX_SOURCE_BYTES in "
                                     "rulebook_compiler/importer/source.py")]
        with open(path, "rb") as fh:
            raw = fh.read(MAX_SOURCE_BYTES + 1)
    except OSError as exc:
        return None, [Diagnostic(Location(shown), f"cannot read file: {exc.strerror or exc}")]
    return decode(raw, shown)


def decode(raw: bytes, shown: str) -> tuple[list[str] | None, list[Diagnostic]]:
    """Lines of UTF-8 text; a NUL byte (a binary file, such as the PDF itself) or invalid UTF-8 is an error."""
    nul = raw.find(b"\0")
    if nul >= 0:
        return None, [Diagnostic(_at(raw, nul, shown), "binary file (NUL byte): not plain text",
                                 "extract the document's text first, e.g. pdftotext -layout guide.pdf guide.txt")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [Diagnostic(_at(raw, exc.start, shown), f"invalid UTF-8 byte 0x{raw[exc.start]:02x}",
                                 "save the text as UTF-8")]
    text = text.removeprefix("\ufeff")
    # \r\n and \r are line breaks; a form feed (a page break of pdftotext) is a space in its line
    lines = text.replace("\r\n", "\n").replace("\r", "\n").replace("\f", " ").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    problems = [Diagnostic(Location(shown, n, bad.start() + 1),
                           f"control character U+{ord(bad.group()):04X} is not allowed in text",
                           "remove it; the term files hold printable characters, tabs and line breaks only")
                for n, line in enumerate(lines, 1) for bad in [CONTROL_CHARACTERS.search(line)] if bad]
    return (None, problems) if problems else (lines, [])


def _at(raw: bytes, offset: int, shown: str) -> Location:
    line = raw.count(b"\n", 0, offset) + 1
    return Location(shown, line, offset - (raw.rfind(b"\n", 0, offset) + 1) + 1)
