"""Shared fixtures: where the bundled rulebook and the small fixtures live."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import os
import shutil
import tempfile

import pytest
from hypothesis import HealthCheck, settings

# Elapsed time is never a verdict (performance is measured in bench/): Hypothesis's deadline
# (200 ms an example) and its too_slow health check read the wall clock, and a stall of a
# loaded machine failed them at random. Hypothesis turns both off itself only where CI is set.
settings.register_profile("steady", deadline=None, suppress_health_check=[HealthCheck.too_slow])
# CI explores the same examples on every run (a failure there is reproducible and never
# flaky); a developer's runs draw new examples and keep failures in .hypothesis/.
settings.register_profile("ci", parent=settings.get_profile("steady"), derandomize=True, database=None)
# Local fuzzing (tests/fuzz scales its example counts by max_examples): new examples each run.
settings.register_profile("fuzz-long", parent=settings.get_profile("steady"), max_examples=2_000)
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
elif os.environ.get("CI"):
    settings.load_profile("ci")
else:
    settings.load_profile("steady")

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
BUNDLED = ROOT / "rulebook"


@pytest.fixture(scope="session")
def bundled():
    """The bundled Redemption rulebook, checked."""
    from rulebook_compiler.build import load_rulebook

    return load_rulebook(BUNDLED)


@pytest.fixture(scope="session")
def minimal():
    from rulebook_compiler.build import load_rulebook

    return load_rulebook(FIXTURES / "minimal")


@pytest.fixture
def problems_in(monkeypatch):
    """``problems_in(folder, name)``: the problems ``check`` finds in folder/name, as printed, with
    paths relative to folder (a rulebook that passes fails the test)."""
    from rulebook_compiler.build import check

    def run(folder: Path, name: str) -> list[str]:
        monkeypatch.chdir(folder)
        book, found = check(name)
        assert book is None
        return [str(d) for d in found]
    return run


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch):
    """No test reads or writes the user's rulebook cache."""
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(tmp_path_factory.mktemp("rulebook-cache")))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)


def _one_decision_rulebook(root: Path, clauses: str, constraints: str = "[]", given: str = "") -> Path:
    """A one-edition rulebook: bool facts a, b, c; term t with bool decision t.q and these clauses."""
    (root / "editions" / "e1").mkdir(parents=True)
    (root / "rulebook.yaml").write_text(
        "title: T\npublisher: P\neditions:\n  - {id: e1, title: E, date: null, status: draft}\n")
    (root / "vocabulary.yaml").write_text(
        "facts:\n"
        "  - {name: a, type: bool, meaning: A.}\n"
        "  - {name: b, type: bool, meaning: B.}\n"
        "  - {name: c, type: bool, meaning: C.}\n"
        f"constraints: {constraints}\n")
    (root / "editions" / "e1" / "t.yaml").write_text(
        "id: t\nname: T\ndecisions:\n  - {name: t.q, type: bool, meaning: Q." + given + "}\n"
        "sections:\n  - key: s\n    kind: definition\n    clauses:\n" + clauses)
    return root


@pytest.fixture
def write_rulebook():
    """write_rulebook(root, clauses, constraints='[]', given='') -> root (see _one_decision_rulebook)."""
    return _one_decision_rulebook


