"""What an incremental check takes from the full check before it (rulebook_compiler/recheck.py): the
record a full check keeps (which file each problem came from, ``recheck._Recorder``; each term's
interface; the state's key), and the view of an edition its terms' interfaces give (``recheck._Edition``),
against which an edited term's names are checked again.

Most tests start from a copy of tests/fixtures/recheck changed to hold some problems, checked once to fill
a private cache; then a file is edited where no other file looks (a clause's text), so that the check
after it may read only that file. That check must find exactly what ``--no-cache`` finds (the problems'
lines, each with its hint), and whether it read only the edited files is stated too.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Callable

import pytest

from rulebook_compiler.checking import check_rulebook

FIXTURE = Path(__file__).parent / "fixtures" / "recheck"
SUMMARY = "Recheck: 3 editions (a, b, c), 7 terms, latest c with 7 terms and 30 clauses: no problems"
POISON = "editions/b/poison.yaml"
DISEASE = "editions/b/disease.yaml"

Edit = Callable[[Path], None]


def _sub(rel: str, old: str, new: str) -> Edit:
    def edit(root: Path) -> None:
        text = (root / rel).read_text()
        assert old in text, (rel, old)
        (root / rel).write_text(text.replace(old, new, 1))
    return edit


@pytest.fixture
def fresh(tmp_path, monkeypatch) -> Callable[..., Path]:
    """A copy of the fixture (in the folder ``name``) with ``edits`` made, checked once (which fills the
    cache)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)

    def make(*edits: Edit, name: str = "book") -> Path:
        shutil.copytree(FIXTURE, tmp_path / name)
        root = Path(name)
        for edit in edits:
            edit(root)
        check_rulebook(root)
        return root
    return make


def _warm(root: Path) -> tuple[list[str], str | None, bool]:
    """The warm check's problems (as printed), summary and whether it read only the edited files; each as
    the check with no cache gives them."""
    warm = check_rulebook(root)
    full = check_rulebook(root, use_cache=False)
    shown = [str(p) for p in warm.problems]
    assert (shown, warm.summary) == ([str(p) for p in full.problems], full.summary)
    return shown, warm.summary, warm.incremental


REWORD_POISON = _sub(POISON, "A poison ability targets", "Any poison ability targets")
REWORD_PLAGUE = _sub("editions/c/plague.yaml", "A plague kills", "The plague kills")


# -- an edited term's names, against the edition as the other terms' interfaces give it -------------


def test_an_edited_term_s_links_are_checked_against_the_other_terms_clauses(fresh):
    # poison (b, carried into c) links to cure's clause 'curable', which c's own version of cure renames,
    # and to a term no edition has; in b, cure is a's, which has that clause
    root = fresh(_sub("editions/c/cure.yaml", "- id: curable", "- id: healthy-enough"),
                 _sub(POISON, "links: [{phrase: cure, term: cure, clause: targets}]",
                      "links: [{phrase: cure, term: cure, clause: curable}, {phrase: poisonable, term: curr}]"))
    REWORD_POISON(root)
    assert _warm(root) == ([
        "book/editions/b/poison.yaml:17:17: error: link to clause 'cure#curable', which does not exist\n"
        "  hint: edition 'c' changes term 'cure' but keeps term 'poison' from edition 'b'; change the link in "
        "edition 'c' too",
        "book/editions/b/poison.yaml:17:62: error: link to term 'curr', which edition 'b' does not have\n"
        "  hint: did you mean 'cure'?",
        "book/editions/b/poison.yaml:17:62: error: link to term 'curr', which edition 'c' does not have\n"
        "  hint: did you mean 'cure'?"], None, True)



def test_an_edited_term_s_names_are_checked_once_for_an_edition_that_changes_nothing(fresh):
    # c as a new draft that carries every term of b unchanged (its folder empty): the full check checks
    # poison's names in b only, as c has the same terms and vocabulary (build.Builder: "a term need not be
    # checked again in an edition whose every term and vocabulary are as before")
    def carried(root: Path) -> None:
        for name in ("cure.yaml", "plague.yaml"):
            (root / "editions" / "c" / name).unlink()
    root = fresh(carried, _sub(POISON, "links: [{phrase: cure, term: cure, clause: targets}]",
                               "links: [{phrase: cure, term: cure, clause: targets}, {phrase: poisonable, term: curr}]"))
    REWORD_POISON(root)
    assert _warm(root) == ([
        "book/editions/b/poison.yaml:17:62: error: link to term 'curr', which edition 'b' does not have\n"
        "  hint: did you mean 'cure'?"], None, True)

