"""What an incremental check takes from the state the check before kept, and what makes it check in full.

``recheck.incremental`` is called here directly, on the state a full check of tests/fixtures/recheck
kept in a private cache, after one edit of a rule's condition (an edit it takes): it gives the full
check's problems and summary, and reads only the edited file. Each way the state or the folder differs
from what it may take (a state of another format or forged, a file added, a ruling file, the lock
changed, a source gone, the edited file changed again while it is read) gives None: a full check.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest

from rulebook_compiler import recheck
from rulebook_compiler.cache import Cache, fingerprint
from rulebook_compiler.checking import check_rulebook
from rulebook_compiler.proofs import Proofs

FIXTURE = Path(__file__).parent / "fixtures" / "recheck"
SUMMARY = "Recheck: 3 editions (a, b, c), 7 terms, latest c with 7 terms and 30 clauses: no problems"
EDITED = "editions/b/poison.yaml"


@pytest.fixture
def book(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    shutil.copytree(FIXTURE, tmp_path / "book")
    root = Path("book")
    assert check_rulebook(root).summary == SUMMARY
    _edit(root, EDITED, "requires: poisonable", "requires: diseased")
    return root


def _edit(root: Path, rel: str, old: str, new: str) -> None:
    text = (root / rel).read_text()
    assert old in text
    (root / rel).write_text(text.replace(old, new, 1))


def _state(root: Path):
    proofs = Proofs(Cache.open())
    top_at = recheck.state_key(proofs.compiler, root)
    top = json.loads(proofs.cache.proofs([top_at])[top_at])
    base = json.loads(proofs.cache.proofs([top["base"]])[top["base"]])
    return base, top, proofs


def _again(root: Path, base, top, proofs, fp=None):
    return recheck.incremental(root, fingerprint(root) if fp is None else fp, base, top, proofs)


def _shown(problems) -> list[str]:
    return [str(p) for p in problems]


def test_the_state_gives_the_full_check_s_outcome_from_the_edited_file(book):
    base, top, proofs = _state(book)
    outcome = _again(book, base, top, proofs)
    full = recheck.full(book, None, record=False)
    assert (_shown(outcome.problems), outcome.summary, outcome.read, sorted(outcome.terms)) == \
        (_shown(full.problems), full.summary, 1, [EDITED])
    assert (outcome.locked, outcome.sources, outcome.state["top"]["shas"]) == \
        (True, [], {EDITED: fingerprint(book).files[EDITED]})


def _set(part: str, key: str, value):
    def change(base, top):
        (base if part == "base" else top)[key] = value
    return change


FORGED = {
    "base-format": _set("base", "format", recheck.FORMAT + 1),
    "top-format": _set("top", "format", recheck.FORMAT + 1),
    "base-not-normal": _set("base", "normal", False),
    "base-global-problems": _set("base", "global", [["x"]]),
    "base-a-list": None,
    "top-a-list": None,
    "lock-digest": _set("base", "lock", "0" * 64),
    "sources-a-string": _set("base", "sources", "rulebook.yaml"),
    "sources-missing": _set("base", "sources", ["sources/gone.pdf"]),
    "budget-not-a-number": _set("top", "budget_used", "1"),
    "budget-spent": _set("top", "budget_used", 10 ** 9),
    "no-logic": _set("top", "logic", None),
    "no-summary": _set("top", "summary", None),
    "problem-rows-forged": _set("top", "lock_problems", [["not a row"]]),
}


@pytest.mark.parametrize("forged", sorted(FORGED))
def test_a_state_it_cannot_take_is_checked_in_full(book, forged):
    base, top, proofs = _state(book)
    base, top = copy.deepcopy(base), copy.deepcopy(top)
    if forged == "base-a-list":
        base = [base]
    elif forged == "top-a-list":
        top = [top]
    else:
        FORGED[forged](base, top)
    assert _again(book, base, top, proofs) is None


def test_a_file_added_or_a_ruling_file_is_checked_in_full(book):
    base, top, proofs = _state(book)
    (book / "editions/b/antidote.yaml").write_text("id: antidote\n")
    assert _again(book, base, top, proofs) is None
    (book / "editions/b/antidote.yaml").unlink()
    assert _again(book, base, top, proofs) is not None
    fp = fingerprint(book)
    shas = {**base["shas"], "editions/b/_rulings.yaml": "0" * 64}
    ruled = {**fp.files, "editions/b/_rulings.yaml": "0" * 64}
    assert _again(book, {**base, "shas": shas}, top, proofs, fp=type(fp)(fp.key, ruled)) is None


def test_nothing_edited_is_checked_in_full(book):
    _edit(book, EDITED, "requires: diseased", "requires: poisonable")
    base, top, proofs = _state(book)
    assert _again(book, base, top, proofs) is None


def test_a_lock_removed_is_checked_in_full(book):
    base, top, proofs = _state(book)
    assert recheck.lock_digest(book) == base["lock"] != "-"
    (book / "rulebook.lock").unlink()
    assert recheck.lock_digest(book) == "-"


def test_a_file_changed_again_while_it_is_read_is_checked_in_full(book):
    base, top, proofs = _state(book)
    fp = fingerprint(book)
    _edit(book, EDITED, "requires: diseased", "requires: curable")
    assert _again(book, base, top, proofs, fp=fp) is None


@pytest.mark.parametrize("rel, kind", [("editions/b/targeting.yaml", "patch"), ("rulebook.yaml", None),
                                       ("editions/b/_vocabulary.yaml", None)])
def test_an_edit_of_a_file_that_is_not_a_whole_term_file_is_checked_in_full(book, rel, kind):
    base, top, proofs = _state(book)
    assert (base["files"].get(rel) or [None])[0] == kind
    _edit(book, EDITED, "requires: diseased", "requires: poisonable")
    _edit(book, rel, "\n", "\n\n")
    assert _again(book, base, top, proofs) is None


def test_an_edit_of_a_term_a_later_patch_builds_on_is_checked_in_full(book):
    _edit(book, EDITED, "requires: diseased", "requires: poisonable")
    base, top, proofs = _state(book)
    _edit(book, "editions/a/targeting.yaml", "number 1.", "number one.")
    assert _again(book, base, top, proofs) is None


def test_the_interface_is_what_other_files_read_of_a_term(book):
    from rulebook_compiler.build import load_rulebook

    rulebook = load_rulebook(book)
    poison = rulebook.edition("b").term_by_id["poison"]
    key, data = recheck.interface(poison, EDITED)
    assert data[:6] == ["poison", "b", 1,
                        '[["poisonable"],["targets",0],["protected",0]]',
                        [["poison.may_target", "bool"]], ["poisonable"]]
    assert data[7] == []
    assert (len(key), len(data[6])) == (20, 32)
    # named as another file, the term's file is kept by name; a rule on another term's decision is listed
    assert recheck.interface(poison, "editions/b/venom.yaml")[1][2] == "editions/b/venom.yaml"
    disease = rulebook.edition("b").term_by_id["disease"]
    assert recheck.interface(disease, "editions/b/disease.yaml")[1][3::4] == [
        '[["spreads",0],["immune","poison.may_target"]]', ["poison.may_target"]]


def test_a_check_without_the_cache_records_no_state(book):
    assert recheck.full(book, None, record=False).state is None
    assert recheck.full(book, None, record=True).state is not None


def _fresh(tmp_path: Path, monkeypatch, prepare) -> Path:
    """A copy of the fixture changed by ``prepare`` before the check that fills the cache."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    shutil.copytree(FIXTURE, tmp_path / "book")
    root = Path("book")
    prepare(root)
    check_rulebook(root)
    return root


