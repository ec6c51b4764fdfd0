"""How much a change matters to a player, as API diff tools grade a change.

- ``editorial``: no word of the rule changed (punctuation, typography, case,
  an article, a number that cites another rule, a new number or place);
- ``clarification``: words changed, no answer did;
- ``rule-change``: some situation is answered differently, or a rule now
  answers a question that one side does not ask (a decision, predicate or
  procedure that exists on one side only).

Answers decide first: where a clause has machine-readable meaning (rules, a
definition, a table or steps, on either side), its own answers (clause-level
behaviour: ``compiler.diff.clause_behaviour``). Where they did not change, the
words still decide, conservatively, since a rule change hidden as a
clarification is the worst mistake a reviewer can be shown and a model covers
only the questions its editors asked (``words_rule_change``):

- a clause added or removed with no rule of its own is a rule change (even a
  lead-in: "The following scenarios have special rules ...:" is one);
- a rewording is a rule change when it adds or removes a whole sentence (one
  that is not moved within the clause, nor says itself that it restates or
  cites: "In other words ...", "See rule ...", "Since <words the clause
  already says>, ..."), when it adds or removes words with nothing in their
  place (a list item or a condition: "hand, graveyard, or library" losing
  "graveyard"), or brings in more new words than it takes out, or when a
  number that is not a rule number changes. Words replaced one for one by
  other words ("add" -> "move") are a clarification: the model, or the
  reviewer, says whether the answer moved. In a clause with rules of
  its own only whole (or rewritten) sentences and numbers count: words moved
  within a sentence ("A cure targets a poisoned character" -> "Only a
  poisoned character can be the target of a cure") are the model's to judge,
  but for an item added to or removed from a list that no rule of the clause
  tests (``items_in_or_out``): "poison or disease" -> "poison, disease, or
  paralysis" in a clause whose rules say whom a cure may target adds what the
  clause covers where its model asks nothing.

``--fail-on LEVEL`` exits 1 when some change is at that level or above.
"""

from __future__ import annotations

import re

from .classify import normal_words
from .redline import DELETE, EQUAL, INSERT, Redline, words
from .steps import without_step_number

EDITORIAL, CLARIFICATION, RULE_CHANGE = "editorial", "clarification", "rule-change"
LEVELS = (EDITORIAL, CLARIFICATION, RULE_CHANGE)

#: Fewest words of an inserted or deleted run that can be a sentence of a rule.
SENTENCE_WORDS = 4
#: Share of a sentence's words (articles and prepositions aside) that, replaced, make it another
#: sentence: more than half ("the first time a player takes a mulligan, they draw a new hand of as
#: many cards" -> "the first mulligan a player takes doesn't count toward the number of cards").
REWRITTEN = 0.5
#: Most words of an item in the middle of a list within a sentence ("poison, disease, or paralysis").
SHORT_ITEM = 5
#: Words that end a list as an idiom, not an item: "paralyzed, poisoned or not", "or so", "or else".
IDIOM_ENDS = frozenset({"not", "so", "else", "otherwise"})
#: Letters that stand for a word when words are compared loosely.
STEM = 5
#: Words that change no rule when added or dropped (English articles).
ARTICLES = frozenset({"a", "an", "the"})
#: Words that add no scope of their own when added or dropped with nothing in their place:
#: articles and prepositions ("Hand" -> "In hand"). A conjunction, "not" or "only" is no such word.
#: A conjunction alone adds or drops no item of a list ("(1) ... or (2) ..." -> "(1) ... (2) ...").
FUNCTION_WORDS = ARTICLES | {"in", "on", "at", "of", "to", "for", "from", "by", "with", "into", "onto", "and", "or"}
# A rule or step cited by number: "rule 711.4a", "rules 903.6-903.11", "steps 1-5", "section 8".
_CITED = re.compile(r"(?i)\b((?:rule|step|section)s?\s+)\d+(?:\.\d+[a-z]?)?(?:\s*[-–]\s*\d+(?:\.\d+[a-z]?)?)?")
# A sentence: up to its end mark (and closing quotes), or the end of the text.
_SENTENCE = re.compile(r"[^.!?]+(?:[.!?]+[\"'”’)]*|$)")
# A sentence that says itself it restates or cites.
_RESTATES = re.compile(r"(?i)^\W*(?:in other words|that is|see (?:also )?(?:rule|section|step)s?\b|for example|example:)")
_SINCE = re.compile(r"(?i)^\W*since\s+([^,]+),")


def level(answers_changed: bool, words_changed: bool) -> str:
    """The level of a change from what it did to the answers and to the words."""
    if answers_changed:
        return RULE_CHANGE
    return CLARIFICATION if words_changed else EDITORIAL


