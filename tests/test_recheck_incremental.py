"""What the incremental check (``recheck._Incremental``) must give exactly as a full check gives, in the cases
tests/test_recheck.py and tests/test_recheck_state.py do not reach (issue 22, point 9).

Each test copies tests/fixtures/recheck, makes the check that fills a private cache, edits one or two
term files, and checks warm and with no cache: the problems and the summary must be the same, line for
line, and the check must read only the edited files when the module's docstring says it does. The
lines expected are written from the fixture's rule text, not copied from an output.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.checking import check_rulebook
from rulebook_compiler.cli import main
from tests.test_recheck_state import _edit  # one file's text edited in place

FIXTURE = Path(__file__).parent / "fixtures" / "recheck"
SUMMARY = "Recheck: 3 editions (a, b, c), 7 terms, latest c with 7 terms and 30 clauses: no problems"
TYPO = ("book/editions/b/poison.yaml:19:53: error: unknown fact or predicate 'poisonabel'\n"
        "  hint: did you mean 'poisonable'?")


@pytest.fixture
def book(tmp_path, monkeypatch) -> Path:
    """A copy of the fixture, in a private cache, not yet checked."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    shutil.copytree(FIXTURE, tmp_path / "book")
    return Path("book")


def _shown(checked) -> tuple[list[str], str | None]:
    return [str(p) for p in checked.problems], checked.summary


def _warm_as_full(root: Path, incremental: bool) -> tuple[list[str], str | None]:
    """The warm check's problems and summary, which must be the full check's; whether it read only the edited
    files is ``incremental``."""
    warm = check_rulebook(root)
    full = check_rulebook(root, use_cache=False)
    assert (_shown(warm), warm.incremental) == (_shown(full), incremental)
    return _shown(warm)


def _command(root: Path) -> tuple[int, str, str]:
    """``rulebook check`` warm, which must print what ``--no-cache`` prints, byte for byte."""
    runner = CliRunner()
    warm = runner.invoke(main, ["check", str(root)])
    full = runner.invoke(main, ["check", "--no-cache", str(root)])
    assert (warm.exit_code, warm.stdout, warm.stderr) == (full.exit_code, full.stdout, full.stderr)
    return warm.exit_code, warm.stdout, warm.stderr


# -- a term whose file has errors: what follows from them stays folded into them -------------------

DISEASE_WITHOUT_POISON = [
    # disease.yaml links to poison and rules on its decision; with poison.yaml broken, what edition b lacks of
    # poison is reported at those uses, but never as "link to term 'poison', which edition 'b' does not have":
    # the link follows from poison.yaml's own errors (build.Builder.broken_terms)
    "book/editions/b/disease.yaml:16:60: error: unknown fact or predicate 'poisonable'",
    "book/editions/b/disease.yaml:17:67: error: unknown fact or predicate 'poisonable'",
    "book/editions/b/disease.yaml:21:13: error: rule for unknown decision 'poison.may_target'\n"
    "  hint: did you mean 'heal.may_target'?",
    "book/editions/b/disease.yaml:21:103: error: exception to unknown clause 'poison#protected'",
]


@pytest.mark.parametrize("broken, errors", [
    (("type: bool", "type: boolean"),  # the id is read: the term 'poison' is the broken one
     ["book/editions/b/poison.yaml:5:11: error: 'type' of decision 'poison.may_target' must be one of: bool, "
      "enum; got 'boolean'\n  hint: did you mean 'bool'?"]),
    (("id: poison\n", "ident: poison\n"),  # no id: the file's name is the id it must have
     ["book/editions/b/poison.yaml:1:1: error: the file lacks required key 'id'",
      "book/editions/b/poison.yaml:1:1: error: unknown key 'ident' at the top level\n"
      "  hint: valid keys: id, name, withdrawn, aliases, updated, released, notes, editor_notes, decisions, "
      "sections"]),
    (None,  # the file named venom.yaml: the term 'poison' it holds is the broken one, not 'venom'
     ["book/editions/b/venom.yaml:1:5: error: term id 'poison' does not match the file name 'venom.yaml'\n"
      "  hint: rename the file to 'poison.yaml'"]),
], ids=["schema-error", "no-id", "misnamed"])
def test_a_link_to_a_term_whose_file_is_broken_follows_from_its_errors(book, broken, errors):
    if broken is None:
        (book / "editions/b/poison.yaml").rename(book / "editions/b/venom.yaml")
    else:
        _edit(book, "editions/b/poison.yaml", *broken)
    check_rulebook(book)
    _edit(book, "editions/b/disease.yaml", "Disease spreads to", "A disease spreads to")
    assert _warm_as_full(book, True) == (DISEASE_WITHOUT_POISON + errors, None)


