"""How much a change matters to a player, as API diff tools grade a change.

- ``editorial``: no word of the rule changed (punctuation, typography, case,
  an article, a number that cites another rule, a new number or place);
- ``clarification``: words changed, no answer did;
- ``rule-change``: some situation is answered differently, or a rule now
  answers a question that one side does not ask (a decision, predicate or
  procedure that exists on one side only).

Answers decide where a model covers the clause; words decide only where none
does. Where a clause has machine-readable meaning (rules, a definition, a
table or steps, on either side), its own answers decide (clause-level
behaviour: ``rulebook_compiler.diff.clause_behaviour``). A clause with no rule of its
own is covered where the editors modelled the structure it belongs to
(``covered``): a step of a procedure whose other steps carry rules (they gave
the steps rules one by one and none to this one), an item naming a value of a
fact the term's rules test ("Hero wins"), a lead-in to a modelled or covered
clause. Added or removed, such a clause is a clarification: it states no rule
the model does not hold. Not so a step inserted into (or withdrawn from) a
procedure that both sides have: that changes the procedure's order.

Where no model covers the words, or the answers did not change, the words
still decide, conservatively, since a rule change hidden as a clarification
is the worst mistake a reviewer can be shown and a model covers only the
questions its editors asked (``words_rule_change``):

- a clause added or removed with no rule of its own that no model covers is
  a rule change ("The following scenarios have special rules ...:" over
  clauses no rule models is one), unless every word of it lives on
  (``lives_on``: in runs of ``SENTENCE_WORDS`` words or more, in the other
  edition or in a clause of its own side with rules of its own), or it is the
  one-sentence heading of subrules (its number and a letter) some of which
  carry rules of the other side (``subrules_heading``: CR 903.9 over
  903.9a-c, 2019's 903.9 split in two and its 903.9a). Each such
  clarification carries a drift flag saying why, so that a rule the model
  does not hold still shows to a reviewer;
- a rewording is a rule change when it adds or removes a whole sentence (one
  that is not moved within the clause, nor says itself that it restates or
  cites: "In other words ...", "See rule ...", "Since <words the clause
  already says>, ...", nor only names its subject: "Some cards refer to
  flipping a coin." in "705. Flipping a Coin" (``names_subject``), nor came or went with all of the clause's rules while
  the model answers as before: the model says that what it said is said
  elsewhere), when it adds or removes words with nothing in their
  place (a list item or a condition: "hand, graveyard, or library" losing
  "graveyard"), or brings in more new words than it takes out, or when a
  number that is not a rule number changes. A noun naming a quotation as
  words ("The phrase “Restore abilities” means ...") adds none. Words replaced
  one for one by other words ("add" -> "move") are a clarification: the
  model, or the reviewer, says whether the answer moved. In a clause with rules of
  its own only whole (or rewritten) sentences and numbers count: words moved
  within a sentence ("A cure targets a poisoned character" -> "Only a
  poisoned character can be the target of a cure") are the model's to judge,
  but for an item added to or removed from a list that no rule of the clause
  tests (``items_in_or_out``): "poison or disease" -> "poison, disease, or
  paralysis" in a clause whose rules say whom a cure may target adds what the
  clause covers where its model asks nothing. So are a merge's or split's
  sentences moved and reworded (``reworded_across``): its parts stand one after
  another in an order no editor chose and a redline shows no move, so a whole
  sentence that pairs one to one with a sentence of the other side that the
  change rewrites, more than ``REWRITTEN`` of each one's words being the
  other's, is words within a sentence (CR 2019 705.1 and 705.2 merged into
  2022's 705.2), and each such pair in a clarification carries a drift flag
  quoting both (``moved_and_reworded``, ``reworded_flag``); a sentence no
  rewritten sentence stands for still counts, even when each of its words is
  found elsewhere.

``--fail-on LEVEL`` exits 1 when some change is at that level or above. A
clarification of a clause with rules of its own whose words change in
substance while its answers do not (words its rules do not account for:
``rulebook_compiler.diff.unaccounted``) counts as a rule change there until the editors
record, in the clause's ``rules_checked``, that they checked its rules against
the new words (``Change.unchecked``); its level stays the answers' verdict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import AbstractSet, Any

from .classify import EDITORIAL as TEXT_EDITORIAL, NO_LABELS, REWORDED, Labels, Shape, Side, change_kind, drift, \
    keys_tested, normal_words, text_kind
from .draft import Draft, Name, Terms
from .flags import Flag, Ident, flag, listed
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
# A sentence that says some things refer to what follows, and nothing else: "Some cards refer to
# flipping a coin." The quantifier and the verb say the words follow; they grant nothing.
_REFERS = re.compile(r"(?i)^\W*(?:some|many|certain|several)\s+\w+\s+(?:refer\s+to|mention|involve)\s+(.+?)\W*$")


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


#: Texts one from the next apart: no run of words is read across two of them (clauses, titles).
Said = tuple[str, ...]


@dataclass(frozen=True)
class Reading:
    """What a change's words are read with: ``rule_change`` and ``moved_pairs`` read the same.

    ``old_elsewhere`` and ``new_elsewhere``: the text of the rest of the terms on each side. A sentence
    that this clause gains from, or gives to, another clause is moved, not a new or withdrawn rule;
    an added or removed clause is none when every word of it lives on there (``lives_on``: for one,
    the other clauses of its term on each side, apart). ``modelled``: the clause has rules of its own,
    whose answers did not change; ``tested``: the facts, values (``fact=value``) and predicates they
    test. ``carried``: the side (``INSERT``, ``DELETE``) whose whole sentences came or went with all of
    the clause's rules, whose answers the model shows the same: what those sentences said, the model
    says is said elsewhere. ``subject``: the titles of the clause's section and term on both sides
    (``names_subject``).
    """

    kind: str
    redline: Redline
    old_elsewhere: Said = ()
    new_elsewhere: Said = ()
    modelled: bool = False
    tested: frozenset[str] = frozenset()
    carried: frozenset[str] = frozenset()
    subject: Said = ()

    def rule_change(self) -> bool:
        """Whether the words alone may change a rule that no model shows (see the module docstring)."""
        if self.kind == "added":
            return not lives_on(self.redline.new, self.old_elsewhere + self.new_elsewhere)
        if self.kind == "removed":
            return not lives_on(self.redline.old, self.new_elsewhere + self.old_elsewhere)
        line = naming_nouns(self.redline) or self.redline
        whole = _whole(line, INSERT) + _whole(line, DELETE)
        counted = self._counted(line)
        moved = {s for pair in self._moved(line, counted) for s in pair}
        sentences = [s for s in counted if s not in moved]
        return bool(sentences or _numbers(line)
                    or (not self.modelled and _words_in_or_out(line, whole))
                    or (self.modelled and items_in_or_out(line.old, line.new, self.tested)))

    def moved_pairs(self) -> list[tuple[str, str]]:
        """(old sentence, new sentence): the pairs that ``rule_change`` reads as one sentence moved and
        reworded across a merge or split, where the old or new one would otherwise count as new or
        withdrawn; in the old text's order. Each gets a drift flag (``reworded_flag``)."""
        if not self.across:
            return []  # before the redline is read again: most clarifications are no merge or split
        line = naming_nouns(self.redline) or self.redline
        return self._moved(line, self._counted(line))

    @property
    def across(self) -> bool:
        """A merge or split of a clause with rules of its own: where a sentence may move and be reworded."""
        return self.modelled and self.kind in ("merged", "split")

    def _counted(self, line: Redline) -> list[str]:
        """The whole sentences that count as new or withdrawn, before a merge's or split's sentences moved
        and reworded are taken out (``_whole_sentences`` less those that only name their subject)."""
        return [s for s in _whole_sentences(line, " ".join(self.old_elsewhere), " ".join(self.new_elsewhere),
                                            self.carried) if not names_subject(s, self.subject)]

    def _moved(self, line: Redline, counted: list[str]) -> list[tuple[str, str]]:
        """The pairs (``reworded_across``) of a merge or split of a modelled clause that take a ``counted``
        sentence out: in a clause with rules of its own, words within a sentence are the model's to judge."""
        if not self.across:
            return []
        return [(old, new) for old, new in reworded_across(line) if old in counted or new in counted]