def at_least(found: str, floor: str) -> bool:
    """Whether a change at ``found`` reaches ``floor`` (for ``--fail-on``)."""
    return LEVELS.index(found) >= LEVELS.index(floor)


def _plain(text: str) -> list[str]:
    """The words that carry a rule: case and typography folded, articles and cited rule numbers left out."""
    return [w for w in normal_words(_CITED.sub(r"\1#", text)) if w not in ARTICLES]


def only_cited_numbers_changed(old: str, new: str) -> bool:
    """The texts differ only in the numbers of the rules they cite."""
    return normal_words(_CITED.sub(r"\1#", old)) == normal_words(_CITED.sub(r"\1#", new))


def words_changed(old: str, new: str) -> bool:
    """Some word of the rule changed: more than punctuation, typography, case, articles and cited rule numbers."""
    return _plain(old) != _plain(new)


def words_rule_change(kind: str, redline: Redline, old_elsewhere: str = "", new_elsewhere: str = "",
                      modelled: bool = False, tested: frozenset[str] = frozenset()) -> bool:
    """Whether the words alone may change a rule that no model shows (see the module docstring).

    ``old_elsewhere`` and ``new_elsewhere``: the text of the rest of the terms on each side. A sentence
    that this clause gains from, or gives to, another clause is moved, not a new or withdrawn rule.
    ``modelled``: the clause has rules of its own, whose answers did not change; ``tested``: the
    facts, values (``fact=value``) and predicates they test.
    """
    if kind in ("added", "removed"):
        return True
    whole = _whole(redline, INSERT) + _whole(redline, DELETE)
    return bool(_whole_sentences(redline, old_elsewhere, new_elsewhere) or _numbers(redline)
                or (not modelled and _words_in_or_out(redline, whole))
                or (modelled and items_in_or_out(redline.old, redline.new, tested)))


# A list of three or more: "a, b, or c" / "a, b and c" (its middle items delimited on both sides).
_LIST = re.compile(r"(?i)((?:\w[\w'’\-]*\s+){0,4}\w[\w'’\-]*)((?:\s*,\s*[^,.;:!?()]+?){1,})\s*,?\s+(?:or|and)\s+"
                   r"((?:\w[\w'’\-]*\s*){1,5})")


def items_in_or_out(old: str, new: str, tested: frozenset[str]) -> list[str]:
    """Items of a list on one side whose words (articles and prepositions aside, compared by their
    first ``STEM`` letters) are not all found on the other side and that no key in ``tested`` names
    (a fact, value or predicate whose words are the item's): what a list now covers or no longer
    does, where no rule of the clause tests it. Lists are a clause's list items (``inside.units``)
    and, within a sentence, three or more items joined by commas and a last "or"/"and"; the first
    and last item are cut to as many words as the longest middle one, since nothing marks where
    they begin and end."""
    keys = {w[:STEM] for key in tested for w in re.split(r"[_=\s]+", key.casefold()) if w and w not in FUNCTION_WORDS}
    out = []
    for side, other in ((new, old), (old, new)):
        there = {w[:STEM] for w in normal_words(other)}
        for item in _items(side):
            content = {w[:STEM] for w in normal_words(item) if w not in FUNCTION_WORDS | IDIOM_ENDS}
            if content - there and not content & keys:
                out.append(item)
    return out


def _items(text: str) -> list[str]:
    """The list items of a text (see ``items_in_or_out``)."""
    from .inside import ITEM, units  # inside reads the redline too; imported where used

    found = [u.core for u in units(text) if u.unit == ITEM]
    for m in _LIST.finditer(text):
        middle = [part.strip() for part in m.group(2).split(",") if part.strip()]
        if not middle or any(len(words(part)) > SHORT_ITEM for part in middle):
            continue
        width = max(len(words(part)) for part in middle)
        found += [" ".join(words(m.group(1))[-width:]), *middle, " ".join(words(m.group(3))[:width])]
    return found


def _whole_sentences(redline: Redline, old_elsewhere: str, new_elsewhere: str) -> list[str]:
    """Sentences inserted or deleted whole, less those moved (within the text or from or to another
    clause) and those that say themselves that they restate or cite."""
    added = _whole(redline, INSERT)
    dropped = _whole(redline, DELETE)
    out = []
    for sentence, side, other in [(s, redline.new, redline.old + " " + old_elsewhere) for s in added] + \
            [(s, redline.old, redline.new + " " + new_elsewhere) for s in dropped]:
        if _contains(other, sentence) or _RESTATES.match(sentence) or _derived(sentence, side):
            continue
        out.append(sentence)
    return out


