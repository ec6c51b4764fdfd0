"""A warm ``check`` prints what ``check --no-cache`` prints, after an edit of any one field of a term's
interface (what other files' checks read of it, ``recheck.interface``) or of any field the lock digests
(``lock.edition_entry``) (issue 22, point 9).

The random edits of tests/test_recheck.py swap words, which reach some fields often and others never
(a clause's printed number, a term's dates, a table's further keys, a link's clause, a fact's order).
Here each field is edited on purpose, in a copy of tests/fixtures/recheck after a check that filled
the cache:

- in the draft editions b and c (``DRAFT``), where the incremental check may take the edit: its
  output, exit status and streams must be the full check's, byte for byte;
- in the published edition a and the vocabulary (``PUBLISHED``), where the lock must notice: the
  same, and the lock's lines are exactly the ones each edit names (the term, clause, fact or
  constraint it changes), whichever way the check ran.

``test_the_edits_reach_every_field`` holds the lists to their purpose: every content field of every
class the lock digests is changed by some published edit, and every field the interface reads by some
draft edit, as the models built before and after show.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from functools import lru_cache
from pathlib import Path
from typing import Callable

import pytest
from click.testing import CliRunner

from rulebook_compiler import lock
from rulebook_compiler.build import load_rulebook
from rulebook_compiler.cli import main
from rulebook_compiler.diagnostics import RulebookError
from rulebook_compiler.model import (Clause, Constraint, Dated, Decision, Fact, Link, Predicate, Rule, Rulebook, Section, Steps,
                            Table, TableRow, Term, Vocabulary)

FIXTURE = Path(__file__).parent / "fixtures" / "recheck"

Edit = Callable[[Path], None]


def _sub(path: str, old: str, new: str, count: int = 1) -> Edit:
    """Replace ``old`` (which must be there) by ``new`` in one file; ``count=-1``: every occurrence."""
    def edit(root: Path) -> None:
        file = root / path
        text = file.read_text()
        assert old in text, (path, old)
        file.write_text(text.replace(old, new, count))
    return edit


def _both(*edits: Edit) -> Edit:
    def edit(root: Path) -> None:
        for one in edits:
            one(root)
    return edit


def _move(old: str, new: str) -> Edit:
    return lambda root: (root / old).rename(root / new)


_SEVERAL_KEYS = """        table:
          decision: targeting.default_location
          key: [ability, outcome]
          rows:
            - {keys: {ability: heal, outcome: [hero_wins]}, value: territory}
            - {keys: {ability: [protect, negate], outcome: [evil_wins, stalemate]}, value: anywhere}
          otherwise: territory
      - id: stunned-characters"""

_ONE_KEY = """        table:
          decision: targeting.default_location
          key: ability
          rows:
            - keys: [heal]
              value: territory
            - keys: [protect]
              value: territory
            - keys: [negate]
              value: anywhere
      - id: stunned-characters"""

# edit id -> (the edit, the lock's lines it gives: what follows "published edition 'a' differs from
# rulebook.lock: ", or for the vocabulary, of each published edition)
PUBLISHED: dict[str, tuple[Edit, list[str]]] = {
    # Term
    "term-name": (_sub("editions/a/cure.yaml", "name: Cure\n", "name: Cures\n"), ["term 'cure' changed"]),
    "term-aliases": (_sub("editions/a/cure.yaml", "name: Cure\n", "name: Cure\naliases: [Remedy]\n"),
                     ["term 'cure' changed"]),
    "term-notes": (_sub("editions/a/cure.yaml", "name: Cure\n", "name: Cure\nnotes: A cure ends a poison.\n"),
                   ["term 'cure' changed"]),
    "term-updated": (_sub("editions/a/cure.yaml", "name: Cure\n",
                          "name: Cure\nupdated: {date: 2024-01-03, version: 2.0.0}\n"), ["term 'cure' changed"]),
    "term-updated-version": (_sub("editions/a/cure.yaml", "name: Cure\n", "name: Cure\nupdated: {version: 2.0.0}\n"),
                             ["term 'cure' changed"]),
    "term-released": (_sub("editions/a/cure.yaml", "name: Cure\n", "name: Cure\nreleased: {version: 1.0.0}\n"),
                      ["term 'cure' changed"]),
    # Term: renamed (its id, and with it the term each decision, clause and rule belongs to)
    "term-id": (_both(_sub("editions/a/battle.yaml", "battle", "fight", -1),
                      _move("editions/a/battle.yaml", "editions/a/fight.yaml"),
                      *(_sub("editions/b/battle.yaml", f"        formerly: step-{i}\n", "") for i in range(1, 5))),
                ["term 'battle' was removed", "term 'fight' was added"]),
    # Decision
    "decision-name": (_sub("editions/a/cure.yaml", "cure.may_target", "cure.may_aim", -1), ["term 'cure' changed",
                                                                                          "term 'cure', clause 'targets' changed"]),
    "decision-type": (_both(_sub("editions/a/battle.yaml", "type: bool", "type: enum\n    values: [keeps, loses]"),
                            _sub("editions/a/battle.yaml", "value: true", "value: keeps"),
                            _sub("editions/a/battle.yaml", "value: false", "value: loses")),
                      ["term 'battle' changed", "term 'battle', clause 'step-2' changed"]),
    "decision-values": (_sub("editions/a/targeting.yaml", "values: [territory, anywhere, battle]",
                             "values: [territory, anywhere, battle, hand]"), ["term 'targeting' changed"]),
    "decision-meaning": (_sub("editions/a/cure.yaml", "meaning: Whether a cure", "meaning: Whether any cure"),
                         ["term 'cure' changed"]),
    "decision-given": (_sub("editions/a/cure.yaml", "    meaning: Whether a cure may target the character.\n",
                            "    meaning: Whether a cure may target the character.\n"
                            "    given: {not: being_discarded}\n"), ["term 'cure' changed"]),
    # Section
    "section-key": (_sub("editions/a/cure.yaml", "key: definition", "key: curing"), ["term 'cure' changed",
                                                                                  "term 'cure', clause 'curable' changed",
                                                                                  "term 'cure', clause 'targets' changed"]),
    "section-kind": (_sub("editions/a/cure.yaml", "kind: definition\n    title: null",
                          "kind: named\n    title: Curing"), ["term 'cure' changed"]),
    "section-title": (_sub("editions/a/targeting.yaml", "title: null", "title: Targets"),
                      ["term 'targeting' changed"]),
    "section-clauses": (_sub("editions/a/heal.yaml", "    clauses:\n",
                             "    clauses:\n      - id: first\n        text: Heal comes first.\n"),
                        ["term 'heal' changed", "term 'heal', clause 'first' was added"]),
    # Clause
    "clause-text": (_sub("editions/a/cure.yaml", "curable unless", "curable except when"),
                    ["term 'cure', clause 'curable' changed"]),
    "clause-notes": (_sub("editions/a/cure.yaml", "        defines:", "        notes: Read with heal.\n        defines:"),
                     ["term 'cure', clause 'curable' changed"]),
    "clause-number": (_sub("editions/a/cure.yaml", "        defines:", "        number: '1.1'\n        defines:"),
                      ["term 'cure', clause 'curable' changed"]),
    "clause-id": (_sub("editions/a/cure.yaml", "- id: curable", "- id: curability"),
                  ["term 'cure' changed", "term 'cure', clause 'curability' was added",
                   "term 'cure', clause 'curable' was removed"]),
    # Link
    "link-phrase": (_sub("editions/a/cure.yaml", "as a heal does.\n        links: [{phrase: heal,",
                         "as a heal does.\n        links: [{phrase: a heal,"), ["term 'cure', clause 'targets' changed"]),
    "link-term": (_sub("editions/a/cure.yaml", "links: [{phrase: heal, term: heal}]", "links: [{phrase: heal, term: cure}]"),
                  ["term 'cure', clause 'targets' changed"]),
    "link-clause": (_sub("editions/a/cure.yaml", "links: [{phrase: heal, term: heal}]",
                         "links: [{phrase: heal, term: heal, clause: what-heal-does}]"),
                    ["term 'cure', clause 'targets' changed"]),
    "link-added": (_sub("editions/a/heal.yaml", "removes the effects of poison from a character.\n",
                        "removes the effects of poison from a character.\n"
                        "        links: [{phrase: character, term: cure}]\n"),
                   ["term 'heal', clause 'what-heal-does' changed"]),
    # Predicate
    "predicate-name": (_both(_sub("editions/a/cure.yaml", "name: curable", "name: mendable"),
                             _sub("editions/a/cure.yaml", "requires: curable", "requires: mendable"),
                             _sub("editions/b/poison.yaml", "curable]}", "mendable]}"),
                             _sub("editions/c/cure.yaml", "name: curable", "name: mendable"),
                             _sub("editions/c/cure.yaml", "requires: curable", "requires: mendable")),
                       ["term 'cure', clause 'curable' changed", "term 'cure', clause 'targets' changed"]),
    "predicate-meaning": (_sub("editions/a/cure.yaml", "as: {not: in_discard_pile}}",
                               "as: {not: in_discard_pile}, meaning: It may be cured.}"),
                          ["term 'cure', clause 'curable' changed"]),
    "predicate-condition": (_sub("editions/a/cure.yaml", "as: {not: in_discard_pile}", "as: {not: being_discarded}"),
                            ["term 'cure', clause 'curable' changed"]),
    # Rule
    "rule-decision": (_both(_sub("editions/a/heal.yaml", "    meaning: Whether a heal ability may target the character.\n",
                                 "    meaning: Whether a heal ability may target the character.\n"
                                 "  - name: heal.may_revive\n    type: bool\n    meaning: Whether a heal revives.\n"),
                            _sub("editions/a/heal.yaml", "          - decision: heal.may_target\n            permits",
                                 "          - decision: heal.may_revive\n            permits"),
                            _sub("editions/a/heal.yaml", "            permits: being_discarded\n",
                                 "            permits: being_discarded\n"
                                 "          - {decision: heal.may_revive, value: false}\n")),
                      ["term 'heal' changed", "term 'heal', clause 'while-being-discarded' changed"]),
    "rule-kind": (_sub("editions/a/heal.yaml", "permits: being_discarded", "requires: being_discarded"),
                  ["term 'heal', clause 'while-being-discarded' changed"]),
    "rule-when": (_sub("editions/a/cure.yaml", "requires: curable}", "requires: curable, when: {not: being_discarded}}"),
                  ["term 'cure', clause 'targets' changed"]),
    "rule-value": (_both(_sub("editions/a/heal.yaml", "value: true", "value: false"),
                         _sub("editions/a/heal.yaml", "forbids: in_discard_pile", "permits: in_discard_pile")),
                   ["term 'heal', clause 'not-from-discard-pile' changed",
                    "term 'heal', clause 'otherwise-healable' changed"]),
    "rule-test": (_sub("editions/a/cure.yaml", "requires: curable", "requires: {not: in_discard_pile}"),
                  ["term 'cure', clause 'targets' changed"]),
    "rule-exception-to": (_sub("editions/a/heal.yaml", "permits: being_discarded",
                               "permits: being_discarded\n            exception_to: [heal#not-from-discard-pile]"),
                          ["term 'heal', clause 'while-being-discarded' changed"]),
    "rule-id": (_sub("editions/a/cure.yaml", "requires: curable}", "requires: curable, id: needs-curable}"),
                ["term 'cure', clause 'targets' changed"]),
    # Steps
    "steps-procedure": (_sub("editions/a/battle.yaml", "procedure: battle.order", "procedure: battle.sequence"),
                        ["term 'battle', clause 'order' changed"]),
    "steps-order": (_sub("editions/a/battle.yaml", "step-3, step-4]", "step-4, step-3]"),
                    ["term 'battle', clause 'order' changed"]),
    # Table and its rows
    "table-row-keys": (_sub("editions/a/targeting.yaml", "keys: [protect]\n              value: territory",
                            "keys: [protect]\n              value: anywhere"),
                       ["term 'targeting', clause 'locations' changed"]),
    "table-key": (_both(_sub("editions/a/targeting.yaml", "key: ability", "key: outcome"),
                        _sub("editions/a/targeting.yaml", "[heal]", "[hero_wins]"),
                        _sub("editions/a/targeting.yaml", "[protect]", "[evil_wins]"),
                        _sub("editions/a/targeting.yaml", "[negate]", "[stalemate]")),
                  ["term 'targeting', clause 'locations' changed"]),
    "table-otherwise": (_both(_sub("editions/a/targeting.yaml", "            - keys: [negate]\n              value: anywhere\n",
                                   "          otherwise: anywhere\n")),
                        ["term 'targeting', clause 'locations' changed"]),
    "table-several-keys": (_sub("editions/a/targeting.yaml", _ONE_KEY, _SEVERAL_KEYS),
                           ["term 'targeting', clause 'locations' changed"]),
    "table-decision": (_both(_sub("editions/a/targeting.yaml", "    meaning: Where an ability's targets are, unless it says otherwise.\n",
                                  "    meaning: Where an ability's targets are, unless it says otherwise.\n"
                                  "  - name: targeting.range\n    type: enum\n    values: [territory, anywhere]\n"
                                  "    meaning: How far an ability reaches.\n"),
                             _sub("editions/a/targeting.yaml", "decision: targeting.default_location\n          key",
                                  "decision: targeting.range\n          key"),
                             _sub("editions/a/targeting.yaml", "      - id: stunned-characters\n",
                                  "      - id: stunned-characters\n        rules:\n"
                                  "          - {decision: targeting.default_location, value: battle}\n")),
                       ["term 'targeting' changed", "term 'targeting', clause 'locations' changed",
                        "term 'targeting', clause 'stunned-characters' changed"]),
    # the vocabulary: each published edition's facts and constraints
    "fact-name": (_both(_sub("vocabulary.yaml", "stunned", "dazed", -1),
                        _sub("editions/b/_vocabulary.yaml", "stunned", "dazed", -1)),
                  ["constraint 'dazed-not-in-discard-pile' changed or was added",
                   "constraint 'stunned-not-in-discard-pile' was withdrawn",
                   "fact 'dazed' changed or was added", "fact 'stunned' was withdrawn"]),
    "fact-type": (_both(_sub("vocabulary.yaml", "  - name: stunned\n    type: bool\n",
                             "  - name: stunned\n    type: enum\n    values: [dazed, out]\n"),
                        _sub("vocabulary.yaml", "[stunned, in_discard_pile]", "[{is: {stunned: out}}, in_discard_pile]")),
                  ["constraint 'stunned-not-in-discard-pile' changed or was added",
                   "fact 'stunned' changed or was added"]),
    "fact-values": (_sub("vocabulary.yaml", "values: [hero_wins, evil_wins, stalemate]",
                         "values: [hero_wins, evil_wins, stalemate, draw]"), ["fact 'outcome' changed or was added"]),
    "fact-meaning": (_sub("vocabulary.yaml", "The character is stunned.", "The character is dazed."),
                     ["fact 'stunned' changed or was added"]),
    "fact-ordered": (_sub("vocabulary.yaml", "values: [hero_wins, evil_wins, stalemate]",
                          "values: [hero_wins, evil_wins, stalemate]\n    ordered: true"),
                     ["fact 'outcome' changed or was added"]),
    "fact-added": (_sub("vocabulary.yaml", "constraints:\n", "  - name: asleep\n    type: bool\n"
                                                           "    meaning: The character is asleep.\nconstraints:\n"),
                   ["fact 'asleep' changed or was added"]),
    "constraint-id": (_sub("vocabulary.yaml", "id: not-both-discarded", "id: never-both-discarded"),
                      ["constraint 'never-both-discarded' changed or was added",
                       "constraint 'not-both-discarded' was withdrawn"]),
    "constraint-text": (_sub("vocabulary.yaml", "A character in a discard pile is not being discarded.",
                             "A discarded character is not being discarded."),
                        ["constraint 'not-both-discarded' changed or was added"]),
    "constraint-never": (_sub("vocabulary.yaml", "never: {all: [stunned, in_discard_pile]}",
                              "never: {all: [stunned, being_discarded]}"),
                         ["constraint 'stunned-not-in-discard-pile' changed or was added"]),
}

# edit id -> the edit, in the draft editions b and c (each field of recheck.interface: the term's id,
# edition and file, its clause ids and the decisions each clause rules on, its decisions' names, types and
# values, its predicates' names; what is only compared: decisions, predicates' definitions, rules' decisions
# and exceptions, lineage, dates; and the other terms' decisions it rules on)
DRAFT: dict[str, Edit] = {
    "id": _both(_sub("editions/c/plague.yaml", "plague", "pest", -1), _move("editions/c/plague.yaml", "editions/c/pest.yaml")),
    "edition": _move("editions/c/plague.yaml", "editions/b/plague.yaml"),
    "file-patch-made-whole": _sub("editions/b/targeting.yaml", "  - change: rule-3\n    set:\n"
                                  "      text: Targeting rule 3 now says something else about targets.\n", ""),
    "clause-id": _sub("editions/c/cure.yaml", "- id: targets", "- id: aims"),
    "clause-id-unused": _sub("editions/c/cure.yaml", "- id: curable", "- id: curability"),
    "clause-added": _sub("editions/c/cure.yaml", "    clauses:\n", "    clauses:\n      - id: first\n        text: First.\n"),
    "clause-rules-on": _sub("editions/b/disease.yaml", "{decision: poison.may_target, permits",
                            "{decision: disease.spreads, permits"),
    "clause-rules-on-own-decision": _sub("editions/c/cure.yaml", "      - id: targets\n",
                                         "      - id: first\n        text: First.\n"
                                         "        rules: [{decision: cure.may_target, permits: being_discarded}]\n"
                                         "      - id: targets\n"),
    "decision-name": _sub("editions/c/cure.yaml", "cure.may_target", "cure.may_aim", -1),
    "decision-name-ruled-elsewhere": _sub("editions/b/poison.yaml", "name: poison.may_target", "name: poison.may_aim"),
    "decision-type": _both(_sub("editions/c/cure.yaml", "type: bool", "type: enum\n    values: ['yes', 'no']"),
                           _sub("editions/c/cure.yaml", "requires: curable}", "value: 'yes'}")),
    "decision-values": _sub("editions/c/plague.yaml", "values: [now, later, never]", "values: [now, later, never, soon]"),
    "decision-values-dropped": _sub("editions/c/plague.yaml", "values: [now, later, never]", "values: [now, later]"),
    "decision-meaning": _sub("editions/c/cure.yaml", "meaning: Whether a cure", "meaning: Whether any cure"),
    "decision-given": _sub("editions/c/cure.yaml", "    meaning: Whether a cure may target the character.\n",
                           "    meaning: Whether a cure may target the character.\n    given: {not: being_discarded}\n"),
    "decision-added": _sub("editions/c/cure.yaml", "    meaning: Whether a cure may target the character.\n",
                           "    meaning: Whether a cure may target the character.\n"
                           "  - name: cure.speed\n    type: bool\n    meaning: Whether a cure is fast.\n"),
    "predicate-name": _sub("editions/c/cure.yaml", "name: curable", "name: mendable"),
    "predicate-condition": _sub("editions/c/cure.yaml", "as: {not: in_discard_pile}", "as: {not: being_discarded}"),
    "predicate-condition-used-elsewhere": _sub("editions/b/poison.yaml", "as: {all: [diseased, curable]}",
                                               "as: {any: [diseased, curable]}"),
    "predicate-meaning": _sub("editions/c/cure.yaml", "as: {not: in_discard_pile}}",
                              "as: {not: in_discard_pile}, meaning: It may be cured.}"),
    "rule-decision-foreign": _sub("editions/b/disease.yaml", "{decision: poison.may_target", "{decision: cure.may_target"),
    "rule-decision": _sub("editions/b/disease.yaml", "{decision: poison.may_target, permits: {all: [diseased, "
                          "being_discarded]}, exception_to: [poison#protected]}",
                          "{decision: disease.spreads, value: true, when: {all: [diseased, being_discarded]}}"),
    "rule-exception-to": _sub("editions/b/disease.yaml", "exception_to: [poison#protected]",
                              "exception_to: [poison#targets]"),
    "rule-exception-to-dropped": _sub("editions/b/disease.yaml", ", exception_to: [poison#protected]", ""),
    "lineage-source": _sub("editions/b/battle.yaml", "formerly: step-1", "formerly: step-2"),
    "lineage-dropped": _sub("editions/b/battle.yaml", "        formerly: step-1\n", ""),
    "lineage-kind": _sub("editions/b/battle.yaml", "        formerly: step-1\n", "        split_from: step-1\n"),
    "lineage-merged": _sub("editions/b/battle.yaml", "        formerly: step-3\n", "        merged_from: [step-3, step-1]\n"),
    "lineage-sources": _both(_sub("editions/b/battle.yaml", "        formerly: step-3\n", ""),
                             _sub("editions/b/battle.yaml", "formerly: step-4", "merged_from: [step-3, step-4]")),
    "updated": _sub("editions/c/cure.yaml", "name: Cure\n", "name: Cure\nupdated: {date: 2024-01-03, version: 2.0.0}\n"),
    "released": _sub("editions/c/cure.yaml", "name: Cure\n", "name: Cure\nreleased: {version: 1.0.0}\n"),
    "released-date": _both(_sub("editions/c/cure.yaml", "name: Cure\n", "name: Cure\nreleased: {version: 1.0.0}\n"),
                           _sub("editions/a/cure.yaml", "name: Cure\n", "name: Cure\nreleased: {version: 1.0.0}\n")),
    # content the interface does not read: the incremental check takes these
    "clause-text": _sub("editions/c/cure.yaml", "targets only a", "targets just a"),
    "rule-test": _sub("editions/c/cure.yaml", "requires: curable", "requires: {not: in_discard_pile}"),
    "table-row": _sub("editions/c/plague.yaml", "{keys: [heal], value: later}", "{keys: [heal], value: never}"),
    "table-otherwise-gone": _sub("editions/c/plague.yaml", "          otherwise: never\n", ""),
}


def _copy(tmp: Path) -> Path:
    shutil.copytree(FIXTURE, tmp / "book")
    return Path("book")


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["check", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def book(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    root = _copy(tmp_path)
    assert _run("book") == (0, "Recheck: 3 editions (a, b, c), 7 terms, latest c with 7 terms and 30 clauses: "
                               "no problems\n", "")
    return root


HEAD = ": error: published edition 'a' differs from rulebook.lock: "
HINT = ("  hint: a published edition does not change: undo the edit, or record a deliberate correction with "
        "rulebook correct --edition a --kind transcription|erratum --reason TEXT")


def _lock_lines(stderr: str) -> list[tuple[str, str, str]]:
    """(file, what changed, the hint after it) of each of the lock's lines."""
    lines = stderr.splitlines()
    out = []
    for line, after in zip(lines, lines[1:]):
        if HEAD in line:
            where, said = line.split(HEAD, 1)
            out.append((where.split(":", 1)[0], said.removesuffix(" (its name, aliases, notes, decisions or sections)"),
                        after))
    return sorted(out)


