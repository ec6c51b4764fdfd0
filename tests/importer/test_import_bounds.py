"""The import's cost is bounded (issue 23): linear patterns, O(1) ids, titles counted once.

Operations are counted, not seconds (bench/bench_import.py gives the time
ratios): a pattern is checked for two unbounded quantifiers that can match the
same character one right after the other (with only optional parts between
them), or one nested in another, which is what makes a backtracking match
quadratic or worse in a line's length; id assignment counts its probes.
"""

from __future__ import annotations

import re
import re._constants as C  # the parsed form of a pattern, to read its structure
import re._parser as P

from rulebook_compiler.importer import convert as convert_module
from rulebook_compiler.importer import layouts, match
from rulebook_compiler.importer.ids import Ids
from rulebook_compiler.importer.layouts import LAYOUTS
from rulebook_compiler.importer.run import run_import

# The characters a charset is sampled on: enough to tell the classes these patterns use apart.
ALPHABET = " \t\nazAZv09().:/-•●▪◦\"'“"
_CATEGORIES = {C.CATEGORY_SPACE: r"\s", C.CATEGORY_NOT_SPACE: r"\S", C.CATEGORY_DIGIT: r"\d",
               C.CATEGORY_NOT_DIGIT: r"\D", C.CATEGORY_WORD: r"\w", C.CATEGORY_NOT_WORD: r"\W"}


def _chars(op, av) -> frozenset[str]:
    """The sampled characters one single-character item matches."""
    if op is C.LITERAL:
        return frozenset({chr(av)})
    if op is C.NOT_LITERAL:
        return frozenset(ALPHABET) - {chr(av)}
    if op is C.ANY:
        return frozenset(ALPHABET) - {"\n"}
    if op is C.CATEGORY:
        return frozenset(ch for ch in ALPHABET if re.fullmatch(_CATEGORIES[av], ch))
    if op is C.IN:
        negate = any(o is C.NEGATE for o, _ in av)
        found = set()
        for o, a in av:
            if o is C.RANGE:
                found |= {ch for ch in ALPHABET if a[0] <= ord(ch) <= a[1]}
            elif o is not C.NEGATE:
                found |= _chars(o, a)
        return frozenset(ALPHABET) - found if negate else frozenset(found)
    raise AssertionError(f"not a single character: {op}")


def _shape(items, found: list[str]):
    """(nullable, the charsets of unbounded repeats it may start with, those it may end with)."""
    nullable, firsts, lasts = True, [], []
    for op, av in items:
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            low, high, body = av
            b_null, b_first, b_last = _shape(body, found)
            if high is C.MAXREPEAT:
                if b_first or b_last:
                    found.append("an unbounded repeat nested in another")
                chars = frozenset().union(*(_chars(o, a) for o, a in body if o in (C.LITERAL, C.NOT_LITERAL, C.ANY,
                                                                                   C.CATEGORY, C.IN)))
                e_null, e_first, e_last = low == 0 or b_null, [chars], [chars]
            else:
                e_null, e_first, e_last = low == 0 or b_null, b_first, b_last
        elif op is C.SUBPATTERN:
            e_null, e_first, e_last = _shape(av[-1], found)
        elif op is C.BRANCH:
            shapes = [_shape(branch, found) for branch in av[1]]
            e_null = any(s[0] for s in shapes)
            e_first = [c for s in shapes for c in s[1]]
            e_last = [c for s in shapes for c in s[2]]
        elif op in (C.AT, C.ASSERT, C.ASSERT_NOT):
            e_null, e_first, e_last = True, [], []
        else:
            e_null, e_first, e_last = False, [], []
        for a in lasts:
            for b in e_first:
                if a & b:
                    found.append("two unbounded repeats over " + repr("".join(sorted(a & b))) + " in a row")
        firsts = firsts + e_first if nullable else firsts
        lasts = e_last + (lasts if e_null else [])
        nullable = nullable and e_null
    return nullable, firsts, lasts


def ambiguous(pattern: re.Pattern) -> list[str]:
    """What in the pattern can make a backtracking match superlinear ([] when nothing)."""
    found: list[str] = []
    _shape(P.parse(pattern.pattern, pattern.flags), found)
    return found


