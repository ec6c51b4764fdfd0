"""What changed inside a clause: list items added, removed and moved, and each edit, editorial or not.

A clause's kind (``classify``) says what happened to it as a whole; one kind
hides a spelling fix in a long card list that also gains two items. Here the
two texts are cut into **units**: the items of a list (bullet or numbered
lines, parts of a sentence separated by semicolons, or a comma-separated list
of short names such as a list of cards) and, elsewhere, sentences. Units are
paired as dyff pairs list entries: by identity first (an item's words, case,
typography, an "and" before the last item and the separators folded), in
order (difflib's longest matching blocks); an item with the same identity
elsewhere has **moved**; what is left is paired by similarity, but only
between the same two neighbours (a replaced stretch), never across the list;
the rest was **added** or **removed**. A paired unit whose text changed gives
one sub-change per edit (a run of its word-level redline, split further where
an editorial fix and a word change sit side by side): ``editorial`` when no
word changed but for spelling (punctuation, case, typography, spacing, or a
word one letter away, see ``spelling_fix``), else ``words``.

Long clauses (past ``LONG_CLAUSE`` characters) are shown as their changed
units only, each as its own redline, long units cut to ``CONTEXT_WORDS``
words around each edit (``shown_lines``), the way ``git diff`` shows hunks
with context rather than whole files.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Iterator

from .classify import normal_words
from .redline import DELETE, EQUAL, INSERT, Op, Redline, redline, tokens, words

#: A clause longer than this (characters, either side) is shown as its changed units, not whole.
LONG_CLAUSE = 500
#: A unit longer than this (characters) is shown cut to the words around its edits.
LONG_UNIT = 200
#: Words of unchanged text kept on each side of an edit in a cut unit.
CONTEXT_WORDS = 6
#: Largest number of candidate pairs compared by similarity in one replaced stretch;
#: beyond it the stretch's units are reported added and removed.
PAIR_BUDGET = 10_000
#: Least similarity for two units in a replaced stretch to be one unit changed.
SIMILAR = 0.5

ITEM, SENTENCE = "item", "sentence"
ADDED, REMOVED, MOVED, EDITORIAL, WORDS = "item-added", "item-removed", "item-moved", "editorial", "words"

# A list line: "- ", "* ", "• ", "1. ", "2) ", "(a) ", "iv. ".
_MARKER = re.compile(r"[ \t]*(?:[-*•‣◦]|\(?(?:\d+|[A-Za-z]|[ivxlcIVXLC]+)[.)])[ \t]+")
# An item's "and"/"or" before the last item, and its separator and full stop, are not its words.
_NUMBER_ONLY = re.compile(r"\(?(?:\d+|[A-Za-z]|[ivxlcIVXLC]+)[.)]")
_CONJUNCTION = re.compile(r"(?i)^(?:and|or)\s+")
_TRAILING = re.compile(r"[\s,;.]+$")
_SENTENCE_END = re.compile(r"[.!?]+[\"'”’)\]]*\s+")
# Brackets and curly double quotes; not ’, which is also the apostrophe of "owner’s".
_OPEN, _CLOSE = "([{“", ")]}”"
#: A comma-separated list has at least this many items, each of at most ``SHORT_ITEM`` words.
LIST_ITEMS, SHORT_ITEM = 5, 5


@dataclass(frozen=True)
class Unit:
    """An item or a sentence: ``core`` is what is compared and shown, ``key`` its identity."""

    unit: str
    core: str
    key: str
    position: int  # 1-based among the units of its kind in the clause


@dataclass(frozen=True)
class SubChange:
    """One thing that happened inside a clause (see the module docstring)."""

    kind: str
    unit: str
    old_position: int | None
    new_position: int | None
    old: str | None  # the unit's text on each side
    new: str | None
    edit: tuple[str, str] | None = None  # for editorial and words: the text replaced and its replacement

    def as_json(self) -> dict:
        return {"kind": self.kind, "unit": self.unit, "old_position": self.old_position,
                "new_position": self.new_position, "old": self.old, "new": self.new,
                "edit": {"old": self.edit[0], "new": self.edit[1]} if self.edit else None}


# -- units ------------------------------------------------------------------------------------

def units(text: str) -> list[Unit]:
    """The text's items and sentences, in order."""
    raw: list[tuple[str, str]] = []
    lines = text.split("\n")
    if sum(1 for line in lines if _MARKER.match(line)) >= 2:
        for line in lines:
            marker = _MARKER.match(line)
            if marker:
                raw.append((ITEM, line[marker.end():]))
            elif line.strip():
                raw.extend(_sentence_units(line))
    else:
        raw.extend(_sentence_units(text))
    out, counts = [], {ITEM: 0, SENTENCE: 0}
    for unit, text_ in raw:
        core = _core(text_) if unit == ITEM else text_.strip()
        if not core or (unit == SENTENCE and _NUMBER_ONLY.fullmatch(core)):
            continue  # a step's printed number ("2."): renumbering is the step's, not an edit
        counts[unit] += 1
        folded = normal_words(core)
        out.append(Unit(unit, core, unit + ":" + (" ".join(folded) if folded else core), counts[unit]))
    return out


