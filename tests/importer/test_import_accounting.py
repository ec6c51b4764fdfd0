"""Every line of any document is accounted for: placed in an entry, removed as a documented artifact, or
reported as not placed at its line. Never a traceback, whatever the lines."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from rulebook_compiler.importer.assemble import assemble
from rulebook_compiler.importer.layouts import LAYOUTS

# Lines of both layouts' kinds, and lines of neither, in any order.
_LINES = st.sampled_from([
    "", " ", "12 ", "Return to Table of Contents ", "Table of Contents ", "Heal ", "Glossary of Terms ", "A ",
    "Last Updated: 3/13/2026 (v11.0.0) ", "Released: 7/26/2011", "Released: 13/45/2011 (v1.0.0)",
    "How to Play ", "●    A heal effect removes poison. ", "•    Hero wins ", "1. Verify the status of the battle. ",
    "2)  then each player can play a Dominant, ", "A heal ability can be used to remove the effects of poison.",
    "a line that starts in lower case and runs on", "Contents", "Credits", "Glossary", "1. Game Concepts",
    "100. General", "100.1.", "100.1a A two-player game is a game that begins with only two players.",
    "Example: a line of an example.", "“A quotation ends here.” – Isaiah 64:8", "multi-", "brigade card",
    "\f7", "\u200b", "x" * 300,
])


# Front matter that makes the lines after it entries of each layout: a table of contents naming "Heal".
_FRONT = st.sampled_from([
    [],
    ["Table of Contents ", "Heal ", "Glossary of Terms Jump to letter ", "", "Heal "],
    ["Contents", "", "1. Game Concepts", "100. General", "Glossary", "Credits", "", "100. General"],
])


@settings(max_examples=200, deadline=None)
@given(front=_FRONT, body=st.lists(st.tuples(_LINES, st.booleans()), max_size=40),
       layout=st.sampled_from(sorted(LAYOUTS)))
def test_every_line_is_placed_removed_or_reported(front, body, layout):
    lines = list(front)
    for line, blank_after in body:  # lines alone between blank lines (headings) as well as runs of lines
        lines += [line, ""] if blank_after else [line]
    chosen = LAYOUTS[layout]
    marks = chosen.mark(lines)
    doc = assemble(lines, marks, chosen, "doc.txt")
    placed = set()
    for entry in doc.entries:
        placed.add(entry.line)
        placed.update(p.line for p in (entry.updated, entry.released) if p is not None)
        for part in entry.parts:
            if part.title is not None:
                placed.add(part.line)
            for block in part.blocks:
                placed.update(block.lines)
    removed = {n for n, m in enumerate(marks, 1) if m.kind in ("blank", "front", "furniture", "chapter")}
    reported = {p.location.line for p in doc.problems if p.code == "unplaced"}
    headings = {n for n, m in enumerate(marks, 1) if m.kind == "entry" and lines[n - 1].strip() in doc.chapters}
    assert placed | removed | reported | headings == set(range(1, len(lines) + 1))
    assert not (placed & reported)