def words_rule_change(*args: Any, **kwargs: Any) -> bool:
    """``Reading(...).rule_change()``: whether the words alone may change a rule that no model shows."""
    return Reading(*args, **kwargs).rule_change()


def moved_and_reworded(*args: Any, **kwargs: Any) -> list[tuple[str, str]]:
    """``Reading(...).moved_pairs()``: the sentences read as moved and reworded across a merge or split."""
    return Reading(*args, **kwargs).moved_pairs()


def reworded_flag(kind: str, old: str, new: str) -> Flag:
    """The drift flag of a sentence read as moved and reworded across a merge or split."""
    across = "merge" if kind == "merged" else "split"
    return flag(f"the text no longer says “{old}” and now says “{new}”: read as one sentence moved and reworded "
            f"across the {across}, and the answers are the same")


# A list of three or more: "a, b, or c" / "a, b and c" (its middle items delimited on both sides).
_LIST = re.compile(r"(?i)((?:\w[\w'’\-]*\s+){0,4}\w[\w'’\-]*)((?:\s*,\s*[^,.;:!?()]+?){1,})\s*,?\s+(?:or|and)\s+"
                   r"((?:\w[\w'’\-]*\s*){1,5})")


def items_in_or_out(old: str, new: str, tested: frozenset[str]) -> list[str]:
    """Items of a list on one side whose words (articles and prepositions aside, compared by their
    first ``STEM`` letters) are not all found on the other side and that no key in ``tested`` names
    (a fact, value or predicate whose words are the item's, or whose name of several words is the
    item's one hyphenated word: the value ``set_aside`` names "Set-Aside"): what a list now covers
    or no longer does, where no rule of the clause tests it. Lists are a clause's list items
    (``inside.units``) and, within a sentence, three or more items joined by commas and a last
    "or"/"and"; the first and last item are cut to as many words as the longest middle one, since
    nothing marks where they begin and end. Each item once, new side first, in the order found (an
    item of a list of list items is found again within its sentence)."""
    names = [part for key in tested for part in key.casefold().split("=")]
    keys = tested_stems(tested)
    # A hyphenated word is compared whole: its first STEM letters ("set-a") begin other words too.
    hyphenated = {name.replace("_", "-") for name in names if "_" in name}
    out: dict[str, None] = {}
    for side, other in ((new, old), (old, new)):
        there = {w[:STEM] for w in normal_words(other)}
        for item in _items(side):
            said = [w for w in normal_words(item) if w not in FUNCTION_WORDS | IDIOM_ENDS]
            content = {w[:STEM] for w in said}
            if content - there and not (content & keys or hyphenated.intersection(said)):
                out[item] = None
    return list(out)


