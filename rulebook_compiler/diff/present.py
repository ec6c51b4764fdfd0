"""Words shared by the renderers: answers, situations, locations, headings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .result import Change, DiffResult, Place, Reach, SideInfo

if TYPE_CHECKING:
    from ..model import Edition

#: How a renderer writes a part of a line: an identifier (a clause ref, a fact, a value), or words.
#: Plain text writes both as they are (``str``); the Markdown comment writes an identifier as a code
#: span, exact to copy, and words as escaped prose, so an identifier is never escaped as prose.
Write = Callable[[str], str]


def answer(value: Any) -> str:
    """yes / no / an enum value / "no answer"."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return "no answer"
    return str(value)


def answer_words(value: Any) -> str:
    """The diff's words for an answer, enum values spelt as words."""
    return answer(value).replace("_", " ")


#: A behaviour's direction in words (the changelog's and the site's "What changed").
DIRECTION_WORDS = {
    "broadened": "now says yes in more situations",
    "narrowed": "now says yes in fewer situations",
    "changed": "now answers differently in some situations",
}


def question(old: Edition, new: Edition, behaviour) -> str:
    """What a behaviour answers, in words: its decision's or predicate's meaning (the newer edition's
    first), else its name."""
    for edition in (new, old):
        if behaviour.kind == "decision" and behaviour.name in edition.decisions:
            return edition.decisions[behaviour.name].meaning
        if behaviour.kind == "predicate" and behaviour.name in edition.predicates:
            meaning = edition.predicates[behaviour.name].meaning
            if meaning:
                return meaning
    return behaviour.name


def outcome(value: Any, reason: str | None, clauses: tuple[str, ...] = (), ident: Write = str,
            words: Write = str) -> str:
    """One side's outcome in a situation: "yes (heal#a)", "not asked", "no rule answers",
    "rules conflict (heal#a, heal#b)", "not defined" (its words from ``behaviour.REASON_WORDS``).
    An answer that is a value (an enum's, a step's ref) is an identifier; yes, no and the reasons
    are words."""
    from .behaviour import CONFLICT, said

    if reason is None and value is not None and not isinstance(value, bool):
        shown = ident(answer(value))
    else:
        shown = words(said(value, reason) if reason is not None else answer(value))  # the two agree
    if clauses and (reason is None or reason == CONFLICT):
        return shown + words(" (") + _listed(clauses, ident, words) + words(")")
    return shown


def _listed(names, ident: Write, words: Write) -> str:
    return words(", ").join(map(ident, names))


def deciders(witness, ident: Write = str, words: Write = str) -> str:
    """The clauses that gave each side's outcome, "—" for a side where none did: "— → heal#a"."""
    def side(clauses: tuple[str, ...]) -> str:
        return _listed(clauses, ident, words) if clauses else words("—")

    return side(witness.old_clauses) + words(" → ") + side(witness.new_clauses)


def situation(facts: dict, ident: Write = str, words: Write = str) -> str:
    """The facts that hold (bools that are true) and every enum value; the rest are false."""
    parts = []
    for name, value in facts.items():
        if value is True:
            parts.append(name)
        elif value is not False:
            parts.append(f"{name}={value}")
    return _listed(parts, ident, words) if parts else words("no fact holds")


def unknown_note(witness, ident: Write = str, words: Write = str) -> str:
    """Which edition could not describe the situation, and why: '' when both could.

    'the old edition does not know fact diseased, value phase=end'
    """
    parts = []
    for side, names in (("old", witness.old_unknown), ("new", witness.new_unknown)):
        if names:
            parts.append(words(f"the {side} edition does not know ") + words(", ").join(
                words("value " if "=" in n else "fact ") + ident(n) for n in names))
    return words("; ").join(parts)


def location(loc: Place | None) -> str:
    return f"{loc.file}:{loc.line}:{loc.column}" if loc else ""


def clause_name(change: Change) -> str:
    """``heal#healable``, ``heal#a+b -> heal#c`` for splits and merges, ``heal`` for a heading."""
    if change.clause is None:
        return f"{change.term} (heading)"
    if change.kind in ("split", "merged") or (change.old_clause and change.new_clause
                                              and change.old_clause != change.new_clause) \
            or (change.old_term and change.new_term and change.old_term != change.new_term):
        return (f"{change.old_term or change.term}#{change.old_clause} -> "
                f"{change.new_term or change.term}#{change.new_clause}")
    return f"{change.term}#{change.clause}"


def numbered_name(change: Change, ident: Write = str, words: Write = str) -> str:
    """The change's clause as readers cite it: its printed number first, when it has one (``Change.number``),
    then its name: "400.1a zones#zones-hand"; the name alone for a clause that prints no number."""
    name = ident(clause_name(change))
    return words(change.number) + words(" ") + name if change.number else name