# -- problems of files that are no term file are kept from the record ---------------------------------

OTHERS = {
    "rulebook.yaml": (("publisher: Test\n", "publisher: Test\npublishr: Test\n"),
                      "book/rulebook.yaml:3:1: error: unknown key 'publishr' at the top level\n"
                      "  hint: did you mean 'publisher'?"),
    "vocabulary.yaml": (("    never: {all: [stunned, in_discard_pile]}\n", "    never: {all: [stunned, in_discard_pile]}\n"
                                                                        "note: x\n"),
                        "book/vocabulary.yaml:26:1: error: unknown key 'note' at the top level\n"
                        "  hint: valid keys: facts, constraints"),
    "editions/b/_vocabulary.yaml": (("  withdraw: [stunned-not-in-discard-pile]\n",
                                     "  withdraw: [stunned-not-in-discard-pile]\nnote: x\n"),
                                    "book/editions/b/_vocabulary.yaml:16:1: error: unknown key 'note' at the top level\n"
                                    "  hint: valid keys: facts, constraints"),
}


@pytest.mark.parametrize("other", sorted(OTHERS))
def test_a_problem_of_another_file_is_kept_and_sorted_with_those_of_the_edited_file(book, other):
    # the vocabulary and its overlay are read again (with what they say of themselves set aside) to check
    # the edited term's names: the edit is still taken without reading the rest
    edit, problem = OTHERS[other]
    _edit(book, other, *edit)
    check_rulebook(book)
    _edit(book, "editions/b/disease.yaml", "Disease spreads to", "A disease spreads to")
    assert _warm_as_full(book, True) == ([problem], None)
    # an edited file's own problem, with the one kept: in the order of their files
    _edit(book, "editions/b/poison.yaml", "requires: poisonable", "requires: poisonabel")
    assert _warm_as_full(book, True) == (sorted([TYPO, problem]), None)


# -- a decision checked once for editions alike, again where the vocabulary differs ----------------------

NO_ANSWER = ("book/editions/b/poison.yaml:4:5: error: decision 'poison.may_target' has no answer when "
             "being_discarded=false, diseased=false, in_discard_pile=false")
NO_ANSWER_HINT = ("\n  hint: add a rule for this situation, a constraint that rules it out, or a 'given' that puts it "
                  "out of the question's scope")


def _edition_d_with_a_fact_added(root: Path) -> None:
    """A fourth draft edition d after c, whose vocabulary adds a fact: a decision of b is checked in b (and
    not again in c, which has the same rules, predicates and vocabulary), and again in d."""
    with (root / "rulebook.yaml").open("a") as f:
        f.write("  - id: d\n    title: Edition D\n    date: null\n    status: draft\n")
    (root / "editions/d").mkdir()
    (root / "editions/d/_vocabulary.yaml").write_text(
        "facts:\n  add:\n    - {name: asleep, type: bool, meaning: The character is asleep.}\n")


def test_an_edition_skipped_as_alike_does_not_end_the_editions_a_decision_is_checked_in(book):
    _edition_d_with_a_fact_added(book)
    summary = "Recheck: 4 editions (a, b, c, d), 7 terms, latest d with 7 terms and 30 clauses: no problems"
    assert _shown(check_rulebook(book)) == ([], summary)
    # no rule answers poison.may_target when the character is neither poisonable nor being discarded
    _edit(book, "editions/b/poison.yaml", "requires: poisonable", "value: true, when: poisonable")
    assert _warm_as_full(book, True) == ([
        NO_ANSWER + NO_ANSWER_HINT,
        NO_ANSWER + ", in edition 'd', whose vocabulary differs from that of edition 'b'" + NO_ANSWER_HINT], summary)