def tested_stems(tested: frozenset[str]) -> set[str]:
    """The words of the facts, values and predicates in ``tested`` (``fact=value`` keys, names of
    several words joined by "_"), by their first ``STEM`` letters, articles and prepositions aside."""
    names = [part for key in tested for part in key.casefold().split("=")]
    return {w[:STEM] for name in names for w in re.split(r"[_\s]+", name) if w and w not in FUNCTION_WORDS}


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


# A noun that names a quotation as words: "The phrase “Restore abilities” means “heal”".
_NAMING = re.compile(r"(?i)\b(?:the\s+)?(?:phrase|term|word|words|expression)\s+(?=[\"“‘'])")


def naming_nouns(redline: Redline) -> Redline | None:
    """The redline of the texts without nouns that name a quotation as words (the phrase "X" is
    "X": the quotation names it already), or None where neither text has one."""
    from .redline import redline as diff  # the module's own function, shadowed by the argument

    old, new = _NAMING.sub("", redline.old), _NAMING.sub("", redline.new)
    return None if (old, new) == (redline.old, redline.new) else diff(old, new)


def lives_on(text: str, elsewhere: Said) -> bool:
    """Every word of the text that carries something (articles and prepositions aside) stands in a
    run of at least ``SENTENCE_WORDS`` words found, in order and together, in one of ``elsewhere``
    (the other side, and the other clauses of its own side): the clause says again what is said there.
    Runs are matched by whole words, case and typography folded, never from one text to the next."""
    said = normal_words(text)
    there = " | ".join(" ".join(normal_words(part)) for part in elsewhere)
    there = f" {there} "
    covered = [False] * len(said)
    for i in range(len(said)):
        n = SENTENCE_WORDS
        while i + n <= len(said) and f" {' '.join(said[i:i + n])} " in there:
            n += 1
        if n > SENTENCE_WORDS:
            covered[i:i + n - 1] = [True] * (n - 1)
    return bool(said) and all(hit or w in FUNCTION_WORDS for w, hit in zip(said, covered))


def _whole_sentences(redline: Redline, old_elsewhere: str, new_elsewhere: str,
                     carried: frozenset[str] = frozenset()) -> list[str]:
    """Sentences inserted or deleted whole, less those moved (within the text or from or to another
    clause), those that say themselves that they restate or cite, and those on a ``carried`` side."""
    added = [] if INSERT in carried else _whole(redline, INSERT)
    dropped = [] if DELETE in carried else _whole(redline, DELETE)
    out = []
    for sentence, side, other in [(s, redline.new, redline.old + " " + old_elsewhere) for s in added] + \
            [(s, redline.old, redline.new + " " + new_elsewhere) for s in dropped]:
        if _contains(other, sentence) or _RESTATES.match(sentence) or _derived(sentence, side):
            continue
        out.append(sentence)
    return out


def names_subject(sentence: str, subject: Said) -> bool:
    """The sentence only names its subject: a referring phrase ("Some cards refer to", ``_REFERS``)
    and then only words of ``subject`` (its section's and term's titles; articles and prepositions
    aside, compared by their first ``STEM`` letters, a plural's "s" aside): "Some cards refer to
    flipping a coin." in "705. Flipping a Coin" says what the section is about and states no rule."""
    m = _REFERS.match(sentence)
    if m is None:
        return False

    def stems(text: str) -> set[str]:
        return {w.removesuffix("s")[:STEM] for w in normal_words(text) if w not in FUNCTION_WORDS}
    named = stems(m.group(1))
    return bool(named) and named <= set().union(*(stems(title) for title in subject))


def carried_sentences(redline: Redline, carried: frozenset[str]) -> list[tuple[str, str]]:
    """(op, sentence): the whole sentences on the ``carried`` sides (see ``words_rule_change``)."""
    return [(op, s) for op in (DELETE, INSERT) if op in carried for s in _whole(redline, op)]


