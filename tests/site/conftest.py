"""Sites built once per session, a local HTTP server for them, and Debian's Chromium."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def build_site(rulebook: Path | None, out: Path, cwd: Path = ROOT):
    """Run ``rulebook build`` in-process; return the click result."""
    from rulebook_compiler.cli import main

    args = ["build", "--out", str(out)] + (["--rulebook", str(rulebook)] if rulebook else [])
    runner = CliRunner(mix_stderr=False) if "mix_stderr" in CliRunner.__init__.__code__.co_varnames \
        else CliRunner()
    with _chdir(cwd):
        return runner.invoke(main, args, catch_exceptions=False)


class _chdir:
    def __init__(self, path: Path):
        self.path, self.old = path, None

    def __enter__(self):
        import os

        self.old = os.getcwd()
        os.chdir(self.path)

    def __exit__(self, *exc):
        import os

        os.chdir(self.old)


@pytest.fixture(scope="session")
def build():
    """build(rulebook or None, out) runs ``rulebook build`` from the repository root."""
    return build_site


@pytest.fixture(scope="session")
def sites(tmp_path_factory) -> dict[str, Path]:
    """The bundled rulebook's site (through ./mkdocs.yml), and those of two fixtures."""
    base = tmp_path_factory.mktemp("sites")
    built = {}
    for name, rulebook in (("bundled", None), ("minimal", FIXTURES / "minimal"),
                           ("hostile", FIXTURES / "site" / "hostile")):
        out = base / name
        result = build_site(rulebook, out)
        assert result.exit_code == 0, result.output + (result.stderr if hasattr(result, "stderr") else "")
        built[name] = out
    return built


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def serve():
    """serve(folder) -> base URL of a local HTTP server on 127.0.0.1 for that folder."""
    servers = []

    def start(folder: Path) -> str:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_port}/"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright; never a downloaded browser, never skipped."""
    from playwright.sync_api import sync_playwright

    assert shutil.which("chromium") or Path(CHROMIUM).exists(), \
        "the browser tests need Debian's chromium (apt-get install chromium); .ci/run installs it"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    yield pg
    context.close()