def _core(item: str) -> str:
    return _TRAILING.sub("", _CONJUNCTION.sub("", item.strip()))


def sentences(text: str) -> list[str]:
    """Sentences with their trailing space; they join back to ``text``. A sentence ends at ``.``,
    ``!`` or ``?`` (and a closing quote or bracket) followed by a space or a line break, so that
    "evil.example" and "v1.2" stay whole (``redline.sentences`` also cuts inside them)."""
    out, start = [], 0
    for end in _SENTENCE_END.finditer(text):
        out.append(text[start:end.end()])
        start = end.end()
    if start < len(text):
        out.append(text[start:])
    return out


def _sentence_units(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for sentence in sentences(text):
        items = _list_items(sentence)
        out.extend(items if items else [(SENTENCE, sentence)])
    return out


def _list_items(sentence: str) -> list[tuple[str, str]] | None:
    """A sentence that is a list: its lead-in (up to a colon) as a sentence, then its items; else None."""
    lead, body = "", sentence
    colon = _split_top(sentence, ":")
    if len(colon) > 1:
        lead, body = colon[0] + ":", ":".join(colon[1:])
    for separator, least, short in ((";", 3, False), (",", LIST_ITEMS, True)):
        parts = _split_top(body, separator)
        if separator == ",":
            parts = parts[:-1] + _split_and(parts[-1])  # "A, B and C": no serial comma before the last item
        named = separator == "," and _named(parts)
        if len(parts) < least and not named:
            continue
        if short and not named and any(len(words(_core(p))) > SHORT_ITEM for p in parts):
            continue
        return ([(SENTENCE, lead)] if lead else []) + [(ITEM, p) for p in parts]
    return None


_AND = re.compile(r"\s+(?:and|or)\s+")
_NAMED = re.compile(r"\([^()]+\)[\s.]*$")


def _split_and(part: str) -> list[str]:
    """The last part of a comma list cut at its "and" or "or" (outside brackets), when the word before it ends
    an item: "B and C" is two items; "and C" (after a serial comma) is one."""
    if not _AND.search(part) or _CONJUNCTION.match(part.strip()):
        return [part]
    pieces = _split_top(_AND.sub("\0", part), "\0")
    whole = len(pieces) == 2 and all(p.strip() and "\0" not in p for p in pieces)  # none inside brackets
    return pieces if whole else [part]


def _named(parts: list[str]) -> bool:
    """Names with their set in brackets, "Ark of the Covenant (Pr)": two or more, each short but for the set."""
    return len(parts) >= 2 and all(_NAMED.search(p) and len(words(_NAMED.sub("", _core(p)))) <= SHORT_ITEM
                                   for p in parts)


def _split_top(text: str, separator: str) -> list[str]:
    """``text`` split at ``separator`` outside brackets and quotes."""
    if separator not in text:
        return [text]
    parts, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted  # a straight quote opens and closes
        elif ch in _OPEN:
            depth += 1
        elif ch in _CLOSE and depth:
            depth -= 1
        elif ch == separator and depth == 0 and not quoted:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


# -- pairing ------------------------------------------------------------------------------------

def sub_changes(old: str | None, new: str | None) -> tuple[SubChange, ...]:
    """Every sub-change from ``old`` to ``new``, in the order of the new text; () when a side is missing."""
    if old is None or new is None or old == new:
        return ()
    a, b = units(old), units(new)
    placed: list[tuple[tuple, SubChange]] = []
    pairs = _pairs(a, b)
    paired_a = {i: j for i, j, _ in pairs}
    paired_b = {j for _, j, _ in pairs}
    for i, j, moved in pairs:
        ua, ub = a[i], b[j]
        if moved:
            placed.append(((j, 0, -1), SubChange(MOVED, ub.unit, ua.position, ub.position, ua.core, ub.core)))
        for n, (kind, was, now) in enumerate(edits(ua.core, ub.core)):
            placed.append(((j, 0, n), SubChange(kind, ub.unit, ua.position, ub.position, ua.core, ub.core,
                                                     (was, now))))
    for j, ub in enumerate(b):
        if j not in paired_b:
            placed.append(((j, 0, -1), SubChange(ADDED, ub.unit, None, ub.position, None, ub.core)))
    before = -1  # the furthest new place of the old units before: a removed unit is shown after it
    for i, ua in enumerate(a):
        if i in paired_a:
            before = max(before, paired_a[i])
        else:
            placed.append(((before, 1, i), SubChange(REMOVED, ua.unit, ua.position, None, ua.core, None)))
    placed.sort(key=lambda p: p[0])
    return tuple(s for _, s in placed)


def _pairs(a: list[Unit], b: list[Unit]) -> list[tuple[int, int, bool]]:
    """(old index, new index, moved) for each unit kept, in order, moved, or changed in place."""
    matcher = difflib.SequenceMatcher(None, [u.key for u in a], [u.key for u in b], autojunk=False)
    pairs: list[tuple[int, int, bool]] = []
    gaps = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs.extend((i, j, False) for i, j in zip(range(i1, i2), range(j1, j2)))
        else:
            gaps.append((range(i1, i2), range(j1, j2)))
    used_a: set[int] = set()
    used_b: set[int] = set()
    pairs += _moved_units(a, b, gaps, used_a, used_b)
    # In each replaced stretch, the most similar units of one kind, best first.
    for ias, jbs in gaps:
        pairs += _alike_units(a, b, [i for i in ias if i not in used_a], [j for j in jbs if j not in used_b],
                              used_a, used_b)
    return sorted(pairs, key=lambda p: p[1])


Gaps = list[tuple[range, range]]


def _moved_units(a: list[Unit], b: list[Unit], gaps: Gaps, used_a: set[int], used_b: set[int]
                 ) -> list[tuple[int, int, bool]]:
    """The same item elsewhere: moved (first left with that identity to first left); the units paired
    go into ``used_a`` and ``used_b``."""
    waiting: dict[str, list[int]] = {}
    for _, js in gaps:
        for j in js:
            waiting.setdefault(b[j].key, []).append(j)
    pairs = []
    for ias, _ in gaps:
        for i in ias:
            if waiting.get(a[i].key):
                j = waiting[a[i].key].pop(0)
                pairs.append((i, j, True))
                used_a.add(i)
                used_b.add(j)
    return pairs


def _alike_units(a: list[Unit], b: list[Unit], left_a: list[int], left_b: list[int], used_a: set[int],
                 used_b: set[int]) -> list[tuple[int, int, bool]]:
    """In one replaced stretch (the units left on each side), the most similar units of one kind, best
    first, changed in place (within ``PAIR_BUDGET`` pairs; none beyond)."""
    if not left_a or not left_b or len(left_a) * len(left_b) > PAIR_BUDGET:
        return []
    scored = sorted((-_similarity(a[i].core, b[j].core), i, j) for i in left_a for j in left_b
                    if a[i].unit == b[j].unit)
    pairs = []
    for score, i, j in scored:
        if -score >= SIMILAR and i not in used_a and j not in used_b:
            pairs.append((i, j, False))
            used_a.add(i)
            used_b.add(j)
    return pairs


def _similarity(x: str, y: str) -> float:
    """Word similarity; for short units (a card name) the larger of it and letter similarity."""
    wx, wy = normal_words(x), normal_words(y)
    score = difflib.SequenceMatcher(None, wx, wy, autojunk=False).ratio()
    if len(wx) <= 3 and len(wy) <= 3:
        score = max(score, difflib.SequenceMatcher(None, x.casefold(), y.casefold(), autojunk=False).ratio())
    return score


# -- edits ----------------------------------------------------------------------------------------

def edits(old: str, new: str) -> list[tuple[str, str, str]]:
    """(kind, old text, new text) of each edit from ``old`` to ``new``, whitespace around them trimmed.

    Each run of the redline is one edit, unless it holds an editorial fix and a
    word change side by side (``choses, after`` -> ``chooses, when``): it is then
    cut where the kind changes, so that neither hides the other.
    """
    out: list[tuple[str, str, str]] = []
    ops = redline(old, new).ops
    i = 0
    while i < len(ops):
        if ops[i].op == EQUAL:
            i += 1
            continue
        deleted = inserted = ""
        while i < len(ops) and ops[i].op != EQUAL:
            if ops[i].op == DELETE:
                deleted += ops[i].text
            else:
                inserted += ops[i].text
            i += 1
        out.extend(_split_run(deleted, inserted))
    return out


def _split_run(deleted: str, inserted: str) -> Iterator[tuple[str, str, str]]:
    a, b = tokens(deleted), tokens(inserted)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    pieces: list[tuple[str, int, int, int, int]] = []  # kind and token ranges on each side
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            pieces.append((edit_kind("".join(a[i1:i2]), "".join(b[j1:j2])), i1, i2, j1, j2))
    groups: list[list] = []
    for piece in pieces:
        if groups and groups[-1][0] == piece[0]:
            groups[-1][2], groups[-1][4] = piece[2], piece[4]
        else:
            groups.append(list(piece))
    if len({g[0] for g in groups}) < 2:  # one kind: the run as the redline shows it
        if groups:
            yield groups[0][0], deleted.strip(), inserted.strip()
        return
    for kind, i1, i2, j1, j2 in groups:
        yield kind, "".join(a[i1:i2]).strip(), "".join(b[j1:j2]).strip()


def edit_kind(old: str, new: str) -> str:
    """``editorial`` when no word changed but for case, typography, punctuation, spacing or spelling."""
    wa, wb = normal_words(old), normal_words(new)
    if wa == wb or "".join(wa) == "".join(wb):
        return EDITORIAL
    if len(wa) == len(wb) and all(x == y or spelling_fix(x, y) for x, y in zip(wa, wb)):
        return EDITORIAL
    return WORDS


def spelling_fix(x: str, y: str) -> bool:
    """Two words one is a misspelling of the other: one letter added, dropped, replaced or two swapped
    (two such edits in words of 8 letters or more), the first letter the same, no digit, and not an
    ending added or dropped (``target``/``targets`` is a word change). Deliberately narrow: a word
    change reported as editorial would hide it from a reviewer."""
    if x == y or any(c.isdigit() for c in x + y) or min(len(x), len(y)) < 4 or x[0] != y[0]:
        return False
    short, long_ = sorted((x, y), key=len)
    if long_.startswith(short):
        return False
    return _osa_distance(x, y) <= (2 if min(len(x), len(y)) >= 8 else 1)


def _osa_distance(x: str, y: str) -> int:
    """Edit distance with adjacent swaps (optimal string alignment)."""
    d = [[0] * (len(y) + 1) for _ in range(len(x) + 1)]
    for i in range(len(x) + 1):
        d[i][0] = i
    for j in range(len(y) + 1):
        d[0][j] = j
    for i in range(1, len(x) + 1):
        for j in range(1, len(y) + 1):
            cost = 0 if x[i - 1] == y[j - 1] else 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and x[i - 1] == y[j - 2] and x[i - 2] == y[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(x)][len(y)]


# -- what the formats show ----------------------------------------------------------------------

_NOUNS = {ADDED: ("{unit} added", "{unit}s added"), REMOVED: ("{unit} removed", "{unit}s removed"),
          MOVED: ("{unit} moved", "{unit}s moved"), WORDS: ("word change", "word changes"),
          EDITORIAL: ("editorial fix", "editorial fixes")}
LONG_NOTE = "long clause, so only the changed items and sentences are shown"


def is_long(change) -> bool:
    """Whether the formats show the change's sub-changes instead of its whole redline."""
    return bool(change.sub_changes) and max(len(change.old_text or ""), len(change.new_text or "")) > LONG_CLAUSE \
        and not replaced_whole(change)


def replaced_whole(change) -> bool:
    """Every unit removed and others added: nothing inside to tell that the redline does not."""
    subs = change.sub_changes
    return all(s.kind in (ADDED, REMOVED) for s in subs) \
        and sum(s.kind == REMOVED for s in subs) == len(units(change.old_text or ""))


def is_shown(change) -> bool:
    """Whether the formats count the sub-changes: for a long clause, items or sentences added,
    removed or moved, or editorial fixes alongside word changes (otherwise the redline says it all)."""
    kinds = {s.kind for s in change.sub_changes}
    if not kinds or replaced_whole(change):
        return False
    return is_long(change) or bool(kinds & {ADDED, REMOVED, MOVED}) or {WORDS, EDITORIAL} <= kinds


def is_listed(change) -> bool:
    """Whether the formats list the changed units one by one: for a long clause (instead of its
    redline), or for list items added, removed or moved (the redline of a list does not tell an
    item moved from one removed and another added). A short clause's other changes are read in its
    redline; the count says which of them are editorial and how many sentences came and went."""
    return is_shown(change) and (is_long(change) or any(s.kind in (ADDED, REMOVED, MOVED) and s.unit == ITEM
                                                        for s in change.sub_changes))


@dataclass(frozen=True)
class View:
    """What every format shows of a change's sub-changes: the same for text, Markdown, HTML and the site."""

    long: bool  # the change's whole redline is left out: ``lines`` stand for it
    note: str | None  # LONG_NOTE for a long clause
    counts: str  # "2 items added, 1 editorial fix"
    lines: tuple[tuple[str, Redline], ...]  # each changed unit's label and redline; () when only counted


def view(change) -> View | None:
    """What the formats show inside ``change``; None when its redline says it all (``is_shown``)."""
    if not is_shown(change):
        return None
    long = is_long(change)
    return View(long, LONG_NOTE if long else None, counts(change.sub_changes),
                tuple(shown_lines(change.sub_changes)) if is_listed(change) else ())


def counts(subs) -> str:
    """"2 items added, 1 editorial fix"."""
    found: dict[tuple[str, str], int] = {}
    for s in subs:
        unit = s.unit if s.kind in (ADDED, REMOVED, MOVED) else ""
        found[(s.kind, unit)] = found.get((s.kind, unit), 0) + 1
    order = [ADDED, REMOVED, MOVED, WORDS, EDITORIAL]
    parts = []
    for (kind, unit), n in sorted(found.items(), key=lambda kv: (order.index(kv[0][0]), kv[0][1])):
        one, many = _NOUNS[kind]
        parts.append(f"{n} " + (one if n == 1 else many).format(unit=unit))
    return ", ".join(parts)


def shown_lines(subs) -> list[tuple[str, Redline]]:
    """One line per unit that changed: its label ("item 2, added", "sentence 4, words and editorial")
    and its redline, cut to the words around its edits when the unit is long."""
    groups: dict[tuple, list[SubChange]] = {}
    for s in subs:
        groups.setdefault((s.unit, s.old_position, s.new_position), []).append(s)
    out = []
    for (unit, old_at, new_at), group in groups.items():
        first = group[0]
        kinds = {s.kind for s in group}
        if first.kind == ADDED:
            out.append((f"{unit} {new_at}, added", Redline((Op(INSERT, first.new or ""),))))  # an added unit has new text
        elif first.kind == REMOVED:
            out.append((f"{unit} {old_at}, removed", Redline((Op(DELETE, first.old or ""),))))
        else:
            what = " and ".join(k for k in (WORDS, EDITORIAL) if k in kinds)
            label = (f"{unit} {old_at} -> {new_at}, moved" + (f", {what}" if what else "")) if MOVED in kinds \
                else f"{unit} {new_at}, {what}"
            out.append((label, in_context(redline(first.old or "", first.new or ""))))  # a unit on both sides
    return out


def in_context(line: Redline) -> Redline:
    """The redline with unchanged stretches cut to ``CONTEXT_WORDS`` words next to each edit ("…"),
    when its text is longer than ``LONG_UNIT``."""
    if max(len(line.old), len(line.new)) <= LONG_UNIT:
        return line
    ops = list(line.ops)
    out = []
    for n, op in enumerate(ops):
        if op.op != EQUAL:
            out.append(op)
            continue
        toks = tokens(op.text)
        starts = [k for k, t in enumerate(toks) if t[0].isalnum() or t[0] == "_"]
        first, last = n == 0, n == len(ops) - 1
        if len(starts) <= CONTEXT_WORDS * (1 if first or last else 2):
            out.append(op)
        elif first:
            out.append(Op(EQUAL, "… " + "".join(toks[starts[-CONTEXT_WORDS]:])))
        elif last:
            end = starts[CONTEXT_WORDS - 1] + 1
            out.append(Op(EQUAL, "".join(toks[:end]) + " …"))
        else:
            end = starts[CONTEXT_WORDS - 1] + 1
            out.append(Op(EQUAL, "".join(toks[:end]) + " … " + "".join(toks[starts[-CONTEXT_WORDS]:])))
    return Redline(tuple(out), line.coarse)