def carried_flag(op: str, sentence: str) -> Flag:
    """The drift flag of a sentence that came or went with the clause's rules."""
    if op == DELETE:
        return flag(f"the text no longer says “{sentence}”: it went with the clause's rules, and the answers are the same")
    return flag(f"the text now says “{sentence}”: it came with the clause's rules, and the answers are the same")


def _contains(text: str, sentence: str) -> bool:
    """The sentence's words, in order and together, are in the text (case and typography folded)."""
    return " " + " ".join(normal_words(sentence)) + " " in " " + " ".join(normal_words(text)) + " "


def _sentences(redline: Redline, op: str) -> list[tuple[str, list[tuple[str, bool]]]]:
    """The sentences of one side (the side ``op`` spells), each with its words (case folded) and
    whether each word lies wholly in a run of ``op``."""
    text, changed = "", []
    for o in redline.ops:
        if o.op in (EQUAL, op):
            text += o.text
            changed += [o.op == op] * len(o.text)
    return [(m.group().strip(), [(w.group().casefold(), all(changed[m.start() + i] for i in range(*w.span())))
                                 for w in re.finditer(r"\w+(?:['’\-]\w+)*", m.group())])
            for m in _SENTENCE.finditer(text)]


def _whole(redline: Redline, op: str) -> list[str]:
    """The sentences of one side (the side ``op`` spells) that are new or gone: every word in a run of
    ``op``, or more than ``REWRITTEN`` of the words that carry something (articles and prepositions
    aside) found nowhere on the other side (compared by their first ``STEM`` letters, so that
    "instant" is "instantaneous" and a change of case is no new word)."""
    other = {w[:STEM] for w in normal_words(redline.old if op == INSERT else redline.new)}
    out = []
    for sentence, found in _sentences(redline, op):
        content = [w for w, _ in found if w not in FUNCTION_WORDS]
        fresh = [w for w in content if w[:STEM] not in other]
        if len(found) >= SENTENCE_WORDS and (all(hit for _, hit in found) or
                                             (content and len(fresh) > REWRITTEN * len(content))):
            out.append(sentence)
    return out


def reworded_across(redline: Redline) -> list[tuple[str, str]]:
    """(old sentence, new sentence), in the old text's order: each whole sentence (``_whole``) of either
    side paired with a sentence of the other side that stands for it, one the change rewrites (some
    word of it in a run of that side's op): more than ``REWRITTEN`` of the words of each (articles and
    prepositions aside, compared by their first ``STEM`` letters) are words of the other. Pairs are
    taken most alike first, each sentence in one pair only; a sentence that keeps some of its words
    needs no pair of its own (the redline pairs it with itself), and may stand for a whole sentence
    that was merged into it."""
    whole = set(_whole(redline, INSERT)) | set(_whole(redline, DELETE))
    olds, news = ([(s, _stems(s)) for s, found in _sentences(redline, op) if any(hit for _, hit in found)]
                  for op in (DELETE, INSERT))
    pairs = sorted((-min(_share(o, n), _share(n, o)), i, j) for i, o in enumerate(olds) for j, n in enumerate(news)
                   if o[0] in whole or n[0] in whole)
    used_old, used_new, out = set(), set(), []
    for score, i, j in pairs:
        if -score > REWRITTEN and i not in used_old and j not in used_new:
            used_old.add(i)
            used_new.add(j)
            out.append((i, j))
    return [(olds[i][0], news[j][0]) for i, j in sorted(out)]


def _stems(sentence: str) -> list[str]:
    """The sentence's words that carry something (articles and prepositions aside), by their first
    ``STEM`` letters."""
    return [w[:STEM] for w in normal_words(sentence) if w not in FUNCTION_WORDS]


def _share(one: tuple[str, list[str]], other: tuple[str, list[str]]) -> float:
    """The share of the words of ``one`` (a sentence and its ``_stems``) that are words of ``other``."""
    there = set(other[1])
    return sum(w in there for w in one[1]) / len(one[1]) if one[1] else 0.0


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

    def fresh(op: str, other: set[str]) -> set[str]:
        return {w[:STEM] for o in group if o.op == op for w in normal_words(o.text)
                if w not in FUNCTION_WORDS and w[:STEM] not in other and w[:STEM] not in in_whole}
    for group in edits(redline):
        if len(fresh(INSERT, old)) != len(fresh(DELETE, new)):
            return True
    return False


def edits(redline: Redline) -> list[list]:
    """The redline's edits: the runs of deletions and insertions between words that stay (a comma or
    a semicolon that stays between two runs joins them: "poison, disease" -> "poison or disease")."""
    groups: list[list] = [[]]
    for o in redline.ops:
        if o.op != EQUAL:
            groups[-1].append(o)
        elif o.text.strip(" ,;"):
            groups.append([])
    return [g for g in groups if g]


def _numbers(redline: Redline) -> bool:
    """A number that is not a cited rule number changed (a life total, a count, a limit)."""
    def numbers(text: str) -> set[str]:
        return set(re.findall(r"\d+", _CITED.sub(r"\1#", without_step_number(text))))
    return numbers(redline.old) != numbers(redline.new)