def _tree(folder: Path) -> dict[str, tuple[bytes | None, int]]:
    """Every path under ``folder``, hidden ones too, with its bytes (None for a folder) and mtime."""
    return {str(p.relative_to(folder)): (None if p.is_dir() else p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*"))}


@pytest.fixture
def snapshot():
    """snapshot(folder): what 'unchanged' means for a folder (paths, bytes and mtimes); compare two."""
    return _tree


@pytest.fixture
def dead_pid() -> int:
    """The id of a process that has ended (its folders and locks are stale)."""
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", ""])
    child.wait()
    return child.pid


@pytest.fixture(scope="session")
def hostile():
    """bench/hostile.py, whose rulebooks are generated in the tests: too big (or repetitive) to commit."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_hostile", ROOT / "bench" / "hostile.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _edition_outputs(book: Path, edition: str, out: Path, pages: dict[str, str]) -> dict[str, bytes]:
    """An edition's check verdict, exports (json and jsonl), suite, mutants and site pages, as bytes by name.

    ``pages`` names pages of the built site (paths under it, without index.html); each is
    compared by its article (``page_article``).
    """
    from click.testing import CliRunner

    from rulebook_compiler.cli import main

    runner = CliRunner(mix_stderr=False) if "mix_stderr" in CliRunner.__init__.__code__.co_varnames \
        else CliRunner()
    found: dict[str, bytes] = {}
    check = runner.invoke(main, ["check", str(book)])
    assert check.exit_code == 0, check.output + check.stderr
    found["check stderr"] = check.stderr.encode()
    export = runner.invoke(main, ["export", "--rulebook", str(book), "--edition", edition])
    assert export.exit_code == 0, export.output
    found["export"] = export.stdout.encode()
    records = runner.invoke(main, ["export", "--rulebook", str(book), "--edition", edition, "--format", "jsonl",
                                   "--base-url", "https://rules.example.org/"])
    assert records.exit_code == 0, records.output
    found["export jsonl"] = records.stdout.encode()
    suite = out / "suite"
    generate = runner.invoke(main, ["conformance", "generate", "--rulebook", str(book), "--edition", edition,
                                    "--out", str(suite)])
    assert generate.exit_code == 0, generate.output
    for name in ("cases.json", "test_conformance.py"):
        found[name] = (suite / name).read_bytes()
    mutants = runner.invoke(main, ["conformance", "mutants", "--rulebook", str(book), "--edition", edition,
                                   "--show-excluded"])
    assert mutants.exit_code == 0, mutants.output
    found["mutants"] = mutants.stdout.encode()
    site = out / "site"
    build = runner.invoke(main, ["build", "--rulebook", str(book), "--out", str(site)])
    assert build.exit_code == 0, build.output
    for name, page in pages.items():
        found[name] = page_article(site / page / "index.html")
    return found


def page_article(page: Path) -> bytes:
    """A page's content, without what says where the page sits among the editions.

    A page of the latest edition moves when another edition is added (from
    /terms/X/ to /editions/ID/terms/X/): its links change and it gains the
    banner "A newer edition exists". What it says about its edition (its
    clauses, the changes, the situations in the edition's words) must not.
    """
    import re

    text = page.read_bytes()
    start, end = text.find(b"<article"), text.find(b"</article>")
    assert 0 <= start < end
    article = re.sub(rb'<div class="admonition note rb-banner[^"]*"[^>]*>.*?</div>\n', b"", text[start:end],
                     flags=re.S)
    return re.sub(rb'href="[^"]*"', b'href=""', article)


@pytest.fixture
def edition_outputs():
    """``edition_outputs(book, edition, out, pages)``: what an edition produces, to compare as bytes."""
    return _edition_outputs


def _two_editions(root: Path, facts: str, clauses: str, overlay: str) -> Path:
    """Published e1 with ``facts`` (vocabulary.yaml lines) and term t (decision t.q, these clause
    lines), and draft e2 that keeps the term and changes the vocabulary by ``overlay``."""
    for edition in ("e1", "e2"):
        (root / "editions" / edition).mkdir(parents=True)
    (root / "rulebook.yaml").write_text(
        "title: T\npublisher: P\neditions:\n  - {id: e1, title: E1, date: null, status: published}\n"
        "  - {id: e2, title: E2, date: null, status: draft}\n")
    (root / "vocabulary.yaml").write_text("facts:\n" + facts)
    (root / "editions" / "e1" / "t.yaml").write_text(
        "id: t\nname: T\ndecisions:\n  - {name: t.q, type: bool, meaning: Q.}\nsections:\n  - key: s\n"
        "    kind: definition\n    clauses:\n" + clauses)
    (root / "editions" / "e2" / "_vocabulary.yaml").write_text(overlay)
    return root


@pytest.fixture
def two_editions():
    """``two_editions(root, facts, clauses, overlay)``: an edition e2 over e1's term with another vocabulary."""
    return _two_editions


@pytest.fixture
def unreadable_book(monkeypatch):
    """A copy of the minimal rulebook in a folder of this test's own, and a way to run a block as a
    user whom file permissions bind. Root reads every file, so under root (as in CI) the block runs
    with the effective uid of 'nobody' (65534). The folder is made in the system's temporary folder,
    not under pytest's, whose pytest-of-<user> folder is private and shared by every pytest session
    of the user (opening it to 'nobody' would race with them). The cache lives in it, open to all."""
    own = Path(tempfile.mkdtemp(prefix="rulebook-unreadable-"))
    shutil.copytree(FIXTURES / "minimal", own / "book")
    (own / "cache").mkdir()
    for p in [own, *own.rglob("*")]:
        p.chmod(0o755 if p.is_dir() else 0o644)
    (own / "cache").chmod(0o777)
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(own / "cache"))
    monkeypatch.chdir(own)

    @contextmanager
    def as_another_user():
        as_root = os.geteuid() == 0
        for p in (own / "cache").rglob("*"):  # what root's runs made in the cache, open to all too
            p.chmod(0o777 if p.is_dir() else 0o666)
        if as_root:
            os.seteuid(65534)
        try:
            yield
        finally:
            if as_root:
                os.seteuid(0)
    try:
        yield own, as_another_user
    finally:
        for p in [own, *own.rglob("*")]:
            if p.is_dir() and not p.is_symlink():
                p.chmod(0o755)  # so that a user other than root may remove it
        shutil.rmtree(own)


def pytest_collection_modifyitems(config, items):
    """``MUTATION_TESTS`` (globs of test files, space-separated, such as ``tests/test_lock*.py``, or of test
    ids, such as ``tests/test_recheck.py::test_an_edit*``): only those tests run. For the mutation profile (docs/mutation.md): a module's mutants judged by
    the tests that state its behaviour, so that its first pass and each surviving mutant do not run every
    test that happens to reach it (every check reaches the lock)."""
    import fnmatch

    globs = os.environ.get("MUTATION_TESTS", "").split()
    if not globs:
        return
    keep, drop = [], []
    for item in items:
        file = item.nodeid.split("::", 1)[0]
        (keep if any(fnmatch.fnmatch(item.nodeid if "::" in g else file, g) for g in globs) else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
