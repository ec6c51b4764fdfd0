"""The diff as Markdown for a pull-request comment: the summary first, then each term in ``<details>``.

Every untrusted string (rule text, ids, file names, side names) reaches the
comment through ``escape`` (prose) or ``code`` (an inline code span), never
raw. ``escape`` HTML-escapes it, backslash-escapes its Markdown marks (no text
can open a link, a table, a tag or math) and makes inert what GitHub would turn
into a notification or a link (``inert``). Both first show what must not reach
a reader raw as the terminal shows it (``diagnostics.printable``): a carriage
return would end the line for CommonMark and open a block outside the quote, a
bidi control would reorder what the reviewer reads. Deletions and insertions
are ``<del>`` and ``<ins>``, which GitHub and GitLab render.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence, Set
from dataclasses import dataclass

from ..diagnostics import printable
from .behaviour import Behaviour, transition_words
from .result import Change, Conformance, DiffResult, SideInfo
from . import names as N
from .conformance_impact import flips_words, short_words as conformance_short
from .level import CLARIFICATION, EDITORIAL, RULE_CHANGE
from .present import (by_term, clause_name, deciders, details, folded, folded_words, introduced, location,
                      numbered_name, one_sided, outcome, renumbered_line, rule_change_words, side_name, situation,
                      unknown_note, use_words)
from . import inside
from . import rulings as R
from .redline import DELETE, INSERT, Redline

# What Markdown (CommonMark with GitHub's extensions) would obey, where it stands; ``escape`` puts a
# backslash before each match and nowhere else, so "target(s)" and "may_target" read as written:
# - code, emphasis, a link's or an image's brackets, a table's bar, strikethrough and math ("$")
#   act anywhere;
# - "_" opens or closes emphasis unless a letter or digit stands on both sides (CommonMark's
#   intraword rule), and "\\" escapes the ASCII punctuation after it;
# - "(" makes a link only right after "]" (escaped wherever the text has one), "!" an image only
#   right before "[": at the text's ends the neighbour is not known, so there they are escaped.
# "<", ">" and "&" are HTML-escaped before; "#", "@", ":" and others that link are made inert after.
_MD = re.compile(r"[`*\[\]|~$]|\\(?=[!-/:-@\[-`{-~]|\Z)|(?<![^\W_])_|_(?![^\W_])|\A\(|!\Z")
# Where a block starts (the text is not ``inline``): a list item, a heading, a heading rule or a
# numbered step; digits are an ordered list's marker only before "." or ")" and a space, a tab or
# the end ("5.0.0" is none; "5." at the end of a text may be followed by anything, so it is
# escaped). Only the text's start: its line breaks become "<br>" on the same line.
_BLOCK_START = re.compile(r"\A(\s*)([-+=#]|\d+(?=[.)](?:[ \t]|\Z)))")


# Line breaks (each becomes <br>, or a space in code) and tabs are the text's own.
KEEPS = "\n\t"

# U+2060 WORD JOINER: invisible and no line break, so the text reads the same.
# Dependabot puts U+200B after a mention's "@", Renovate after "@" and "#".
WORD_JOINER = "\u2060"
# What GitHub links in a comment's text, each broken right after its first
# character that no link can start without: "@" (mentions, e-mail addresses,
# user@sha), "#" (#12, owner/repo#12), ":" before a character that is not a
# space or the end (https://..., :emoji:; the colon of "exceptions: " or of
# "turn:" at the end of a text starts neither, and is left alone), "www"
# before a dot, "-" before a digit (GH-12 and a repository's own PREFIX-12
# autolinks), and words of 7 or more hex digits (commit SHAs), cut every 6.
# Escaped texts are joined only with markup or spaces between them (a redline's
# runs are merged and each insertion or deletion is in its own tags).
_LINKABLE = re.compile(r"[@#]|:(?=\S)|(?i:www)(?=\.)|-(?=\d)|(?<![0-9A-Za-z])[0-9A-Fa-f]{7,}(?![0-9A-Za-z])")


def _break(match: re.Match) -> str:
    found = match.group()
    if len(found) < 7:
        return found + WORD_JOINER
    return WORD_JOINER.join(found[i:i + 6] for i in range(0, len(found), 6))


def inert(text: str) -> str:
    """The text with nothing GitHub would turn into a mention, a reference or a link."""
    return _LINKABLE.sub(_break, text)


# "&" begins a character reference only before a name, "#" and digits, or "#x" and hex digits, and a
# ";" (CommonMark): elsewhere it is itself, and "R&D" stays as written in the posted text.
_REFERENCE = re.compile(r"&(?=[A-Za-z][A-Za-z0-9]*;|#[0-9]+;|#[xX][0-9A-Fa-f]+;)")


def _html_escape(text: str) -> str:
    """"<" and ">" always (no tag, no autolink), "&" where it would begin a character reference."""
    return _REFERENCE.sub("&amp;", text).replace("<", "&lt;").replace(">", "&gt;")


def escape(text: str, inline: bool = False) -> str:
    """Untrusted text safe as Markdown prose: no markup, no mention, no link.

    ``inline``: the text goes after other text on its line (a heading's words, a
    table cell, after "Changes from "), where no block can start: its line breaks
    become ``<br>`` on that same line, so what would open a list or a heading at
    the start of a line ("5.0.0", "- x") is left as it is, without backslashes.
    """
    text = _MD.sub(lambda m: "\\" + m.group(), inert(_html_escape(printable(text, KEEPS))))
    if not inline:
        text = _BLOCK_START.sub(lambda m: m.group(1) + "\\" + m.group(2) if not m.group(2).isdigit()
                                else m.group(1) + m.group(2) + "\\", text)
    return text.replace("\n", "<br>")


def code(text: str) -> str:
    """An inline code span that no backtick in ``text`` can close.

    GitHub links nothing inside a code span, so paths and ids stay exact to copy;
    only "@" gets the word joiner, so that a reply by e-mail that quotes the
    comment (plain text) mentions no one.
    """
    text = printable(text, KEEPS).replace("\n", " ").replace("@", "@" + WORD_JOINER)
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


#: What a GitHub comment holds is 65,536 characters (UTF-16 code units, as JavaScript counts them);
#: the budget leaves room for the workflow's marker line and a margin.
COMMENT_BUDGET = 64_000

#: The smallest budget that ``render`` keeps to whatever the diff: what it cannot shorten (the
#: headings, the counts, the table of kinds, each list's "and K more" line and the note that says
#: what was left out) takes at most about 6,000 UTF-16 units, side names clipped to ``SIDE_CLIP``
#: characters included (each can grow tenfold when escaped: "\\U000e0001").
MIN_BUDGET = 8_000

#: Side names (edition ids, git revisions: untrusted) in the heading and the note, at most this long.
SIDE_CLIP = 100

#: What is left out, in this order, while the comment is over its budget: editorial redlines
#: first, the rule changes' summary never.
SHEDDING = (
    ("editorial-redlines", "the redlines of editorial changes"),
    ("clarification-redlines", "the redlines of clarifications"),
    ("editorial-details", "the details of editorial changes"),
    ("clarification-details", "the details of clarifications"),
    ("witnesses", "the situation tables of rule changes"),
    ("rule-details", "the details of rule changes"),  # as many as it takes, the first ones kept
)

#: Said in the note when, every detail left out, the summary's lists are cut too.
LISTS_CUT = "the items of the summary's lists past the first ones that fit (each list says how many more)"


@dataclass(frozen=True)
class Limits:
    """How many items of each of the summary's lists are shown (None: all); each list cut short
    ends with one line, "and K more"."""

    rules: int | None = None  # the rule changes, then the names changed by the vocabulary
    names: int | None = None  # decisions, predicates and constraints
    vocabulary: int | None = None
    rulings: int | None = None  # the rulings that flip, stop applying, stand and are added


ALL = Limits()


def render(result: DiffResult, budget: int = COMMENT_BUDGET) -> str:
    """The comment: the summary first, then one collapsible ``<details>`` per term, within ``budget``.

    Past the budget, parts are left out in the order of ``SHEDDING`` until it
    fits, and the comment says what it left out and where the full report is.
    With every detail left out, the summary's lists (rule changes, decisions,
    vocabulary) show their first items, as many as fit, each with "and K more":
    for any ``budget`` of at least ``MIN_BUDGET`` the result is at most
    ``budget`` UTF-16 code units, whatever the number of changes (below it the
    same is tried, but the parts that cannot be cut may not fit).
    """
    drop = {k for k, _ in SHEDDING}
    if sum(utf16_length(item) + 1 for group in _list_items(result, drop) for item in group) > budget:
        # The summary's lists alone are over the budget, and every shorter form holds them whole:
        # straight to cutting them (3,000 changed terms: one render instead of six).
        return _cut_lists(result, drop, [w for _, w in SHEDDING[:-1]] + _rule_details_words(result), budget)
    out, dropped = _shed(result, budget)
    if utf16_length(out) <= budget:
        return out
    return _rule_details_cut(result, drop, [w for _, w in dropped], budget)


def _shed(result: DiffResult, budget: int) -> tuple[str, list[tuple[str, str]]]:
    """The comment with the parts of ``SHEDDING`` (but the last) left out in their order until it fits
    ``budget`` (or all of them are): the comment, and the parts left out."""
    dropped: list[tuple[str, str]] = []
    out = _render(result, set())
    for key, words in SHEDDING[:-1]:
        if utf16_length(out) <= budget:
            return out, dropped
        dropped.append((key, words))
        out = _render(result, {k for k, _ in dropped}, [w for _, w in dropped])
    return out, dropped


def _rule_details_cut(result: DiffResult, drop: set[str], dropped_words: list[str], budget: int) -> str:
    """The rule changes' details last, and only as many as do not fit: the most that fit are kept,
    in the order of the report (found by bisection; the length grows with the number kept)."""
    rules = sum(c.level == RULE_CHANGE for c in result.changes)
    all_words = dropped_words + _rule_details_words(result)

    def with_kept(kept: int) -> str:
        return _render(result, drop, all_words[:-1] + [f"the details of {rules - kept} of {_count(rules, 'rule change')}"],
                       kept)

    if utf16_length(none := _render(result, drop, all_words)) > budget:
        return _cut_lists(result, drop, all_words, budget)
    low = _most(lambda kept: utf16_length(with_kept(kept)) <= budget, rules - 1)
    return with_kept(low) if low else none


def _most(fits: Callable[[int], bool], high: int) -> int:
    """The largest n from 0 to ``high`` that ``fits``, by bisection: ``fits`` holds for 0, and once false
    stays false."""
    low = 0  # ``low`` always fits
    while low < high:
        mid = (low + high + 1) // 2
        if fits(mid):
            low = mid
        else:
            high = mid - 1
    return low


def _rule_details_words(result: DiffResult) -> list[str]:
    """What the note says when the details of every rule change are left out."""
    rules = sum(c.level == RULE_CHANGE for c in result.changes)
    return [f"the details of {rules} of {_count(rules, 'rule change')}"] if rules else []


def _cut_lists(result: DiffResult, drop: set[str], words: list[str], budget: int) -> str:
    """Every detail left out and still over ``budget``: each list of the summary shows the first items
    that fit in its share of what the rest leaves (``shares``), then "and K more"."""
    words = words + [LISTS_CUT]
    items = _list_items(result, drop)
    # Each list at none of its items: its "and K more" line then names the most items it can.
    base = utf16_length(_render(result, drop, words, 0, Limits(0, 0, 0, 0)))
    sizes = [[utf16_length(item) + 1 for item in group] for group in items]  # each item is its lines + "\n"
    shown = [_prefix(group, share) for group, share in zip(sizes, shares([sum(g) for g in sizes], budget - base))]
    return _render(result, drop, words, 0, Limits(*shown))


def _prefix(sizes: list[int], room: int) -> int:
    """How many of the first items, of these sizes, fit in ``room``."""
    total = 0
    for n, size in enumerate(sizes):
        total += size
        if total > room:
            return n
    return len(sizes)


def shares(needs: list[int], budget: int) -> list[int]:
    """A split of ``budget`` among parts that each need ``needs[i]``: max-min fair (water-filling).

    Each part gets what it needs when that is at most an equal share of what is left, the
    parts that need least first; the others split the rest equally. The shares add up to at
    most ``budget`` (to none of it when it is negative), and no share exceeds its need.
    """
    out = [0] * len(needs)
    left = max(budget, 0)
    for rank, i in enumerate(sorted(range(len(needs)), key=lambda k: needs[k])):
        out[i] = min(needs[i], left // (len(needs) - rank))
        left -= out[i]
    return out


def fit(parts: Sequence[Callable[[int], str]], budget: int = COMMENT_BUDGET, separator: str = "\n") -> list[str]:
    """Several parts of one comment (one diff per edition, say), each within its share of ``budget``.

    Contract:

    - each part is a function from a budget in UTF-16 code units to a text at most that long for
      any budget of at least ``MIN_BUDGET``; ``lambda b: render(result, b)`` is one. It may be
      called twice (once to measure it, once within its share), so it must give the same text for
      the same budget;
    - ``budget`` must hold ``MIN_BUDGET`` per part and the separators between them, else ValueError
      (nothing is cut silently): put fewer parts in one comment, or a summary of one's own;
    - the parts that need less than an equal share are rendered whole; the others split the rest
      equally (``shares``), each rendered within its share, shortened as ``render`` says;
    - the result, in the order of ``parts``: ``utf16_length(separator.join(texts)) <= budget``.

    A caller's own heading: subtract its length from ``budget`` first.
    """
    if not parts:
        return []
    room = budget - utf16_length(separator) * (len(parts) - 1)
    if room < MIN_BUDGET * len(parts):
        raise ValueError(f"a budget of {budget} holds no {len(parts)} parts of at least {MIN_BUDGET} each")
    whole = [part(room) for part in parts]
    given = shares([utf16_length(text) for text in whole], room)
    return [text if utf16_length(text) <= share else part(share) for part, text, share in zip(parts, whole, given)]


def utf16_length(text: str) -> int:
    """Length as GitHub and JavaScript count it (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


def _render(result: DiffResult, drop: set[str], dropped_words: Sequence[str] = (), kept_rules: int = 0,
            limits: Limits = ALL) -> str:
    """The comment without the parts in ``drop``; with "rule-details" dropped, the details of the first
    ``kept_rules`` rule changes are still shown. A term none of whose changes is shown has no
    ``<details>``: one line at the end counts them. The summary's lists show the items ``limits`` say."""
    old, new = side_name(result.old), side_name(result.new)
    first = introduced(result)
    lines = [f"## Introduced in {escape(_clip(first), inline=True)}" if first
             else f"## Rulebook changes: {escape(_clip(old), inline=True)} → {escape(_clip(new), inline=True)}", ""]
    if result.empty:
        lines.append("No changes.")
        return "\n".join(lines) + "\n"
    lines += _summary(result)
    lines += _lists(result, drop, dropped_words, limits)
    lines += _terms(result, drop, kept_rules)
    return "\n".join(lines) + "\n"


def _summary(result: DiffResult) -> list[str]:
    """The counts by level, the table of kinds, and the one line of renumbered clauses."""
    levels = Counter(c.level for c in result.changes)
    by_vocabulary = N.by_vocabulary(result.names)
    unchecked = sum(1 for c in result.changes if c.unchecked)
    lines = [f"**{_count(levels[RULE_CHANGE], 'rule change')}**, {_count(levels[CLARIFICATION], 'clarification')}, "
             f"{levels[EDITORIAL]} editorial" + (f"; **answers changed by the vocabulary**: "
                                                 f"{escape(N.by_vocabulary_counts(result.names) or '')}" if by_vocabulary else "")
             + (f"; **{unchecked} counted as a rule change**: words its rules do not account for"
                if unchecked else ""),
             ""]
    lines += ["| kind | changes |", "| --- | ---: |"]
    lines += [f"| {kind} | {n} |" for kind, n in result.summary.items() if n]
    lines.append(f"| **total** | **{len(result.changes)}** |")
    renumbered = renumbered_line(result, code, escape, "Renumbered", " → ")
    return lines + (["", renumbered] if renumbered else [])  # one line, however many clauses


def _lists(result: DiffResult, drop: set[str], dropped_words: Sequence[str], limits: Limits) -> list[str]:
    """The summary's lists (rulings, rule changes, names, vocabulary), each within ``limits``, and the note
    of what was left out to fit."""
    rule_items, name_items, vocabulary_items, ruling_items = _list_items(result, drop)
    lines: list[str] = []
    if result.rulings.any:  # the first thing a committee asks of a rule change (issue 26.3)
        lines += ["", "### Rulings", "", escape(R.count_line(result.rulings)), ""]
        lines += _listed(ruling_items, limits.rulings)
    if rule_items:
        lines += ["", "### Rule changes", ""] + _listed(rule_items, limits.rules)
    if dropped_words:
        lines += ["", f"_Shortened to fit a GitHub comment: left out {escape(', '.join(dropped_words))}. "
                      f"The full report: `rulebook diff {_arg(result.old)} {_arg(result.new)} --format html` "
                      "(the example workflow uploads it as the rulebook-diff artifact)._"]
    if name_items:
        lines += ["", "### Decisions, predicates and constraints", ""] + _listed(name_items, limits.names)
    if vocabulary_items:
        lines += ["", "### Vocabulary", ""] + _listed(vocabulary_items, limits.vocabulary)
    return lines


def _list_items(result: DiffResult, drop: set[str]) -> tuple[list[str], list[str], list[str], list[str]]:
    """The items of the summary's four lists (rule changes, names, vocabulary, rulings), each one or more
    lines."""
    old, new = side_name(result.old), side_name(result.new)
    rules = [f"- {numbered_name(c, code, lambda w: escape(w, inline=True))} ({c.kind}): {rule_change_words(c, code, escape)}" + _breaks(c.conformance)
             for c in result.changes if c.level == RULE_CHANGE]
    rules += [f"- {code(n.name)} ({escape(n.kind)}, changed by the vocabulary): {escape(n.behaviour.extent() if n.behaviour else '')}"
              + _breaks(n.conformance) for n in N.by_vocabulary(result.names)]
    names = ["\n".join(_name(name, old, new, drop)) for name in result.names]
    vocabulary = [f"- {escape(line)}" for line in result.vocabulary.lines()] if not result.vocabulary.empty else []
    rulings = R.markdown_items(result.rulings, code, lambda w: escape(w, inline=True))
    return rules, names, vocabulary, rulings


def _listed(items: list[str], limit: int | None) -> list[str]:
    """The first ``limit`` items (all with None), then how many more there are."""
    if limit is None or limit >= len(items):
        return items
    return items[:limit] + [f"- _… and {len(items) - limit} more (the full report lists them)_"]


def _terms(result: DiffResult, drop: set[str], kept_rules: int) -> list[str]:
    """One ``<details>`` per term with a change shown, then how many terms have none shown."""
    old, new = side_name(result.old), side_name(result.new)
    listed = {n.behaviour for n in result.names if n.behaviour is not None}
    lines: list[str] = _folded([c for c in result.changes if folded(c)], drop)
    hidden = 0
    for term, changes, shown in _shown_by_term(result, drop, kept_rules):
        if not shown:
            hidden += 1
            continue
        lines += _term_details(term, changes, shown, _Shown(old, new, drop, listed))
    if hidden:
        lines += ["", f"_Left out: the details of {_count(hidden, 'term')}._"]
    return lines


def _shown_by_term(result: DiffResult, drop: set[str], kept_rules: int) -> Iterator[tuple[str, list[Change], list[Change]]]:
    """Each term with a change outside the fold of renumberings: its changes, and those whose details
    are shown (not in ``drop``, or among the first ``kept_rules`` rule changes)."""
    kept = {id(c) for c in [c for c in result.changes if c.level == RULE_CHANGE][:kept_rules]}
    for term, changes in by_term(result):
        changes = [c for c in changes if not folded(c)]  # in the one fold of renumberings (``_folded``)
        if changes:
            yield term, changes, [c for c in changes if _detail_key(c) not in drop or id(c) in kept]


@dataclass(frozen=True)
class _Shown:
    """What every change's details are rendered with: the sides' names, the parts left out, and the
    behaviours listed under the decisions above."""

    old: str
    new: str
    drop: Set[str]
    listed: Set


def _term_details(term: str, changes: list[Change], shown: list[Change], how: _Shown) -> list[str]:
    """A term's ``<details>``: its counts by level, the changes ``shown``, and how many are left out."""
    levels = Counter(c.level for c in changes)
    counts = ", ".join(_count(levels[lv], LEVEL_NOUNS[lv]) for lv in (RULE_CHANGE, CLARIFICATION, EDITORIAL)
                       if levels[lv])
    lines = ["", f"<details><summary>{_html_code(term)}: {counts}</summary>", ""]
    seen: set = set()  # a behaviour's details are shown once per term
    for change in shown:
        lines.extend(_change(change, how.old, how.new, seen, how.drop, how.listed))
    if len(shown) < len(changes):
        lines += [f"_{len(changes) - len(shown)} more left out (see above)._", ""]
    lines.append("</details>")
    return lines


def _clip(text: str) -> str:
    """A side name in the heading or the note, cut to ``SIDE_CLIP`` characters (so that the part of the
    comment nothing shortens stays bounded)."""
    return text if len(text) <= SIDE_CLIP else text[:SIDE_CLIP] + "…"


def _folded(changes: list[Change], drop: set[str]) -> list[str]:
    """The clauses renumbered with the same words (``present.folded``), of every term, in one closed
    fold: a line each, old number -> new; left out with the details of editorial changes."""
    if not changes:
        return []
    if "editorial-details" in drop:
        return ["", "_The list of renumbered clauses left out._"]
    return (["", f"<details><summary>Renumbered, same words: {_count(len(changes), 'clause')}</summary>", ""]
            + [f"- {folded_words(c, code, escape, ' → ')}" for c in changes]
            + ["", "</details>"])


LEVEL_NOUNS = {RULE_CHANGE: "rule change", CLARIFICATION: "clarification", EDITORIAL: "editorial change"}


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _detail_key(change: Change) -> str:
    return {EDITORIAL: "editorial-details", CLARIFICATION: "clarification-details"}.get(change.level, "rule-details")


def _arg(info: SideInfo) -> str:
    """A side as the command line names it, inert (it is untrusted: a branch name), clipped."""
    return printable(_clip(info.spec)).replace("`", "'").replace("@", "@" + WORD_JOINER)


def _html_code(text: str) -> str:
    """``code`` in HTML, for the summary of a ``<details>`` (where Markdown is not read): GitHub links
    nothing inside ``<code>`` either, so only "@" gets the word joiner."""
    return f"<code>{html.escape(printable(text), quote=True).replace('@', '@' + WORD_JOINER)}</code>"


def _name(name: N.NameChange, old: str, new: str, drop: set[str]) -> list[str]:
    """One bullet per decision, predicate or constraint: what it answers, or how its answers changed
    (its transitions nested, left out with the situation tables)."""
    line = f"- {code(name.name)} ({escape(name.kind)}, {name.status}): "
    line += _name_answers(name) if name.behaviour is not None else _name_meaning(name)
    line += _changed_by(name)
    out = [line + _breaks(name.conformance)]
    if name.behaviour is None:
        out += _name_words(name, drop)
    elif "witnesses" not in drop:
        out += ["  " + t for t in _transitions(name.behaviour)[1:]]
        table = _witness_table(name.behaviour, old, new)  # in the list item: indented as its text
        out += table[:1] + ["  " + row for row in table[1:]]
    return out


def _name_answers(name: N.NameChange) -> str:
    """How a name's answers changed, where its definition is, and what it changed through."""
    assert name.behaviour is not None
    line = escape(name.behaviour.extent())
    if N.clauses_words(name):  # a changed predicate: the clause that defines it
        line += "; defined in " + ", ".join(code(c) for c in name.new_clauses) + (
            " (old: " + ", ".join(code(c) for c in name.old_clauses) + ")"
            if name.old_clauses and name.old_clauses != name.new_clauses else "")
    return line + "".join(f"; {_part(part)}" for part in N.through(name))


def _name_meaning(name: N.NameChange) -> str:
    """What a name of one side answers, and the clauses that define it or rule on it."""
    clauses = name.old_clauses if name.status == N.REMOVED else name.new_clauses
    where = (f" {'Defined in' if name.kind == 'predicate' else 'Rules in'} "
             + ", ".join(code(c) for c in clauses) + (" (old)" if name.status == N.REMOVED else "")) \
        if clauses and name.kind != "constraint" else ""
    return (escape(name.meaning) if name.meaning else "") + where


def _changed_by(name: N.NameChange) -> str:
    """'; changed by `c` (through `p`)', or nothing."""
    if not name.changes:
        return ""
    verb = "changed by" if name.status == N.CHANGED else f"{name.status} with"
    return f"; {verb} " + ", ".join(code(c.clause) + (" (through " + ", ".join(map(code, c.through)) + ")"
                                                   if c.through else "") for c in name.changes)


def _name_words(name: N.NameChange, drop: set[str]) -> list[str]:
    """A name of one side's own words (``names.words``), nested; their descriptions go with the
    situation tables."""
    out = []
    for head, parts in N.words(name):
        parts = [] if "witnesses" in drop else parts
        out.append(f"  - {escape(head)}" + (f": {escape(parts[0])}" if len(parts) == 1 else ""))
        out += [f"    - {escape(part)}" for part in parts] if len(parts) > 1 else []
    return out


def _part(part: N.Part) -> str:
    """A part of ``names.through``: its words escaped, its names as code ('fact `phase` gained value `end`')."""
    return " ".join(escape(words) + (" " + ", ".join(code(n) for n in names) if names else "")
                    for words, names in part)


def _change(change: Change, old: str, new: str, seen: set, drop: Set[str] = frozenset(),
            listed: Set = frozenset()) -> list[str]:
    out = [f"#### {change.kind}: {numbered_name(change, code, lambda w: escape(w, inline=True))}", ""]
    where = [f"{escape(old)}: {code(location(change.old_location))}" if change.old_location else None,
             f"{escape(new)}: {code(location(change.new_location))}" if change.new_location else None]
    out.append(" · ".join(w for w in where if w) + f" · fingerprint {code(change.fingerprint)}")
    out += [f"<br>_{note}_" for note in details(change, code, _prose)]
    out += _redline(change, drop)
    for b in change.behaviours:
        out += _behaviour(b, old, new, seen, drop, listed)
    return out + _uses_and_flags(change)


def _redline(change: Change, drop: Set[str]) -> list[str]:
    """The change's redline and what changed inside the clause, unless left out with its level's redlines."""
    redline_key = {EDITORIAL: "editorial-redlines", CLARIFICATION: "clarification-redlines"}.get(change.level)
    if redline_key in drop:
        return ["", "_Redline left out._", ""]
    shown = inside.view(change)
    out = [""] if shown and shown.long else \
        ["", "> " + redline_markdown(change.redline).replace("<br>", "<br>\n> "), ""]
    return out + _inside(shown)


def _behaviour(b: Behaviour, old: str, new: str, seen: set, drop: Set[str], listed: Set) -> list[str]:
    """A behaviour of the change: its extent, then its transitions and witnesses the first time in the term."""
    # A decision's whole change is listed once, under the decision (above); a clause's own part is its own.
    out = [f"**Behaviour** of {code(b.name)}: **{escape(b.extent())}**"
           + (" (see the decisions above)" if b in listed
              else " (as above)" if b in seen and (b.witnesses or b.transitions) else "")]
    if b in listed:
        return out + [""]
    if b not in seen and "witnesses" not in drop:
        out += _transitions(b)
    if b not in seen and "witnesses" not in drop:
        out += _witness_table(b, old, new)
    seen.add(b)
    return out + [""]


def _uses_and_flags(change: Change) -> list[str]:
    """Names added or removed with the change, the conformance it breaks, its uses and its drift."""
    out: list[str] = []
    added_or_removed = one_sided(change, code, escape)
    if added_or_removed:
        out += [", ".join(added_or_removed) + " (see the decisions above)", ""]
    breaks = flips_words(change.conformance, code, escape)
    if breaks:
        out += [f"**Breaks conformance**: {breaks}", ""]
    if change.impact:
        uses = ", ".join(f"{code(u.ref)} ({escape(use_words(u))})" for u in change.impact)
        out += [f"Used by: {uses}", ""]
    for flag in change.drift:
        out += [f"⚠️ Drift: {flag.written(code, escape)}", ""]
    return out


def _inside(shown: inside.View | None) -> list[str]:
    """What changed inside the clause (rulebook_compiler.diff.inside): a count, then a list of the changed
    items and sentences; left out with the redline when the comment is shortened."""
    if shown is None:
        return []
    note = f" ({escape(shown.note)})" if shown.note else ""
    out = [f"**Inside the clause**{note}: {escape(shown.counts)}", ""]
    if shown.lines:
        out += [f"- {escape(label)}: {redline_markdown(line)}" for label, line in shown.lines] + [""]
    return out


def _breaks(conformance: Conformance | None) -> str:
    """'; **breaks conformance**: 1 of 2 cases of v1's suite flip', or nothing."""
    found = conformance_short(conformance)
    return f"; **breaks conformance**: {escape(found)}" if found else ""


def _witness_table(b, old: str, new: str) -> list[str]:
    """The witnesses as a table: situation, both answers, the clauses that gave them."""
    if not b.witnesses:
        return []
    out = ["", f"| situation | {escape(old, inline=True)} | {escape(new, inline=True)} | decided by |",
           "| --- | --- | --- | --- |"]
    for w in b.witnesses:
        note = unknown_note(w, _cell_code, _cell)
        shown = situation(dict(w.facts), _cell_code, _cell) + (_cell(" (") + note + _cell(")") if note else "")
        out.append(f"| {shown} | {outcome(w.old, w.old_reason, (), _cell_code, _cell)} | "
                   f"{outcome(w.new, w.new_reason, (), _cell_code, _cell)} | {deciders(w, _cell_code, _cell)} |")
    return out


def _prose(text: str) -> str:
    """Prose after other text on its line (a note after "<br>_"): no block starts there ("-> 603.2f")."""
    return escape(text, inline=True)


def _cell(text: str) -> str:
    """Prose in a table cell: its "|" is escaped as every other mark, and no block starts there."""
    return escape(text, inline=True)


def _cell_code(text: str) -> str:
    """An identifier in a table cell: a code span whose "|" is written "\\|". GitHub splits a row at
    every bar not escaped, inside a code span too, and takes "\\|" back to "|" before it reads
    the span, which is then exact again."""
    return code(text).replace("|", "\\|")


def _transitions(b) -> list[str]:
    """Each way the answer changed, as a list: its size, then its descriptions nested under it."""
    lines = []
    for t in b.transitions:
        head, parts = transition_words(t, "→")
        lines.append(f"- {escape(head)}:" + (f" {escape(parts[0])}" if len(parts) == 1 else ""))
        lines += [f"  - {escape(part)}" for part in parts] if len(parts) > 1 else []
    return [""] + lines if lines else []


def redline_markdown(line: Redline) -> str:
    """Deletions in ``<del>``, insertions in ``<ins>``, every line of every run through ``escape``:
    the comment's blockquote starts a Markdown line at each "<br>", so each is a text's start."""
    marks = {DELETE: "<del>{}</del>", INSERT: "<ins>{}</ins>"}
    return "".join(marks.get(op.op, "{}").format("<br>".join(map(escape, op.text.split("\n")))) for op in line.ops)