#: How a drift flag begins that says why a clause with no rule of its own is no rule change.
COVERED = "no rule of its own; the editors' model covers it as "
#: The drift flag of a clause with no rule of its own whose words all live on (``lives_on``).
LIVES_ON = flag("no rule of its own; every word of it is said elsewhere: in the other edition or in a clause with rules "
                "of its own")


def modelled(clause) -> bool:
    """The clause has machine-readable meaning of its own: rules, a definition, a table or steps."""
    return bool(clause.rules or clause.defines or clause.steps or clause.table)


def covered(clause, term, other, vocabulary) -> Flag | None:
    """How the editors' model covers a clause with no rule of its own, in words naming identifiers
    (a drift flag's end, after ``COVERED``), or None where it
    does not (then the words decide). ``term``: the clause's term on its side; ``other``: that
    term on the other side (None where the term is new or withdrawn); ``vocabulary``: the side's.

    - a step of a procedure some other step of which has rules: the editors gave the steps rules
      one by one, and none to this one. Not where the procedure exists on the other side too: a
      step inserted into or withdrawn from it changes its order, an answer.
    - an item naming a value of a fact that the term's rules test ("Hero wins": ``hero_wins`` of
      ``battle_outcome``): a short clause (``SHORT_ITEM`` words) with no end mark;
    - a lead-in (its text ends with a colon) to a clause that is modelled or covered as an item.
    """
    if modelled(clause):
        return None
    procedure = next((c.steps for c in term.clauses if c.steps is not None and clause.ref in c.steps.order), None)
    if procedure is not None:
        return _step_covered(clause, term, other, procedure)
    named = _value_named(clause, term, vocabulary)
    if named is not None:
        return flag("an item naming the value ", Ident(named[1]), " of ", Ident(named[0]), ", which its rules test")
    if clause.text.rstrip().endswith(":"):
        return _lead_in(clause, term, vocabulary)
    return None


def _step_covered(clause, term, other, procedure) -> Flag | None:
    """A step (of ``procedure``, the first of its term's steps blocks to list it) covered where some
    other step of it has rules and the procedure is not on the other side too (``covered``)."""
    steps = [s for s in term.clauses if s.ref in procedure.order and s.ref != clause.ref]
    elsewhere = other is not None and any(s.steps and s.steps.procedure == procedure.procedure
                                          for s in other.clauses)
    if elsewhere or not any(modelled(s) for s in steps):
        return None
    return flag("a step of ", Ident(procedure.procedure), ", whose other steps carry its rules")


def _lead_in(clause, term, vocabulary) -> Flag | None:
    """A lead-in (a clause ending with a colon) to the next clause of its section, when that one is
    modelled or covered as an item (``covered``)."""
    section = next(s for s in term.sections if s.key == clause.section).clauses
    at = [c.id for c in section].index(clause.id)
    after = section[at + 1] if at + 1 < len(section) else None
    if after is not None and (modelled(after) or _value_named(after, term, vocabulary) is not None):
        return flag("a lead-in to ", Ident(after.ref))
    return None


def subrules_heading(clause, clauses, carried: AbstractSet[str], added: bool = True) -> Flag | None:
    """Why a clause with no rule of its own, one sentence, is the heading of its subrules, or None:
    it has subrules (its number and a letter, among ``clauses``, its side's clauses of its term), some
    of them ``carried`` (paired with a clause of the other side): a heading put over rules that were
    there, which carry what was said (each subrule, new or not, is graded by its own words), and
    introduces them ("903.9. A commander may return to the command zone during a Commander game."
    over 903.9a-c, 2019's 903.9 split in two and its 903.9a; "704.6. Some variant games include
    additional state-based actions that aren't normally applicable:" over 2019's 704.5t-x and a new
    704.6d). ``added`` False: a heading withdrawn over subrules that live on. Numbers are the
    clauses' printed numbers, else their ids."""
    if modelled(clause) or len(list(_SENTENCE.finditer(clause.text.strip()))) != 1:
        return None
    subrules = [c for c in clauses if re.fullmatch(re.escape(_number(clause)) + "[a-z]", _number(c))]
    kept = [c.ref for c in subrules if c.ref in carried]
    if not kept:
        return None
    return flag("no rule of its own; the heading of ", listed(c.ref for c in subrules), ", of which ", listed(kept),
                " carry rules of the edition before" if added else " live on in the edition after")


def _number(clause) -> str:
    """The clause's printed rule number, else its id."""
    return clause.number if clause.number is not None else clause.id


def _value_named(clause, term, vocabulary) -> tuple[str, str] | None:
    """(fact, value): a value of an enum fact the term's rules test that a short item names (every
    word of the value, compared by its first ``STEM`` letters); None where it names none."""
    said = normal_words(clause.text)
    if not said or len(said) > SHORT_ITEM or re.search(r"[.!?;:]\s*$", clause.text):
        return None
    stems = {w[:STEM] for w in said}
    tested = {k.split("=", 1)[0] for k in keys_tested(term.clauses, {})}
    for fact in vocabulary.facts:
        if fact.type == "enum" and fact.name in tested:
            for value in fact.values:
                if {w[:STEM] for w in value.casefold().split("_")} <= stems:
                    return fact.name, value
    return None


