"""The pytest plugin ``rulebook`` (entry point pytest11): conformance cases as pytest tests.

``pytest --rulebook-edition ID --rulebook-engine MODULE:ATTR`` adds one test per
case of the edition (from the rulebook in --rulebook DIR, default ./rulebook or
the current folder: the ``rulebook`` command's option, docs/cli.md; --rulebook-dir, its old
spelling, still works with a deprecation warning) to whatever else pytest collects. A generated module
(``rulebook conformance generate``) uses the ``rulebook_engine`` fixture.

The cases hang under the rulebook's ``rulebook.yaml``, so their node ids are
paths pytest can be given back: ``rulebook/rulebook.yaml::2012::heal.may_target[...]``
runs one case, ``rulebook/rulebook.yaml::2012`` an edition, ``rulebook/rulebook.yaml``
(or the folder ``rulebook``, with --rulebook-edition) every edition asked for, and
nothing else: not the project's own tests that pytest's testpaths would add.

A rulebook folder given as a path (``pytest ../rulebook``) is the plugin's rulebook, as
--rulebook would make it; giving both, naming different folders, is a usage error.

A generated module names the digest of the edition it was made from (SOURCE_DIGEST,
cases.json's source_digest). When the rulebook's edition digests otherwise, every case
of the module fails, with the command that regenerates it: the cases may be stale, as
``rulebook conformance run --cases`` warns.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from .engines import DEFAULT_TIMEOUT, EngineLoadError, open_adapter


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rulebook", "rulebook conformance")
    group.addoption("--rulebook-edition", action="append", default=[], metavar="ID",
                    help="Add the conformance cases of this edition (repeatable).")
    group.addoption("--rulebook-engine", metavar="MODULE:ATTR", help="The engine under test (ATTR may be a factory).")
    group.addoption("--rulebook-engine-cmd", metavar="COMMAND",
                    help="An engine in another language, speaking JSON lines (docs/conformance.md).")
    group.addoption("--rulebook-expectations", metavar="FILE", help="The engine's known failures, one case id a line.")
    group.addoption("--rulebook", dest="rulebook_folder", metavar="DIR",
                    help="Rulebook folder (default: ./rulebook if it holds rulebook.yaml, else the current folder).")
    group.addoption("--rulebook-dir", dest="rulebook_dir_deprecated", metavar="DIR",
                    help="Deprecated spelling of --rulebook DIR.")
    group.addoption("--rulebook-timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                    help="Seconds an engine may take per case.")


_SESSION = pytest.StashKey["RulebookSession"]()  # the run's session, in pytest's typed per-config store


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_SESSION] = RulebookSession(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    session = config.stash.get(_SESSION, None)
    if session is not None:
        session.close()


@pytest.fixture(scope="session")
def rulebook_engine(pytestconfig: pytest.Config) -> "RulebookSession":
    """Checks a case (as a generated module holds it) against the engine the options name."""
    return pytestconfig.stash[_SESSION]


class RulebookSession:
    """The engine adapters (one per edition) and the expectations of one pytest run."""

    def __init__(self, config: pytest.Config):
        self.config = config
        self.adapters: dict[str, Any] = {}
        self._known: frozenset[str] | None = None
        self.named = _named_rulebooks(config)  # the rulebook folders given as paths
        self._root = self._find_root()
        self._book: Any = None
        self.refusals: dict[str, str] = {}  # a generated module's file -> why its cases do not run

    def _option(self, name: str) -> Any:
        return self.config.getoption(name)

    def root(self) -> Path:
        return self._root

    def _folder_option(self) -> str | None:
        """--rulebook DIR, or its deprecated spelling --rulebook-dir DIR (with a warning)."""
        given, old = self._option("rulebook_folder"), self._option("rulebook_dir_deprecated")
        if old is None:
            return given
        if given is not None and Path(given).resolve() != Path(old).resolve():
            raise pytest.UsageError(f"two rulebook folders: {given} (--rulebook) and {old} (--rulebook-dir)" + _ONCE)
        self.config.issue_config_time_warning(
            pytest.PytestWarning("--rulebook-dir is deprecated; use --rulebook DIR, as the rulebook command does"),
            stacklevel=2)
        return old

    def _find_root(self) -> Path:
        given = self._folder_option()
        if len(self.named) > 1:
            raise pytest.UsageError("two rulebook folders: " + " and ".join(map(str, self.named)) + " (paths)"
                                    + _ONCE)
        if given and self.named and Path(given).resolve() != self.named[0].resolve():
            raise pytest.UsageError(f"two rulebook folders: {self.named[0]} (a path) and {given} (--rulebook)"
                                    + _ONCE)
        if given:
            return Path(given)
        if self.named:
            return self.named[0]
        here = Path("rulebook")
        return here if (here / "rulebook.yaml").is_file() else Path(".")

    def require_rulebook(self) -> Path:
        """The rulebook.yaml the cases come from, or a usage error naming the ways to give it."""
        asked = self.root() / "rulebook.yaml"
        if asked.is_file():
            return asked
        given = self._folder_option()
        where = (f"{given} holds no rulebook.yaml" if given
                 else "neither ./rulebook nor the current folder holds rulebook.yaml")
        raise pytest.UsageError(f"no rulebook: {where}\n  hint: name the rulebook folder as a path "
                                "(pytest path/to/rulebook) or with --rulebook DIR")

    def book(self) -> Any:
        """The checked rulebook (once a run), or a usage error with its problems."""
        if self._book is None:
            from ..build import check

            book, problems = check(self.root())
            if book is None:
                raise pytest.UsageError("the rulebook has problems:\n" + "\n".join(map(str, problems)))
            self._book = book
        return self._book

    def adapter(self, edition: str) -> Any:
        """The edition's adapter, or the EngineLoadError that says why there is none."""
        if edition not in self.adapters:
            try:
                self.adapters[edition] = self._open(edition)
            except EngineLoadError as exc:
                self.adapters[edition] = exc
        return self.adapters[edition]

    def _open(self, edition: str) -> Any:
        spec, cmd = self._option("--rulebook-engine"), self._option("--rulebook-engine-cmd")
        if spec and cmd:
            raise EngineLoadError("give --rulebook-engine or --rulebook-engine-cmd, not both")
        if not spec and not cmd:
            raise EngineLoadError("no engine: give --rulebook-engine MODULE:ATTR or --rulebook-engine-cmd COMMAND")
        try:
            return open_adapter(spec or None, cmd or None, edition, str(self.root()),
                                self._option("--rulebook-timeout"))
        except EngineLoadError as exc:
            option, value = ("--rulebook-engine-cmd", cmd) if cmd else ("--rulebook-engine", spec)
            raise EngineLoadError(exc.report(option, value)) from None

    def require_engine(self, editions: set[str]) -> None:
        """A usage error, before any case runs, when the engine cannot be loaded or started."""
        for edition in sorted(editions):
            adapter = self.adapter(edition)
            if isinstance(adapter, EngineLoadError):
                raise pytest.UsageError(str(adapter))

    def known(self) -> frozenset[str]:
        if self._known is None:
            path = self._option("--rulebook-expectations")
            self._known = frozenset()
            if path:
                from .runner import read_expectations

                expectations, _ = read_expectations(Path(path))  # its problems fail the session's check item
                self._known = expectations.ids if expectations else frozenset()
        return self._known

    def expectation_problems(self, cases: list[Any]) -> list[str]:
        """As ``rulebook conformance run --expectations`` reports them: unreadable lines and stale entries."""
        path = self._option("--rulebook-expectations")
        if not path:
            return []
        from .runner import expectation_problems

        return expectation_problems(Path(path), cases)[1]

    def check(self, edition: str, raw: dict, values: Any = None) -> None:
        """Pass, fail (quoting the deciding clauses) or xfail one case given as cases.json holds it."""
        from .suite import case_from_json

        case, problem = case_from_json(raw)
        if problem:
            pytest.fail(f"case {raw.get('id', '?')!r}: {problem}", pytrace=False)
        self.check_case(edition, case, tuple(values) if values else None)

    def check_case(self, edition: str, case: Any, values: tuple[str, ...] | None) -> None:
        from .runner import FAILED, FIXED, KNOWN, run_case, verdict

        adapter = self.adapter(edition)
        if isinstance(adapter, EngineLoadError):  # require_engine has stopped the session before
            pytest.fail(f"{case.name} ({case.id}): {adapter}", pytrace=False)
        known = self.known()
        result = verdict(case, run_case(adapter, case, values), case.id in known or case.name in known)
        if result.status == KNOWN:
            pytest.xfail(result.message)
        if result.status in (FAILED, FIXED):
            pytest.fail(result.message, pytrace=False)

    def close(self) -> None:
        for adapter in self.adapters.values():
            close = getattr(adapter, "close", None)
            if callable(close):
                close()


