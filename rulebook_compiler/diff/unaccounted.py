"""The words a modelled clause's rules do not account for: where the words can overrule the model.

For a clause with rules of its own, the answers decide the level (``rulebook_compiler.diff.level``): where
they are the same, a rewording is a clarification. But a model answers only the questions its
editors asked, and it may be stale: "A character in a discard pile may not heal." -> "... may not
heal or play a Supporter." with the same rule forbids more, and only the words say so. So such a
change carries a drift flag naming the words the rules do not account for (``unaccounted``), and
``--fail-on rule-change`` counts it as a rule change (``level.fails``, ``Change.unchecked``) until
the editors record that they checked the rules against the new words: a clause's ``rules_checked``,
the digest of the words they read (``rulebook_compiler.rules_checked``), which goes stale when the words
change again.

In substance, an edit (a run of deletions and insertions between words that stay) brings in or
takes out:

- a word the other text does not say: not by its first ``STEM`` letters, not as another form of it
  (one begins the other, at most ``FORM_LETTERS`` longer: heal, heals, healed), not spelled
  otherwise (colour, color: ``SPELLING_LIKENESS``), and not an article, a preposition, a word of
  grammar (``GRAMMAR_WORDS``: "may not heal" -> "may not be healed"), a number (the level judges
  numbers) or a word of a fact, value or predicate the clause's rules test (those they account for;
  a hyphenated word where each of its parts is: "Set-Aside", the value ``set_aside``);
- one more or one fewer of a word that changes what a clause allows wherever it stands
  (``SCOPE_WORDS``: a negation, a modal verb, "only", "unless", "except", "if", "or"), counted, since
  the old text may say it elsewhere ("A hero may heal. A villain may not heal." -> "A hero may not
  heal. ..."). "or" joins new words and is named only where nothing else is new.

Capitalisation, punctuation and typography (words are compared case and typography folded), words
in another order, the plural, and a word the other text says are no substance: no flag.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher

from .classify import normal_words
from .flags import Flag, Ident, flag
from .level import FUNCTION_WORDS, STEM, edits, naming_nouns, tested_stems
from .redline import DELETE, INSERT, Redline, words

#: Words that change what a clause allows wherever they are added or dropped, though the other text
#: may say them elsewhere: negations, modal verbs, exceptions, conditions, an alternative ("or").
SCOPE_WORDS = frozenset({"not", "no", "never", "nor", "cannot", "can", "may", "must", "only", "unless", "except",
                         "if", "without", "or"})
#: Of those, the ones that join other words: named only where no other word is new.
JOINING = frozenset({"or", "nor"})
#: Words of grammar that say nothing of their own where they come or go: auxiliaries, pronouns and
#: relatives ("may not heal" -> "may not be healed", "a poisoned character" -> "a character that is poisoned").
GRAMMAR_WORDS = frozenset({"be", "is", "are", "was", "were", "been", "being", "has", "have", "had", "do", "does",
                           "did", "it", "its", "they", "them", "their", "this", "that", "these", "those", "which",
                           "who", "whom", "whose", "there", "as"})
#: Most letters one form of a word adds to another that it begins with (heal, heals, healed, healing),
#: and fewest letters of the shorter one.
FORM_LETTERS, FORM_STEM = 3, 4
#: Least likeness (``difflib`` ratio) of two spellings of one word of ``SPELLING_LETTERS`` letters or
#: more, beginning with the same letter (colour, color).
SPELLING_LIKENESS, SPELLING_LETTERS = 0.8, 5


@dataclass(frozen=True)
class Unaccounted:
    """An edit of a modelled clause's words that its rules do not account for."""

    now: str  # what the new text says there ("or play a Supporter"); "" where it says nothing
    before: str  # what the old text said there; "" where it said nothing
    new: tuple[str, ...]  # the words it brings in, as the new text spells them
    gone: tuple[str, ...]  # the words it takes out, as the old text spelled them


@dataclass(frozen=True)
class Record:
    """A new clause of a flagged change and the editors' record on it (``rules_checked``)."""

    ref: str
    recorded: str | None  # the digest the clause's rules_checked names; None where it has none
    digest: str  # the digest of its words: what a record made against them names

    @property
    def checked(self) -> bool:
        return self.recorded == self.digest


def unaccounted(redline: Redline, tested: frozenset[str]) -> list[Unaccounted]:
    """The edits of the redline that change the words in substance (see the module docstring), in
    order, each once; ``tested``: the facts, values (``fact=value``) and predicates the clause's rules test."""
    redline = naming_nouns(redline) or redline  # the phrase "X" is "X": no noun of its own
    old, new = normal_words(redline.old), normal_words(redline.new)
    keys = tested_stems(tested)
    out = []
    for group in edits(redline):
        now, before = _said(group, INSERT), _said(group, DELETE)
        brought, taken = _fresh(now, new, old, keys), _fresh(before, old, new, keys)
        found = Unaccounted(now, before, brought, taken)
        if (brought or taken) and found not in out:  # the same edit twice ("gain" -> "have") is said once
            out.append(found)
    return out