#: Above rule-change for ``--fail-on``: a rule change whose old edition's suite has cases that flip
#: (rulebook_compiler.diff.conformance_impact). A flag on a change, not a level of its own: the change stays a rule change.
BREAKS_CONFORMANCE = "breaks-conformance"
#: ``--fail-on ruling-flips``: a ruling of the old edition is answered otherwise by the new one. Above
#: ``breaks-conformance`` (rulings are named cases of the suite, so a flipped ruling breaks it too), below
#: ``published-change`` (rulebook_compiler.diff.whole). ``breaks-conformance`` fails on a flipped ruling as well.
RULING_FLIPS = "ruling-flips"


def fails(result, floor: str) -> bool:
    """Whether ``--fail-on floor`` exits 1 for this diff (a ``DiffResult``): a change counts at its level,
    or as a rule change while some of its clauses' rules are not recorded as checked against words
    they do not account for (``Change.unchecked``)."""
    if floor == RULING_FLIPS:
        return bool(result.rulings.flipped)
    if floor == BREAKS_CONFORMANCE:
        return bool(result.rulings.flipped) or any(x.conformance is not None and x.conformance.flipped > 0
                                                   for x in (*result.changes, *result.names))
    from .names import rule_change  # names grades entries; level grades clauses

    # An entry with no clause change to carry a level is a rule change too: a decision or predicate
    # whose answers the vocabulary changed, a constraint that rules situations out or back in.
    # A change whose words its unchanged rules do not account for is counted as a rule change until the
    # editors record that they checked (``Change.unchecked``, rulebook_compiler.diff.unaccounted).
    return any(at_least(RULE_CHANGE if c.unchecked else c.level, floor) for c in result.changes) or (
        at_least(RULE_CHANGE, floor) and any(rule_change(n) for n in result.names))


# A quotation: words a clause gives a meaning to ("The phrase “being discarded” means ...").
_QUOTATION = re.compile(r"[\"“‘]\s*\w")


def says_what_it_defines(text: str, name: str) -> bool:
    """The clause's text gives words their meaning: it quotes words (“being discarded”, “healable”),
    or it says every word of the name it defines (compared by their first ``STEM`` letters: "A
    character is sick if it is poisoned" defines ``sick``). A bare list ("*Banish, Capture, ...", a
    footnote modelled as ``footnoted_ability``) does neither: it names no word it defines."""
    if _QUOTATION.search(text):
        return True
    said = {w[:STEM] for w in normal_words(text)}
    named = [w[:STEM] for w in re.split(r"[_.\s]+", name.casefold()) if w]
    return bool(named) and all(w in said for w in named)


# -- grading a change: its kind, its level and its drift flags ---------------------------------


@dataclass(frozen=True)
class Answers:
    """What a change did to the answers, as the engine compared them (``rulebook_compiler.diff.behaviour``)."""

    compared: frozenset[Name] = frozenset()  # (kind, name) of each behaviour compared for the change
    playing: bool = False  # some answer changed that changes a play
    changed: bool = False  # some answer changed, those that change no play (``annotations``) included
    one_sided: bool = False  # rules moved to or from a name that one side does not have
    annotations: tuple[str, ...] = ()  # predicates whose changed answers change no play