def _warm_as_full(root: Path, incremental: bool) -> list[str]:
    warm = check_rulebook(root)
    full = check_rulebook(root, use_cache=False)
    assert (_shown(warm.problems), warm.summary, warm.incremental) == (_shown(full.problems), full.summary,
                                                                      incremental)
    return _shown(warm.problems)


def test_after_a_check_with_problems_an_edit_elsewhere_reads_only_the_edited_file(tmp_path, monkeypatch):
    root = _fresh(tmp_path, monkeypatch,
                  lambda r: _edit(r, EDITED, "requires: poisonable", "requires: poisonabel"))
    _edit(root, "editions/c/plague.yaml", "A plague kills", "The plague kills")
    assert [p.split(": error: ")[1] for p in _warm_as_full(root, True)] == [
        "unknown fact or predicate 'poisonabel'\n  hint: did you mean 'poisonable'?"]


def test_two_problems_of_one_edited_file_in_order(book):
    _edit(book, EDITED, "requires: diseased", "requires: diseasd")
    _edit(book, EDITED, "forbids: being_discarded", "forbids: being_discardd")
    assert [p.split(": error: ")[1] for p in _warm_as_full(book, True)] == [
        "unknown fact or predicate 'diseasd'\n  hint: did you mean 'diseased'?",
        "unknown fact or predicate 'being_discardd'\n  hint: did you mean 'being_discarded'?"]


