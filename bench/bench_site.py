"""Time the published glossary against a plain mkdocs-material build of the same pages.

    python bench/bench_site.py [--sizes 100,1000,5000] [--editions 2] [--repeat 1] [--workdir DIR]
    python bench/bench_site.py --rulebook rulebook --search "restore abilities" --repeat 3

For each size N it generates a synthetic rulebook (bench/gen.py, N terms, 2
editions so that histories, an older edition and a "What changed" page exist)
and, in the same run, interleaved:

- site:      ``rulebook build --rulebook R --out OUT`` as a subprocess: check,
             diff, page generation, mkdocs-material, search index;
- baseline:  ``mkdocs build`` (subprocess) of the *same pages* pre-written as
             Markdown files (front matter + the page bodies the site renders,
             those kept out of search in one wrapping ``<div>``: see
             ``as_markdown``), with the same theme, search plugin and
             top-level navigation, and no navigation entry per term. Writing those files is not timed. Its search
             index must equal the site's byte for byte (checked).

Each size is built ``--repeat`` times each way, interleaved, taking turns at
going first; the best time of each counts.

It prints seconds, the ratio site/baseline (target at most 1.2), milliseconds
per page (flat when growth is linear), and the search index size against the
latest edition's text (clause texts, term names and aliases; target at most
1.5), and with ``--search QUERY`` the milliseconds from typing the query to its first
result in Chromium, on the site and on the baseline. ``--rulebook DIR`` measures that
rulebook (the bundled one) instead of generated ones. Timings are ratios within one run, never fixed numbers. 5,000 terms take
minutes: run it by hand, not in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.gen import generate  # noqa: E402

TARGET_TIME = 1.2
TARGET_INDEX = 1.5
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def timed(cmd: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    run = subprocess.run(cmd, cwd=cwd, env=ENV, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if run.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{run.stderr[-3000:]}")
    return elapsed


def as_markdown(body: str, searchable: bool) -> str:
    """A page body as Markdown that Python-Markdown passes through unchanged, in linear time.

    Python-Markdown keeps raw HTML as it is (every page of the bundled, the hostile
    and a 1,000-term generated rulebook came out byte-identical), but after each
    top-level element it copies the rest of the document (``markdown/htmlparser.py``,
    ``handle_endtag``): quadratic in a page with many, and the print page has one
    per term (27 s for its 39 MB at 5,000 terms, against 5 s as one block), which
    flattered the site. Pages kept out of search are therefore wrapped in one
    ``<div>`` (a single block); searchable pages are left as they are, because
    mkdocs-material's search would index a wrapper's preface as one more entry.
    """
    return body if searchable else '<div class="rb-page">\n' + body + "</div>\n"


def write_baseline(rulebook: Path, folder: Path) -> int:
    """The site's pages as plain Markdown files plus an mkdocs.yml; returns the page count."""
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.site import pages as P
    from rulebook_compiler.site.config import default_config
    from rulebook_compiler.site.plugin import navigation, page_meta
    from rulebook_compiler.site.render import SITE_DIR, Renderer
    from rulebook_compiler.site.changes import provider
    import yaml
    from mkdocs.utils import get_relative_url

    book = load_rulebook(rulebook)
    renderer = Renderer(book, changes=provider(book))
    docs = folder / "docs"
    specs = P.plan(book)

    def url_of(uri: str) -> str:
        return uri[:-len("index.md")]

    for spec in specs:
        here = url_of(spec.src_uri)

        def href(target: str) -> str:
            uri, _, anchor = target.partition("#")
            return get_relative_url(url_of(uri), here) + ("#" + anchor if anchor else "")

        body = renderer.render(spec, href).html
        path = docs / spec.src_uri
        path.parent.mkdir(parents=True, exist_ok=True)
        # The plugin gives titles through its API; plain Markdown pages carry them as front matter.
        meta = {key: str(value) if isinstance(value, str) else value for key, value in page_meta(spec).items()}
        front = "---\n" + yaml.safe_dump(meta, allow_unicode=True, sort_keys=False) + "---\n"
        path.write_text(front + "\n" + as_markdown(body, spec.searchable), encoding="utf-8")
    css = docs / "assets" / "stylesheets"
    css.mkdir(parents=True)
    shutil.copy(SITE_DIR / "docs" / "assets" / "stylesheets" / "rulebook.css", css)
    config = yaml.safe_load(default_config(rulebook, book.title))
    config["docs_dir"] = str(docs)
    config["plugins"] = ["search"]
    config["nav"] = navigation(book)
    config["strict"] = False  # the pages link to each other relatively, as generated
    (folder / "mkdocs.yml").write_text(json.dumps(config, indent=2), encoding="utf-8")
    return len(specs)


def text_size(rulebook: Path) -> int:
    from rulebook_compiler.build import load_rulebook

    latest = load_rulebook(rulebook).latest
    return sum(len(c.text.encode()) for t in latest.terms for c in t.clauses) + \
        sum(len(t.name.encode()) + sum(len(a.encode()) for a in t.aliases) for t in latest.terms)


