"""Time ``rulebook serve``'s edit loop: from saving a one-clause edit to the changed page served.

    python bench/bench_serve.py [--sizes 100,2000,5000] [--edits 3] [--workdir DIR]

For each size N it generates a synthetic rulebook (bench/gen.py, N terms, 2
editions, as bench_site.py does) and starts ``rulebook serve`` on it as a
subprocess (a free port). Then, ``--edits`` times, it adds a new word to one
clause of a term of the latest edition (a different term each time), saves
the file, and requests that term's page until the word is in it: the time from
the save to that answer is the edit loop as a reader of the page sees it (the
server holds requests while it rebuilds, so the first answer after the
rebuild is the new page). It includes the watcher's notice (file events;
mkdocs polled every 0.5 s) and mkdocs' wait for edits to settle (0.1 s). It
then waits for the server's "Rebuilt N pages more" line (the printable
glossary and "What changed", written once edits pause for 2 s) so that each
edit lands on an idle server; that time, from the save, is the "all pages"
column.

The baseline, in the same run: the first build of the same server (check and
a full build of every page), which is what every rebuild cost before rebuilds
became incremental. It prints seconds for the first build and for each edit,
the best and median edit, the ratio median edit / full build, the median time
to all pages, and the load average before and after. 5,000 terms take
minutes: run it by hand, not in tests.
"""

from __future__ import annotations

import argparse
import os
import queue
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.gen import generate  # noqa: E402

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
TIMEOUT = 1800  # seconds for any one step (a first build at 5,000 terms on a loaded machine)


class Server:
    """``rulebook serve`` in a subprocess; its stdout read line by line into a queue."""

    def __init__(self, book: Path):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "rulebook_compiler", "serve", "--rulebook", str(book), "--dev-addr", "127.0.0.1:0"],
            env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.errors: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.errors.extend(self.process.stderr), daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def url(self) -> str:
        deadline, line = time.monotonic() + TIMEOUT, None
        while line is None and time.monotonic() < deadline and self.process.poll() is None:
            try:
                line = self.lines.get(timeout=1)
            except queue.Empty:
                pass
        if line is None:
            raise SystemExit(f"the server printed no URL (exit status {self.process.poll()}):\n"
                             + "".join(self.errors)[-3000:])
        if not line.startswith("Serving on "):
            raise SystemExit(f"unexpected first line {line!r}:\n" + "".join(self.errors)[-3000:])
        return line.removeprefix("Serving on ")

    def wait_for(self, start: str, inside: str) -> float:
        """Read lines until one that starts with ``start`` and holds ``inside``; when it was read."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                line = self.lines.get(timeout=1)
            except queue.Empty:
                continue
            if line.startswith(start) and inside in line:
                return time.perf_counter()
        raise SystemExit(f"the server never printed {start}...{inside}:\n" + "".join(self.errors)[-3000:])

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=60)


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
        return response.read().decode()


def edit_one_clause(path: Path, word: str) -> None:
    """Put ``word`` at the start of the file's first clause text written as a block-style plain scalar."""
    text = path.read_text()
    found = re.search(r"^ +(?:- )?text: (?=[A-Z])", text, re.MULTILINE)
    assert found, path
    path.write_text(text[:found.end()] + word + " " + text[found.end():])


def measure(n: int, edits: int, work: Path) -> dict:
    book = work / f"book-{n}"
    generate(n, book, editions=2, changed=0.05, seed=0)
    latest = sorted((book / "editions").iterdir())[-1]
    files = [f for f in sorted(latest.glob("*.yaml"))
             if re.search(r"^ +(?:- )?text: (?=[A-Z])", f.read_text(), re.MULTILINE)][:edits]
    start = time.perf_counter()
    server = Server(book)
    try:
        base = server.url()
        first = time.perf_counter() - start
        times, alls = [], []
        for i, path in enumerate(files):
            word = f"Zedit{i}x{n}"
            time.sleep(1.1)  # a newer mtime than the watcher's last look, on any clock
            edit_one_clause(path, word)
            saved = time.perf_counter()
            page, deadline = "", saved + TIMEOUT
            while word not in page and time.perf_counter() < deadline and not server.errors:
                page = fetch(f"{base}terms/{path.stem}/")
                if word not in page:
                    time.sleep(0.05)
            if word not in page:
                raise SystemExit(f"{path.stem}'s page never showed the edit:\n" + "".join(server.errors)[-3000:])
            times.append(time.perf_counter() - saved)
            # The next edit lands on an idle server: after the pages over every term are written too.
            alls.append(server.wait_for("Rebuilt ", " more ") - saved)
    finally:
        server.stop()
    return {"n": n, "first": first, "edits": times, "all": alls}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100,2000,5000")
    parser.add_argument("--edits", type=int, default=3)
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        work = args.workdir or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        print(f"load average {os.getloadavg()[0]:.1f}")
        print(f"{'terms':>6} {'first build s':>14} {'edits s':>22} {'best':>6} {'median':>7} {'median/first':>13}"
              f" {'all pages s (median)':>21}")
        for n in (int(s) for s in args.sizes.split(",")):
            r = measure(n, args.edits, work)
            median = statistics.median(r["edits"])
            print(f"{n:>6} {r['first']:>14.1f} {' '.join(f'{t:.2f}' for t in r['edits']):>22} "
                  f"{min(r['edits']):>6.2f} {median:>7.2f} {median / r['first']:>13.3f}"
                  f" {statistics.median(r['all']):>21.2f}", flush=True)
        print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