def test_after_a_check_with_a_logic_problem_an_edit_elsewhere_keeps_it(tmp_path, monkeypatch):
    root = _fresh(tmp_path, monkeypatch,
                  lambda r: _edit(r, "editions/b/disease.yaml", "when: {not: poisonable}", "when: diseased"))
    _edit(root, "editions/c/plague.yaml", "A plague kills", "The plague kills")
    found = _warm_as_full(root, True)
    assert [p.split(": error: ")[1].split(" when ")[0] for p in found] == [
        "decision 'disease.spreads' has no answer", "decision 'disease.spreads' is in conflict"]


def test_edits_one_after_another_each_read_only_the_edited_file(book):
    # each content new (a content checked before is served whole from the cache)
    _warm_as_full(book, True)
    for old, new in (("requires: diseased", "requires: curable"), ("requires: curable", "requires: stunned")):
        _edit(book, EDITED, old, new)
        _warm_as_full(book, True)
    for old, new in (("A plague", "The plague"), ("The plague", "This plague"), ("This plague", "That plague")):
        _edit(book, "editions/c/plague.yaml", old, new)
        _warm_as_full(book, True)


def test_an_edit_of_a_draft_term_a_later_draft_patches_is_checked_in_full(tmp_path, monkeypatch):
    patch = "id: disease\npatch:\n  - change: spreads\n    set:\n      text: Disease spreads to any poisonable character.\n"
    root = _fresh(tmp_path, monkeypatch, lambda r: (r / "editions/c/disease.yaml").write_text(patch))
    _edit(root, "editions/b/disease.yaml", "can still be poisoned", "may still be poisoned")
    _warm_as_full(root, False)


@pytest.mark.parametrize("dates", ["released: {version: 1.0.0}", "updated: {version: 2.0.0}"])
def test_an_edit_of_a_term_with_dates_is_checked_in_full(tmp_path, monkeypatch, dates):
    root = _fresh(tmp_path, monkeypatch, lambda r: _edit(r, "editions/c/cure.yaml", "name: Cure\n",
                                                         f"name: Cure\n{dates}\n"))
    _edit(root, "editions/c/cure.yaml", "targets only a", "targets just a")
    _warm_as_full(root, False)


def test_a_decision_checked_in_editions_whose_vocabularies_differ_names_the_edition(tmp_path, monkeypatch):
    overlay = "facts:\n  add:\n    - {name: asleep, type: bool, meaning: The character is asleep.}\n"
    root = _fresh(tmp_path, monkeypatch, lambda r: (r / "editions/c/_vocabulary.yaml").write_text(overlay))
    _edit(root, EDITED, "requires: poisonable", "value: true, when: poisonable")
    found = _warm_as_full(root, True)
    assert [p.split(": error: ")[1].split(" when ")[0] + p.split("=false")[-1].split("\n")[0] for p in found] == [
        "decision 'poison.may_target' has no answer", "decision 'poison.may_target' has no answer, in edition 'c', "
        "whose vocabulary differs from that of edition 'b'"]
