"""Rulings as named cases of the conformance suite (issue 26.2): an engine meets them too.

The fixture (tests/fixtures/rulings): v1 rules that a cure cannot target a
poisoned character in battle (cure#not-in-battle) and can target a paralyzed one
outside it; v2 drops the battle rule and supersedes the first ruling with one
that it can, carrying the second over. Each case's situation is the ruling's
facts completed with the first allowed values of the facts it leaves out
(paralyzed, poisoned: false first).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook_compiler.conformance.suite import pyrepr

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
RULINGS = FIXTURES / "rulings"
ENGINES = FIXTURES / "conformance" / "engines"
ROOT = FIXTURES.parent.parent

IN_BATTLE = {
    "id": "ruling:cure-in-battle", "name": "ruling:cure-in-battle", "decision": "cure.may_target", "kind": "ruling",
    "facts": {"paralyzed": False, "phase": "battle", "poisoned": True}, "expected": False,
    "clauses": [{"ref": "cure#not-in-battle", "text": "Cure cannot be used in battle."}],
    "ruling": {"id": "cure-in-battle", "edition": "v1", "question": "Can a cure target a poisoned character in battle?",
               "status": "official", "cites": ["cure#not-in-battle"],
               "source": {"who": "Rules committee", "where": "https://forum.example.org/t/1", "date": "2020-02-01"}},
}
PARALYZED = {
    "id": "ruling:cure-paralyzed", "name": "ruling:cure-paralyzed", "decision": "cure.may_target", "kind": "ruling",
    "facts": {"paralyzed": True, "phase": "preparation", "poisoned": False}, "expected": True,
    "clauses": [{"ref": "cure#targets", "text": "Targets must be curable."}],
    "ruling": {"id": "cure-paralyzed", "edition": "v1",
               "question": "Can a cure target a paralyzed character outside battle?", "status": "committee",
               "cites": ["cure#targets", "cure#curable"],
               "source": {"who": "Rules committee", "where": "https://forum.example.org/t/2", "date": "2020-03-01"}},
}
IN_BATTLE_V2 = {
    "id": "ruling:cure-in-battle-v2", "name": "ruling:cure-in-battle-v2", "decision": "cure.may_target",
    "kind": "ruling", "facts": {"paralyzed": False, "phase": "battle", "poisoned": True}, "expected": True,
    "clauses": [{"ref": "cure#targets", "text": "Targets must be curable."}],
    "ruling": {"id": "cure-in-battle-v2", "edition": "v2",
               "question": "Can a cure target a poisoned character in battle, now that the battle rule is gone?",
               "status": "official", "cites": ["cure#targets"],
               "source": {"who": "Rules committee", "where": "https://forum.example.org/t/3", "date": "2021-01-01"}},
}


@pytest.fixture()
def book(tmp_path, monkeypatch) -> Path:
    """A copy of the fixture in the current folder, so that places read 'rulings/...'."""
    monkeypatch.setenv("RULEBOOK_NO_CACHE", "1")
    monkeypatch.chdir(tmp_path)
    shutil.copytree(RULINGS, tmp_path / "rulings")
    return tmp_path / "rulings"


def _generate(cli, edition: str) -> dict:
    code, out, err = cli("conformance", "generate", "--rulebook", "rulings", "--edition", edition,
                         "--out", f"suite-{edition}")
    assert (code, err) == (0, ""), out + err
    return json.loads(Path(f"suite-{edition}/cases.json").read_text(encoding="utf-8"))


def _rulings(data: dict) -> list[dict]:
    return [{k: v for k, v in c.items() if k != "check"} for c in data["cases"] if c["kind"] == "ruling"]


def test_each_ruling_of_an_edition_is_a_named_case_of_its_suite(book, cli):
    data = _generate(cli, "v1")
    assert _rulings(data) == [IN_BATTLE, PARALYZED]
    # after the decision's generated cases, which are as they were
    assert [c["id"] for c in data["cases"] if c["decision"] == "cure.may_target"][-2:] == [
        "ruling:cure-in-battle", "ruling:cure-paralyzed"]


def test_a_later_edition_has_its_own_rulings_and_those_carried_over_not_the_superseded(book, cli):
    assert _rulings(_generate(cli, "v2")) == [IN_BATTLE_V2, PARALYZED]


def test_the_generated_module_holds_each_ruling_case(book, cli):
    data = _generate(cli, "v1")
    case = next(c for c in data["cases"] if c["id"] == "ruling:cure-in-battle")
    module = Path("suite-v1/test_conformance.py").read_text(encoding="utf-8")
    assert f"    {pyrepr(case)},\n" in module.splitlines(keepends=True)


def test_an_engine_that_misses_a_ruling_fails_its_named_case_quoting_the_ruling(book, cli, monkeypatch):
    monkeypatch.syspath_prepend(str(ENGINES))
    code, out, _ = cli("conformance", "run", "--rulebook", "rulings", "--edition", "v1",
                       "--engine", "cure_engines:forgets_battle")
    assert code == 1
    assert out.splitlines()[-6:] == [
        "ruling:cure-in-battle (ruling:cure-in-battle): expected false, engine answered true",
        "  situation: paralyzed=false, phase=battle, poisoned=true",
        '  cure#not-in-battle: "Cure cannot be used in battle."',
        "  ruling cure-in-battle (official, edition v1): Can a cure target a poisoned character in battle?",
        "    source: Rules committee, https://forum.example.org/t/1, 2020-02-01",
        "5 passed, 2 failed",
    ]


def test_a_case_file_with_its_ruling_cases_runs_and_a_hand_edited_one_is_reported(book, cli, monkeypatch):
    monkeypatch.syspath_prepend(str(ENGINES))
    _generate(cli, "v1")
    run = ("conformance", "run", "--rulebook", "rulings", "--edition", "v1", "--cases", "suite-v1/cases.json",
           "--engine", "examples.engines.reference:engine")
    assert cli(*run) == (0, "7 passed, 0 failed\n", "")
    path = Path("suite-v1/cases.json")
    path.write_text(path.read_text(encoding="utf-8").replace('"id": "ruling:cure-in-battle"',
                                                              '"id": "ruling:cure-anywhere"'), encoding="utf-8")
    assert cli(*run) == (1, (
        "case ruling:cure-anywhere: its id does not match its ruling's ('ruling:cure-in-battle'; edited by hand?)\n"
        "case ruling:cure-in-battle (ruling:cure-in-battle): missing from suite-v1/cases.json: edition v1 has this "
        "case (removed by hand, or a stale file; regenerate it)\n"
        "6 passed, 2 failed\n"), "")


def test_a_ruling_the_edition_fails_makes_no_case_and_generate_says_so(book, cli):
    path = book / "editions" / "v1" / "_rulings.yaml"
    path.write_text(path.read_text().replace("answer: false", "answer: true"))
    code, out, err = cli("conformance", "generate", "--rulebook", "rulings", "--edition", "v1", "--out", "suite-v1")
    assert (code, err) == (0, (
        "rulebook: warning: rulings/editions/v1/_rulings.yaml:2:9: ruling 'cure-in-battle' makes no case of edition v1's "
        "suite: ruling 'cure-in-battle' answers true when phase=battle, poisoned=true, but the edition answers "
        "false: cure#not-in-battle says false\n"))
    data = json.loads(Path("suite-v1/cases.json").read_text(encoding="utf-8"))
    assert [c["id"] for c in data["cases"] if c["kind"] == "ruling"] == ["ruling:cure-paralyzed"]


def test_a_suite_without_rulings_names_the_editions_digest_and_one_with_rulings_names_them_too(book):
    from rulebook_compiler.build import check
    from rulebook_compiler.conformance.cases import edition_digest, suite_digest

    loaded, _ = check(book)
    assert loaded is not None
    v1 = loaded.edition_by_id["v1"]
    with_rulings = suite_digest(loaded, v1)
    for name in ("v1", "v2"):
        (book / "editions" / name / "_rulings.yaml").unlink()
    loaded, _ = check(book)
    assert loaded is not None
    assert suite_digest(loaded, loaded.edition_by_id["v1"]) == edition_digest(v1) != with_rulings


def test_a_generated_module_is_stale_once_a_ruling_that_applies_changes(book, cli):
    _generate(cli, "v1")
    path = book / "editions" / "v1" / "_rulings.yaml"
    path.write_text(path.read_text().replace('date: "2020-02-01"', 'date: "2020-02-02"'))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ENGINES)])}
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", ".",
                             "suite-v1/test_conformance.py", "--rulebook", "rulings",
                             "--rulebook-engine", "cure_engines:forgets_battle"],
                            env=env, capture_output=True, text=True, timeout=120)
    generated = Path("suite-v1/test_conformance.py").read_text().split("SOURCE_DIGEST = '")[1][:16]
    from rulebook_compiler.build import check
    from rulebook_compiler.conformance.cases import suite_digest

    loaded, _ = check(book)
    assert loaded is not None
    now = suite_digest(loaded, loaded.edition_by_id["v1"])
    message = (f"suite-v1/test_conformance.py: edition v1 (its rules, or the rulings that apply to it) changed "
               f"since this module was generated (digest {generated}, now {now}); its cases may be stale")
    lines = result.stdout.splitlines()
    assert (result.returncode, lines.count(message), lines[-1].split(" in ")[0]) == (1, 7, "7 failed"), result.stdout