@dataclass(frozen=True)
class Case:
    """What ``grade`` reads of one change: its draft and redline, its answers, the terms around it.

    ``text``: ``text_of`` the draft; ``sides``: what drift reads of each side (``classify.Side``,
    with what its rules test where ``reads_drift``, else its text only); ``labels``: the phrases
    that name conditions (read where ``reads_drift``); ``step_moved``: a step of the same procedure
    at another place (``steps.renumbering``).
    """

    draft: Draft
    redline: Redline
    text: str
    answers: Answers
    terms: Terms
    step_moved: bool = False
    sides: tuple[Side, Side] = (Side("", set()), Side("", set()))
    labels: Labels = NO_LABELS

    @property
    def answers_changed(self) -> bool:
        """Some situation is answered differently: a compared name changed, a procedure's order did,
        or a clause brings or takes a name that the other side does not have (added or removed with it)."""
        d = self.draft
        if self.answers.playing or d.steps_changed:
            return True
        return d.meaning_changed and any(n not in self.answers.compared for n in d.names)

    @property
    def behaviour_changed(self) -> bool:
        """Some play is answered differently, a procedure's order changed, or rules moved to or from a name
        one side does not have."""
        return self.answers.playing or self.draft.steps_changed or self.answers.one_sided

    @property
    def added_or_removed(self) -> bool:
        return self.draft.kind in ("added", "removed")

    @cached_property
    def covered(self) -> Flag | None:
        """Why an added or removed clause with no rule of its own is no rule change, as a drift flag: the
        model covers it (``covered``), or it heads subrules that carry the other side's (``subrules_heading``)."""
        d = self.draft
        if d.header or not self.added_or_removed or d.has_meaning:
            return None
        added = d.kind == "added"
        clause = (d.news if added else d.olds)[0]
        pair = self.terms.pair_of[clause.term]
        term, other = (pair.new, pair.old) if added else (pair.old, pair.new)
        assert term is not None  # the clause is on this side: so is its term
        reason = covered(clause, term, other, self.terms.vocabularies[1 if added else 0])
        if reason is not None:
            return flag(COVERED, reason)
        return subrules_heading(clause, term.clauses, self.terms.paired[1 if added else 0], added)

    @property
    def carried(self) -> frozenset[str]:
        """The side (``DELETE``, ``INSERT``) whose sentences came or went with all of the clause's rules
        (the model answering as before, or the level says so first): the model says that what they
        said is said elsewhere."""
        ruled = (any(c.rules for c in self.draft.olds), any(c.rules for c in self.draft.news))
        return frozenset({DELETE} if ruled == (True, False) else {INSERT} if ruled == (False, True) else ())

    @cached_property
    def reading(self) -> Reading:
        """How the words are read (``Reading``): an added or removed clause against where its words may
        live on (``said_elsewhere``); a rewording against its terms' text, by its sentences only where
        it has rules of its own, less those that came or went with all of its rules."""
        d = self.draft
        if self.added_or_removed:
            assert d.kind is not None
            return Reading(d.kind, self.redline, *self.said_elsewhere())
        return Reading(d.kind or "reworded", self.redline, *self.elsewhere(), modelled=d.has_meaning,
                       tested=d.tested if d.has_meaning else frozenset(), carried=self.carried,
                       subject=self.subject())

    def said_elsewhere(self) -> tuple[Said, Said]:
        """For an added or removed clause, where its words may live on (``lives_on``), each clause
        apart: its term on the other side, and the clauses of its own side that have rules of their
        own (what they say, the model answers for; a clause that is as new as this one vouches for nothing)."""
        d = self.draft
        clause = (d.news or d.olds)[0]
        pair = self.terms.pair_of[clause.term]
        mine = pair.new if d.news else pair.old
        old, new = (tuple(c.text for c in term.clauses if c.ref != clause.ref and (term is not mine or modelled(c)))
                    if term else () for term in (pair.old, pair.new))
        return old, new

    def elsewhere(self) -> tuple[Said, Said]:
        """The text of the change's terms on each side, for ``Reading``: a sentence gained from, or
        given to, another clause of them is moved, not new or withdrawn."""
        terms = sorted({c.term for c in self.draft.clauses})
        old, new = (tuple(side.get(t, "") for t in terms) for side in self.terms.words)
        return old, new

    def subject(self) -> Said:
        """What the change's clauses are about, for ``names_subject``: the titles of their sections and
        terms, on each side."""
        titles: list[str] = []
        for side, clauses in ((0, self.draft.olds), (1, self.draft.news)):
            for c in clauses:
                pair = self.terms.pair_of[c.term]
                term = (pair.old, pair.new)[side]
                assert term is not None  # the clause is on this side: so is its term
                titles += [term.name] + [s.title or "" for s in term.sections if s.key == c.section]
        return tuple(dict.fromkeys(titles))


@dataclass(frozen=True)
class Grade:
    """A change's kind (None: nothing a reviewer reads changed), level, drift flags, and the new
    clauses whose words their unchanged rules do not account for, unchecked (``Change.unchecked``)."""

    kind: str | None
    level: str
    drift: tuple[Flag, ...] = ()
    unchecked: tuple[str, ...] = ()


def text_of(draft: Draft) -> str:
    """The draft's text kind (``classify.text_kind``); a cited rule's new number ("see rule 711" -> "712")
    is a number, not a word: editorial."""
    old, new = draft.old_text or "", draft.new_text or ""
    text = text_kind(old, new)
    return TEXT_EDITORIAL if text == REWORDED and only_cited_numbers_changed(old, new) else text


def reads_drift(draft: Draft, text: str) -> bool:
    """Drift compares what a clause's words name with what its rules test (``classify.drift``): a
    rewording of a clause with rules, neither added nor removed, nor listed for its decision's given."""
    return not draft.header and draft.has_meaning and text == REWORDED and draft.kind not in ("added", "removed") \
        and not draft.asked


def grade(case: Case) -> Grade:
    """The change's level (answers first, then words: ``level_of``), its kind (by pairing, else
    ``classify.change_kind``, which reads the level) and its drift flags (``drift_flags``)."""
    d = case.draft
    found = level_of(case)
    kind = d.kind or change_kind(Shape(d.pairing, d.header, case.text, d.old_text or "", d.new_text or "",
                                       d.meaning_changed, case.behaviour_changed, found == RULE_CHANGE,
                                       case.step_moved))
    if kind is None:
        return Grade(None, found)
    flags, unchecked = drift_flags(case, kind, found)
    return Grade(kind, found, flags, unchecked)


