"""In Chromium: the pages players read carry no model, the A–Z bar leads to its letters, and a
symbolic link out of the site's folders never publishes what it points to (issue 24 point 3).

The bundled rulebook's site (the ``sites`` fixture) is read for the model's words as a property:
every decision, fact and predicate name of any edition that is written as code (with a dot or an
underscore), a clause ref (``term#clause``), and the changelog's modelling phrases.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from rulebook_compiler.build import load_rulebook

from .conftest import ROOT

pytestmark = pytest.mark.browser
MINIMAL = ROOT / "tests" / "fixtures" / "minimal"
PHRASES = ("not asked", "answered by no rule", "was not possible", "no rule answers")


def model_names() -> set[str]:
    book = load_rulebook(ROOT / "rulebook")
    names: set[str] = set()
    for edition in book.editions:
        names.update(edition.decisions)
        names.update(f.name for f in edition.vocabulary.facts)
        for term in edition.terms:
            names.update(c.defines.name for c in term.clauses if c.defines is not None)
    return {n for n in names if "." in n or "_" in n}


def modelling(text: str, names: set[str]) -> list[str]:
    found = [n for n in sorted(names) if re.search(rf"(?<![\w.]){re.escape(n)}(?![\w])", text)]
    found += [p for p in PHRASES if p in text]
    found += re.findall(r"\b[a-z0-9]+(?:-[a-z0-9]+)*#[a-z0-9]+(?:-[a-z0-9]+)*\b", text)
    return found


def test_term_pages_carry_no_model(page, sites, serve):
    base = serve(sites["bundled"])
    names = model_names()
    assert "heal.may_play_enhancement" in names  # the check has something to find
    book = load_rulebook(ROOT / "rulebook")
    from rulebook_compiler.site.pages import current

    leaks = {}
    for term in current(book).terms:
        page.goto(f"{base}terms/{term.id}/")
        found = modelling(page.locator("article").inner_text(), names)
        if found:
            leaks[term.id] = found
    assert leaks == {}


def test_the_notice_for_players_carries_no_model_and_folds_by_entry(page, sites, serve):
    base = serve(sites["bundled"])
    names = model_names()
    book = load_rulebook(ROOT / "rulebook")
    for edition in book.editions[1:]:
        page.goto(f"{base}editions/{edition.id}/changes/")
        notice = page.evaluate("""() => {
            const start = document.getElementById('notice'), end = document.getElementById('summary');
            let text = '', node = start;
            while (node && node !== end) { text += ' ' + (node.textContent || ''); node = node.nextElementSibling; }
            return text; }""")
        assert modelling(notice, names) == [], edition.id
        folds = page.locator("details.rb-notice-term")
        # every fold is closed when the page opens: the page leads with the summary lines
        assert [folds.nth(i).get_attribute("open") for i in range(folds.count())] == [None] * folds.count()


def test_the_a_to_z_bar_leads_to_each_letter(page, sites, serve):
    base = serve(sites["bundled"])
    page.goto(f"{base}terms/")
    letters = page.locator("nav.rb-letters a")
    shown = [letters.nth(i).inner_text() for i in range(letters.count())]
    assert shown == sorted(shown)
    assert len(shown) > 1
    last = shown[-1]
    page.click(f"nav.rb-letters a >> text={last}")
    page.wait_for_url(f"**/terms/#letter-{last}")
    heading = page.locator(f"h2#letter-{last}")
    assert heading.inner_text() == last
    assert heading.is_visible()
    # the letter's first entry is a link to a term page that opens
    page.locator(f"h2#letter-{last} + ul a").first.click()
    page.wait_for_url("**/terms/*/")
    assert page.locator("h1").first.inner_text().upper().startswith(last)


def test_a_link_out_of_the_docs_folder_is_refused_and_never_served(page, build, serve, tmp_path):
    # A project whose mkdocs.yml builds its rulebook: a committed site/docs/env.txt -> /proc/self/environ
    project = tmp_path / "project"
    shutil.copytree(MINIMAL, project / "rulebook")
    (project / "site" / "docs").mkdir(parents=True)
    (project / "mkdocs.yml").write_text(
        "site_name: Minimal\ndocs_dir: site/docs\nsite_dir: public\ntheme: {name: material}\n"
        "plugins:\n  - search\n  - rulebook:\n      rulebook: rulebook\n", encoding="utf-8")
    out = tmp_path / "public"
    assert build(None, out, cwd=project).exit_code == 0
    secret = tmp_path / "secret.txt"
    secret.write_text("TOKEN=hunter2\n", encoding="utf-8")
    (project / "site" / "docs" / "env.txt").symlink_to(secret)
    refused = build(None, out, cwd=project)
    assert refused.exit_code == 1
    assert "site/docs/env.txt" in refused.output + getattr(refused, "stderr", "")
    # the site before the refusal is still served, and the link's target is not in it
    base = serve(out)
    page.goto(base)
    assert page.locator("h1").first.inner_text() == "Minimal"
    response = page.goto(f"{base}env.txt")
    assert response is not None
    assert response.status == 404
    assert "hunter2" not in "".join(p.read_text(errors="ignore") for p in out.rglob("*") if p.is_file())
