"""Rule text as HTML: escaped everywhere, mentions linked once."""

from rulebook_compiler.model import Link
from rulebook_compiler.site.markup import linked_text, mention_spans, unlinked_mentions


def href(link):
    return f"../{link.term}/" + (f"#{link.clause}" if link.clause else "")


def test_mention_is_linked_and_the_rest_escaped():
    text = "A character discarded by Battle Resolution <b>is</b> healed"
    out = str(linked_text(text, [Link("Battle Resolution", "battle-resolution", None)], href))
    assert out == ('A character discarded by <a class="rb-mention" href="../battle-resolution/">'
                   'Battle Resolution</a> &lt;b&gt;is&lt;/b&gt; healed')


def test_phrase_found_ignoring_case_keeps_the_texts_own_case():
    out = str(linked_text("see battle resolution.", [Link("Battle Resolution", "br", "step-1")], href))
    assert out == 'see <a class="rb-mention" href="../br/#step-1">battle resolution</a>.'


def test_hostile_phrase_and_target_are_escaped():
    link = Link('<script>x</script>', "t", None)
    out = str(linked_text('say <script>x</script> "q"', [link], lambda l: '"><script>'))
    assert "<script>" not in out
    assert 'href="&#34;&gt;&lt;script&gt;"' in out
    assert out.endswith("&#34;q&#34;")


def test_overlapping_mentions_link_the_first_and_a_later_occurrence():
    text = "Heal and Heal ability"
    spans = mention_spans(text, [Link("Heal", "heal", None), Link("Heal ability", "heal", "x")])
    assert [(s, e) for s, e, _ in spans] == [(0, 4), (9, 21)]


def test_phrase_missing_from_text_is_listed_as_see_also():
    links = [Link("Targeting", "targeting", None), Link("heal", "heal", None)]
    assert unlinked_mentions("A heal ability", links) == [links[0]]
