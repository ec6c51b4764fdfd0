"""The gold corpus: real changes labelled by hand (tests/diff/gold/*.yaml, format in its README).

Every file in the folder is loaded (files added later are picked up without
touching this test). Each label is matched to the diff's change over exactly
its clauses; the test asserts, for every label, the same pairing, kind, level
and lineage (declared or not). The only exceptions are listed below with why,
each in one direction: ``UNSEEN`` (a labelled rule change that no model and no
word shows; it must stay a clarification, never editorial) and
``OVERCAUTIOUS`` (a labelled clarification that the words, read
conservatively, or the editors' model call a rule change). The lists are
exact: a case the diff learns to read right must be taken off them.
``pytest -s tests/diff/test_gold.py`` prints the agreement per kind and level.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.diff.classify import KINDS
from rulebook_compiler.diff.engine import Change, diff_editions
from rulebook_compiler.diff.level import CLARIFICATION, EDITORIAL, LEVELS, RULE_CHANGE

ROOT = Path(__file__).resolve().parents[2]
GOLD = Path(__file__).resolve().parent / "gold"
FILES = sorted(GOLD.glob("*.yaml"))
FIELDS = {"old", "new", "kind", "level", "lineage", "reason", "relabelled"}


def _load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _diff(path: Path) -> tuple[Change, ...]:
    spec = _load(path)
    book = load_rulebook(ROOT / spec["rulebook"])
    return diff_editions(book, str(spec["old"]), book, str(spec["new"])).changes


def _refs(change: Change) -> tuple[str | None, str | None]:
    """The change's old and new side as the gold files write them ("term#a+term#b", "term", None)."""
    if change.clause is None:
        return (change.term if change.old_text is not None else None,
                change.term if change.new_text is not None else None)

    def side(term: str | None, ids: str | None) -> str | None:
        return "+".join(f"{term or change.term}#{c}" for c in ids.split("+")) if ids else None
    return side(change.old_term, change.old_clause), side(change.new_term, change.new_clause)


def _refset(text: str | None) -> set[str]:
    return set(text.split("+")) if text else set()


def _matches(path: Path) -> list[tuple[dict, Change | None]]:
    """Each label with the change over exactly its clauses (None when the diff pairs them otherwise)."""
    # The parts of a split or merge in any order: "heal#a+heal#b" is "heal#b+heal#a".
    def key(old: str | None, new: str | None) -> tuple[frozenset, frozenset]:
        return frozenset(_refset(old)), frozenset(_refset(new))
    by_refs = {key(*_refs(c)): c for c in _diff(path)}
    return [(label, by_refs.get(key(label["old"], label["new"]))) for label in _load(path)["changes"]]


def _key(path: Path, label: dict) -> tuple[str, str]:
    """A label by its file and old clause, or "added <new clause>"."""
    return path.stem, label["old"] or "added " + label["new"]


#: Labelled rule changes that the diff reads as a clarification, each with why. Any other fails.
UNSEEN: dict[tuple[str, str], str] = {
    # (empty) reg-2012-3.0.0 heal#removes-effects, which adds "paralyze" to the abilities whose
    # effects a heal removes, was here: its model (whom a heal may target) tests no such item, so
    # the item added is a rule change (rulebook_compiler.diff.level.items_in_or_out).
}

#: Labelled clarifications that the diff reads as rule changes (the safe direction), each with why.
OVERCAUTIOUS: dict[tuple[str, str], str] = {
    # (empty) reg-5.0.0-11.0.0 targeting#other-abilities-footnote was here: its predicate lists other
    # effects, but no rule reads it and its clause names no word it defines, so its words decide
    # (rulebook_compiler.diff.engine._Differ._decides_no_play).
}


#: Exceptions above whose kind differs too: a clause whose rules were rewritten with its words is
#: semantic exactly when it is a rule change (rulebook_compiler.diff.engine), so it follows the level.
KIND_FOLLOWS_LEVEL: dict[tuple[str, str], str] = {
    # (empty) reg-5.0.0-11.0.0 targeting#other-abilities-footnote was here (semantic): see OVERCAUTIOUS.
}


def _lineage_agrees(label: dict, change: Change) -> bool:
    """A label whose lineage says "declared" is paired by the declared lineage (with its key);
    any other by the diff's own matching."""
    words = label.get("lineage") or ""
    if "declared" not in words:
        return change.matched_by != "lineage"
    keys = change.lineage.keys if change.lineage else ()
    return change.matched_by == "lineage" and all(k in words for k in keys)


def _disagreements(path: Path) -> list[tuple]:
    out = []
    for label, change in _matches(path):
        got = None if change is None else (change.kind, change.level, _lineage_agrees(label, change))
        if got != (label["kind"], label["level"], True):
            out.append((_key(path, label), (label["kind"], label["level"]), got))
    return out