def summary_line(result: DiffResult) -> str:
    """'3 semantic, 1 added'; 'the vocabulary only' when no clause changed and no answer did; the
    answers the vocabulary alone changed, in the Markdown summary's words, whenever it changed some."""
    from .names import by_vocabulary_counts

    counts = [f"{n} {k}" for k, n in result.summary.items() if n]
    by_vocabulary = by_vocabulary_counts(result.names)
    if by_vocabulary:
        return (f"{', '.join(counts) or 'no clause changed'}; answers changed by the vocabulary: {by_vocabulary}"
                + unchecked_words(result))
    if not counts and not result.vocabulary.empty:
        return "the vocabulary only"
    if not counts and not result.rulings.empty:
        return "the rulings only"
    return ", ".join(counts) + unchecked_words(result) if counts else "no changes"


def unchecked_words(result: DiffResult) -> str:
    """'; 1 counted as a rule change by --fail-on (...)': the changes whose words their unchanged rules do
    not account for (``Change.unchecked``), said where a reviewer reads the counts, not only in their flags."""
    n = sum(1 for c in result.changes if c.unchecked)
    if not n:
        return ""
    return f"; {n} counted as a rule change: words its rules do not account for"


def introduced(result: DiffResult) -> str | None:
    """The edition a history's first step introduces the term in (its old side is no edition), else None."""
    return side_name(result.new) if result.old.kind == "none" else None


def side_name(info: SideInfo) -> str:
    spec, edition = info.spec, info.edition
    return spec if spec == edition or spec.endswith(":" + edition) else f"{spec} ({edition})"


def by_term(result: DiffResult) -> list[tuple[str, list[Change]]]:
    groups: dict[str, list[Change]] = {}
    for change in result.changes:
        groups.setdefault(change.term, []).append(change)
    return list(groups.items())


def details(change: Change, ident: Write = str, words: Write = str) -> list[str]:
    """Notes about how the change was found: matching, moves, coarse redlines."""
    out = []
    if change.matched_by == "lineage":
        out.append(declared_words(change, ident, words))
    if change.step:
        out.append(words(f"step {change.step.old} -> {change.step.new} of ") + ident(change.step.procedure))
    if change.procedure:
        from .steps import procedure_words

        out.append(words("steps of ") + procedure_words(change.procedure, ident, words))
    if change.numbers:
        out.append(number_words(change, ident, words))
    if change.matched_by in ("text", "split", "merge"):
        out.append(words(f"matched by {change.matched_by} similarity ({change.confidence:.0%})"
                         if change.matched_by == "text" else f"{change.matched_by} found by text similarity "
                         f"({change.confidence:.0%})"))
    out += _moved_within(change, ident, words)
    if change.redline.coarse:
        out.append(words("coarse redline: " + change.redline.coarse))
    if change.asked:
        out.append(words("text and rules unchanged; ") + _listed(change.asked, ident, words)
                   + words(f" {'is' if len(change.asked) == 1 else 'are'} asked in other situations: "
                           f"{'its' if len(change.asked) == 1 else 'their'} given changed"))
    return out


def _moved_within(change: Change, ident: Write, words: Write) -> list[str]:
    """A move within its term: to another section, or within its section (a move to another term
    shows in the clause's name, heal#a -> cure#b, and its kind)."""
    if not change.moved or change.old_term != change.new_term:
        return []
    if change.old_section != change.new_section:
        return [words("moved from section ") + ident(str(change.old_section)) + words(" to ")
                + ident(str(change.new_section))]
    return [words("moved within its section")] if change.kind != "moved" else []


#: What else a clause renumbered did, after "renumbered 603.2g -> 603.2f and" (``number_words``).
ALSO_WORDS = {"reworded": "reworded", "semantic": "changed in meaning", "editorial": "edited", "moved": "moved",
              "renamed": "renamed"}


def number_words(change: Change, ident: Write = str, words: Write = str) -> str:
    """A change's printed numbers (``Change.numbers``): "renumbered 603.2g -> 603.2f", with what else it
    did when its kind is another ("renumbered 603.2g -> 603.2f and reworded")."""
    assert change.numbers is not None, "number_words of a change with printed numbers"
    said = words("renumbered ") + _number(change.numbers.old, ident, words) + words(" -> ") \
        + _number(change.numbers.new, ident, words)
    if change.kind == "renumbered":
        return said
    return said + words(" and " + ALSO_WORDS.get(change.kind, change.kind))


def _number(number: str | None, ident: Write, words: Write) -> str:
    """A printed number as an identifier; a side that prints none says so."""
    return ident(number) if number is not None else words("no number")


def renumbering(change: Change) -> tuple[str | None, str | None] | None:
    """The numbers a renumbered clause was and is cited by: its printed numbers where they changed (a
    change of any kind), else, for a change of kind renumbered, its place in its procedure ("step 2") or
    its ids (rule numbers themselves, as ``r704-5k``); None for a change that renumbered nothing."""
    if change.numbers:
        return change.numbers.old, change.numbers.new
    if change.kind != "renumbered":
        return None
    if change.step:
        return f"step {change.step.old}", f"step {change.step.new}"
    return change.old_clause, change.new_clause


