"""A site build refuses symbolic links in its docs and overrides folders that lead outside them.

mkdocs copies docs_dir into the site following links: ``site/docs/env.txt ->
/proc/self/environ`` would publish the build machine's environment. The
project (tests/fixtures/minimal as ./rulebook) gets such a link in each of the
folders a build reads: site/docs/, site/overrides/, site/templates/, and a
docs_dir named in its mkdocs.yml. ``rulebook build``, plain ``mkdocs build``
(the plugin) and ``rulebook serve`` refuse it, with the link's place, exit 1,
nothing written, the previous site kept.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulebook_compiler.cli import main

ROOT = Path(__file__).resolve().parents[2]
MINIMAL = ROOT / "tests" / "fixtures" / "minimal"
HINT = ("  hint: a site publishes only the files inside its folders: copy the file in instead of linking to it, "
        "or remove the link")
MKDOCS_YML = """site_name: Minimal
docs_dir: site/docs
site_dir: public
theme: {name: material}
plugins:
  - search
  - rulebook: {rulebook: rulebook}
"""


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    shutil.copytree(MINIMAL, tmp_path / "rulebook")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str):
    return CliRunner().invoke(main, list(args), prog_name="rulebook")


def error(link: str, what: str, folder: str, target: str) -> str:
    return f"{link}: error: a symbolic link to outside {what} ('{folder}'): it leads to '{target}'"


def test_a_link_out_of_site_docs_is_refused_and_the_previous_site_stays(project):
    assert run("build", "--rulebook", "rulebook", "--out", "public").exit_code == 0
    before = {p: p.read_bytes() for p in sorted((project / "public").rglob("*")) if p.is_file()}
    (project / "site" / "docs").mkdir(parents=True)
    (project / "site" / "docs" / "env.txt").symlink_to("/proc/self/environ")
    result = run("build", "--rulebook", "rulebook", "--out", "public")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        error("site/docs/env.txt", "the project's site docs", "site/docs", os.path.realpath("/proc/self/environ")),
        HINT,
        "1 problem found; the site was not built, public is unchanged",
    ]
    assert {p: p.read_bytes() for p in sorted((project / "public").rglob("*")) if p.is_file()} == before
    assert sorted(p.name for p in project.iterdir()) == ["public", "rulebook", "site"]  # no staging folder left


def test_every_link_out_of_every_site_folder_is_reported_at_once(project):
    for folder in ("docs/assets", "overrides/partials", "templates"):
        (project / "site" / folder).mkdir(parents=True)
    (project / "site" / "docs" / "assets" / "passwd.txt").symlink_to("/etc/passwd")
    (project / "site" / "overrides" / "partials" / "etc").symlink_to("/etc")  # a folder too
    (project / "site" / "templates" / "home.html").symlink_to("../../rulebook/rulebook.yaml")
    (project / "site" / "templates" / "own.html").write_text("<p>ours</p>\n")
    (project / "site" / "templates" / "term.html").symlink_to("own.html")  # inside: allowed
    result = run("build", "--rulebook", "rulebook", "--out", "public")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        error("site/docs/assets/passwd.txt", "the project's site docs", "site/docs", "/etc/passwd"), HINT,
        error("site/overrides/partials/etc", "the project's theme overrides", "site/overrides", "/etc"), HINT,
        error("site/templates/home.html", "the project's site templates", "site/templates",
              str(project.resolve() / "rulebook" / "rulebook.yaml")), HINT,
        "3 problems found; the site was not built, public is unchanged",
    ]
    assert not (project / "public").exists()


def test_a_link_inside_its_folder_builds(project):
    (project / "site" / "templates").mkdir(parents=True)
    (project / "site" / "templates" / "own.html").write_text('<h1 id="page_term">{{ term.name }}</h1>\n<p>ours</p>\n')
    (project / "site" / "templates" / "term.html").symlink_to("own.html")
    result = run("build", "--rulebook", "rulebook", "--out", "public")
    assert result.exit_code == 0, result.output
    assert "<p>ours</p>" in (project / "public" / "terms" / "cure" / "index.html").read_text()


def test_plain_mkdocs_build_refuses_a_link_out_of_docs_dir_before_it_empties_site_dir(project):
    (project / "mkdocs.yml").write_text(MKDOCS_YML)
    (project / "site" / "docs").mkdir(parents=True)
    (project / "site" / "docs" / "passwd.txt").symlink_to("/etc/passwd")
    (project / "public").mkdir()
    (project / "public" / "index.html").write_text("the previous site\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=project, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    # docs_dir is site/docs itself: named once, as the docs folder mkdocs publishes
    lines = done.stderr.splitlines()
    start = lines.index("ERROR   -  " + error("site/docs/passwd.txt", "the docs folder (docs_dir)", "site/docs",
                                              "/etc/passwd"))
    assert lines[start + 1:start + 3] == [HINT, "1 problem found; nothing was built"]
    assert (project / "public" / "index.html").read_text() == "the previous site\n"
    assert sorted(p.name for p in (project / "public").iterdir()) == ["index.html"]


def test_serve_refuses_to_start_with_a_link_out(project):
    (project / "site" / "docs").mkdir(parents=True)
    (project / "site" / "docs" / "passwd.txt").symlink_to("/etc/passwd")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "rulebook_compiler", "serve", "--rulebook", "rulebook",
                           "--dev-addr", "127.0.0.1:0"], cwd=project, env=env, capture_output=True, text=True,
                          timeout=300)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.splitlines() == [
        "rulebook: error: the site was not built",
        error("site/docs/passwd.txt", "the project's site docs", "site/docs", "/etc/passwd"), HINT,
        "1 problem found; nothing was built",
    ]


def test_serve_refuses_a_link_added_while_it_serves_and_keeps_the_last_good_site(project):
    import queue
    import threading
    import time
    import urllib.request

    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    process = subprocess.Popen([sys.executable, "-m", "rulebook_compiler", "serve", "--rulebook", "rulebook",
                                "--dev-addr", "127.0.0.1:0"], cwd=project, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines = {"stdout": queue.Queue(), "stderr": queue.Queue()}
    for name in lines:
        threading.Thread(target=lambda n=name: [lines[n].put(x.rstrip("\n")) for x in getattr(process, n)],
                         daemon=True).start()
    try:
        url = lines["stdout"].get(timeout=120).removeprefix("Serving on ")
        (project / "site" / "templates").mkdir(parents=True)
        (project / "site" / "templates" / "home.html").symlink_to("/etc/passwd")
        time.sleep(1.1)  # a newer mtime than the last look, even on a coarse clock
        cure = project / "rulebook" / "editions" / "v1" / "cure.yaml"
        cure.write_text(cure.read_text().replace("Targets must be curable.", "Targets must be cured."))
        got = [lines["stderr"].get(timeout=120) for _ in range(5)]
        assert got == ["rulebook: error: the site was not rebuilt",
                       error("site/templates/home.html", "the project's site templates", "site/templates",
                             "/etc/passwd"), HINT,
                       "1 problem found; nothing was built",
                       "The last good site is still served; fix the errors and save to rebuild."]
        with urllib.request.urlopen(url + "terms/cure/", timeout=120) as response:
            page = response.read().decode()
        assert "Targets must be curable." in page  # the last good build, under the errors' overlay
        assert "1 problem found; nothing was built" in page
    finally:
        process.terminate()
        process.wait(timeout=30)
