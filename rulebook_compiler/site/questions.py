"""A decision's question page: every situation's answer, written as static data for the browser.

The page lets a reader choose what they know of a situation and read the answer with the
clauses that give it, offline, with no server. The build evaluates the decision once per
situation of the facts its rules and ``given`` use (``evaluate.DecisionModel``, the same
evaluator as ``check`` and the suites), drops the situations the constraints rule out, and
writes the table; the browser (``rulebook-questions.js``) filters it by the facts chosen. One
outcome left: that is the answer. Several: not decided yet, and the facts whose value still
changes it are named with their values, as ``rulebook ask`` says it.

A decision whose situations number more than ``MAX_SITUATIONS`` gets a page that says so
and points to ``rulebook ask``, which reasons symbolically instead of listing them.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import Any

from .. import citations
from ..conditions import compile_condition
from ..evaluate import DecisionModel, Space
from ..model import Answer, Edition

MAX_SITUATIONS = 4096  # situations written per decision page; beyond, the page points to rulebook ask
NOT_ASKED, NO_ANSWER, CONFLICT = "not asked", "no rule answers", "in conflict"


@dataclass(frozen=True)
class Choice:
    """One fact the reader may set: its name in words, its meaning, its values in words."""

    name: str
    label: str
    meaning: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Question:
    """What the page needs: the facts, the outcomes, and each situation's outcome and reasons."""

    decision: str
    meaning: str
    choices: tuple[Choice, ...]
    outcomes: tuple[str, ...]
    # per situation: the index of each fact's value, the outcome's index, the reason's index
    rows: tuple[tuple[tuple[int, ...], int, int], ...]
    # per reason: the clauses that answer, and those whose rules answered but were overridden
    reasons: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]
    clauses: tuple[tuple[str, str, str], ...]  # (ref, citation, text) of every clause a reason names
    too_large: int | None = None  # the number of situations, when over MAX_SITUATIONS (rows then empty)

    def as_json(self, clause_url) -> str:
        """The data as JSON that is safe inside a <script type="application/json">: '<', '>' and '&'
        are written as \\u escapes, so no text of the rules can close the element."""
        body = {"decision": self.decision, "meaning": self.meaning,
                "facts": [{"name": c.name, "label": c.label, "meaning": c.meaning, "values": list(c.values)}
                          for c in self.choices],
                "outcomes": list(self.outcomes), "rows": [[list(v), o, r] for v, o, r in self.rows],
                "reasons": [[list(a), list(b)] for a, b in self.reasons],
                "clauses": {ref: {"cite": cite, "text": text, "url": clause_url(ref)} for ref, cite, text in self.clauses},
                "too_large": self.too_large}
        text = json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("_", " ")


def question(edition: Edition, decision: str) -> Question:
    model = DecisionModel(edition.vocabulary, edition, decision)
    by_name = edition.vocabulary.by_name
    choices = tuple(Choice(f, words(f), by_name[f].meaning, tuple(words(v) for v in by_name[f].domain))
                    for f in model.facts)
    size = 1
    for f in model.facts:
        size *= len(by_name[f].domain)
    meaning = model.decision.meaning
    if size > MAX_SITUATIONS:
        return Question(decision, meaning, choices, (), (), (), (), too_large=size)
    outcomes: dict[str, int] = {}
    reasons: dict[tuple[tuple[str, ...], tuple[str, ...]], int] = {}
    rows = []
    given = model.decision.given
    asked = (compile_condition(given, model.predicates, {}, orders=model.orders) if given is not None
             else (lambda state: True))
    for indexes, state in _situations(model, edition):
        outcome, reason = _read(model, state) if asked(state) else (NOT_ASKED, ((), ()))
        rows.append((indexes, outcomes.setdefault(outcome, len(outcomes)), reasons.setdefault(reason, len(reasons))))
    named = sorted({ref for standing, beaten in reasons for ref in (*standing, *beaten)})
    clauses = tuple((ref, str(citations.of_ref(edition, ref) or ref), edition.clause_by_ref[ref].text)
                    for ref in named if ref in edition.clause_by_ref)
    return Question(decision, meaning, choices, tuple(outcomes), tuple(rows), tuple(reasons), clauses)


def _situations(model: DecisionModel, edition: Edition):
    """(value indexes, situation) for every situation the constraints allow, in a fixed order."""
    facts = model.facts
    allowed = Space(edition.vocabulary, set(facts))  # the constraints alone: outside 'given' is "not asked"
    domains = [edition.vocabulary.by_name[f].domain for f in facts]
    for indexes in itertools.product(*(range(len(d)) for d in domains)):
        state = {f: domains[i][v] for i, (f, v) in enumerate(zip(facts, indexes))}
        if allowed.allowed(state):
            yield indexes, state


def _read(model: DecisionModel, state: dict[str, Answer]) -> tuple[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    answers = model.answers(state)
    result = model.evaluate(state)
    standing = tuple(sorted({r.clause for r, _ in result.standing}))
    kept = {id(r) for r, _ in result.standing}
    beaten = tuple(sorted({model.rules[i].clause for i in answers if id(model.rules[i]) not in kept} - set(standing)))
    if result.conflict:
        return CONFLICT, (standing, beaten)
    if result.empty:
        return NO_ANSWER, ((), beaten)
    return words(result.answer), (standing, beaten)
