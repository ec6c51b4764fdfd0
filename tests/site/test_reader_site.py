"""The site as players read it (issue 13 point 7), read as files: labels, tables, fonts, print, long pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ADOPTED = ROOT / "tests" / "fixtures" / "site" / "proposal-adopted"


@pytest.fixture(scope="module")
def adopted(tmp_path_factory, build) -> Path:
    """The site of a rulebook whose published p3 adopts the draft d2's wording."""
    out = tmp_path_factory.mktemp("adopted") / "site"
    result = build(ADOPTED, out)
    assert result.exit_code == 0, result.output
    return out


def _marks(html: str) -> dict[str, str]:
    """Each clause's "since" line as text, by clause id."""
    found = {}
    for block in html.split('<div class="rb-clause">')[1:]:
        clause = re.search(r'<h\d id="([^"]+)"', block).group(1)
        since = re.search(r'<p class="rb-since"[^>]*>(.*?)</p>', block, re.S)
        found[clause] = re.sub(r"<[^>]+>", "", since.group(1)) if since else None
    return found


def test_a_published_edition_never_labels_its_clauses_as_proposals(adopted):
    """p3 (published) keeps d2's (draft) wording: it reads as of p3, where it became the rule."""
    page = (adopted / "terms" / "cure" / "index.html").read_text(encoding="utf-8")
    assert _marks(page) == {"kept": "since p1", "reworded": "since p1 · changed in p3 (first proposed in d2)",
                            "proposed": "since p3 (first proposed in d2)", "when": "since p3 (first proposed in d2)"}
    # (the navigation names the draft d2 a proposal; the edition's own article never does)
    assert "(proposal)" not in page[page.index("<article"):page.index("</article>")]


def test_the_draft_itself_still_says_proposal(adopted):
    page = (adopted / "editions" / "d2" / "terms" / "cure" / "index.html").read_text(encoding="utf-8")
    assert _marks(page) == {"kept": "since p1", "reworded": "since p1 · changed in d2 (proposal)",
                            "proposed": "since d2 (proposal)", "when": "since d2 (proposal)"}


def _without_comment(template: str) -> str:
    """A template without its opening comment (Material's says it was generated; ours says why it is ours)."""
    return re.sub(r"\{#-.*?-#\}\n", "", template, count=1, flags=re.S)


def test_the_search_partial_is_materials_with_the_dialog_named():
    """Our copy of Material's partials/search.html differs only by the dialog's aria-label (axe: aria-dialog-name)."""
    import material

    theirs = (Path(material.__file__).parent / "templates" / "partials" / "search.html").read_text(encoding="utf-8")
    ours = (ROOT / "rulebook_compiler" / "site" / "theme" / "overrides" / "partials" / "search.html").read_text(encoding="utf-8")
    assert _without_comment(ours) == _without_comment(theirs).replace(
        'role="dialog">', 'role="dialog" aria-label="{{ lang.t(\'search\') }}">', 1)


def test_pages_request_no_web_fonts_unless_the_site_asks(adopted, tmp_path, build):
    assert "fonts.googleapis.com" not in (adopted / "index.html").read_text(encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    (tmp_path / "docs").mkdir()
    config.write_text(f"site_name: A\nsite_dir: {tmp_path / 'out'}\ntheme: {{name: material}}\n"
                      f"plugins:\n  - search\n  - rulebook: {{rulebook: {ADOPTED}, web_fonts: true}}\n")
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    mkdocs_build(load_config(config_file=str(config)))
    assert "fonts.googleapis.com" in (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
