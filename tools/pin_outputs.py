#!/usr/bin/env python3
"""Pin the bytes of every user-facing output, so that a refactor can prove it changed none.

The outputs pinned (issue 22), for the frozen copy of the bundled rulebook in
tests/fixtures/pinned/reg/ (named ``reg``) and for every fixture rulebook under
tests/fixtures/ that passes ``rulebook check`` (named ``fixtures/<folder>``):

- ``rulebook diff A B`` in every format, for every ordered pair of editions;
- ``rulebook changelog --edition E`` (markdown and json) for every edition;
- ``rulebook history T`` in every format, for every term of any edition;
- ``rulebook diff FOLDER FOLDER`` (two whole rulebooks) in every format, both ways, for the
  few fixture pairs of ``WHOLE_PAIRS``;
- every file that ``rulebook build --out`` writes, for ``reg`` and the site fixtures
  (tests/fixtures/site/*).

Each output is stored as its SHA-256 and byte length (with the exit code, and the
digest of what went to stderr when something did), never the output itself, in
tests/fixtures/pinned/digests.json. tests/test_pinned_outputs.py recomputes them
all in-process and compares.

    python3 tools/pin_outputs.py           # compare with the pins; exit 1 on any difference
    python3 tools/pin_outputs.py --write   # rewrite the pins (after an intended change of output)

Everything runs through the command line entry point (``rulebook_compiler.cli.main``, by
click's CliRunner), so the pins hold whatever shape the command layer takes. The
runs are made stable: the working folder is the repository's root and every
path given is relative to it (the outputs show paths), the cache is off
(RULEBOOK_NO_CACHE=1; that a cold and a warm cache print the same bytes is
tests/test_pinned_outputs.py's to check, on a part of the outputs) and colour is off (NO_COLOR). SOURCE_DATE_EPOCH is
left alone on purpose: the site's pages carry the rulebook's own date (the
plugin sets it), so sitemap.xml.gz is the same on any day, and the pin checks that.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:
    from click.testing import Result

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path("tests/fixtures")  # relative to ROOT: outputs show paths as given
PINNED = FIXTURES / "pinned"
REG = PINNED / "reg"
DIGESTS = ROOT / PINNED / "digests.json"
SITE_FIXTURES = FIXTURES / "site"

DIFF_FORMATS = ("text", "markdown", "json", "html")
# Whole-rulebook diffs (rulebook_compiler/diff/whole.py), each pair both ways: an overlay against the whole
# file it stands for (no changes), a published edition changed with hostile text, and a rulebook
# whose lock, log and editions all differ.
WHOLE_PAIRS = (
    (FIXTURES / "overlay/two-clauses/whole", FIXTURES / "overlay/two-clauses/patch"),
    (FIXTURES / "site/hostile", FIXTURES / "site/hostile-drift"),
    (FIXTURES / "diff/published-and-drafts", FIXTURES / "site/proposal-adopted"),
)
CHANGELOG_FORMATS = ("markdown", "json")
HISTORY_FORMATS = DIFF_FORMATS

# What the built site's bytes depend on besides this package: the pins of the site hold
# for these versions only (the theme's files and markup are the theme's).
SITE_PACKAGES = ("mkdocs", "mkdocs-material")

ENVIRONMENT = {
    "RULEBOOK_NO_CACHE": "1",
    "NO_COLOR": "1",
    "NO_MKDOCS_2_WARNING": "1",
}


@dataclass(frozen=True)
class Pin:
    """What one output is pinned as."""

    sha256: str
    size: int  # bytes (the JSON's "bytes")
    exit: int
    stderr_sha256: str | None = None
    stderr_bytes: int = 0

    @classmethod
    def of(cls, out: bytes, exit_code: int = 0, err: bytes = b"") -> Pin:
        return cls(_sha(out), len(out), exit_code, _sha(err) if err else None, len(err))

    def as_json(self) -> dict:
        record: dict = {"sha256": self.sha256, "bytes": self.size, "exit": self.exit}
        if self.stderr_sha256 is not None:
            record.update(stderr_sha256=self.stderr_sha256, stderr_bytes=self.stderr_bytes)
        return record

    @classmethod
    def from_json(cls, record: dict) -> Pin:
        return cls(record["sha256"], record["bytes"], record["exit"], record.get("stderr_sha256"),
                   record.get("stderr_bytes", 0))


@dataclass(frozen=True)
class Book:
    """A rulebook whose outputs are pinned: its name in the pins and its folder (relative to ROOT)."""

    name: str
    folder: Path


@dataclass(frozen=True)
class Pins:
    """The whole pinned state: command outputs, site files, and the fixtures left out."""

    commands: dict[str, Pin]
    sites: dict[str, Pin]
    not_pinned: tuple[str, ...]  # fixture folders that fail check (so have no outputs to pin)
    site_versions: dict[str, str]

    def as_json(self) -> dict:
        return {
            "about": "SHA-256 and byte length of every pinned output; made by tools/pin_outputs.py --write, "
                     "checked by tests/test_pinned_outputs.py (README.md, Development)",
            "not_pinned_failing_check": list(self.not_pinned),
            "site_versions": self.site_versions,
            "commands": {name: pin.as_json() for name, pin in sorted(self.commands.items())},
            "sites": {name: pin.as_json() for name, pin in sorted(self.sites.items())},
        }


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@contextmanager
def stable_run(cache: Path | None = None) -> Iterator[None]:
    """Run from the repository's root with the environment that makes outputs stable; restored after.

    With ``cache``, the runs use that cache folder instead of none: the outputs must be the same.
    """
    env: dict[str, str | None] = dict(ENVIRONMENT)
    if cache is not None:
        env.update(RULEBOOK_NO_CACHE=None, RULEBOOK_CACHE_DIR=str(cache))
    saved = {key: os.environ.get(key) for key in env}
    cwd = os.getcwd()
    _set(env)
    os.chdir(ROOT)
    try:
        yield
    finally:
        os.chdir(cwd)
        _set(saved)


def _set(env: dict[str, str | None]) -> None:
    for key, value in env.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def _invoke(*args: str) -> Result:
    from click.testing import CliRunner

    from rulebook_compiler.cli import main

    # catch_exceptions=False: a traceback is a failure of its own, never pinned as an output.
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _pin(*args: str) -> Pin:
    result = _invoke(*args)
    return Pin.of(result.stdout_bytes, result.exit_code, result.stderr_bytes or b"")


# Not pinned: the snapshot of the whole REG 11.0.0 that the browser's search-ranking and See-link
# tests read (tests/site/test_search_whole_guide_browser.py). Its five editions' diffs and its site
# would outweigh every other pin put together, and the engine and the site it would exercise are
# pinned on the frozen REG copy and the small fixtures already.
SNAPSHOTS = (FIXTURES / "site" / "whole-guide",)


def candidate_books() -> list[Book]:
    """The frozen REG copy, then every fixture rulebook (sorted by folder), pinned copy and snapshots excluded."""
    folders = sorted((p.parent.relative_to(ROOT) for p in (ROOT / FIXTURES).rglob("rulebook.yaml")),
                     key=lambda p: p.as_posix())
    books = [Book("reg", REG)]
    books += [Book("fixtures/" + f.relative_to(FIXTURES).as_posix(), f) for f in folders
              if not f.is_relative_to(PINNED) and not any(f.is_relative_to(s) for s in SNAPSHOTS)]
    return books


def passes_check(book: Book) -> bool:
    return _invoke("check", book.folder.as_posix()).exit_code == 0


def books() -> tuple[list[Book], list[Book]]:
    """(the books that pass check, those that do not); call inside ``stable_run``."""
    passing: list[Book] = []
    failing: list[Book] = []
    for book in candidate_books():
        (passing if passes_check(book) else failing).append(book)
    return passing, failing


def command_outputs(book: Book) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(pin name, command line) of every command output pinned for the book."""
    from rulebook_compiler.build import load_rulebook

    loaded = load_rulebook(book.folder)
    editions = [e.id for e in loaded.editions]
    terms = sorted({t.id for e in loaded.editions for t in e.terms})
    where = ("--rulebook", book.folder.as_posix())
    for old, new in itertools.permutations(editions, 2):
        for fmt in DIFF_FORMATS:
            yield f"{book.name}/diff/{old}..{new}.{fmt}", ("diff", old, new, *where, "--format", fmt)
    for edition in editions:
        for fmt in CHANGELOG_FORMATS:
            yield f"{book.name}/changelog/{edition}.{fmt}", ("changelog", "--edition", edition, *where, "--format", fmt)
    for term in terms:
        for fmt in HISTORY_FORMATS:
            yield f"{book.name}/history/{term}.{fmt}", ("history", term, *where, "--format", fmt)