# -- the logic problems recorded: those of a decision proved again replace the ones before ---------------

def test_a_logic_problem_fixed_by_an_edit_is_no_longer_reported(book):
    # "when: diseased" answers disease.spreads false where "when: poisonable" answers it true: a conflict,
    # and no answer for a character neither diseased nor poisonable
    _edit(book, "editions/b/disease.yaml", "when: {not: poisonable}", "when: diseased")
    assert [p.split(": error: ")[1].split(" when ")[0] for p in _shown(check_rulebook(book))[0]] == [
        "decision 'disease.spreads' has no answer", "decision 'disease.spreads' is in conflict"]
    # a poisonable character is diseased: "when: {not: diseased}" answers false only where true is not answered
    _edit(book, "editions/b/disease.yaml", "when: diseased", "when: {not: diseased}")
    assert _warm_as_full(book, True) == ([], SUMMARY)


# -- a decision's model: the rules other terms give it ------------------------------------------------

def test_a_rule_another_term_gives_the_edited_term_s_decision_is_part_of_its_proof(book):
    check_rulebook(book)
    # poison.may_target: true when not being discarded (targets), false when being discarded and not diseased
    # (protected); only disease.yaml's rule (immune: permits diseased and being discarded, an exception to
    # protected) answers a diseased character being discarded: without it, that situation has no answer
    _edit(book, "editions/b/poison.yaml", "requires: poisonable", "value: true, when: {not: being_discarded}")
    _edit(book, "editions/b/poison.yaml", "forbids: being_discarded,",
          "forbids: {all: [being_discarded, {not: diseased}]},")
    assert _warm_as_full(book, True) == ([], SUMMARY)


def test_a_predicate_only_a_decision_s_given_reaches_is_part_of_its_proof(book):
    # cure.may_target in edition c is asked only of a poisonable character (diseased and curable: poison.yaml's
    # predicate, which none of cure's rules names); "permits: diseased" then answers it everywhere it is asked
    _edit(book, "editions/c/cure.yaml", "    meaning: Whether a cure may target the character.\n",
          "    meaning: Whether a cure may target the character.\n    given: poisonable\n")
    assert _shown(check_rulebook(book)) == ([], SUMMARY)
    _edit(book, "editions/c/cure.yaml", "requires: curable", "permits: diseased")
    assert _warm_as_full(book, True) == ([], SUMMARY)


def test_a_predicate_is_read_from_the_clause_that_defines_it(book):
    # poison.yaml defines two predicates: 'venomous' (not diseased) first, then 'poisonable' (diseased and
    # curable), which its rules name; with "value: true, when: poisonable" no rule answers a character that is
    # not poisonable and not being discarded: first such situation, one with nothing true
    _edit(book, "editions/b/poison.yaml", "      - id: poisonable\n",
          "      - id: venomous\n        text: A character is venomous if it is not diseased.\n"
          "        defines: {name: venomous, as: {not: diseased}}\n      - id: poisonable\n")
    summary = "Recheck: 3 editions (a, b, c), 7 terms, latest c with 7 terms and 31 clauses: no problems"
    assert _shown(check_rulebook(book)) == ([], summary)
    _edit(book, "editions/b/poison.yaml", "requires: poisonable", "value: true, when: poisonable")
    assert _warm_as_full(book, True) == ([NO_ANSWER + NO_ANSWER_HINT], summary)


# -- what an incremental check keeps: the next check starts from it --------------------------------------


@pytest.mark.parametrize("typo", [True, False], ids=["with-a-problem", "without-problems"])
def test_files_checked_incrementally_and_unchanged_since_are_served_whole(book, typo):
    check_rulebook(book)
    _edit(book, "editions/b/poison.yaml", "requires: poisonable",
          "requires: poisonabel" if typo else "requires: diseased")
    shown = _warm_as_full(book, True)
    assert shown == (([TYPO], None) if typo else ([], SUMMARY))
    again = check_rulebook(book)
    assert (_shown(again), again.whole) == (shown, True)


