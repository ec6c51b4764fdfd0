"""Progress of the long commands: bars and a summary line on a terminal; nothing when piped or --quiet.

A terminal is a pseudo-terminal (``os.openpty``) on both standard output and
standard error of a ``python -m rulebook_compiler`` subprocess; every read is bounded.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MINIMAL = ROOT / "tests" / "fixtures" / "minimal"
# No cache: a command that finds its whole answer there runs no loop, and shows nothing.
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm", "COLUMNS": "200", "NO_MKDOCS_2_WARNING": "1",
       "RULEBOOK_NO_CACHE": "1"}
WAIT = 180
PROG = "rulebook"  # python -m rulebook_compiler names itself rulebook (rulebook_compiler/__main__.py)


def on_terminal(args: list[str], cwd: Path) -> list[str]:
    """The lines a terminal receives from the command (bars and all), its exit status checked."""
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "rulebook_compiler", *args], cwd=cwd, env=ENV,
                            stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
    os.close(slave)
    chunks, deadline = [], time.monotonic() + WAIT
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], deadline - time.monotonic())
            if not ready:
                break
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the command closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        assert proc.wait(timeout=30) == 0
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    return b"".join(chunks).decode().replace("\r\n", "\n").split("\n")


@pytest.fixture
def book(tmp_path):
    shutil.copytree(MINIMAL, tmp_path / "book")
    return tmp_path


# Each command's summary: what its loops counted on the minimal rulebook (2 term files over
# 2 editions, 1 decision, 12 pages: 10 and the decision's question page in each edition, 3 clauses compared, 10 mutants).
SUMMARIES = {
    "check": (["check", "book"], "term files 2, decisions 2"),
    "build": (["build", "--rulebook", "book", "--out", "site"],
              "term files 2, pages read 12, pages written 12, clauses 3"),
    "diff": (["diff", "v1", "v2", "--rulebook", "book"], "term files 2, clauses 3"),
    "conformance generate": (["conformance", "generate", "--rulebook", "book", "--edition", "v2", "--out", "suite"],
                             "term files 2, decisions 1"),
    "conformance mutants": (["conformance", "mutants", "--rulebook", "book", "--edition", "v2"],
                            "term files 2, decisions 1, mutants 10"),
}


@pytest.mark.parametrize("command", SUMMARIES)
def test_on_a_terminal_bars_then_one_summary_line_with_counts_and_time(book, command):
    args, counts = SUMMARIES[command]
    lines = on_terminal(args, book)
    assert f"{PROG} {command}: term files" in "\n".join(lines)  # a bar was drawn
    assert re.fullmatch(rf"{PROG} {command} in \d+\.\d s: {counts}", lines[-2]), lines[-2]
    assert lines[-1] == ""


def test_quiet_shows_no_progress_on_a_terminal(book):
    # nor the summary: -q prints nothing but errors (issue 25.1)
    lines = on_terminal(["check", "book", "--quiet"], book)
    assert lines == [""]


def test_piped_output_has_no_progress(book):
    run = subprocess.run([sys.executable, "-m", "rulebook_compiler", "check", "book"], cwd=book, env=ENV,
                         capture_output=True, text=True, timeout=WAIT)
    assert (run.returncode, run.stdout, run.stderr) == (
        0, "Minimal: 2 editions (v1, v2), 1 term, latest v2 with 1 term and 3 clauses: no problems\n", "")