# disease gets a second decision, and a clause that rules on it (its index among disease's own is 1)
_LASTS = (_sub(DISEASE, "    meaning: Whether the disease spreads to the character.\n",
               "    meaning: Whether the disease spreads to the character.\n"
               "  - name: disease.lasts\n    type: bool\n    meaning: Whether the disease lasts.\n"),
          _sub(DISEASE, "      - id: immune\n", "      - id: lasting\n        text: A disease lasts.\n        rules:\n"
                                                 "          - {decision: disease.lasts, value: true}\n"
                                                 "      - id: immune\n"))

_EXCEPTIONS = _sub(POISON, "exception_to: [poison#targets]}\n",
                   "exception_to: [poison#targetz]}\n"
                   "      - id: spreading\n"
                   "        text: A poisoned character spreads no disease.\n"
                   "        rules:\n"
                   "          - {decision: disease.spreads, value: false, when: diseased,\n"
                   "             exception_to: [disease#immune, cure#curable, disease#lasting, disease#spreads, venom#spreads]}\n")


def test_an_edited_term_s_exceptions_are_checked_against_what_the_other_clauses_rule_on(fresh):
    # disease#immune rules on poison's decision, disease#lasting on disease's second one, cure#curable on
    # none; disease#spreads rules on disease.spreads, as the excepting rule does: no problem there; no term
    # is venom
    root = fresh(*_LASTS, _EXCEPTIONS)
    REWORD_POISON(root)
    assert _warm(root) == ([
        "book/editions/b/poison.yaml:23:84: error: exception to unknown clause 'poison#targetz'\n"
        "  hint: did you mean 'poison#targets'?",
        "book/editions/b/poison.yaml:28:29: error: exception to 'disease#immune', which has no rule for "
        "'disease.spreads'\n  hint: its rules are for: poison.may_target",
        "book/editions/b/poison.yaml:28:45: error: exception to 'cure#curable', which has no rule for "
        "'disease.spreads'\n  hint: that clause has no rules",
        "book/editions/b/poison.yaml:28:59: error: exception to 'disease#lasting', which has no rule for "
        "'disease.spreads'\n  hint: its rules are for: disease.lasts",
        "book/editions/b/poison.yaml:28:93: error: exception to unknown clause 'venom#spreads'\n"
        "  hint: did you mean 'disease#spreads'?"], None, True)


def test_an_edited_term_s_rules_are_checked_against_the_decisions_other_terms_declare(fresh):
    # plague.kills is an enum (now, later, never) declared in c only; disease.spreads a bool of b
    root = fresh(_sub(POISON, "      - id: protected\n",
                      "      - id: extra\n"
                      "        text: Extra rules.\n"
                      "        rules:\n"
                      "          - {decision: poison.may_targt, requires: diseased}\n"
                      "          - {decision: plague.kills, requires: diseased}\n"
                      "          - {decision: plague.kills, value: soon}\n"
                      "          - {decision: disease.spreads, value: maybe}\n"
                      "      - id: protected\n"))
    REWORD_POISON(root)
    assert _warm(root) == ([
        "book/editions/b/poison.yaml:23:13: error: rule for unknown decision 'poison.may_targt'\n"
        "  hint: did you mean 'poison.may_target'?",
        "book/editions/b/poison.yaml:24:13: error: 'requires' needs a bool decision; 'plague.kills' is an enum\n"
        "  hint: use 'value' with 'when'",
        "book/editions/b/poison.yaml:24:13: error: rule for unknown decision 'plague.kills'\n"
        "  hint: declare it under 'decisions' of a term",
        "book/editions/b/poison.yaml:25:13: error: 'soon' is not a value of decision 'plague.kills'\n"
        "  hint: values: now, later, never",
        "book/editions/b/poison.yaml:25:13: error: rule for unknown decision 'plague.kills'\n"
        "  hint: declare it under 'decisions' of a term",
        "book/editions/b/poison.yaml:26:13: error: decision 'disease.spreads' is bool; value 'maybe' is not "
        "true/false"], None, True)


