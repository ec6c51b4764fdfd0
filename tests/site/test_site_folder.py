"""A project's own site/ folder overrides the package's default templates, theme overrides and stylesheet.

The defaults live in the package (rulebook_compiler/site/theme/); a project outside the
clone builds with them, and replaces any one file by putting its own at the same
place under ./site (beside mkdocs.yml): site/templates/, site/overrides/,
site/docs/assets/stylesheets/rulebook.css.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main
from rulebook_compiler.site.render import SITE_DIR

ROOT = Path(__file__).resolve().parents[2]
MINIMAL = ROOT / "tests" / "fixtures" / "minimal"
OWN_TERM = '<h1 id="page_term">{{ term.name }}</h1>\n<p class="own-template">our own term page</p>\n'
OWN_MAIN = ('{% extends "base.html" %}\n{% block extrahead %}{{ super() }}'
            '<meta name="own-override" content="yes">{% endblock %}\n')
OWN_CSS = ".own-stylesheet { color: red; }\n"


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A project outside the clone: its rulebook, and nothing else; the current folder."""
    shutil.copytree(MINIMAL, tmp_path / "rulebook")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def build(*args: str) -> None:
    result = CliRunner().invoke(main, ["build", *args], prog_name="rulebook")
    assert result.exit_code == 0, result.output


def own_site(project: Path) -> None:
    (project / "site" / "templates").mkdir(parents=True)
    (project / "site" / "templates" / "term.html").write_text(OWN_TERM)
    (project / "site" / "overrides").mkdir()
    (project / "site" / "overrides" / "main.html").write_text(OWN_MAIN)
    (project / "site" / "docs" / "assets" / "stylesheets").mkdir(parents=True)
    (project / "site" / "docs" / "assets" / "stylesheets" / "rulebook.css").write_text(OWN_CSS)


def test_without_a_site_folder_the_package_defaults_serve(project):
    build("--rulebook", "rulebook", "--out", "public")
    page = (project / "public" / "terms" / "cure" / "index.html").read_text()
    assert "own-template" not in page
    assert (project / "public" / "assets" / "stylesheets" / "rulebook.css").read_bytes() == \
        (SITE_DIR / "docs" / "assets" / "stylesheets" / "rulebook.css").read_bytes()
    # the package's theme override (noindex on pages kept out of search) is still in use
    history = (project / "public" / "terms" / "cure" / "history" / "index.html").read_text()
    assert '<meta name="robots" content="noindex">' in history


def test_a_project_site_folder_overrides_each_file_it_holds(project):
    own_site(project)
    build("--rulebook", "rulebook", "--out", "public")
    page = (project / "public" / "terms" / "cure" / "index.html").read_text()
    assert '<p class="own-template">our own term page</p>' in page
    assert '<meta name="own-override" content="yes">' in page
    assert (project / "public" / "assets" / "stylesheets" / "rulebook.css").read_text() == OWN_CSS
    # a template the project does not override still comes from the package
    home = (project / "public" / "index.html").read_text()
    assert '<meta name="own-override" content="yes">' in home
    assert (project / "public" / "editions" / "index.html").is_file()


def test_a_projects_own_mkdocs_yml_without_theme_paths_builds_with_its_site_folder(project):
    # The user: their own mkdocs.yml (no custom_dir, no templates) ended in TemplateNotFound.
    own_site(project)
    (project / "mkdocs.yml").write_text(json.dumps({
        "site_name": "Ours", "docs_dir": "site/docs", "site_dir": "public", "theme": {"name": "material"},
        "plugins": ["search", {"rulebook": {"rulebook": "rulebook"}}]}))
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=project, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    page = (project / "public" / "terms" / "cure" / "index.html").read_text()
    assert '<p class="own-template">our own term page</p>' in page
    assert '<meta name="own-override" content="yes">' in page
    assert (project / "public" / "assets" / "stylesheets" / "rulebook.css").read_text() == OWN_CSS


def test_a_build_may_not_write_into_the_projects_site_folder(project):
    own_site(project)
    result = CliRunner().invoke(main, ["build", "--rulebook", "rulebook", "--out", "site/templates"],
                                prog_name="rulebook")
    assert result.exit_code == 2
    assert result.stderr == (
        f"rulebook: error: --out: 'site/templates' is the project's site templates "
        f"'{project / 'site' / 'templates'}'; an output may not overlap an input, choose another path\n"
        "  hint: see 'rulebook build --help'\n")
    assert (project / "site" / "templates" / "term.html").read_text() == OWN_TERM