def whole_outputs(passing: list[Book]) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(pin name, command line) of the whole-rulebook diffs whose both sides pass check."""
    names = {b.folder: b.name for b in passing}
    for pair in WHOLE_PAIRS:
        for old, new in (pair, pair[::-1]):
            if old in names and new in names:
                for fmt in DIFF_FORMATS:
                    yield (f"whole/{names[old]}..{names[new]}.{fmt}",
                           ("diff", old.as_posix(), new.as_posix(), "--format", fmt))


def command_pins(passing: list[Book]) -> dict[str, Pin]:
    pins = {name: _pin(*argv) for book in passing for name, argv in command_outputs(book)}
    pins.update((name, _pin(*argv)) for name, argv in whole_outputs(passing))
    return pins


def site_books(passing: list[Book]) -> list[Book]:
    """The books whose site is pinned: REG and the site fixtures that pass check."""
    return [b for b in passing if b.folder == REG or b.folder.parent == SITE_FIXTURES]


def site_pins(book: Book) -> dict[str, Pin]:
    """Every file of the book's built site, by its path in the site (the build's own message is not pinned:
    it names the temporary output folder)."""
    with tempfile.TemporaryDirectory(prefix="rulebook-pin-") as tmp:
        out = Path(tmp) / "site"
        result = _invoke("build", "--rulebook", book.folder.as_posix(), "--out", str(out), "-q")
        if result.exit_code != 0:
            raise SystemExit(f"rulebook build of {book.folder} failed (exit {result.exit_code}):\n"
                             f"{result.stdout}{result.stderr}")
        files = sorted((p for p in out.rglob("*") if p.is_file()), key=lambda p: p.relative_to(out).as_posix())
        return {f"{book.name}/site/{p.relative_to(out).as_posix()}": Pin.of(p.read_bytes()) for p in files}


def installed_versions() -> dict[str, str]:
    return {name: metadata.version(name) for name in SITE_PACKAGES}


def compute(with_sites: bool = True) -> Pins:
    """Every output, run now."""
    with stable_run():
        passing, failing = books()
        commands = command_pins(passing)
        sites: dict[str, Pin] = {}
        if with_sites:
            for book in site_books(passing):
                sites.update(site_pins(book))
    return Pins(commands, sites, tuple(b.name for b in failing), installed_versions())


def load(path: Path | None = None) -> Pins:
    """The pins as written in ``path`` (default: tests/fixtures/pinned/digests.json)."""
    data = json.loads((path or DIGESTS).read_text(encoding="utf-8"))
    return Pins({k: Pin.from_json(v) for k, v in data["commands"].items()},
                {k: Pin.from_json(v) for k, v in data["sites"].items()},
                tuple(data["not_pinned_failing_check"]), data["site_versions"])


def dumps(pins: Pins) -> str:
    """The pins as JSON, one output a line (so that a commit's diff names the outputs it changed)."""
    data = pins.as_json()
    lines = ["{"]
    for i, (key, value) in enumerate(data.items()):
        comma = "," if i < len(data) - 1 else ""
        if key in ("commands", "sites"):
            entries = [f"  {json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in value.items()]
            body = "{\n" + ",\n".join(entries) + "\n }" if entries else "{}"
            lines.append(f" {json.dumps(key)}: {body}{comma}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    return "\n".join(lines) + "\n}\n"


def differences(pinned: dict[str, Pin], now: dict[str, Pin]) -> dict[str, list[str]]:
    """Every name whose output differs from its pin, every pinned name not produced, every new one."""
    return {
        "differ": sorted(n for n in pinned.keys() & now.keys() if pinned[n] != now[n]),
        "missing": sorted(pinned.keys() - now.keys()),
        "unpinned": sorted(now.keys() - pinned.keys()),
    }


def _report(kind: str, found: dict[str, list[str]]) -> int:
    count = sum(len(v) for v in found.values())
    for what, names in found.items():
        for name in names:
            print(f"{kind}: {what}: {name}")
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"rewrite {DIGESTS.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))  # this checkout's rulebook_compiler/, whatever is installed
    now = compute()
    if args.write:
        text = dumps(now)
        tmp = DIGESTS.with_name(DIGESTS.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, DIGESTS)
        print(f"wrote {DIGESTS.relative_to(ROOT)}: {len(now.commands)} command outputs, {len(now.sites)} site "
              f"files; {len(now.not_pinned)} fixture rulebooks fail check and are not pinned")
        return 0
    pinned = load()
    count = _report("commands", differences(pinned.commands, now.commands))
    count += _report("sites", differences(pinned.sites, now.sites))
    for what, names in (("now failing check", set(now.not_pinned) - set(pinned.not_pinned)),
                        ("now passing check", set(pinned.not_pinned) - set(now.not_pinned))):
        for name in sorted(names):
            print(f"fixtures: {what}: {name}")
            count += 1
    if pinned.site_versions != now.site_versions:
        print(f"note: the site pins were made with {pinned.site_versions}, installed: {now.site_versions}")
    print(f"{count} difference(s)" if count else "all outputs as pinned")
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main())