def _patterns():
    for owner in (*LAYOUTS.values(), layouts, match):
        for name in dir(owner):
            value = getattr(owner, name)
            if isinstance(value, re.Pattern):
                yield f"{type(owner).__name__ if owner in LAYOUTS.values() else owner.__name__}.{name}", value


def test_the_check_finds_the_quadratic_metadata_pattern_of_issue_23():
    # The "Last Updated" pattern before: two \s* around an optional version, one right after the other.
    before = re.compile(r"\s*Last Updated:\s*(\S+)\s*(?:\(v([^)\s]+)\))?\s*")
    assert ambiguous(before) == ["two unbounded repeats over '\\t\\n ' in a row"]
    assert ambiguous(re.compile(r"(a+)+b")) == ["an unbounded repeat nested in another"]
    assert ambiguous(re.compile(r"\s*\d{1,4}\s*")) == []


def test_no_pattern_of_the_importer_can_backtrack_superlinearly():
    assert {name: ambiguous(p) for name, p in _patterns() if ambiguous(p)} == {}


def test_the_metadata_lines_still_read_with_and_without_a_version():
    reg = LAYOUTS["reg"]
    assert reg._UPDATED.fullmatch(" Last Updated:  3/13/2026   (v11.0.0) ").groups() == ("3/13/2026", "11.0.0")
    assert reg._RELEASED.fullmatch("Released: 7/26/2011 ").groups() == ("7/26/2011", None)
    assert reg._UPDATED.fullmatch("Last Updated: 3/13/2026 x") is None


def _probes(monkeypatch) -> list[str]:
    """The names Ids looks up from now on, each time it asks whether one is free."""
    probes: list[str] = []
    original = Ids._free

    def counting(self, name):
        probes.append(name)
        return original(self, name)

    monkeypatch.setattr(Ids, "_free", counting)
    return probes


def test_each_id_takes_at_most_two_probes_however_many_share_a_slug(monkeypatch):
    probes = _probes(monkeypatch)
    ids = Ids()
    assert [ids.take("same-words") for _ in range(1000)] == ["same-words"] + [f"same-words-{n}"
                                                                             for n in range(2, 1001)]
    assert len(probes) == 1 + 2 * 999  # the wanted id, then its next free number: no walk over 2, 3 ...


def test_a_suffix_taken_by_a_clause_of_its_own_is_stepped_over():
    ids = Ids({"x", "x-2"})
    assert [ids.take("x"), ids.take("x-2"), ids.take("x")] == ["x-3", "x-2-2", "x-4"]


def _numbered(rules: int, entries: int = 1) -> str:
    body = "".join(f"{100 + e}. Section {e}\n\n" + "".join(f"{100 + e}.{r + 1}. The same first five words, then "
                                                           f"rule {r}.\n\n" for r in range(rules))
                   for e in range(entries))
    return f"Contents\n\nCredits\n\n1. Game Concepts\n\n{body}Credits\n"


def test_clauses_with_the_same_first_words_cost_two_probes_each(tmp_path, monkeypatch):
    source = tmp_path / "same.txt"
    source.write_text(_numbered(2000), encoding="utf-8")
    result = run_import(source, LAYOUTS["numbered"])
    clauses = [c.id for s in result.terms[0].sections for c in s.clauses]
    assert clauses[:3] == ["the-same-first-five-words", "the-same-first-five-words-2", "the-same-first-five-words-3"]
    assert len(set(clauses)) == 2000
    probes = _probes(monkeypatch)
    run_import(source, LAYOUTS["numbered"])
    # one term id, one section key, then 1 probe for the first clause and 2 for each other
    assert len(probes) == 1 + 1 + 1 + 2 * 1999


def test_the_titles_of_the_entries_are_counted_once(tmp_path, monkeypatch):
    calls = []
    original = convert_module.repeated

    def counting(titles):
        calls.append(len(titles))
        return original(titles)

    monkeypatch.setattr(convert_module, "repeated", counting)
    source = tmp_path / "many.txt"
    source.write_text(_numbered(1, entries=300), encoding="utf-8")
    result = run_import(source, LAYOUTS["numbered"])
    assert [t.id for t in result.terms[:2]] == ["section-0", "section-1"]
    assert calls == [300]