def _said(group: list, op: str) -> str:
    """The words one side of an edit says, trimmed of the spaces and marks around them."""
    return " ".join(" ".join(o.text.split()) for o in group if o.op == op).strip(" ,;:.!?")


def _fresh(said: str, mine: list[str], other: list[str], keys: set[str]) -> tuple[str, ...]:
    """The words of ``said`` (an edit's side, whose whole text's words are ``mine``) that are new to
    the ``other`` side's words, each once, as ``said`` spells them."""
    there = {w[:STEM] for w in other}
    have, had = Counter(mine), Counter(other)
    found: list[str] = []
    joining: list[str] = []
    seen: set[str] = set()
    for word in words(said):
        w = normal_words(word)[0]
        if w in seen:
            continue
        seen.add(w)
        if _scope(w):
            if have[w] > had[w]:
                (joining if w in JOINING else found).append(word)
        elif not (w in FUNCTION_WORDS or w in GRAMMAR_WORDS or w.isdigit() or _tested(w, keys)
                  or _known(w, other, there)):
            found.append(word)
    return tuple(found or joining)


def _tested(word: str, keys: set[str]) -> bool:
    """A word of a fact, value or predicate the rules test: by its first ``STEM`` letters, or each part
    of a hyphenated word so ("Set-Aside" names the value ``set_aside``)."""
    parts = [p for p in word.split("-") if p]
    return word[:STEM] in keys or (len(parts) > 1 and all(p[:STEM] in keys for p in parts))


def _scope(word: str) -> bool:
    return word in SCOPE_WORDS or word.endswith("n't")


def _known(word: str, other: list[str], there: set[str]) -> bool:
    """The other side says the word: by its first ``STEM`` letters, as another form of it, or spelled
    otherwise (see the module docstring)."""
    if word[:STEM] in there:
        return True
    for o in other:
        short, long = sorted((word, o), key=len)
        if len(short) >= FORM_STEM and long.startswith(short) and len(long) - len(short) <= FORM_LETTERS:
            return True
        if len(short) >= SPELLING_LETTERS and word[0] == o[0] and \
                SequenceMatcher(None, word, o).ratio() >= SPELLING_LIKENESS:
            return True
    return False


def says(found: list[Unaccounted]) -> str:
    """What the edits say, in words: 'the text now says “X” (new: a, b) and no longer says “Y” (gone: c)'."""
    parts = []
    for u in found:
        if u.now and u.before:
            head = f"now says “{u.now}” where it said “{u.before}”"
        else:
            head = f"now says “{u.now}”" if u.now else f"no longer says “{u.before}”"
        lists = [f"new: {', '.join(u.new)}"] * bool(u.new) + [f"gone: {', '.join(u.gone)}"] * bool(u.gone)
        parts.append(f"{head} ({'; '.join(lists)})")
    return "the text " + " and ".join(parts)


def line(digest: str) -> str:
    """The YAML line that records a check against words of this digest (quoted: digits alone are a number)."""
    return f'rules_checked: "{digest}"'


def unaccounted_flag(found: list[Unaccounted], records: list[Record]) -> Flag:
    """The drift flag of a change whose words its rules do not account for: with the editors' record
    on each new clause with rules, that they checked; without it, that the change is counted as a rule
    change by ``--fail-on`` and how to record the check."""
    if all(r.checked for r in records):
        their = "its" if len(records) == 1 else "their"
        recorded: list = []
        for r in records:
            recorded += [", "] * bool(recorded) + [Ident(r.ref), " (", Ident(line(r.digest)), ")"]
        return flag(says(found), "; the editors recorded on ", recorded,
                    f" that {their} rules were checked against these words, so {their} answers decide the level")
    todo: list = []
    for r in records:
        if r.checked:
            continue
        todo += ["; "] * bool(todo)
        if r.recorded is None:
            todo += ["add ", Ident(line(r.digest)), " to ", Ident(r.ref)]
        else:
            todo += ["the record on ", Ident(r.ref), ", ", Ident(line(r.recorded)), ", was made against other "
                     "words; write ", Ident(line(r.digest)), " there"]
    return flag(says(found), ", which its rules do not account for: counted as a rule change by ", Ident("--fail-on"),
                " until the editors record that they checked the rules against these words (", todo, ")")
