"""In Chromium: a decision's question page answers offline, by keyboard, at 375 px (issue 26 point 5).

Fixture tests/fixtures/ask: cure.may_target needs curable (poisoned or paralyzed, 1.2) and is
refused in battle (an exception to 1.2); cure.saves is asked only of a character being discarded,
and a character in a discard pile is not being discarded (a constraint).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import FIXTURES
from .test_reader_browser import AXE

pytestmark = pytest.mark.browser
ASK = FIXTURES / "ask"


@pytest.fixture(scope="module")
def asked(tmp_path_factory, build, serve) -> str:
    out = tmp_path_factory.mktemp("ask-site") / "site"
    result = build(ASK, out)
    assert result.exit_code == 0, result.output
    return serve(out)


def answer(page) -> str:
    """The answer's lines as the reader sees them (paragraph margins read as blank lines: dropped)."""
    return "\n".join(line for line in page.locator("[data-rb-answer]").inner_text().split("\n") if line)


def choose_by_keyboard(page, label: str, presses: int) -> None:
    """Focus the fact's select with Tab from the form's start, then pick by arrow keys, as a keyboard user."""
    page.locator("#rb-question-help").click()
    labels = page.locator(".rb-question label").all_inner_texts()
    for _ in range(labels.index(label) + 1):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.tagName") == "SELECT"
    for _ in range(presses):
        page.keyboard.press("ArrowDown")


def test_the_term_page_links_its_questions_and_the_page_answers_by_keyboard(page, asked):
    page.goto(asked + "terms/cure/")
    page.click("#page_questions + p + ul a >> text=Whether a cure may target the character.")
    page.wait_for_url("**/terms/cure/ask/cure.may_target/")
    assert page.locator("h1").first.inner_text() == "Whether a cure may target the character."
    # nothing chosen: not decided, and the facts that decide it named with their values
    assert answer(page) == ("Not decided yet: it is no or yes, depending on the facts not known.\n"
                            "It still depends on: paralyzed (no, yes); phase (preparation, battle, discard); "
                            "poisoned (no, yes).")
    choose_by_keyboard(page, "Poisoned", 2)  # not known -> no -> yes
    choose_by_keyboard(page, "Phase", 1)  # not known -> preparation
    assert answer(page) == ("Answer: yes\nThe rules that give it:\n"
                            "Cure, Definition, 1.2: Targets must be curable.")
    choose_by_keyboard(page, "Phase", 1)  # preparation -> battle
    assert answer(page) == ("Answer: no\nThe rules that give it:\n"
                            "Cure, Definition, 1.2, ¶2: Cure cannot be used in battle.\n"
                            "Rules that would answer, overridden here:\n"
                            "Cure, Definition, 1.2: Targets must be curable.")
    page.click("[data-rb-answer] a >> text=Cure, Definition, 1.2, ¶2")
    page.wait_for_url("**/terms/cure/#not-in-battle")


def test_a_situation_outside_the_question_and_one_ruled_out(page, asked):
    page.goto(asked + "terms/cure/ask/cure.saves/")
    page.select_option("select[name=being_discarded]", label="no")
    assert answer(page) == "Answer: not asked"
    page.select_option("select[name=being_discarded]", label="yes")
    assert answer(page) == ("Answer: yes\nThe rules that give it:\n"
                            "Cure, Definition, 1.2, ¶3: A cure played on a character being discarded saves it.")


def test_the_question_page_at_phone_width_and_its_accessibility(browser, asked):
    context = browser.new_context(viewport={"width": 375, "height": 800}, device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto(asked + "terms/cure/ask/cure.may_target/")
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
        found = sorted(f"{v['id']} ({v['impact']}): {n['target']}" for v in result["violations"]
                       if v["impact"] in ("serious", "critical") for n in v["nodes"])
        assert found == []
        # no request leaves the site: the answer is worked out from the page's own data
        away = []
        page.on("request", lambda r: away.append(r.url) if not r.url.startswith(asked) else None)
        page.select_option("select[name=poisoned]", label="yes")
        assert away == []
    finally:
        context.close()
