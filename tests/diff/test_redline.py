"""The word-level redline: exact round trip, readable boundaries, bounded time, escaping."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from markupsafe import Markup

from rulebook_compiler.diff.redline import DELETE, EQUAL, INSERT, Op, Redline, redline, redline_html
from rulebook_compiler.diff.render_html import redline_markup

WORDS = st.sampled_from(["the", "a", "character", "is", "healable", "discarded", "heal", "“healable”",
                         "character’s", "end-of-battle", ",", ".", "(1)", "\n", "  ", "x"])
TEXTS = st.lists(WORDS, max_size=30).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(TEXTS, TEXTS)
def test_equal_and_deleted_runs_spell_the_old_text_equal_and_inserted_the_new(old, new):
    line = redline(old, new)
    assert "".join(o.text for o in line.ops if o.op in (EQUAL, DELETE)) == old
    assert "".join(o.text for o in line.ops if o.op in (EQUAL, INSERT)) == new
    assert all(o.text for o in line.ops)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=60), st.text(max_size=60))
def test_round_trip_holds_for_any_characters(old, new):
    line = redline(old, new)
    assert line.old == old and line.new == new


def test_same_text_is_one_equal_run():
    assert [(o.op, o.text) for o in redline("Heal.", "Heal.").ops] == [(EQUAL, "Heal.")]


def test_changes_fall_on_word_boundaries_not_inside_words():
    # "discarded" against "discard": a character diff would keep "discard" and add "ed".
    line = redline("It was discarded.", "It is discard.")
    changed = [o.text for o in line.ops if o.op != EQUAL]
    assert "ed" not in changed
    assert all(t.strip(" ") == t or t.strip() for t in changed)
    assert line.deleted_words() == ["was", "discarded"] and line.inserted_words() == ["is", "discard"]


def test_a_short_coincidental_equality_is_folded_into_the_change():
    # Only "the" is shared between two replaced phrases: one replacement reads better than three.
    line = redline("from the hand of the owner", "into the deck right now")
    ops = [o.op for o in line.ops]
    assert ops == [DELETE, INSERT]


def test_a_word_inserted_in_a_sentence_is_one_insertion():
    line = redline("If no requirement is specified.", "If no other requirement is specified.")
    assert [(o.op, o.text) for o in line.ops] == [
        (EQUAL, "If no "), (INSERT, "other "), (EQUAL, "requirement is specified.")]


def test_ten_megabytes_of_one_word_repeated_comes_back_quickly_and_exact():
    old = "heal " * 2_000_000  # 10 MB
    new = "heal " * 1_000_000 + "cure " + "heal " * 999_999
    # A hang guard, not a benchmark (2.4 s of CPU here). CPU time, not elapsed: a loaded machine
    # that leaves this process waiting for its turn does not add to it; a quadratic blow-up does.
    start = time.process_time()
    line = redline(old, new)
    assert time.process_time() - start < 30
    assert line.old == old and line.new == new


def test_pathological_input_falls_back_to_a_coarser_redline_and_says_so():
    old = " ".join("ab"[i % 3 == 0] for i in range(4000))
    new = " ".join("ab"[i % 5 == 0] for i in range(4000))
    line = redline(old, new)
    assert line.coarse is not None and "too long" in line.coarse
    assert line.old == old and line.new == new


def test_beyond_every_budget_the_middle_is_one_replacement():
    line = redline("a. " * 3000, "b. " * 3000, word_budget=10, sentence_budget=10)
    assert line.coarse and "one replacement" in line.coarse
    assert [o.op for o in line.ops] == [DELETE, INSERT, EQUAL]  # the shared final ". " stays equal


def test_html_redline_escapes_rule_text():
    out = redline_html("<b>Heal</b> & cure", "<i>Heal</i> & cure")
    assert out == "&lt;<del>b</del><ins>i</ins>&gt;Heal&lt;/<del>b</del><ins>i</ins>&gt; &amp; cure"


def test_html_redline_is_markup_escaped_as_the_page_around_it():
    # Runs that try to close the tags around them and open an attribute; the
    # result is Markup, so a template embeds it as is and never escapes it twice.
    line = Redline((Op(EQUAL, "a\"b'c "), Op(DELETE, "</del><script>x()</script>"),
                    Op(INSERT, "<ins onmouseover='y()'>&amp;")),
                   coarse="</small><img src=x onerror=z()>")
    out = redline_markup(line)
    assert isinstance(out, Markup)
    assert out == ("a&#34;b&#39;c <del>&lt;/del&gt;&lt;script&gt;x()&lt;/script&gt;</del>"
                   "<ins>&lt;ins onmouseover=&#39;y()&#39;&gt;&amp;amp;</ins>"
                   ' <small class="redline-coarse">(&lt;/small&gt;&lt;img src=x onerror=z()&gt;)</small>')
    assert Markup("<p>{}</p>").format(out) == Markup("<p>") + out + Markup("</p>")
