"""A section's heading as readers see it: its own title, else the one its kind is printed under.

Shared by the site (headings, tables of contents) and the export (each clause record's
``section_title``), so that both name a section alike.
"""

from __future__ import annotations

from .model import Section

SECTION_TITLES = {
    "definition": "Definition",
    "how-to-play": "How to play",
    "default-conditions": "Default conditions",
    "special-conditions": "Special conditions",
    "clarifications": "Clarifications",
}


def section_title(section: Section) -> str:
    return section.title or SECTION_TITLES.get(section.kind, section.key.replace("-", " ").capitalize())
