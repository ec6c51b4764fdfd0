"""``rulebook serve``'s rebuilds after an edit write what a whole build writes, byte for byte.

In process, without HTTP: the server object is made (not bound) so that the
rebuild runs as in ``serve``. The fixture (tests/fixtures/serve) has two terms
over two editions: ``heal`` (from v1, kept in v2) links to ``cure#targets``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "serve"
URL = "http://127.0.0.1:8000/"


def _site(book: Path, folder: Path):
    """A serve Site with its first (whole) build done into a fresh folder, as ``serve.serve`` does."""
    from rulebook_compiler.site.config import default_config
    from rulebook_compiler.site.serve import Server, Site

    config_file = folder / "mkdocs.yml"
    config_file.write_text(default_config(book, "Minimal"))
    site = Site(config_file, book, "127.0.0.1:8000")
    site.quiet = 0  # the pages over every term at once: the test reads them next
    site.url = URL
    out = folder / "first"
    out.mkdir()
    site.server = Server(builder=site.rebuild, host="127.0.0.1", port=8000, root=str(out))
    config = site.load_config(str(out))
    site.build(config)
    site.book = config.plugins["rulebook"].book
    return site


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _whole(book: Path, folder: Path) -> dict[str, bytes]:
    """Every file of a whole build of the rulebook as it is now, from scratch."""
    folder.mkdir()
    site = _site(book, folder)
    try:
        return _files(Path(site.server.root))
    finally:
        shutil.rmtree(site.server.root, ignore_errors=True)


@pytest.fixture
def book(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "book")
    return tmp_path / "book"


def _edited(book: Path, tmp_path: Path, edits: list[tuple[str, str, str]], capsys) -> tuple[dict, dict, str]:
    """Serve, make each edit and rebuild; then (the site served, a whole build's, what serve printed)."""
    from rulebook_compiler.build import remembering

    with remembering():
        site = _site(book, tmp_path)
        try:
            capsys.readouterr()
            for path, old, new in edits:
                target = book / path
                assert old in target.read_text()
                target.write_text(target.read_text().replace(old, new, 1))
                site.rebuild()
            served = _files(Path(site.server.root))
        finally:
            shutil.rmtree(site.server.root, ignore_errors=True)
            _thaw()
    printed = capsys.readouterr().out
    return served, _whole(book, tmp_path / "whole"), printed


def _thaw() -> None:
    """Undo what serve's rebuilds do to the process (they freeze the heap for the cyclic GC)."""
    import gc

    from rulebook_compiler.site import plugin

    gc.unfreeze()
    plugin.HOST_FREEZES = False


def _lines(printed: str) -> list[str]:
    import re

    return [re.sub(r"\d+\.\d s$", "N s", line) for line in printed.splitlines()]


def test_a_clause_edit_serves_what_a_whole_build_gives(book, tmp_path, capsys):
    served, whole, printed = _edited(book, tmp_path, [
        ("editions/v2/cure.yaml", "Targets must be curable.", "Targets must be curable by a cure."),
        ("editions/v1/heal.yaml", "healed once per turn", "healed at most once per turn"),
    ], capsys)
    # each term's pages: its page in each edition, its history, and cure's question page in each (pages
    # of the term, rewritten with it: serve.affected takes the term's pages, whichever edition changed;
    # heal declares no decision, so it has none)
    assert _lines(printed) == [
        "Rebuilt 5 pages in N s", 'Rebuilt 2 pages more (the printable glossary, "What changed") in N s',
        "Rebuilt 3 pages in N s", 'Rebuilt 2 pages more (the printable glossary, "What changed") in N s']
    # v2 is a draft: its cure is the preview at editions/v2/ (terms/cure/ is v1's, in force)
    assert "curable by a cure" in served["editions/v2/terms/cure/index.html"].decode()
    assert "healed at most once" in served["print/index.html"].decode()
    assert served.keys() == whole.keys()
    assert [name for name in served if served[name] != whole[name]] == []


@pytest.mark.parametrize("edits", [
    [("editions/v2/cure.yaml", "name: Cure", "name: Cure all")],  # heal's page links it: its title there
    [("vocabulary.yaml", "meaning: The phase.", "meaning: The phase of the turn.")],
    [("editions/v2/cure.yaml", "Targets must be curable.", "Targets must be cured."),
     ("editions/v1/heal.yaml", "name: Heal", "name: Healing")],
], ids=["term name", "vocabulary", "clause then name"])
def test_an_edit_that_other_pages_show_rewrites_them_as_a_whole_build_does(book, tmp_path, capsys, edits):
    served, whole, printed = _edited(book, tmp_path, edits, capsys)
    assert _lines(printed)[-1] == "Rebuilt the site in N s"
    assert served.keys() == whole.keys()
    assert [name for name in served if served[name] != whole[name]] == []


def test_an_edit_to_mkdocs_yml_rebuilds_the_whole_site(book, tmp_path, capsys):
    # It used to be ignored: the rulebook was as before, so no page was written again.
    from rulebook_compiler.build import remembering

    with remembering():
        site = _site(book, tmp_path)
        try:
            capsys.readouterr()
            site.config_file.write_text(site.config_file.read_text().replace("site_name: Minimal",
                                                                             "site_name: Minimal rules"))
            site.rebuild()
            home = (Path(site.server.root) / "index.html").read_text()
        finally:
            shutil.rmtree(site.server.root, ignore_errors=True)
            _thaw()
    assert _lines(capsys.readouterr().out) == ["Rebuilt the site in N s"]
    assert re.search(r"<title>[^<]*</title>", home).group() == "<title>Minimal - Minimal rules</title>"