class RulebookFile(pytest.File):
    """A rulebook's rulebook.yaml: one collector per edition asked for (by --rulebook-edition, else all)."""

    def collect(self) -> list[RulebookCases]:
        from ..build import check

        session = self.config.stash[_SESSION]
        if self.path.resolve() == (session.root() / "rulebook.yaml").resolve():
            book = session.book()
        else:
            book, problems = check(self.path.parent)
            if book is None:
                raise pytest.UsageError("the rulebook has problems:\n" + "\n".join(map(str, problems)))
        self.book = book
        wanted = self.config.getoption("--rulebook-edition") or [e.id for e in book.editions]
        unknown = [e for e in wanted if e not in book.edition_by_id]
        if unknown:
            raise pytest.UsageError(f"--rulebook-edition: unknown edition '{unknown[0]}'; editions: "
                                    + ", ".join(e.id for e in book.editions))
        return [RulebookCases.from_parent(self, name=e, edition=e) for e in dict.fromkeys(wanted)]


class RulebookCases(pytest.Collector):
    """The cases of one edition, collected from the rulebook rather than from a file."""

    def __init__(self, *, edition: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.edition = edition

    def collect(self) -> list[pytest.Item]:
        from .cases import build_suite

        assert isinstance(self.parent, RulebookFile)
        book = self.parent.book
        suite = build_suite(book, book.edition_by_id[self.edition])
        items: list[pytest.Item] = []
        for d in suite.decisions:
            for case in d.cases:
                items.append(RulebookCase.from_parent(self, name=case.name, case=case, values=d.values))
        return items


class RulebookCase(pytest.Item):
    def __init__(self, *, case: Any, values: tuple[str, ...], **kwargs: Any):
        super().__init__(**kwargs)
        self.case = case
        self.values = values

    @property
    def edition(self) -> str:
        """The edition whose suite holds the case: its collector's."""
        assert isinstance(self.parent, RulebookCases)
        return self.parent.edition

    def runtest(self) -> None:
        self.config.stash[_SESSION].check_case(self.edition, self.case, self.values)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"{self.edition}: {self.case.name}"


class ExpectationsCheck(pytest.Item):
    """Fails with the problems of the expectations file: lines that cannot be read, entries naming no case."""

    def __init__(self, *, problems: list[str], **kwargs: Any):
        super().__init__(**kwargs)
        self.problems = problems

    def runtest(self) -> None:
        pytest.fail("\n".join(self.problems), pytrace=False)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, "rulebook expectations"


@dataclass(frozen=True)
class _Listed:
    """A case as a generated module lists it: what the expectations check needs."""

    id: str
    name: str


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> RulebookFile | None:
    """A rulebook.yaml given on the command line, or the one --rulebook-edition reads when pytest walks past it."""
    if file_path.name != "rulebook.yaml":
        return None
    config = parent.config
    session = config.stash[_SESSION]
    here = file_path.resolve()
    asked = bool(config.getoption("--rulebook-edition")) and here == session.root().resolve() / "rulebook.yaml"
    named = any(here == p.resolve() / "rulebook.yaml" for p in session.named)
    if asked or named or parent.session.isinitpath(file_path):
        return RulebookFile.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    rulebook = config.stash[_SESSION]
    asked = rulebook.root().resolve() / "rulebook.yaml"
    if config.getoption("--rulebook-edition") and not any(
            isinstance(i, RulebookCase) and i.parent is not None and i.parent.parent is not None
            and i.parent.parent.path.resolve() == asked for i in items):
        # The rulebook lies outside what pytest collected (testpaths, other arguments): its cases join them.
        # Outside pytest's rootdir the node id is the file's absolute path, which pytest also takes back.
        rulebook.require_rulebook()
        nodeid = None if asked.is_relative_to(config.rootpath.resolve()) else str(asked)
        items.extend(i for edition in RulebookFile.from_parent(session, path=asked, nodeid=nodeid).collect()
                     for i in edition.collect())
    # Before any deselection (-k, -m): the expectations are checked against whole suites.
    editions, cases = _rulebook_items(items)
    if not editions:
        return  # the plugin is installed but this run has no conformance case: nothing to load
    rulebook.require_engine(editions)
    _refuse_stale_modules(rulebook, items)
    problems = rulebook.expectation_problems(cases)
    if problems:
        items.insert(0, ExpectationsCheck.from_parent(session, name="rulebook-expectations",
                                                      path=Path(str(config.rootpath)), problems=problems))


def _rulebook_items(items: list[pytest.Item]) -> tuple[set[str], list[Any]]:
    """The editions the collected conformance cases need an engine for, and every case of their suites."""
    editions: set[str] = set()
    cases: list[Any] = []
    modules: set[int] = set()
    for item in items:
        if isinstance(item, RulebookCase):
            editions.add(item.edition)
            cases.append(item.case)
        elif "rulebook_engine" in getattr(item, "fixturenames", ()):
            module = getattr(item, "module", None)
            edition = getattr(module, "EDITION", None)
            if isinstance(edition, str):
                editions.add(edition)
            if module is not None and id(module) not in modules:  # all its cases, not only those selected
                modules.add(id(module))
                cases.extend(_Listed(c["id"], c["name"]) for c in getattr(module, "CASES", ())
                             if isinstance(c, dict) and isinstance(c.get("id"), str)
                             and isinstance(c.get("name"), str))
    return editions, cases


_ONCE = "\n  hint: give the rulebook folder once, as a path or with --rulebook DIR"


def _named_rulebooks(config: pytest.Config) -> list[Path]:
    """The rulebook folders named on the command line: a folder holding rulebook.yaml, or that file.

    Only arguments the user typed (not testpaths), and not the folder pytest runs in: a bare
    ``pytest`` or ``pytest .`` in a rulebook keeps running the project's tests, as before.
    """
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        return []
    here = Path(config.invocation_params.dir).resolve()
    found: dict[Path, Path] = {}
    for arg in config.args:
        given = Path(arg.split("::", 1)[0])
        path = given if given.is_absolute() else here / given
        if path.is_file() and path.name == "rulebook.yaml":
            folder, path = given.parent, path.parent
        elif path.is_dir() and (path / "rulebook.yaml").is_file():
            folder = given
        else:
            continue
        if path.resolve() != here:
            found.setdefault(path.resolve(), folder)
    return list(found.values())


def _refuse_stale_modules(rulebook: RulebookSession, items: list[pytest.Item]) -> None:
    """Mark each generated module whose edition's digest is not the rulebook's now: its cases will fail."""
    modules = {id(m): m for m in (getattr(i, "module", None) for i in items
                                  if "rulebook_engine" in getattr(i, "fixturenames", ()))
               if m is not None and isinstance(getattr(m, "EDITION", None), str)}
    for module in modules.values():
        problem = _stale(rulebook, module)
        if problem:
            rulebook.refusals[str(module.__file__)] = problem


def _shown(path: Path | str) -> str:
    """A path as the user would type it from where pytest runs."""
    return os.path.relpath(path)


def _stale(rulebook: RulebookSession, module: ModuleType) -> str | None:
    """Why the module's cases cannot be trusted against the rulebook now, or None."""
    from .cases import edition_digest, suite_digest

    edition, generated = module.EDITION, getattr(module, "SOURCE_DIGEST", None)
    name = _shown(str(module.__file__))
    if not (rulebook.root() / "rulebook.yaml").is_file():
        warnings.warn(pytest.PytestWarning(
            f"{name}: no rulebook to compare edition {edition} with, so its cases are not checked for "
            "staleness; give the rulebook folder with --rulebook DIR"), stacklevel=1)
        return None
    hint = (f"\n  hint: regenerate with: rulebook conformance generate --rulebook {_shown(rulebook.root())} "
            f"--edition {edition} --out {_shown(Path(str(module.__file__)).parent)}")
    book = rulebook.book()
    if edition not in book.edition_by_id:
        return f"{name}: the rulebook has no edition {edition} any more" + hint
    if not isinstance(generated, str):
        return (f"{name}: the module names no digest of edition {edition} (generated by an older "
                "rulebook-compiler); its cases may be stale" + hint)
    now = suite_digest(book, book.edition_by_id[edition])
    if generated != now:
        what = f"edition {edition}" if now == edition_digest(book.edition_by_id[edition]) else \
            f"edition {edition} (its rules, or the rulings that apply to it)"
        return (f"{name}: {what} changed since this module was generated "
                f"(digest {generated}, now {now}); its cases may be stale" + hint)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> None:
    """A case of a stale generated module fails before the engine is asked."""
    module = getattr(item, "module", None)
    if module is None or "rulebook_engine" not in getattr(item, "fixturenames", ()):
        return
    refusal = item.config.stash[_SESSION].refusals.get(str(getattr(module, "__file__", "")))
    if refusal:
        pytest.fail(refusal, pytrace=False)