def renumbered_line(result: DiffResult, ident: Write = str, words: Write = str, head: str = "renumbered",
                    arrow: str = " -> ", shown: int = 3) -> str | None:
    """Every renumbering of the diff in one line, however many: "renumbered: 97 clauses (603.2g ->
    603.2f, 603.2h -> 603.2g, 603.2i -> 603.2h, and 94 more); 2 also reworded" (those renumbered and
    changed otherwise counted by their kind); None when no clause was renumbered."""
    from ..counts import counted

    found = [(c, pair) for c in result.changes if (pair := renumbering(c)) is not None]
    if not found:
        return None
    pairs = [pair_words(pair, ident, words, arrow) for _, pair in found[:shown]]
    more = words(f", and {len(found) - shown} more") if len(found) > shown else ""
    also: dict[str, int] = {}
    for c, _ in found:
        if c.kind != "renumbered":
            also[c.kind] = also.get(c.kind, 0) + 1
    tail = "".join(words(f"; {n} also {ALSO_WORDS.get(kind, kind)}") for kind, n in sorted(also.items()))
    return words(f"{head}: {counted(len(found), 'clause')} (") + words(", ").join(pairs) + more + words(")") + tail


def pair_words(pair: tuple[str | None, str | None], ident: Write = str, words: Write = str,
               arrow: str = " -> ") -> str:
    """A ``renumbering``: "603.2g -> 603.2f"."""
    return _number(pair[0], ident, words) + words(arrow) + _number(pair[1], ident, words)


def folded_words(change: Change, ident: Write = str, words: Write = str, arrow: str = " -> ",
                 between: str = ": ") -> str:
    """A ``folded`` change in one line: "heal#a: 603.2g -> 603.2f"; a clause renumbered by its ids
    alone is its name ("heal#r704-5k -> heal#r704-5j")."""
    pair = renumbering(change) if change.numbers or change.step else None
    if pair is not None:
        return ident(clause_name(change)) + words(between) + pair_words(pair, ident, words, arrow)
    return ident(clause_name(change))


def folded(change: Change) -> bool:
    """A renumbering and nothing else: the same words under another number, no answer changed, nothing
    declared, nothing to flag. Such changes are listed together, one line each (``renumbering``), not
    each with a redline that would show no change."""
    return (change.kind == "renumbered" and change.old_text == change.new_text and renumbering(change) is not None
            and not (change.behaviours or change.drift or change.impact or change.lineage or change.moved
                     or change.conformance or change.names))


def declared_words(change: Change, ident: Write = str, words: Write = str) -> str:
    """How the declared lineage reads: "renamed from heal#a (declared)", "merged from heal#a, heal#b"..."""
    olds = list(change.lineage.olds) if change.lineage else []
    if change.kind == "merged":
        how = "merged from"
    elif change.kind == "split":
        how = "split from"
    elif change.old_term != change.new_term:
        how = "moved from"
    else:
        how = "renamed from"
    return words(f"{how} ") + _listed(olds, ident, words) + words(" (declared)")


def direction_words(behaviour, ident: Write = str, words: Write = str) -> str:
    """How a name's answers changed, in one place for every format.

    With the comparison's counts: "heal.may_target broadened in 16 of 1,024 situations".
    """
    return ident(behaviour.name) + words(f" {behaviour.extent()}")


def one_sided(change: Change, ident: Write = str, words: Write = str) -> list[str]:
    """The decisions and predicates the change adds or removes with its rules, each listed under the
    decisions: "predicate curable added"."""
    return [words(f"{r.kind} ") + ident(r.name) + words(f" {r.status}")
            for r in change.names if r.status != "changed"]


def rule_change_words(change: Change, ident: Write = str, words: Write = str) -> str:
    """One line on what a rule change does: its changed names, or what it brings or takes."""
    changed = [direction_words(b, ident, words) for b in change.behaviours if b.direction != "equivalent"]
    # The decisions (predicates) it adds or removes with its rules, each listed under the decisions.
    changed += one_sided(change, ident, words)
    if changed:
        return words("; ").join(changed)
    if change.kind == "added":
        return words("a new rule")
    if change.kind == "removed":
        return words("a rule withdrawn")
    if change.step or change.procedure or any("steps" in e.path for e in change.structure):
        return words("a procedure's steps changed")
    # No model shows it: the words do (rulebook_compiler.diff.level reads them conservatively).
    return words("the words add, drop or rewrite a rule")


def use_words(use: Reach) -> str:
    """How a use reads after its clause: "(rule of heal#targets, old edition only)" -> the part in brackets."""
    only = {"old": ", old edition only", "new": ", new edition only"}.get(use.side, "")
    return use.via + (f", {use.direction}" if use.direction else "") + only