def test_after_an_incremental_check_with_a_problem_the_next_edit_reads_only_its_file(book):
    check_rulebook(book)
    _edit(book, "editions/b/poison.yaml", "requires: poisonable", "requires: poisonabel")
    assert _warm_as_full(book, True) == ([TYPO], None)
    _edit(book, "editions/c/plague.yaml", "A plague kills", "The plague kills")
    warm = check_rulebook(book)
    assert (_shown(warm), warm.read) == (([TYPO], None), 1)
    assert _shown(warm) == _shown(check_rulebook(book, use_cache=False))


def test_a_problem_fixed_in_one_file_while_another_keeps_its_own_is_no_longer_reported(book):
    _edit(book, "editions/b/poison.yaml", "requires: poisonable", "requires: poisonabel")
    _edit(book, "editions/b/disease.yaml", "value: true, when: poisonable", "value: true, when: poisonabl")
    disease = ("book/editions/b/disease.yaml:16:60: error: unknown fact or predicate 'poisonabl'\n"
               "  hint: did you mean 'poisonable'?")
    assert _shown(check_rulebook(book)) == ([disease, TYPO], None)
    _edit(book, "editions/b/poison.yaml", "requires: poisonabel", "requires: poisonable")
    assert _command(book) == (1, "", disease + "\n1 problem found\n")


# -- which edited files are read alone --------------------------------------------------------------

def test_an_edit_of_a_term_a_later_edition_writes_anew_reads_only_the_edited_file(book):
    # edition c holds a whole file of its own for poison: the version in b is what b alone reads
    shutil.copy(book / "editions/b/poison.yaml", book / "editions/c/poison.yaml")
    assert _shown(check_rulebook(book)) == ([], SUMMARY)
    _edit(book, "editions/b/poison.yaml", "requires: poisonable", "requires: poisonabel")
    assert _warm_as_full(book, True) == ([TYPO], None)


def test_an_edit_of_the_first_edition_with_no_lock_yet_reads_only_the_edited_file(book):
    # edition a is published but not locked yet (no rulebook.lock, no corrections log): nothing holds its
    # terms to a record, and an edit of one is taken as any other; cure in a is carried into b, where its
    # rule is checked too (one problem, at the one place), and written anew in c
    (book / "rulebook.lock").unlink()
    (book / "corrections.yaml").unlink()
    assert _shown(check_rulebook(book)) == ([], SUMMARY)
    _edit(book, "editions/a/cure.yaml", "requires: curable", "requires: curabel")
    assert _warm_as_full(book, True) == ([
        "book/editions/a/cure.yaml:19:51: error: unknown fact or predicate 'curabel'\n"
        "  hint: did you mean 'curable'?"], None)


# -- the edited term's names, checked in each edition that has it -----------------------------------

def test_a_name_one_edition_lacks_is_reported_for_that_edition_only(book):
    # disease is written in b and carried into c; plague is written in c only: a link to it is wrong in b
    check_rulebook(book)
    _edit(book, "editions/b/disease.yaml", "{phrase: poisonable, term: poison, clause: poisonable}",
          "{phrase: poisonable, term: plague, clause: kills}")
    assert _warm_as_full(book, True) == (
        ["book/editions/b/disease.yaml:14:17: error: link to term 'plague', which edition 'b' does not have"], None)


def test_a_name_an_edition_s_overlay_withdrew_is_reported_with_the_edition_that_withdrew_it(book):
    # editions/b/_vocabulary.yaml withdraws the fact 'stunned' (its line 9): b and c, which has no overlay of its
    # own, no longer have it
    check_rulebook(book)
    _edit(book, "editions/b/poison.yaml", "requires: poisonable", "requires: stunned")
    assert _warm_as_full(book, True) == ([
        "book/editions/b/poison.yaml:19:53: error: fact 'stunned' was withdrawn by edition 'b' at "
        "book/editions/b/_vocabulary.yaml:9\n  hint: an edition's conditions test only what its vocabulary has: "
        "change the condition in this edition, or do not withdraw it"], None)