def first_result_ms(site: Path, query: str, repeat: int = 3) -> float:
    """Milliseconds from typing ``query`` in the search box to its first result, in Debian's Chromium
    (the index loaded first, as a reader who opens the page and then searches); best of ``repeat``."""
    import functools
    import http.server
    import threading

    from playwright.sync_api import sync_playwright

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    times = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"])
            for _ in range(repeat):
                page = browser.new_page()
                page.goto(f"http://127.0.0.1:{server.server_port}/")
                page.locator("input.md-search__input").click()
                start = time.perf_counter()
                # the whole query, then one key: Material asks its worker on each key released
                page.locator("input.md-search__input").fill(query)
                page.locator("input.md-search__input").press("End")
                page.wait_for_selector(".md-search-result__item a.md-search-result__link", timeout=60_000)
                times.append(1000 * (time.perf_counter() - start))
                page.close()
            browser.close()
    finally:
        server.shutdown()
    return min(times)


def measure(rulebook: Path, label: str, work: Path, repeat: int, query: str | None) -> tuple:
    """The site and its baseline built from ``rulebook``, interleaved; a row of the table."""
    base = work / f"baseline-{label}"
    shutil.rmtree(base, ignore_errors=True)
    pages = write_baseline(rulebook, base)
    site_dir, base_dir = work / f"site-{label}", work / f"baseline-site-{label}"
    site_cmd = [sys.executable, "-m", "rulebook_compiler", "build", "--rulebook", str(rulebook), "--out", str(site_dir)]
    base_cmd = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(base / "mkdocs.yml"), "-d", str(base_dir)]
    site_times, base_times = [], []
    for i in range(repeat):
        # Interleaved, and each goes first in turn: a busy moment of the machine hits both.
        for which in ((0, 1) if i % 2 == 0 else (1, 0)):
            if which == 0:
                site_times.append(timed(site_cmd, ROOT))
            else:
                base_times.append(timed(base_cmd, ROOT))
    index_file = site_dir / "search" / "search_index.json"
    if index_file.read_bytes() != (base_dir / "search" / "search_index.json").read_bytes():
        print(f"{label}: the baseline's search index differs from the site's: not the same pages", flush=True)
    index, text = index_file.stat().st_size, text_size(rulebook)
    search = (first_result_ms(site_dir, query), first_result_ms(base_dir, query)) if query else None
    s, b = min(site_times), min(base_times)
    found = f", first search result {search[0]:.0f} ms (baseline {search[1]:.0f} ms)" if search else ""
    print(f"{label}: {pages} pages, site {s:.1f} s, baseline {b:.1f} s, ratio {s / b:.2f}, "
          f"index {index / 1e6:.2f} MB = {index / text:.2f}x the text{found}", flush=True)
    return (label, pages, s, b, index, text, search)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100,1000,5000")
    parser.add_argument("--editions", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1, help="best of this many builds each")
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--rulebook", type=Path, default=None,
                        help="measure this rulebook (the bundled one: rulebook) instead of generated ones")
    parser.add_argument("--search", default=None, metavar="QUERY",
                        help="also time the first search result for QUERY in Chromium, site and baseline")
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench-site-"))
    rows = []
    if args.rulebook is not None:
        rows.append(measure(args.rulebook.resolve(), args.rulebook.name, work, args.repeat, args.search))
    else:
        for n in [int(s) for s in args.sizes.split(",")]:
            rulebook = work / f"rulebook-{n}"
            if rulebook.exists():
                shutil.rmtree(rulebook)
            generate(n, rulebook, editions=args.editions)
            rows.append(measure(rulebook, str(n), work, args.repeat, args.search))
    print()
    print(f"{'rulebook':>9} {'pages':>6} {'site s':>8} {'base s':>8} {'ratio':>6} {'site ms/page':>12} "
          f"{'base ms/page':>12} {'index MB':>9} {'text MB':>8} {'index/text':>10} {'search ms':>10} {'base ms':>8}")
    for label, pages, s, b, index, text, search in rows:
        ms = f"{search[0]:>10.0f} {search[1]:>8.0f}" if search else f"{'':>10} {'':>8}"
        print(f"{label:>9} {pages:>6} {s:>8.1f} {b:>8.1f} {s / b:>6.2f} {1000 * s / pages:>12.2f} "
              f"{1000 * b / pages:>12.2f} {index / 1e6:>9.2f} {text / 1e6:>8.2f} {index / text:>10.2f} {ms}")
    worst = max(r[2] / r[3] for r in rows)
    worst_index = max(r[4] / r[5] for r in rows)
    print(f"\ntargets: time ratio <= {TARGET_TIME} (worst {worst:.2f}: {'met' if worst <= TARGET_TIME else 'NOT met'}); "
          f"index <= {TARGET_INDEX}x text (worst {worst_index:.2f}: "
          f"{'met' if worst_index <= TARGET_INDEX else 'NOT met'})")
    if args.workdir is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