# -- the terms a decision's logic reads --------------------------------------------------------------


def test_a_term_in_a_yml_file_is_read_for_the_logic_of_a_decision_it_rules_on(fresh):
    # disease#immune rules on poison.may_target: proving it again after an edit of poison reads disease,
    # whose file is disease.yml
    root = fresh(lambda r: (r / DISEASE).rename(r / "editions/b/disease.yml"))
    _sub(POISON, "requires: poisonable", "value: true, when: poisonable")(root)
    # (with no rule for an undiseased character, poison's decision has no answer for one)
    assert _warm(root) == ([
        "book/editions/b/poison.yaml:4:5: error: decision 'poison.may_target' has no answer when "
        "being_discarded=false, diseased=false, in_discard_pile=false\n"
        "  hint: add a rule for this situation, a constraint that rules it out, or a 'given' that puts it out of "
        "the question's scope"], SUMMARY, True)


def test_an_edit_of_a_rule_on_another_term_s_decision_proves_that_decision_again(fresh):
    # disease#immune rules on poison's decision; under the constraint not-both-discarded its new 'permits'
    # can never hold
    root = fresh()
    _sub(DISEASE, "permits: {all: [diseased, being_discarded]}",
         "permits: {all: [diseased, being_discarded, in_discard_pile]}")(root)
    assert _warm(root) == ([
        "book/editions/b/disease.yaml:21:13: error: rule of disease#immune for 'poison.may_target' can never "
        "apply in an allowed situation (dead rule)\n"
        "  hint: check its 'when' against the vocabulary's constraints and the decision's 'given'"], SUMMARY, True)


def test_dates_of_another_term_leave_an_edit_read_alone(fresh):
    # the dates of cure's version in c are checked against cure's versions only: poison's edit is read alone
    root = fresh(_sub("editions/c/cure.yaml", "name: Cure\n", "name: Cure\nreleased: {version: 1.0.0}\n"))
    _sub(POISON, "requires: poisonable", "requires: diseased")(root)
    assert _warm(root) == ([], SUMMARY, True)



def test_a_predicate_defined_anew_is_proved_again_where_other_terms_use_it(fresh):
    # poison's 'poisonable' made one no character can be (curable is: not in a discard pile): disease's
    # rule for it can never apply. What a predicate says is part of what other files read of poison
    root = fresh()
    _sub(POISON, "as: {all: [diseased, curable]}", "as: {all: [diseased, curable, in_discard_pile]}")(root)
    assert _warm(root) == ([
        "book/editions/b/disease.yaml:16:13: error: rule of disease#spreads for 'disease.spreads' can never apply "
        "in an allowed situation (dead rule)\n"
        "  hint: check its 'when' against the vocabulary's constraints and the decision's 'given'"], SUMMARY, False)

# -- which file each problem came from ---------------------------------------------------------------

_UNKNOWN_KEYS = (_sub("rulebook.yaml", "publisher: Test\n", "publisher: Test\nfoo: 1\n"),
                 _sub(DISEASE, "name: Disease\n", "name: Disease\nbar: 2\n"))
RULEBOOK_KEY = ("book/rulebook.yaml:3:1: error: unknown key 'foo' at the top level\n"
                "  hint: valid keys: title, publisher, notes, editor_notes, editions")


def test_the_problems_of_files_not_read_again_are_kept_and_those_of_a_file_read_again_replaced(fresh):
    # a problem of rulebook.yaml, which is no term file, and one of reading disease (b) alone
    root = fresh(*_UNKNOWN_KEYS)
    REWORD_PLAGUE(root)
    assert _warm(root) == ([
        "book/editions/b/disease.yaml:3:1: error: unknown key 'bar' at the top level\n"
        "  hint: valid keys: id, name, withdrawn, aliases, updated, released, notes, editor_notes, decisions, "
        "sections", RULEBOOK_KEY], None, True)
    _sub(DISEASE, "name: Disease\nbar: 2\n", "name: Disease\n")(root)  # disease fixed: rulebook.yaml's stays
    assert _warm(root) == ([RULEBOOK_KEY], None, True)


