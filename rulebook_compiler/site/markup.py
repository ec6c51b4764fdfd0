"""Rule text as HTML: every character escaped, mentions of other terms linked.

Rule text is untrusted. It never passes through Markdown: pages are emitted as
HTML whose text nodes are escaped here, so ``<script>``, raw HTML and Markdown
syntax in a clause show as the characters they are.
"""

from __future__ import annotations

from typing import Callable, Sequence

from markupsafe import Markup, escape

from ..model import Link


def mention_spans(text: str, links: Sequence[Link]) -> list[tuple[int, int, Link]]:
    """Where each link's phrase first occurs in ``text``, without overlaps, in text order.

    The phrase is looked up as written, then ignoring case; a phrase that is not
    in the text (or overlaps an earlier mention) is not linked in the text.
    """
    spans: list[tuple[int, int, Link]] = []

    def free(start: int, end: int) -> bool:
        return not any(s < end and start < e for s, e, _ in spans)

    # casefold keeps lengths only for ASCII, so offsets stay valid there alone
    folded = text.casefold() if text.isascii() else None
    for link in links:
        tries = [(text, link.phrase)]
        if folded is not None and link.phrase.isascii():
            tries.append((folded, link.phrase.casefold()))
        for haystack, needle in tries:
            if not needle:
                break
            start = haystack.find(needle)
            while start >= 0 and not free(start, start + len(needle)):
                start = haystack.find(needle, start + 1)
            if start >= 0:
                spans.append((start, start + len(needle), link))
                break
    return sorted(spans, key=lambda s: s[0])


def linked_text(text: str, links: Sequence[Link], href: Callable[[Link], str | None]) -> Markup:
    """``text`` escaped, with each mention wrapped in a link to ``href(link)``."""
    out: list[str] = []
    pos = 0
    for start, end, link in mention_spans(text, links):
        target = href(link)
        if target is None:
            continue
        out.append(escape(text[pos:start]))
        out.append(Markup('<a class="rb-mention" href="{}">{}</a>').format(target, text[start:end]))
        pos = end
    out.append(escape(text[pos:]))
    return Markup("").join(out)


def unlinked_mentions(text: str, links: Sequence[Link]) -> list[Link]:
    """Links whose phrase does not occur in the text: shown as "see also" instead."""
    found = {id(link) for _, _, link in mention_spans(text, links)}
    return [link for link in links if id(link) not in found]