def _contains(text: str, sentence: str) -> bool:
    """The sentence's words, in order and together, are in the text (case and typography folded)."""
    return " " + " ".join(normal_words(sentence)) + " " in " " + " ".join(normal_words(text)) + " "


def _whole(redline: Redline, op: str) -> list[str]:
    """The sentences of one side (the side ``op`` spells) that are new or gone: every word in a run of
    ``op``, or more than ``REWRITTEN`` of the words that carry something (articles and prepositions
    aside) found nowhere on the other side (compared by their first ``STEM`` letters, so that
    "instant" is "instantaneous" and a change of case is no new word)."""
    text, changed = "", []
    for o in redline.ops:
        if o.op in (EQUAL, op):
            text += o.text
            changed += [o.op == op] * len(o.text)
    other = {w[:STEM] for w in normal_words(redline.old if op == INSERT else redline.new)}
    out = []
    for m in _SENTENCE.finditer(text):
        sentence = m.group().strip()
        found = [(w.group().casefold(), all(changed[m.start() + i] for i in range(*w.span())))
                 for w in re.finditer(r"\w+(?:['’\-]\w+)*", m.group())]
        content = [w for w, _ in found if w not in FUNCTION_WORDS]
        fresh = [w for w in content if w[:STEM] not in other]
        if len(found) >= SENTENCE_WORDS and (all(hit for _, hit in found) or
                                             (content and len(fresh) > REWRITTEN * len(content))):
            out.append(sentence)
    return out


def _derived(sentence: str, side: str) -> bool:
    """"Since X, Y" where every word of X is said elsewhere on the same side: Y follows from the text."""
    m = _SINCE.match(sentence)
    if m is None:
        return False
    rest = set(_plain(side.replace(sentence, " ")))
    return bool(_plain(m.group(1))) and set(_plain(m.group(1))) <= rest


def _words_in_or_out(redline: Redline, whole: list[str]) -> bool:
    """Some change within a sentence brings in a different number of words new to the clause than
    it takes out (articles and prepositions aside, words compared by their first ``STEM`` letters):
    a list item or a condition added or dropped ("hand, graveyard, or library" -> "hand or
    library"), or a phrase replaced by a longer story ("the definition of triggered effect
    abilities" -> "Action Priority in the Glossary"). One word for one ("add" -> "move") is a
    rewording. Whole sentences (``whole``) are judged as sentences, not here."""
    old = {w[:STEM] for w in normal_words(redline.old)}
    new = {w[:STEM] for w in normal_words(redline.new)}
    in_whole = {w[:STEM] for sentence in whole for w in normal_words(sentence)}
    ops = [o for o in redline.ops if not (o.op == EQUAL and not o.text.strip(" ,;"))]
    groups: list[list] = [[]]
    for o in ops:
        if o.op == EQUAL:
            groups.append([])
        else:
            groups[-1].append(o)

    def fresh(op: str, other: set[str]) -> set[str]:
        return {w[:STEM] for o in group if o.op == op for w in normal_words(o.text)
                if w not in FUNCTION_WORDS and w[:STEM] not in other and w[:STEM] not in in_whole}
    for group in groups:
        if len(fresh(INSERT, old)) != len(fresh(DELETE, new)):
            return True
    return False


def _numbers(redline: Redline) -> bool:
    """A number that is not a cited rule number changed (a life total, a count, a limit)."""
    def numbers(text: str) -> list[str]:
        return set(re.findall(r"\d+", _CITED.sub(r"\1#", without_step_number(text))))
    return numbers(redline.old) != numbers(redline.new)


#: Above rule-change for ``--fail-on``: a rule change whose old edition's suite has cases that flip
#: (compiler.diff.conformance_impact). A flag on a change, not a level of its own: the change stays a rule change.
BREAKS_CONFORMANCE = "breaks-conformance"
FAIL_ON = LEVELS + (BREAKS_CONFORMANCE,)


def fails(result, floor: str) -> bool:
    """Whether ``--fail-on floor`` exits 1 for this diff (a ``DiffResult``)."""
    if floor == BREAKS_CONFORMANCE:
        return any(x.conformance and x.conformance["flipped"] for x in (*result.changes, *result.names))
    # A decision or predicate whose answers changed through the vocabulary (no clause changed) is a
    # rule change too (compiler.diff.names: a changed entry with the facts that reach it).
    return any(at_least(c.level, floor) for c in result.changes) or (
        at_least(RULE_CHANGE, floor) and any(n.status == "changed" and n.facts for n in result.names))
