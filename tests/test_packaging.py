"""The package as a user installs it: a wheel in a fresh venv, used from a folder outside the clone.

The wheel is built from a copy of the sources the package is made of (so the
clone gains no build/ or egg-info), installed with pip into a venv that sees
the machine's libraries (--system-site-packages: no download), and its
``rulebook`` command builds and serves a rulebook in a folder of its own.
"""

from __future__ import annotations

import os
import shutil
import site
import socket
import subprocess
import sys
import time
import urllib.request
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MINIMAL = ROOT / "tests" / "fixtures" / "minimal"


def run(*args, cwd: Path, env: dict[str, str], timeout: float = 180) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """(the venv's bin folder, an environment without this clone on PYTHONPATH)."""
    base = tmp_path_factory.mktemp("wheel")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    src = base / "src"
    shutil.copytree(ROOT / "rulebook_compiler", src / "rulebook_compiler", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", base / "dist", src,
        cwd=base, env=env)
    (wheel,) = (base / "dist").glob("rulebook_compiler-*.whl")
    venv.create(base / "venv", with_pip=False)
    python = base / "venv" / "bin" / "python"
    # The dependencies from this environment's site-packages (after the venv's own, so the wheel's
    # compiler comes first; its .pth files, an editable install's among them, are not run).
    purelib = run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))", cwd=base, env=env)
    Path(purelib.stdout.strip(), "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel,
        cwd=base, env=env)
    return base / "venv" / "bin", env


@pytest.fixture
def project(tmp_path) -> Path:
    shutil.copytree(MINIMAL, tmp_path / "rulebook")
    return tmp_path


def test_the_wheel_carries_the_site(installed):
    bin_, env = installed
    where = run(bin_ / "python", "-c", "import rulebook_compiler, sys; print(rulebook_compiler.__file__)", cwd=bin_, env=env)
    assert Path(where.stdout.strip()).is_relative_to(bin_.parent), "the venv's copy, not the clone's"


def test_the_installed_command_builds_a_site_outside_the_clone(installed, project):
    bin_, env = installed
    run(bin_ / "rulebook", "check", cwd=project, env=env)
    run(bin_ / "rulebook", "build", cwd=project, env=env)
    page = (project / "public" / "terms" / "cure" / "index.html").read_text()
    assert '<h1 id="page_term">Cure</h1>' in page
    assert (project / "public" / "assets" / "stylesheets" / "rulebook.css").is_file()
    assert sorted(p.name for p in project.iterdir()) == ["public", "rulebook"]


def test_the_installed_command_serves_a_site_outside_the_clone(installed, project):
    bin_, env = installed
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([str(bin_ / "rulebook"), "serve", "--dev-addr", f"127.0.0.1:{port}"], cwd=project,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline, page = time.monotonic() + 120, None
        while page is None and server.poll() is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/terms/cure/", timeout=5) as response:
                    page = response.read().decode()
            except OSError:
                time.sleep(0.5)
        assert page is not None, f"nothing served; exit status {server.poll()}"
        assert '<h1 id="page_term">Cure</h1>' in page
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_package_requires_only_what_check_needs_and_the_site_is_an_extra(installed):
    # pre-commit installs the package with its own dependencies: check's, not mkdocs-material's stack.
    bin_, env = installed
    requires = run(bin_ / "python", "-c", "import importlib.metadata as m; "
                   "print('\\n'.join(m.requires('rulebook-compiler')))", cwd=bin_, env=env).stdout.splitlines()
    plain = sorted(r.split(">")[0] for r in requires if ";" not in r)
    # rich: check's progress bars on a terminal (rulebook_compiler/progress.py), small and never imported by the hook
    assert plain == ["click", "dd", "deepdiff", "jinja2", "pyyaml", "rich"]
    assert sorted(r.split(">")[0] for r in requires if r.endswith('extra == "site"')) == ["mkdocs", "mkdocs-material"]


def test_the_wheel_ships_the_schema_files(installed):
    """rulebook_compiler/schemas/ (issue 13 point 5): what an editor maps files to, in the installed package."""
    bin_, env = installed
    code = ("import rulebook_compiler.schema as s; print(sorted(p.name for p in s.SCHEMA_DIR.glob('*.json'))); "
            "print(all((s.SCHEMA_DIR / n).read_text() == t for n, t in s.shipped_files().items()))")
    shown = run(bin_ / "python", "-c", code, cwd=bin_, env=env)
    assert shown.stdout == (
        "['corrections.schema.json', 'rulebook.json', 'rulebook.schema.json', 'rulings.schema.json', "
        "'term-patch.schema.json', "
        "'term.schema.json', 'vocabulary-overlay.schema.json', 'vocabulary.schema.json']\nTrue\n")


def test_the_wheel_installs_one_top_level_package_named_for_the_project(installed):
    """Issue 25: the import package was ``compiler``, a name that collides easily in a user's environment."""
    bin_, env = installed
    code = ("import importlib.metadata as m, importlib.util as u; d = m.distribution('rulebook-compiler'); "
            "print(sorted({f.parts[0] for f in d.files if f.suffix == '.py' and f.parts[0] != '..'})); "
            "print(sorted(f'{e.group} {e.name} {e.value}' for e in d.entry_points)); "
            "print(u.find_spec('compiler'))")
    shown = run(bin_ / "python", "-c", code, cwd=bin_, env=env)
    assert shown.stdout == (
        "['rulebook_compiler']\n"
        "['console_scripts rulebook rulebook_compiler.cli:main', "
        "'mkdocs.plugins rulebook rulebook_compiler.site.plugin:RulebookPlugin', "
        "'pytest11 rulebook rulebook_compiler.conformance.plugin']\n"
        "None\n")
    assert run(bin_ / "python", "-m", "rulebook_compiler", "--version", cwd=bin_, env=env).stdout == "rulebook, version 0.2.0\n"