def test_the_corpus_is_there():
    assert {p.name for p in FILES} >= {"numbered-rules-cr-2017-2020.yaml", "numbered-rules-cr-2019-2022.yaml",
                                       "numbered-rules-coin-flip.yaml",
                                       "reg-2012-3.0.0.yaml", "reg-3.0.0-4.0.0-draft.yaml",
                                       "reg-4.0.0-draft-5.0.0.yaml", "reg-5.0.0-11.0.0.yaml"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_label_is_well_formed(path):
    spec = _load(path)
    assert {"rulebook", "old", "new", "source", "changes"} <= spec.keys()
    for label in spec["changes"]:
        assert label.keys() <= FIELDS and {"old", "new", "kind", "level", "reason"} <= label.keys(), label
        assert label["kind"] in KINDS and label["level"] in LEVELS, label
        assert label["old"] is not None or label["new"] is not None, label


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_diff_agrees_with_every_label(path):
    """Same clauses paired, same kind, same level, same lineage, for every label; the listed
    exceptions differ only in their level, in the direction listed."""
    expected = [(key, (kind, level), (KIND_FOLLOWS_LEVEL.get(key, kind),
                                      UNSEEN[key] if key in UNSEEN else RULE_CHANGE, True))
                for label in _load(path)["changes"]
                for key, kind, level in [(_key(path, label), label["kind"], label["level"])]
                if key in UNSEEN or key in OVERCAUTIOUS]
    assert _disagreements(path) == expected


def test_the_exceptions_name_labels_that_exist():
    keys = {_key(path, label) for path in FILES for label in _load(path)["changes"]}
    assert set(UNSEEN) | set(OVERCAUTIOUS) <= keys and set(KIND_FOLLOWS_LEVEL) <= set(UNSEEN) | set(OVERCAUTIOUS)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_no_labelled_rule_change_comes_out_as_editorial_or_clarification(path):
    for label, change in _matches(path):
        if label["level"] == RULE_CHANGE and _key(path, label) not in UNSEEN:
            assert change is not None and change.level == RULE_CHANGE, (label, change and change.level)


def test_a_rule_change_the_diff_cannot_see_is_still_no_editorial_change():
    for path in FILES:
        for label, change in _matches(path):
            if _key(path, label) in UNSEEN:
                assert change.level == CLARIFICATION, label


def agreement(paths=FILES) -> dict[str, tuple[int, int]]:
    """Per labelled kind and per level: (labels the diff agrees with, labels)."""
    right: Counter = Counter()
    total: Counter = Counter()
    for path in paths:
        for label, change in _matches(path):
            for key, got in ((label["kind"], change.kind if change else None),
                             ("level " + label["level"], change.level if change else None)):
                total[key] += 1
                right[key] += got == key.removeprefix("level ")
    return {k: (right[k], total[k]) for k in sorted(total)}


def _table(rows: dict[str, tuple[int, int]], what: str) -> str:
    lines = [f"| {what} | agree |", "|---|---|"]
    lines += [f"| {k.removeprefix('level ')} | {r}/{t} |" for k, (r, t) in rows.items()]
    return "\n".join(lines)


def test_agreement_per_kind_and_level(capsys):
    """Kinds agree but where they follow a listed level; levels agree but for the listed exceptions."""
    found = agreement()
    with capsys.disabled():
        labels = sum(t for k, (_, t) in found.items() if not k.startswith("level "))
        print(f"\ngold corpus: {len(FILES)} files, {labels} labels")
        print(_table({k: v for k, v in found.items() if not k.startswith("level ")}, "kind"))
        print(_table({k: v for k, v in found.items() if k.startswith("level ")}, "level"))
    kinds = Counter(label["kind"] for path in FILES for label in _load(path)["changes"])
    off = Counter(label["kind"] for path in FILES for label in _load(path)["changes"]
                  if KIND_FOLLOWS_LEVEL.get(_key(path, label), label["kind"]) != label["kind"])
    assert {k: v for k, v in found.items() if not k.startswith("level ")} == {
        k: (n - off[k], n) for k, n in kinds.items()}
    levels = Counter(label["level"] for path in FILES for label in _load(path)["changes"])
    assert {k: v for k, v in found.items() if k.startswith("level ")} == {
        "level clarification": (levels[CLARIFICATION] - len(OVERCAUTIOUS), levels[CLARIFICATION]),
        "level editorial": (levels[EDITORIAL], levels[EDITORIAL]),
        "level rule-change": (levels[RULE_CHANGE] - len(UNSEEN), levels[RULE_CHANGE])}