def _where(said: str) -> str:
    """The file a lock's line names, by what it says (rulebook_compiler/lock.py): a term or clause in the term's
    file, a term removed or a fact or constraint withdrawn in rulebook.yaml (the edition), a fact or
    constraint that changed in vocabulary.yaml."""
    if said.endswith(("' was withdrawn", "' was removed")) and ", clause '" not in said:
        return "book/rulebook.yaml"
    if said.startswith(("fact ", "constraint ")):
        return "book/vocabulary.yaml"
    return f"book/editions/a/{said.split(chr(39))[1]}.yaml"


@pytest.mark.parametrize("edit_id", sorted(PUBLISHED))
def test_a_published_edit_is_found_by_the_lock_warm_as_with_no_cache(book, edit_id):
    edit, expected = PUBLISHED[edit_id]
    edit(book)
    warm = _run("book")
    assert warm == _run("--no-cache", "book")
    assert (warm[0], _lock_lines(warm[2])) == (1, sorted((_where(said), said, HINT) for said in expected))


@pytest.mark.parametrize("edit_id", sorted(DRAFT))
def test_a_draft_edit_checks_warm_as_with_no_cache(book, edit_id):
    DRAFT[edit_id](book)
    warm = _run("book")
    assert warm == _run("--no-cache", "book")
    # and an edit after it, from what that check kept
    _sub("editions/b/poison.yaml", "A poison ability targets", "Any poison ability targets")(book)
    assert _run("book") == _run("--no-cache", "book")


