"""Word-level redlines of rule text, cleaned up to boundaries people read.

``redline(old, new)`` gives runs of ``equal``, ``delete`` and ``insert`` text
such that the equal and deleted runs spell the old text exactly and the equal
and inserted runs spell the new text exactly.

The text is cut into words (``end-of-battle`` and ``character’s`` stay whole),
runs of whitespace and single punctuation marks, and the token sequences are
compared. Short coincidental equalities inside a change ("the", a comma) are
then folded into the change, as diff-match-patch's semantic cleanup does, so
a reader sees "~~was discarded earlier~~ **is being discarded**" rather than
character soup.

Time is bounded: common prefix and suffix are trimmed first (linear), and the
middle is compared word by word only while the product of the two token counts
stays under a budget. Beyond it the middle is compared sentence by sentence,
and beyond that it is shown as one replacement; ``Redline.coarse`` then says
which fallback was taken so that the outputs can say so.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from ..words import tokens, words  # what a word is (rulebook_compiler.words), shared with the core

EQUAL, DELETE, INSERT = "equal", "delete", "insert"

# Words keep inner apostrophes and hyphens; every other mark is its own token.
_SENTENCE = re.compile(r"[^.!?\n]*(?:[.!?]+[\"'”’)]*\s*|\n\s*|$)")

#: Largest product of old and new token counts compared word by word.
WORD_BUDGET = 4_000_000
#: Largest product of sentence counts compared sentence by sentence.
SENTENCE_BUDGET = 4_000_000


@dataclass(frozen=True)
class Op:
    """One run of a redline: ``op`` is equal, delete or insert."""

    op: str
    text: str

    def as_json(self) -> dict:
        return {"op": self.op, "text": self.text}


@dataclass(frozen=True)
class Redline:
    """The runs, and ``coarse``: None, or why a coarser comparison was used."""

    ops: tuple[Op, ...]
    coarse: str | None = None

    @property
    def old(self) -> str:
        return "".join(o.text for o in self.ops if o.op != INSERT)

    @property
    def new(self) -> str:
        return "".join(o.text for o in self.ops if o.op != DELETE)

    @property
    def changed(self) -> bool:
        return any(o.op != EQUAL for o in self.ops)

    def deleted_words(self) -> list[str]:
        return [w for o in self.ops if o.op == DELETE for w in words(o.text)]

    def inserted_words(self) -> list[str]:
        return [w for o in self.ops if o.op == INSERT for w in words(o.text)]

    def as_json(self) -> list[dict]:
        return [o.as_json() for o in self.ops]


def sentences(text: str) -> list[str]:
    """Sentences with their trailing space and newlines; they join back to ``text``."""
    parts = [s for s in _SENTENCE.findall(text) if s]
    return parts


def redline(old: str, new: str, word_budget: int = WORD_BUDGET,
            sentence_budget: int = SENTENCE_BUDGET) -> Redline:
    """The word-level redline from ``old`` to ``new`` (see the module docstring)."""
    if old == new:
        return Redline((Op(EQUAL, old),) if old else ())
    a, b = tokens(old), tokens(new)
    head = _common_prefix(a, b)
    tail = _common_suffix(a[head:], b[head:])
    mid_a, mid_b = a[head:len(a) - tail], b[head:len(b) - tail]
    ops: list[Op] = []
    if head:
        ops.append(Op(EQUAL, "".join(a[:head])))
    coarse = None
    if len(mid_a) * len(mid_b) <= word_budget:
        ops.extend(_cleanup(_diff(mid_a, mid_b)))
    else:
        middle_old, middle_new = "".join(mid_a), "".join(mid_b)
        sa, sb = sentences(middle_old), sentences(middle_new)
        if len(sa) * len(sb) <= sentence_budget:
            coarse = ("text too long for a word-level comparison "
                      f"({len(mid_a)} x {len(mid_b)} tokens); compared sentence by sentence")
            ops.extend(_diff(sa, sb))
        else:
            coarse = ("text too long for a word- or sentence-level comparison "
                      f"({len(sa)} x {len(sb)} sentences); shown as one replacement")
            ops.extend([Op(DELETE, middle_old), Op(INSERT, middle_new)])
    if tail:
        ops.append(Op(EQUAL, "".join(a[len(a) - tail:])))
    return Redline(_merge(ops), coarse)


def _common_prefix(a: list[str], b: list[str]) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _common_suffix(a: list[str], b: list[str]) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[-1 - i] == b[-1 - i]:
        i += 1
    return i


def _diff(a: list[str], b: list[str]) -> list[Op]:
    ops: list[Op] = []
    # autojunk off: frequent words like "the" must still be matched.
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            ops.append(Op(EQUAL, "".join(a[i1:i2])))
            continue
        if i2 > i1:
            ops.append(Op(DELETE, "".join(a[i1:i2])))
        if j2 > j1:
            ops.append(Op(INSERT, "".join(b[j1:j2])))
    return ops


def _merge(ops: list[Op]) -> tuple[Op, ...]:
    """Drop empty runs, put each change's deletion before its insertion, join neighbours."""
    out: list[Op] = []
    pending_del: list[str] = []
    pending_ins: list[str] = []

    def flush() -> None:
        if pending_del:
            out.append(Op(DELETE, "".join(pending_del)))
            pending_del.clear()
        if pending_ins:
            out.append(Op(INSERT, "".join(pending_ins)))
            pending_ins.clear()

    for op in ops:
        if not op.text:
            continue
        if op.op == DELETE:
            pending_del.append(op.text)
        elif op.op == INSERT:
            pending_ins.append(op.text)
        else:
            flush()
            if out and out[-1].op == EQUAL:
                out[-1] = Op(EQUAL, out[-1].text + op.text)
            else:
                out.append(op)
    flush()
    return tuple(out)


def _cleanup(ops: list[Op]) -> list[Op]:
    """Fold equalities no longer than the changes on both sides into the change.

    The rule of diff-match-patch's semantic cleanup: an equality is kept only
    where it outweighs the edits on one side of it, measured in characters
    (its own surrounding spaces not counted, so whitespace alone is always folded).
    """
    items = list(_merge(ops))
    for _ in range(16):  # each pass only merges; a few passes reach the fixed point
        changed = False
        out: list[Op] = []
        i = 0
        while i < len(items):
            op = items[i]
            if op.op == EQUAL and 0 < i < len(items) - 1 and out:
                before = _edit_weight(out, backwards=True)
                after = _edit_weight(items[i + 1:], backwards=False)
                # Spaces around the equality do not count: " the " weighs as "the".
                if before and after and len(op.text.strip()) <= min(before, after):
                    out.append(Op(DELETE, op.text))
                    out.append(Op(INSERT, op.text))
                    changed = True
                    i += 1
                    continue
            out.append(op)
            i += 1
        items = list(_merge(out))
        if not changed:
            break
    return items


def _edit_weight(ops: list[Op], backwards: bool) -> int:
    """Characters changed in the run of edits next to an equality (the larger side)."""
    deleted = inserted = 0
    seq = reversed(ops) if backwards else iter(ops)
    for op in seq:
        if op.op == EQUAL:
            break
        if op.op == DELETE:
            deleted += len(op.text)
        else:
            inserted += len(op.text)
    return max(deleted, inserted)


def redline_html(old: str, new: str):
    """The redline as ``Markup``: deletions in ``<del>``, insertions in ``<ins>``, every run escaped."""
    from .render_html import redline_markup  # the HTML back end, and its Jinja2, only when asked

    return redline_markup(redline(old, new))