def test_a_problem_across_files_is_found_again_in_full(fresh):
    # poison declares disease's decision too: reported at poison's, by no check of one file alone; an edit
    # that moves poison's lines moves it (and rulebook.yaml has a problem of its own besides)
    root = fresh(_UNKNOWN_KEYS[0], _sub(POISON, "decisions:\n", "decisions:\n  - name: disease.spreads\n"
                                                               "    type: bool\n"
                                                               "    meaning: Whether poison spreads disease.\n"))
    _sub(POISON, "id: poison\n", "# moved down\nid: poison\n")(root)
    assert _warm(root) == ([
        *(f"book/editions/b/poison.yaml:5:5: error: decision 'disease.spreads' is declared twice in edition "
          f"'{e}'\n  hint: also declared by term 'disease'" for e in "bc"), RULEBOOK_KEY], None, False)


def test_a_link_to_a_term_whose_file_has_errors_is_not_reported_again(fresh):
    # plague (c) links to disease#spreads; disease's file fails its schema, which is the one problem
    root = fresh(_sub(DISEASE, "type: bool", "type: boolean"))
    REWORD_PLAGUE(root)
    assert _warm(root) == ([
        "book/editions/b/disease.yaml:5:11: error: 'type' of decision 'disease.spreads' must be one of: bool, "
        "enum; got 'boolean'\n  hint: did you mean 'bool'?"], None, True)


def test_editions_whose_predicates_differ_are_checked_apart_after_an_edit(fresh):
    # c's version of cure defines 'curable' otherwise, so that poison's decision (which reads it through
    # 'poisonable') is checked in b and in c, each finding its own situation with no answer
    root = fresh(_sub("editions/c/cure.yaml", "as: {not: in_discard_pile}", "as: {not: being_discarded}"))
    _sub(POISON, "requires: poisonable", "value: true, when: poisonable")(root)
    hint = ("  hint: add a rule for this situation, a constraint that rules it out, or a 'given' that puts it out "
            "of the question's scope")
    assert _warm(root) == ([
        "book/editions/b/poison.yaml:4:5: error: decision 'poison.may_target' has no answer when "
        f"being_discarded=false, diseased=false, in_discard_pile=false\n{hint}",
        "book/editions/b/poison.yaml:4:5: error: decision 'poison.may_target' has no answer when "
        f"being_discarded=false, diseased=false\n{hint}"], SUMMARY, True)


def test_a_folder_and_a_file_whose_names_are_not_utf8(fresh, tmp_path):
    # names as the file system gives them (bytes that are no UTF-8, as surrogates), shown escaped
    try:
        (tmp_path / os.fsdecode(b"probe\xff")).mkdir()
    except OSError:  # pragma: no cover - a file system that takes only UTF-8 names (macOS)
        if sys.platform.startswith("linux"):
            raise  # Linux's file systems take any bytes but '/' and NUL: here a failure, never a skip
        pytest.skip("the file system takes only UTF-8 names")
    root = fresh(name=os.fsdecode(b"book\xff"))
    _sub(POISON, "requires: poisonable", "requires: poisonabel")(root)
    unknown = ("book\\udcff/editions/b/poison.yaml:19:53: error: unknown fact or predicate 'poisonabel'\n"
               "  hint: did you mean 'poisonable'?")
    assert _warm(root) == ([unknown], None, True)
    (root / os.fsdecode(b"editions/b/x\xff.yaml")).write_text("id: x\nname: X\n")
    stray = ["book\\udcff/editions/b/x\\udcff.yaml:1:1: error: the file lacks required key 'sections'",
             "book\\udcff/editions/b/x\\udcff.yaml:1:5: error: term id 'x' does not match the file name "
             "'x\\udcff.yaml'\n  hint: rename the file to 'x.yaml'"]
    assert _warm(root) == ([unknown, *stray], None, False)  # a file added: checked in full
    REWORD_PLAGUE(root)
    assert _warm(root) == ([unknown, *stray], None, True)


def test_an_edit_of_a_rulebook_that_declares_sources_is_read_alone(tmp_path, monkeypatch):
    # the sources the full check found are looked at again (they are there), not a reason to check in full
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    shutil.copytree(Path(__file__).parent / "fixtures" / "proofs-declared-source", tmp_path / "book")
    root = Path("book")
    summary = "Proofs: 1 edition (e1), 2 terms, latest e1 with 2 terms and 4 clauses: no problems"
    assert check_rulebook(root).summary == summary
    _sub("editions/e1/first.yaml", "sections:\n", "sections:\n\n")(root)
    assert _warm(root) == ([], summary, True)


