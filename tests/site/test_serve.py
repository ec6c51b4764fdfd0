"""``rulebook serve`` as a user runs it: a real server on a free port, in a subprocess, with edits.

Every wait is bounded: lines are read by a thread into a queue, requests have a
timeout, and the server is terminated (then killed) at the end.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MINIMAL = ROOT / "tests" / "fixtures" / "minimal"
WAIT = 120  # seconds for any one step, on a loaded machine


class Served:
    """A ``rulebook serve`` subprocess and its output, line by line."""

    def __init__(self, cwd: Path, *args: str):
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
        self.process = subprocess.Popen([sys.executable, "-m", "rulebook_compiler", "serve", *args], cwd=cwd, env=env,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: dict[str, queue.Queue[str]] = {"stdout": queue.Queue(), "stderr": queue.Queue()}
        for name in self.lines:
            threading.Thread(target=self._read, args=(name,), daemon=True).start()

    def _read(self, name: str) -> None:
        for line in getattr(self.process, name):
            self.lines[name].put(line.rstrip("\n"))

    def next_lines(self, name: str, count: int) -> list[str]:
        """The next ``count`` lines of stdout or stderr, waiting at most WAIT seconds for each."""
        return [self.lines[name].get(timeout=WAIT) for _ in range(count)]

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)


def fetch(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=WAIT) as response:
        return response.status, response.read().decode()


@pytest.fixture
def served(tmp_path):
    shutil.copytree(MINIMAL, tmp_path / "book")
    server = Served(tmp_path, "--rulebook", "book", "--dev-addr", "127.0.0.1:0")
    yield server, tmp_path / "book" / "editions" / "v2" / "cure.yaml"
    server.stop()


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    # A newer mtime than the last poll even on a coarse clock: the watcher compares mtimes.
    time.sleep(1.1)
    # Written whole beside the rulebook (outside what is watched), then moved over the file: written in
    # place, a stall of this process between the truncation and the write (over mkdocs' 0.1 s build
    # delay, on a loaded machine) had the server build an empty file ("file is empty").
    staged = path.parents[3] / f".{path.name}.edit"
    staged.write_text(text.replace(old, new, 1))
    os.replace(staged, path)


def test_a_broken_edit_prints_its_errors_and_the_last_good_site_stays_served(served):
    server, cure = served
    [line] = server.next_lines("stdout", 1)
    assert line.startswith("Serving on http://127.0.0.1:") and line.endswith("/")
    url = line.removeprefix("Serving on ") + "editions/v2/terms/cure/"  # the draft v2, which the edits change
    status, page = fetch(url)
    assert (status, '<h1 id="page_term">Cure</h1>' in page, "rulebook-error-overlay" in page) == (200, True, False)

    edit(cure, "  - key: definition\n", "  - key: definition\n    bogus: 1\n")
    assert server.next_lines("stderr", 4) == [
        "book/editions/v2/cure.yaml:10:5: error: unknown key 'bogus' in section 'definition'",
        "  hint: valid keys: key, kind, title, clauses",
        "1 problem found",
        "The last good site is still served; fix the errors and save to rebuild.",
    ]
    status, page = fetch(url)  # answered at once (mkdocs serve left every request waiting here)
    assert status == 200
    assert "Targets must be curable." in page  # the last good build
    assert ('<pre style="margin:0;white-space:pre-wrap;color:inherit;background:none">'
            "book/editions/v2/cure.yaml:10:5: error: unknown key &#x27;bogus&#x27; in section &#x27;definition&#x27;\n"
            "  hint: valid keys: key, kind, title, clauses\n"
            "1 problem found</pre>") in page

    fixed = cure.read_text().replace("    bogus: 1\n", "").replace("Targets must be curable.", "Targets must be curable, always.")
    edit(cure, cure.read_text(), fixed)
    [line] = server.next_lines("stdout", 1)
    # Only cure's text changed: its v2 page, its v1 page and history, its question page in each edition
    # (which quotes its clauses), v2's "What changed", the printout.
    assert re.fullmatch(r"Rebuilt 5 pages in \d+\.\d s", line), line
    [line] = server.next_lines("stdout", 1)
    assert re.fullmatch(r"Rebuilt 2 pages more \(the printable glossary, \"What changed\"\) in \d+\.\d s", line), line
    status, page = fetch(url)
    assert (status, "Targets must be curable, always." in page, "rulebook-error-overlay" in page) == (200, True, False)
    assert server.process.poll() is None


def test_an_edit_to_a_clause_rewrites_its_pages_and_their_search_entries_only(served):
    server, draft = served
    cure = draft.parents[1] / "v1" / "cure.yaml"  # v1, the edition in force: its pages are the searchable ones
    [line] = server.next_lines("stdout", 1)
    base = line.removeprefix("Serving on ")
    before = json.loads(fetch(base + "search/search_index.json")[1])["docs"]
    edit(cure, "Targets must be curable.", "Targets must be curable by a cure.")
    [line] = server.next_lines("stdout", 1)
    # the term page in each edition, its history, and its question page in each (which quote the clause)
    assert re.fullmatch(r"Rebuilt 5 pages in \d+\.\d s", line), line
    [line] = server.next_lines("stdout", 1)
    assert re.fullmatch(r"Rebuilt 2 pages more \(the printable glossary, \"What changed\"\) in \d+\.\d s", line), line
    after = json.loads(fetch(base + "search/search_index.json")[1])["docs"]
    # The same entries, each once (the page's own written again at the end), only the clause's text new.
    assert sorted(e["location"] for e in after) == sorted(e["location"] for e in before)
    changed = [e["location"] for e in after if "curable by a cure" in e["text"]]
    assert changed == ["terms/cure/#targets"]
    assert ({e["location"]: e for e in after if e["location"] not in changed}
            == {e["location"]: e for e in before if e["location"] not in changed})


# -- which pages an edit rewrites (rulebook_compiler.site.serve.affected), without a server ----------------

def _affected_by(tmp_path, path: str, old: str, new: str):
    from rulebook_compiler.build import load_rulebook
    from rulebook_compiler.site.serve import affected

    book = tmp_path / "book"
    shutil.copytree(MINIMAL, book, dirs_exist_ok=True)
    before = load_rulebook(book)
    target = book / path
    assert old in target.read_text()
    target.write_text(target.read_text().replace(old, new, 1))
    return affected(before, load_rulebook(book))


def test_a_clause_edit_rewrites_the_pages_that_show_the_term(tmp_path):
    assert _affected_by(tmp_path, "editions/v2/cure.yaml", "Targets must be curable.", "Targets must be cured.") == {
        "terms/cure/index.md", "terms/cure/history/index.md", "editions/v2/terms/cure/index.md",
        "editions/v2/changes/index.md", "print/index.md", "terms/cure/ask/cure.may_target/index.md",
        "editions/v2/terms/cure/ask/cure.may_target/index.md"}


def test_an_edit_that_changes_nothing_shown_rewrites_no_page(tmp_path):
    assert _affected_by(tmp_path, "editions/v2/cure.yaml", "id: cure\n", "# a comment\nid: cure\n") == frozenset()


@pytest.mark.parametrize("path, old, new", [
    ("editions/v2/cure.yaml", "name: Cure", "name: Cure all"),  # a name: every page that links the term
    ("editions/v2/cure.yaml", "aliases: [Mend]", "aliases: [Mend, Fix]"),  # the A-Z page
    ("rulebook.yaml", "title: Minimal", "title: Minimal rules"),  # every page's header
], ids=["term name", "alias", "rulebook title"])
def test_an_edit_to_the_frame_of_the_site_rebuilds_all_of_it(tmp_path, path, old, new):
    assert _affected_by(tmp_path, path, old, new) is None


def test_an_address_in_use_is_one_error_with_a_hint(tmp_path):
    import socket

    shutil.copytree(MINIMAL, tmp_path / "book")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run([sys.executable, "-m", "rulebook_compiler", "serve", "--rulebook", "book",
                              "--dev-addr", f"127.0.0.1:{port}"], cwd=tmp_path, capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=WAIT)
    assert (run.returncode, run.stdout, run.stderr) == (1, "", (
        f"rulebook: error: cannot serve on 127.0.0.1:{port}: Address already in use\n"
        "  hint: choose another address with --dev-addr HOST:PORT (port 0: any free port)\n"))


def test_the_overlay_escapes_file_names_and_messages():
    # Guards the overlay's escaping (it already escaped; no test pinned it): the errors name
    # files and quote rule text, both untrusted.
    from rulebook_compiler.site.serve import overlay

    page = overlay('rulebook/<img src=x onerror=alert(1)>.yaml:1:2: error: "</pre><script>x</script>"\n'
                   "  hint: \x1b[31m").decode()
    start = page.index("<pre")
    assert page[page.index(">", start) + 1:page.index("</pre>")] == (
        "rulebook/&lt;img src=x onerror=alert(1)&gt;.yaml:1:2: error: "
        "&quot;&lt;/pre&gt;&lt;script&gt;x&lt;/script&gt;&quot;\n  hint: \\x1b[31m")


def raw_get(url: str, target: bytes) -> tuple[int, bytes]:
    """The status and body of ``GET target`` sent byte for byte (urllib refuses a NUL or a space in a URL)."""
    import socket

    host, _, port = urllib.request.urlparse(url).netloc.partition(":")
    with socket.create_connection((host, int(port)), timeout=WAIT) as connection:
        connection.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: " + host.encode() + b"\r\nConnection: close\r\n\r\n")
        answer = b"".join(iter(lambda: connection.recv(65536), b""))
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


# Paths a page open in the browser, or anything else on this machine, may ask for: each an error
# status, no traceback, one log line with the request escaped for the terminal and cut short.
BAD_REQUESTS = [
    (b"/%00", 400, '"GET /%00 HTTP/1.1" code 400'),
    (b"/terms/a%00b/", 400, '"GET /terms/a%00b/ HTTP/1.1" code 400'),
    (b"/terms/a\x00b/", 400, '"GET /terms/a\\x00b/ HTTP/1.1" code 400'),
    (b"/%ff", 400, '"GET /%ff HTTP/1.1" code 400'),
    (b"/%1b[31m", 400, '"GET /%1b[31m HTTP/1.1" code 400'),
    (b"/" + b"a" * 5000, 404, '"GET /' + "a" * 95 + '... (5014 characters)" code 404'),
    (b"/a" * 3000, 404, '"GET ' + "/a" * 48 + '... (6013 characters)" code 404'),
    (b"/../../../../etc/passwd", 404, '"GET /../../../../etc/passwd HTTP/1.1" code 404'),
    (b"/%2e%2e/%2e%2e/%2e%2e/etc/passwd", 404, '"GET /%2e%2e/%2e%2e/%2e%2e/etc/passwd HTTP/1.1" code 404'),
]


def test_no_request_path_gets_a_traceback(served):
    server, _ = served
    [line] = server.next_lines("stdout", 1)
    base = line.removeprefix("Serving on ")
    answers = [raw_get(base, target)[0] for target, _, _ in BAD_REQUESTS]
    assert answers == [status for _, status, _ in BAD_REQUESTS]
    # A last request that logs a line: every line before it is one of these requests'.
    assert raw_get(base, b"/no-such-page/")[0] == 404
    logged = [re.sub(r"^\[\d\d:\d\d:\d\d\] ", "", line) for line in server.next_lines("stderr", len(BAD_REQUESTS) + 1)]
    assert logged == [log for _, _, log in BAD_REQUESTS] + ['"GET /no-such-page/ HTTP/1.1" code 404']
    assert raw_get(base, b"/terms/cure/")[0] == 200
    assert server.process.poll() is None


FROZEN = ROOT / "tests" / "fixtures" / "lock" / "frozen"


def test_an_edit_to_a_published_edition_shows_the_lock_error_in_the_overlay(tmp_path):
    """Edition 1.0 of tests/fixtures/lock/frozen is published and locked: editing its text without
    'rulebook correct' fails the rebuild as 'rulebook check' fails (tests/test_lock_everywhere.py)."""
    shutil.copytree(FROZEN, tmp_path / "frozen")
    server = Served(tmp_path, "--rulebook", "frozen", "--dev-addr", "127.0.0.1:0")
    try:
        [line] = server.next_lines("stdout", 1)
        url = line.removeprefix("Serving on ") + "terms/cure/"
        edit(tmp_path / "frozen" / "editions" / "1.0" / "cure.yaml", "curable if it is poisoned",
             "curable when it is poisoned")
        error = ("frozen/editions/1.0/cure.yaml:13:9: error: published edition '1.0' differs from rulebook.lock: "
                 "term 'cure', clause 'curable' changed")
        hint = ("  hint: a published edition does not change: undo the edit, or record a deliberate correction "
                "with rulebook correct --edition 1.0 --kind transcription|erratum --reason TEXT")
        assert server.next_lines("stderr", 4) == [
            error, hint, "1 problem found", "The last good site is still served; fix the errors and save to rebuild."]
        status, page = fetch(url)
        assert status == 200
        assert "A character is curable if it is poisoned." in page  # the last good build
        assert ('<pre style="margin:0;white-space:pre-wrap;color:inherit;background:none">'
                f"{error.replace(chr(39), '&#x27;')}\n{hint}\n1 problem found</pre>") in page
    finally:
        server.stop()