def level_of(case: Case) -> str:
    """Answers first (the clause's own, by its model), then the words: an added or removed clause with
    rules of its own that answer as the other side did, or with none where the model covers it
    (``Case.covered``), is a clarification, one that no model covers is read by its words; a rewording
    of a clause with rules is read by its sentences only (its words within a sentence are the model's
    to judge), less those that came or went with all of its rules. The answers that count are those
    that change a play (``Answers.playing``)."""
    d = case.draft
    if case.answers_changed:
        return RULE_CHANGE
    if d.header:
        return level(False, case.text == REWORDED or case.added_or_removed)
    if case.added_or_removed:
        if d.has_meaning or case.covered is not None:
            return CLARIFICATION  # the model answers for it, and answers as the other side does
        return RULE_CHANGE if case.reading.rule_change() else CLARIFICATION
    if case.text != REWORDED or not words_changed(d.old_text or "", d.new_text or ""):
        return EDITORIAL  # no word of the rule changed (punctuation, case, an article, a cited number)
    return RULE_CHANGE if case.reading.rule_change() else CLARIFICATION


def drift_flags(case: Case, kind: str, found: str) -> tuple[tuple[Flag, ...], tuple[str, ...]]:
    """The change's drift flags, in order, and its unchecked clauses (``unaccounted_words``). A clause
    listed for its decision's given has the same rules: no drift between its words and them."""
    if case.added_or_removed:
        flags = _rule_less(case, found)
    elif case.draft.asked:
        flags = []
    else:
        flags = _words_and_rules(case) + _carried_flags(case, found) + _reworded_flags(case, kind, found) \
            + [annotation_flag(name) for name in case.answers.annotations]
    words_flag, unchecked = unaccounted_words(case, kind, found)
    return tuple(flags + ([words_flag] if words_flag is not None else [])), unchecked


def _words_and_rules(case: Case) -> list[Flag]:
    """Drift flags (``classify.drift``); a heading's text is its declarations, so only a clause's
    mentions of facts and values are compared with what its rules test. Their words quote the
    labels the texts name (no identifier)."""
    clause = not case.draft.header
    old, new = case.sides
    return [flag(f) for f in drift(case.text, case.answers.changed, clause and case.draft.has_meaning, old, new,
                                   case.labels)]


def _rule_less(case: Case, found: str) -> list[Flag]:
    """For an added or removed clause with no rule of its own read as a clarification, a drift flag
    saying why, so that a rule the model does not hold still shows to a reviewer."""
    if found != CLARIFICATION or case.draft.has_meaning or case.draft.header:
        return []
    return [case.covered if case.covered is not None else LIVES_ON]


def _carried_flags(case: Case, found: str) -> list[Flag]:
    """For a rewording read as no rule change: each whole sentence that came or went with the
    clause's rules, so that a rule the sentence held beside them still shows to a reviewer."""
    if found == RULE_CHANGE or case.draft.header:
        return []
    return [carried_flag(op, sentence) for op, sentence in carried_sentences(case.redline, case.carried)]


def _reworded_flags(case: Case, kind: str, found: str) -> list[Flag]:
    """For a merge or split read as a clarification: each sentence read as moved and reworded
    across it (``Reading.moved_pairs``, read as the level read the words), old and new, so that a
    rule the model does not hold still shows to a reviewer."""
    if found != CLARIFICATION or case.draft.header:
        return []
    return [reworded_flag(kind, old, new) for old, new in case.reading.moved_pairs()]


def unaccounted_words(case: Case, kind: str, found: str) -> tuple[Flag | None, tuple[str, ...]]:
    """For a clause with rules of its own whose answers are the same while its words change in
    substance (``unaccounted``): the drift flag naming the words its rules do not account for, and
    the new clauses with rules on which no record (``rules_checked``) says their rules were checked
    against these words, which ``--fail-on`` counts as a rule change. Not where the rules came or
    went with the words (``Case.carried``: what the words say came with the model, or it went)."""
    from . import unaccounted as U  # unaccounted reads this module's words: imported where used
    from ..rules_checked import words_digest

    d = case.draft
    if found != CLARIFICATION or d.header or case.text != REWORDED or kind in ("added", "removed") \
            or d.asked or case.carried:
        return None, ()
    news = [c for c in d.news if modelled(c)]
    if not news:
        return None, ()
    old, new = case.sides
    unaccounted = U.unaccounted(case.redline, d.tested | old.tested | new.tested)
    if not unaccounted:
        return None, ()
    records = [U.Record(c.ref, c.rules_checked, words_digest(c.text)) for c in news]
    return U.unaccounted_flag(unaccounted, records), tuple(r.ref for r in records if not r.checked)


def annotation_flag(predicate: str) -> Flag:
    """The drift flag of a predicate whose changed answers grade nothing (``Answers.annotations``)."""
    return flag("the predicate ", Ident(predicate), " answers differently, but no rule or predicate of either edition "
                "reads it and the text names no word it defines: its words decide the level")