def test_a_rulebook_with_problems_checked_again_unchanged_is_served_whole(fresh):
    # a check of unchanged files reads nothing but what it hashes (docs/diff.md), when the build failed too
    root = fresh(_sub(POISON, "requires: poisonable", "requires: poisonabel"))
    again = check_rulebook(root)
    assert ([str(p) for p in again.problems], again.summary, again.whole) == ([
        "book/editions/b/poison.yaml:19:53: error: unknown fact or predicate 'poisonabel'\n"
        "  hint: did you mean 'poisonable'?"], None, True)


def test_a_rulebook_at_the_same_relative_path_in_another_folder_is_not_checked_from_its_record(tmp_path,
                                                                                              monkeypatch):
    # two working copies, each checked from its own folder as "book" with one cache: in the first, poison's
    # file is a symbolic link to outside the rulebook (refused; what links to poison fails with it), in the
    # second a plain file of the same bytes. What the first check kept is not the second's to start from
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    for copy in ("one", "two"):
        shutil.copytree(FIXTURE, tmp_path / copy / "book")
    linked = tmp_path / "one" / "book" / POISON
    (tmp_path / "one" / "poison.yaml").write_bytes(linked.read_bytes())
    linked.unlink()
    linked.symlink_to(tmp_path / "one" / "poison.yaml")
    monkeypatch.chdir(tmp_path / "one")
    refused = ("book/editions/b/poison.yaml: error: a symbolic link to outside the rulebook folder\n  hint: a rulebook "
               "reads only files inside its folder, as for 'sources'; copy the file in instead of linking to it")
    assert [str(p) for p in check_rulebook(Path("book")).problems][-1] == refused
    monkeypatch.chdir(tmp_path / "two")
    REWORD_PLAGUE(Path("book"))
    assert _warm(Path("book")) == ([], SUMMARY, False)


def test_a_state_whose_sources_are_no_list_is_checked_in_full(fresh):
    # as tests/test_recheck_state.py's forged states: the sources a state lists are a list of names, else
    # the state is not taken (here an empty string, which names no source that could be missing)
    import json

    from rulebook_compiler import recheck
    from rulebook_compiler.cache import Cache, fingerprint
    from rulebook_compiler.proofs import Proofs

    root = fresh()
    REWORD_PLAGUE(root)
    proofs = Proofs(Cache.open())
    top_at = recheck.state_key(proofs.compiler, root)
    top = json.loads(proofs.cache.proofs([top_at])[top_at])
    base = json.loads(proofs.cache.proofs([top["base"]])[top["base"]])
    assert recheck.incremental(root, fingerprint(root), base, top, proofs) is not None
    assert recheck.incremental(root, fingerprint(root), {**base, "sources": ""}, top, proofs) is None


def test_a_link_to_a_term_an_edition_withdraws_is_reported_again(fresh):
    # c withdraws heal, to which c's cure links: unlike a term whose file has errors, a withdrawn term is gone
    root = fresh(lambda r: (r / "editions/c/heal.yaml").write_text("id: heal\nwithdrawn: true\n"))
    _sub("editions/c/cure.yaml", "targets only a", "targets just a")(root)
    assert _warm(root) == (["book/editions/c/cure.yaml:17:17: error: link to term 'heal', which edition 'c' does not "
                            "have"], None, True)


LORE = """id: lore
name: Lore
sections:
  - key: definition
    kind: definition
    title: null
    clauses:
      - id: told
        text: Lore is told.
"""


def test_an_edit_of_a_term_with_no_decision_a_later_edition_patches_is_checked_in_full(fresh):
    # lore rules on nothing, so no decision's logic reads it: only the patch in c builds on it
    root = fresh(lambda r: (r / "editions/b/lore.yaml").write_text(LORE),
                 lambda r: (r / "editions/c/lore.yaml").write_text(
                     "id: lore\npatch:\n  - change: told\n    set:\n      text: Lore is told again.\n"))
    _sub("editions/b/lore.yaml", "Lore is told.", "Lore is told of.")(root)
    assert _warm(root) == (
        [], "Recheck: 3 editions (a, b, c), 8 terms, latest c with 8 terms and 31 clauses: no problems", False)
