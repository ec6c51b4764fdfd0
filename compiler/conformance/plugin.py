"""The pytest plugin ``rulebook`` (entry point pytest11): conformance cases as pytest tests.

``pytest --rulebook-edition ID --rulebook-engine MODULE:ATTR`` adds one test per
case of the edition (from the rulebook in --rulebook-dir, default ./rulebook or
the current folder) to whatever else pytest collects. A generated module
(``rulebook conformance generate``) uses the ``rulebook_engine`` fixture.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .engines import DEFAULT_TIMEOUT, EngineLoadError, PythonAdapter, SubprocessAdapter, load_engine


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rulebook", "rulebook conformance")
    group.addoption("--rulebook-edition", action="append", default=[], metavar="ID",
                    help="Add the conformance cases of this edition (repeatable).")
    group.addoption("--rulebook-engine", metavar="MODULE:ATTR", help="The engine under test (ATTR may be a factory).")
    group.addoption("--rulebook-engine-cmd", metavar="COMMAND",
                    help="An engine in another language, speaking JSON lines (docs/conformance.md).")
    group.addoption("--rulebook-expectations", metavar="FILE", help="The engine's known failures, one case id a line.")
    group.addoption("--rulebook-dir", metavar="DIR", help="Rulebook folder (default: ./rulebook, else the current folder).")
    group.addoption("--rulebook-timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                    help="Seconds an engine may take per case.")


def pytest_configure(config: pytest.Config) -> None:
    config._rulebook = RulebookSession(config)  # type: ignore[attr-defined]


def pytest_unconfigure(config: pytest.Config) -> None:
    session = getattr(config, "_rulebook", None)
    if session is not None:
        session.close()


@pytest.fixture(scope="session")
def rulebook_engine(pytestconfig: pytest.Config) -> "RulebookSession":
    """Checks a case (as a generated module holds it) against the engine the options name."""
    return pytestconfig._rulebook  # type: ignore[attr-defined]


class RulebookSession:
    """The engine adapters (one per edition) and the expectations of one pytest run."""

    def __init__(self, config: pytest.Config):
        self.config = config
        self.adapters: dict[str, Any] = {}
        self._known: frozenset[str] | None = None

    def _option(self, name: str) -> Any:
        return self.config.getoption(name)

    def root(self) -> Path:
        given = self._option("--rulebook-dir")
        if given:
            return Path(given)
        here = Path("rulebook")
        return here if (here / "rulebook.yaml").is_file() else Path(".")

    def adapter(self, edition: str) -> Any:
        if edition not in self.adapters:
            timeout = self._option("--rulebook-timeout")
            spec, cmd = self._option("--rulebook-engine"), self._option("--rulebook-engine-cmd")
            try:
                if spec and cmd:
                    raise EngineLoadError("give --rulebook-engine or --rulebook-engine-cmd, not both")
                if cmd:
                    self.adapters[edition] = SubprocessAdapter(cmd, edition, timeout)
                elif spec:
                    engine = load_engine(spec, edition, str(self.root()))
                    self.adapters[edition] = PythonAdapter(engine, timeout)
                else:
                    raise EngineLoadError("no engine: give --rulebook-engine MODULE:ATTR or "
                                          "--rulebook-engine-cmd COMMAND")
            except EngineLoadError as exc:
                self.adapters[edition] = exc
        return self.adapters[edition]

    def known(self) -> frozenset[str]:
        if self._known is None:
            path = self._option("--rulebook-expectations")
            self._known = frozenset()
            if path:
                from .runner import read_expectations

                expectations, problems = read_expectations(Path(path))
                if problems:
                    raise pytest.UsageError("\n".join(problems))
                self._known = expectations.ids
        return self._known

    def check(self, edition: str, raw: dict, values: Any = None) -> None:
        """Pass, fail (quoting the deciding clauses) or xfail one case given as cases.json holds it."""
        from .suite import _case_from_json

        case, problem = _case_from_json(raw)
        if problem:
            pytest.fail(f"case {raw.get('id', '?')!r}: {problem}", pytrace=False)
        self.check_case(edition, case, tuple(values) if values else None)

    def check_case(self, edition: str, case: Any, values: tuple[str, ...] | None) -> None:
        from .runner import FAILED, FIXED, KNOWN, run_case, verdict

        adapter = self.adapter(edition)
        if isinstance(adapter, EngineLoadError):
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


class RulebookCases(pytest.Collector):
    """The cases of one edition, collected from the rulebook rather than from a file."""

    def __init__(self, *, edition: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.edition = edition

    def collect(self) -> list[pytest.Item]:
        from ..build import check

        session: RulebookSession = self.config._rulebook  # type: ignore[attr-defined]
        book, problems = check(session.root())
        if book is None:
            raise pytest.UsageError("the rulebook has problems:\n" + "\n".join(map(str, problems)))
        if self.edition not in book.edition_by_id:
            raise pytest.UsageError(f"--rulebook-edition: unknown edition '{self.edition}'; editions: "
                                    + ", ".join(e.id for e in book.editions))
        from .cases import build_suite

        suite = build_suite(book, book.edition_by_id[self.edition])
        items = []
        for d in suite.decisions:
            for case in d.cases:
                items.append(RulebookCase.from_parent(self, name=case.name, case=case, values=d.values))
        return items


class RulebookCase(pytest.Item):
    def __init__(self, *, case: Any, values: tuple[str, ...], **kwargs: Any):
        super().__init__(**kwargs)
        self.case = case
        self.values = values

    def runtest(self) -> None:
        self.config._rulebook.check_case(self.parent.edition, self.case, self.values)  # type: ignore[attr-defined]

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"{self.parent.edition}: {self.case.name}"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    for edition in config.getoption("--rulebook-edition") or []:
        collector = RulebookCases.from_parent(session, name=f"rulebook[{edition}]", edition=edition,
                                              path=Path(str(config.rootpath)))
        for node in collector.collect():
            items.append(node)
