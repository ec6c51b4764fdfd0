"""The corrections log on the site, and reader notes apart from editor notes.

The fixture tests/fixtures/lock/frozen has a published, locked edition 1.0; a word of
its clause cure#curable is changed and recorded with 'rulebook correct'.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.build import load_rulebook
from rulebook_compiler.cli import main
from rulebook_compiler.site import pages as P
from rulebook_compiler.site.render import Renderer

FROZEN = Path(__file__).resolve().parents[1] / "fixtures" / "lock" / "frozen"


def read(site: Path, url: str) -> str:
    return (site / url / "index.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def corrected(tmp_path_factory) -> tuple[Path, Path]:
    """The fixture after a transcription correction and an erratum, and its built site."""
    base = tmp_path_factory.mktemp("corrected")
    root = base / "frozen"
    shutil.copytree(FROZEN, root)
    cure = root / "editions" / "1.0" / "cure.yaml"
    cure.write_text(cure.read_text(encoding="utf-8").replace("curable if it is", "curable when it is"),
                    encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(main, ["correct", "--edition", "1.0", "--kind", "transcription", "--date", "2026-02-03",
                                  "--reason", "The booklet says <when>.", "--rulebook", str(root)])
    assert (result.exit_code, result.stderr) == (0, "")
    cure.write_text(cure.read_text(encoding="utf-8").replace("Targets must be curable.",
                                                             "Targets must be curable or asleep."),
                    encoding="utf-8")
    result = runner.invoke(main, ["correct", "--edition", "1.0", "--kind", "erratum", "--date", "2026-03-04",
                                  "--reason", "Errata sheet 1.", "--rulebook", str(root)])
    assert (result.exit_code, result.stderr) == (0, "")
    assert runner.invoke(main, ["check", str(root)]).exit_code == 0
    site = base / "site"
    result = runner.invoke(main, ["build", "--rulebook", str(root), "--out", str(site)])
    assert result.exit_code == 0, result.output
    return root, site


def test_the_corrections_page_lists_the_log(corrected):
    _, site = corrected
    html = read(site, "corrections")
    start = html.index('<ol class="rb-corrections">')
    entries = html[start:html.index("</ol>", start)]
    assert entries.count("<li ") == 3
    first = entries[entries.index('id="correction-1"'):entries.index('id="correction-2"')]
    assert "<strong>2026-01-01</strong>" in first and "<strong>Published and locked</strong>" in first
    assert "<p>First printing.</p>" in first
    second = entries[entries.index('id="correction-2"'):entries.index('id="correction-3"')]
    assert "<strong>Transcription corrected</strong>" in second
    assert "<p>The booklet says &lt;when&gt;.</p>" in second  # escaped
    assert "the rule is as the publisher printed it" in second
    assert '<a href="../terms/cure/#curable"><code>cure#curable</code></a>' in second  # 1.0 is in force
    third = entries[entries.index('id="correction-3"'):]
    assert "<strong>Rule changed by the publisher</strong>" in third
    assert '<code>cure#targets</code>' in third


def test_a_corrected_clause_says_so_on_its_page(corrected):
    _, site = corrected
    html = read(site, "terms/cure")  # 1.0, the edition in force (2.0 is a draft)
    curable = html[html.index('id="curable"'):html.index('id="targets"')]
    assert "A character is curable when it is poisoned." in curable
    # For readers, what kind of correction it was; the editors' reason (which may name the model) is
    # the log's, which the box links to.
    assert ('<p class="rb-correction rb-correction--transcription" data-search-exclude>'
            '<span class="rb-note__label">Transcription corrected on 2026-02-03:</span> The editors corrected '
            'their transcription of the text or of its meaning; the rule is as the publisher printed it. '
            '(<a href="../../corrections/#correction-2">why, in the corrections log</a>)</p>') in curable
    assert "The booklet says" not in html
    targets = html[html.index('id="targets"'):]
    assert ('<span class="rb-note__label">Rule changed by the publisher on 2026-03-04:</span> An erratum: the '
            'publisher changed the rule after the edition was published. (<a href="../../corrections/#correction-3">'
            'why, in the corrections log</a>)') in targets
    assert "Transcription corrected" not in targets
    # The draft's pages carry no correction of 1.0.
    assert "rb-correction" not in read(site, "editions/2.0/terms/ward")
    assert "rb-correction" not in read(site, "editions/2.0/terms/cure")


def test_reader_notes_are_shown_and_editor_notes_are_not(corrected):
    _, site = corrected
    html = read(site, "terms/cure")
    assert "Cure is sometimes called Mend at tournaments." in html
    assert "Printed in bold in the booklet." in html
    assert "Page 12 of the booklet." not in html and "read as the targets" not in html
    edition = read(site, "editions/1.0")
    assert "The first printing." in edition and "Typed from the printed booklet." not in edition


def test_editor_notes_where_an_editor_asks():
    book = load_rulebook(FROZEN)
    spec = next(s for s in P.plan(book) if s.kind == P.EDITION_TERM and s.term == "cure")
    html = Renderer(book, show_editor_notes=True).render(spec, lambda target: target).html
    assert ('<p class="rb-note rb-note--editor" data-search-exclude><span class="rb-note__label">Editors\' note:'
            '</span> Page 12 of the booklet.</p>') in html
    assert "&#34;Targets&#34; is read as the targets of a cure." in html
    html = Renderer(book).render(spec, lambda target: target).html
    assert "rb-note--editor" not in html


def test_a_rulebook_without_a_log_has_no_corrections_page():
    book = load_rulebook(Path(__file__).resolve().parents[1] / "fixtures" / "minimal")
    assert [s for s in P.plan(book) if s.kind == P.CORRECTIONS] == []