# -- the files read besides the edited ones: as the fingerprint hashed them, else a full check ----------

def _state(root: Path):
    """The state the check before kept, and the proofs it is read with (as tests/test_recheck_state.py)."""
    import json

    from rulebook_compiler import recheck
    from rulebook_compiler.cache import Cache
    from rulebook_compiler.proofs import Proofs

    proofs = Proofs(Cache.open())
    top_at = recheck.state_key(proofs.compiler, root)
    top = json.loads(proofs.cache.proofs([top_at])[top_at])
    return json.loads(proofs.cache.proofs([top["base"]])[top["base"]]), top, proofs


@pytest.mark.parametrize("other", ["vocabulary.yaml", "editions/b/_vocabulary.yaml"])
def test_a_vocabulary_changed_after_the_fingerprint_is_checked_in_full(book, other):
    from rulebook_compiler import recheck
    from rulebook_compiler.cache import fingerprint

    check_rulebook(book)
    _edit(book, "editions/b/poison.yaml", "requires: poisonable", "requires: diseased")
    base, top, proofs = _state(book)
    fp = fingerprint(book)
    assert recheck.incremental(book, fp, base, top, proofs) is not None
    # what the check reads of the vocabulary is no longer what the fingerprint (the key it is kept under) hashed
    _edit(book, other, "meaning: The character is", "meaning: A character is")
    assert recheck.incremental(book, fp, base, top, proofs) is None


def test_a_file_that_cannot_be_hashed_again_is_taken_as_changed(book, monkeypatch):
    from rulebook_compiler import cache, recheck
    from rulebook_compiler.cache import fingerprint

    check_rulebook(book)
    _edit(book, "editions/b/poison.yaml", "requires: poisonable", "requires: diseased")
    base, top, proofs = _state(book)
    fp = fingerprint(book)

    def gone(path):
        raise FileNotFoundError(path)

    monkeypatch.setattr(cache, "file_sha", gone)
    assert recheck.incremental(book, fp, base, top, proofs) is None


@pytest.mark.parametrize("used", [True, 1.5, None], ids=["a-boolean", "a-float", "null"])
def test_a_state_whose_suggestion_count_is_not_a_whole_number_is_checked_in_full(book, used):
    # the state is data read back and validated (never trusted): a count that JSON gives as anything but an
    # integer is a state not as written
    from rulebook_compiler import recheck
    from rulebook_compiler.cache import fingerprint

    check_rulebook(book)
    _edit(book, "editions/b/poison.yaml", "requires: poisonable", "requires: diseased")
    base, top, proofs = _state(book)
    assert recheck.incremental(book, fingerprint(book), base, top, proofs) is not None
    assert recheck.incremental(book, fingerprint(book), base, {**top, "budget_used": used}, proofs) is None


# -- the suggestion budget, counted across checks ---------------------------------------------------------

def _names(first: int, n: int) -> str:
    return ", ".join(f"g{first + i:03d}x" for i in range(n))