# -- the lists reach every field ------------------------------------------------------------------


def _fields(before, after, out: set[tuple[str, str]]) -> None:
    """(class, field) of every field that differs between two model objects of one class, from here down
    (tuples of model objects compared item by item, as far as the shorter goes); an object where there was
    none (or none where there was one) changes each of its fields that is set."""
    if isinstance(before, lock._CONDITIONS) or isinstance(after, lock._CONDITIONS):
        return
    if before is None or after is None:
        present = after if before is None else before
        if dataclasses.is_dataclass(present):
            out.update((type(present).__name__, f.name) for f in dataclasses.fields(present)
                       if f.compare and getattr(present, f.name) not in (None, (), False, f.default))
        return
    if type(before) is not type(after) or not dataclasses.is_dataclass(before):
        return
    for f in dataclasses.fields(before):
        if not f.compare:
            continue
        old, new = getattr(before, f.name), getattr(after, f.name)
        if old == new:
            continue
        out.add((type(before).__name__, f.name))
        if isinstance(old, tuple) and isinstance(new, tuple):
            for a, b in zip(old, new):
                _fields(a, b, out)
        else:
            _fields(old, new, out)


def _changed(book: Rulebook, edited: Rulebook, editions: set[str]) -> set[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    for eid in editions:
        old, new = book.edition(eid), edited.edition(eid)
        _fields(old.vocabulary, new.vocabulary, out)
        terms = {t.id: t for t in new.terms}
        for term in old.terms:
            if term.id in terms:
                _fields(term, terms[term.id], out)
        if {t.id for t in old.terms} != set(terms):
            out.add(("Edition", "terms"))
        for lineage_old, lineage_new in zip(old.lineage, new.lineage):
            _fields(lineage_old, lineage_new, out)
        if len(old.lineage) != len(new.lineage):
            out.add(("Edition", "lineage"))
    return out


@lru_cache(maxsize=None)
def _built() -> Rulebook:
    return load_rulebook(FIXTURE)


def _edited(tmp: Path, edit: Edit) -> Rulebook | None:
    shutil.rmtree(tmp / "book", ignore_errors=True)
    root = tmp / "book"
    shutil.copytree(FIXTURE, root)
    edit(root)
    try:
        return load_rulebook(root)
    except RulebookError:
        return None


def _content(cls: type) -> set[tuple[str, str]]:
    skip = lock._NOT_CONTENT.get(cls, frozenset())
    return {(cls.__name__, f.name) for f in dataclasses.fields(cls) if f.compare and f.name not in skip}


#: Every model class the lock's digest of an edition reaches (as tests/test_lock_fields.py lists them).
DIGESTED = {Term, Decision, Section, Clause, Link, Predicate, Rule, Steps, Table, TableRow, Dated, Vocabulary, Fact,
            Constraint}

#: (class, field) that no edit of a file can change alone, with why
DERIVED = {
    ("Rule", "from_table"),  # the build's mark of a rule a table row stands for: a table edit changes the rules
    ("Decision", "term"),  # the id of the term that declares it: changes with the term's id (term-id)
    ("Predicate", "clause"),  # the ref of the clause that defines it: changes with the clause's id (clause-id)
    ("Rule", "clause"),  # likewise
}


def test_the_edits_reach_every_field(tmp_path):
    book = _built()
    published: set[tuple[str, str]] = set()
    for edit_id, (edit, _) in PUBLISHED.items():
        edited = _edited(tmp_path, edit)
        assert edited is not None, f"{edit_id}: a published edit the lock cannot see (the rulebook does not build)"
        published |= _changed(book, edited, {"a"})
    wanted = set().union(*(_content(cls) for cls in DIGESTED)) - DERIVED
    assert sorted(wanted - published) == []

    draft: set[tuple[str, str]] = set()
    for edit in DRAFT.values():
        edited = _edited(tmp_path, edit)
        if edited is not None:
            draft |= _changed(book, edited, {"b", "c"})
    # what recheck.interface reads of a term (a term's id and edition change with its file: term-id, edition)
    interface = {("Term", "updated"), ("Term", "released"), ("Dated", "version"), ("Decision", "name"),
                 ("Decision", "type"), ("Decision", "values"), ("Decision", "meaning"), ("Decision", "given"),
                 ("Term", "decisions"), ("Clause", "id"), ("Clause", "rules"), ("Rule", "decision"),
                 ("Rule", "exception_to"), ("Clause", "defines"), ("Predicate", "name"), ("Predicate", "condition"),
                 ("Predicate", "meaning"), ("Clause", "lineage"), ("Lineage", "kind"), ("Lineage", "sources"),
                 ("Edition", "lineage"), ("Section", "clauses")}
    assert sorted(interface - draft) == []
