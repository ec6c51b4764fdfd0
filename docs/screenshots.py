"""Take the README's screenshots of the bundled glossary with Debian's Chromium.

    python3 docs/screenshots.py

Builds the site into a temporary folder, serves it on 127.0.0.1 and writes
docs/site-term.png, docs/site-history.png and docs/site-changes.png. Uses
Playwright's Python package with /usr/bin/chromium (no downloaded browser).
"""

from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHOTS = {
    "site-term.png": "terms/heal/#territory-class",
    "site-history.png": "terms/heal/history/",
    "site-changes.png": "editions/4.0.0-draft/changes/",
}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # the screenshots are the output
        pass


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "public"
        subprocess.run([sys.executable, "-m", "rulebook_compiler", "build", "--out", str(out)], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        handler = functools.partial(_Quiet, directory=str(out))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
                page = browser.new_page(viewport={"width": 900, "height": 640})
                for name, path in SHOTS.items():
                    page.goto(base + path)
                    page.wait_for_load_state("networkidle")
                    page.screenshot(path=str(ROOT / "docs" / name))
                    print(f"docs/{name}: {path}")
                browser.close()
        finally:
            server.shutdown()


if __name__ == "__main__":
    main()