def test_hints_stop_where_the_full_check_s_budget_runs_out_after_incremental_checks(book):
    # A check compares misspelt names with the candidates for at most diagnostics.SUGGESTION_BUDGET (20,000)
    # comparisons, then reports them without a hint. With 400 more facts, each misspelt name of edition c
    # costs about 408 comparisons: some 49 names get a hint. cure (30 misspelt names) is checked once; then
    # plague gets 10 and, in the check after, antidote 10: 50 names, one past the budget, in files read in
    # the order of their ids (antidote, cure, plague). Each check after an edit must count what the checks
    # before it spent, or the warm check would hint where the full one cannot.
    facts = "".join(f"  - name: g{i:03d}\n    type: bool\n    meaning: Fact {i}.\n" for i in range(400))
    _edit(book, "vocabulary.yaml", "constraints:\n", facts + "constraints:\n")
    _edit(book, "editions/c/cure.yaml", "requires: curable}", "requires: {any: [curable, %s]}}" % _names(0, 30))
    _edit(book, "editions/c/plague.yaml", "          otherwise: never\n",
          "          otherwise: never\n      - id: soon\n        text: Soon.\n        rules:\n"
          "          - {decision: plague.kills, value: now, when: {any: [g100]}}\n")
    (book / "editions/c/antidote.yaml").write_text(
        "id: antidote\nname: Antidote\ndecisions:\n  - name: antidote.works\n    type: bool\n"
        "    meaning: Whether it works.\nsections:\n  - key: definition\n    kind: definition\n    title: null\n"
        "    clauses:\n      - id: works\n        text: It works.\n        rules:\n"
        "          - {decision: antidote.works, permits: {any: [g200]}}\n")
    check_rulebook(book)
    _edit(book, "editions/c/plague.yaml", "when: {any: [g100]}", "when: {any: [%s]}" % _names(100, 10))
    problems, _ = _warm_as_full(book, True)
    assert [p.split("hint: ")[-1] for p in problems if p.endswith("'?")] == \
        [f"did you mean 'g{i:03d}'?" for i in [*range(30), *range(100, 110)]]
    _edit(book, "editions/c/antidote.yaml", "permits: {any: [g200]}", "permits: {any: [%s]}" % _names(200, 10))
    warm = check_rulebook(book)
    assert _shown(warm) == _shown(check_rulebook(book, use_cache=False))
    problems = _shown(warm)[0]
    assert (len(problems), [p for p in problems if "\n  hint: " not in p]) == (
        50, ["book/editions/c/plague.yaml:26:126: error: unknown fact or predicate 'g109x'"])


def test_a_problem_of_one_of_two_files_edited_together_is_gone_once_that_file_is_fixed(book):
    # plague keeps a problem of its own throughout; disease and poison are edited in one go, disease with a
    # misspelt key (the term still builds), then disease alone is put right: poison, not read again, must
    # not have kept disease's problem as its own
    heel = ("book/editions/c/plague.yaml:21:23: error: 'heel' is not a value of fact 'ability'\n"
            "  hint: did you mean 'heal'?")
    _edit(book, "editions/c/plague.yaml", "keys: [heal]", "keys: [heel]")
    check_rulebook(book)
    _edit(book, "editions/b/disease.yaml", "        text: Disease spreads to",
          "        notez: x\n        text: Disease spreads to")
    _edit(book, "editions/b/poison.yaml", "A poison ability targets", "Any poison ability targets")
    assert _warm_as_full(book, True) == ([
        "book/editions/b/disease.yaml:13:9: error: unknown key 'notez' in clause 'spreads'\n"
        "  hint: did you mean 'notes'?", heel], None)
    _edit(book, "editions/b/disease.yaml", "        notez: x\n", "")
    assert _warm_as_full(book, True) == ([heel], None)


def test_an_edit_of_a_term_without_decisions_a_later_draft_patches_is_checked_in_full(book):
    # lore (text only: no decision, no rule, so no logic check reads its later version) is written in b and
    # patched in c; what c's version says is built from b's file, so a link added there is wrong in both
    (book / "editions/b/lore.yaml").write_text(
        "id: lore\nname: Lore\nsections:\n  - key: definition\n    kind: definition\n    title: null\n"
        "    clauses:\n      - id: old\n        text: Old tales.\n      - id: new\n        text: New tales.\n")
    (book / "editions/c/lore.yaml").write_text(
        "id: lore\npatch:\n  - change: new\n    set:\n      text: Newer tales.\n")
    assert _shown(check_rulebook(book))[0] == []
    _edit(book, "editions/b/lore.yaml", "        text: Old tales.\n",
          "        text: Old tales of a dragon.\n        links: [{phrase: dragon, term: dragon}]\n")
    assert _warm_as_full(book, False) == ([
        "book/editions/b/lore.yaml:10:17: error: link to term 'dragon', which edition 'b' does not have",
        "book/editions/b/lore.yaml:10:17: error: link to term 'dragon', which edition 'c' does not have"], None)
