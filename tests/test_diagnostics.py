"""``printable``: untrusted text made safe for a terminal, by Unicode category.

A terminal obeys more than C0 controls: C1 controls (``\\x9b`` is CSI on some
terminals), and the bidi formatting characters reorder what is shown ("Trojan
Source", CVE-2021-42574), so a file name or a rule text can display as
something other than what it is. Line and paragraph separators break lines in
some terminals and pagers; lone surrogates cannot be encoded at all.
"""

from __future__ import annotations

import unicodedata

import pytest

from rulebook_compiler.diagnostics import printable

BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def test_c0_c1_and_del_are_written_as_python_writes_them():
    assert printable("a\x1b[31mb\rc\nd\te\x7ff\x9bg\x00") == "a\\x1b[31mb\\rc\\nd\\te\\x7ff\\x9bg\\x00"


def test_kept_characters_stay():
    assert printable("one\ntwo\tthree\r", keep="\n\t") == "one\ntwo\tthree\\r"


@pytest.mark.parametrize("char", list(BIDI))
def test_every_bidi_control_is_escaped(char):
    assert printable(f"a{char}b") == f"a\\u{ord(char):04x}b"


def test_trojan_source_reads_as_it_is_stored():
    # shown raw, the RLO makes a terminal display "admin.yaml" reversed from here on
    assert printable("lmay.\u202enimda") == "lmay.\\u202enimda"
    assert printable("x\u2066y\u2069z", keep="\n\t") == "x\\u2066y\\u2069z"


def test_other_invisible_format_characters_and_separators_are_escaped():
    assert printable("a\u200bb\ufeffc\u2060d\xade") == "a\\u200bb\\ufeffc\\u2060d\\xade"
    assert printable("line\u2028forged\u2029too") == "line\\u2028forged\\u2029too"
    # tag characters carry invisible ASCII ("ASCII smuggling")
    assert printable("ok\U000e0041\U000e0042") == "ok\\U000e0041\\U000e0042"


def test_lone_surrogates_are_escaped_so_the_text_can_be_encoded():
    assert printable("a\ud83db") == "a\\ud83db"


def test_joiners_stay_for_emoji_and_scripts_that_need_them():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert printable(family) == family
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
    assert printable(persian) == persian


def test_ordinary_text_of_any_script_is_unchanged():
    text = "Cure \u00e9t\u00e9 \u4e2d\u6587 \u05e2\u05d1\u05e8\u05d9\u05ea \U0001f600 \u00a0no-break"
    assert printable(text) == text


def test_no_character_a_terminal_acts_on_survives():
    # every code point of the categories named above, not a hand-made list
    hidden = {"Cc", "Cf", "Cs", "Zl", "Zp"}
    kept = {"\u200c", "\u200d"}
    for code in range(0x110000):
        char = chr(code)
        if unicodedata.category(char) in hidden and char not in kept:
            assert char not in printable(char), hex(code)


def test_a_suggestion_outside_check_is_bounded_too():
    # diff and history suggest an edition or a term outside check's shared budget: once
    # unbounded (every candidate compared), now each suggestion stops at SUGGESTION_BUDGET
    from rulebook_compiler.diagnostics import SUGGESTION_BUDGET, closest

    near = [f"zz{i:06d}" for i in range(SUGGESTION_BUDGET - 1)] + ["term"]
    assert closest("tern", near) == "term"
    assert closest("tern", near + ["zzmore"]) is None


def test_a_problem_at_a_node_built_without_a_location_prints_instead_of_raising():
    # Models read from the sources place every node; one built in code has loc None,
    # and a problem found at it printed as an AttributeError before placed().
    from rulebook_compiler.diagnostics import Diagnostic, Location, placed
    assert str(Diagnostic(placed(None), "unknown fact 'x'")) == "<unplaced>: error: unknown fact 'x'"
    assert placed(Location("terms/a.yaml", 3, 5)) == Location("terms/a.yaml", 3, 5)


def test_problems_at_one_place_with_one_message_are_ordered_by_their_hints_whatever_the_hash_seed():
    """The same sources give byte-identical outputs: problems that differ only in their hint came out in the
    order of a set's iteration, which changes with PYTHONHASHSEED (found by the mutation review of recheck)."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("from rulebook_compiler.diagnostics import Diagnostic, Location, RulebookError\n"
            "at = Location('r/x.yaml', 3, 5)\n"
            "problems = [Diagnostic(at, 'same', h) for h in ('b', 'a', 'c', None)]\n"
            "problems.append(Diagnostic(at, 'same', 'a', 'warning'))\n"
            "print('|'.join(f'{d.hint}/{d.severity}' for d in RulebookError(problems).diagnostics))\n")
    root = Path(__file__).resolve().parents[1]
    seen = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root,
                           env={"PYTHONHASHSEED": str(seed), "PYTHONPATH": str(root)}).stdout
            for seed in range(8)}
    assert seen == {"None/error|a/error|a/warning|b/error|c/error\n"}
