"""``rulebook ask``: one decision's answer for some facts, and the clauses that give it.

The facts may be partial. A decision is decided by them when every situation
that completes them within the edition's constraints gets the same outcome (an
answer, "not asked" outside the decision's ``given``, "no rule answers", or a
conflict); that is a question about sets of situations, asked of the symbolic
core (rulebook_compiler/decision_sets.py) without listing the completions. Undecided, the
answer names the facts not given whose value alone can change the outcome, with
the values the constraints leave them.

The answer is a frozen record (``Asked``); ``render_text`` and ``to_json``
write it for people and for programs (docs/ask.md). No click here: the command
(rulebook_compiler/cli.py) parses arguments and maps ``AskUsageError`` to a usage error.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from .conditions import describe, facts_used, refs
from .decision_sets import DecisionSets, allowed_space, answer_key
from .diagnostics import did_you_mean, printable
from .evaluate import DecisionModel, show_state
from .urls import permalink
from .model import Answer, Clause, Constraint, Edition, Rule, Vocabulary
from .symbolic import Core, Node, vocabulary_core

FORMAT = "rulebook-ask/1"

# Outcomes that are not an answer, in the order they are listed after the answers.
NO_ANSWER, CONFLICT, NOT_ASKED = "no_answer", "conflict", "not_asked"
_WORDS = {NO_ANSWER: "no rule answers", CONFLICT: "in conflict", NOT_ASKED: "not asked"}


class AskUsageError(ValueError):
    """A decision, fact or value the edition does not know: the command's usage error."""

    def __init__(self, message: str, param: str):
        super().__init__(message)
        self.param = param


@dataclass(frozen=True)
class Outcome:
    """One outcome: ``decided`` with its answer, or one of NO_ANSWER, CONFLICT, NOT_ASKED."""

    status: str
    answer: Answer | None = None

    def words(self) -> str:
        return _show(self.answer) if self.status == "decided" else _WORDS[self.status]


@dataclass(frozen=True)
class Cited:
    """A rule (or a definition) and its clause as cited: verbatim text, printed number, permalink."""

    rule: str  # the rule's ref (term#clause or term#clause/id); a definition's clause ref
    clause: Clause
    url: str
    says: tuple[Answer, ...]  # what it answers in the situations asked (overridden: what it would)
    exception_to: tuple[str, ...] = ()
    everywhere: bool = True  # stands (or is overridden) in every situation asked, not in some
    overridden_by: tuple[str, ...] = ()
    defines: str | None = None  # a definition: the predicate's name


@dataclass(frozen=True)
class Missing:
    fact: str
    values: tuple[Answer, ...]


@dataclass(frozen=True)
class Asked:
    edition: str
    decision: str
    facts: tuple[tuple[str, Answer], ...]  # as given, by name
    status: str  # decided | undecided | impossible | NO_ANSWER | CONFLICT | NOT_ASKED
    answer: Answer | None = None
    possible: tuple[Outcome, ...] = ()  # undecided: what the completions give
    applied: tuple[Cited, ...] = ()
    overridden: tuple[Cited, ...] = ()
    definitions: tuple[Cited, ...] = ()
    missing: tuple[Missing, ...] = ()
    not_tested: tuple[str, ...] = ()  # facts given that the decision does not test
    ignored: tuple[str, ...] = ()  # ... of them, those no constraint ties to another fact: they change nothing
    given: str | None = None  # the decision's 'given', in words
    ruled_out_by: tuple[Constraint, ...] = ()


# -- arguments ------------------------------------------------------------------

def decision_named(edition: Edition, name: str) -> str:
    if name not in edition.decisions:
        hint = did_you_mean(name, edition.decisions)
        raise AskUsageError(f"edition '{edition.id}' has no decision '{name}'" + (f"; {hint}" if hint else ""),
                            "DECISION")
    return name


def fact_value(vocabulary: Vocabulary, edition_id: str, name: str, value: Any, param: str) -> Answer:
    """A fact's value as the model holds it: ``value`` is text from a flag or JSON from a file
    (``param`` "--situation"); ``edition_id`` "" words an unknown fact without it ("the edition")."""
    fact = vocabulary.by_name.get(name)
    if fact is None:
        hint = did_you_mean(name, vocabulary.by_name)
        who = f"edition '{edition_id}'" if edition_id else "the edition"
        raise AskUsageError(f"{who} has no fact '{name}'" + (f"; {hint}" if hint else ""), param)
    if fact.type == "bool":
        return _bool_value(name, value, param)
    if isinstance(value, str) and value in fact.values:
        return value
    hint = did_you_mean(value, fact.values) if isinstance(value, str) else None
    shown = f"'{value}'" if isinstance(value, str) else json.dumps(value)
    raise AskUsageError(f"fact '{name}' has no value {shown}" + (f"; {hint}" if hint else "")
                        + f" (its values: {', '.join(fact.values)})", param)


def _bool_value(name: str, value: Any, param: str) -> bool:
    """A flag's "true" or "false"; a file's JSON true or false (a string there is a mistake to name)."""
    from_file = param == "--situation"
    if isinstance(value, bool):
        return value
    if not from_file and value in ("true", "false"):
        return value == "true"
    if not from_file:
        shown = f"'{value}'"
    else:
        shown = f"'{value}' (a string)" if isinstance(value, str) else json.dumps(value)
    raise AskUsageError(f"fact '{name}' is true or false, not {shown}", param)


def parse_fact(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise AskUsageError(f"'{text}' is not NAME=VALUE", "--fact")
    return name.strip(), value.strip()


def situation_file(path: str, text: str) -> dict[str, Any]:
    """A JSON object of facts and values, or a usage error at its place."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AskUsageError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}", "--situation") from None
    if not isinstance(data, dict):
        raise AskUsageError(f"{path}: not an object of facts and their values", "--situation")
    return data


def situation(edition: Edition, from_file: Mapping[str, Any], flags: Sequence[str]) -> dict[str, Answer]:
    """The facts given, checked against the edition's vocabulary; a fact given twice is an error."""
    vocabulary = edition.vocabulary
    out: dict[str, Answer] = {}
    for name, value in from_file.items():
        out[name] = fact_value(vocabulary, edition.id, name, value, "--situation")
    seen: set[str] = set()
    for text in flags:
        name, value = parse_fact(text)
        answer = fact_value(vocabulary, edition.id, name, value, "--fact")
        if name in seen or (name in out and out[name] != answer):
            raise AskUsageError(f"fact '{name}' is given twice", "--fact")
        seen.add(name)
        out[name] = answer
    return out


# -- the answer -----------------------------------------------------------------

class Asker:
    """Questions to one edition: one core (a BDD manager) for all of them, and each decision's
    diagrams made once, however many questions ask it (``rulebook check`` asks every ruling)."""

    def __init__(self, edition: Edition, core: Core | None = None):
        self.edition = edition
        self.core = core if core is not None else vocabulary_core(edition.vocabulary)
        self._sets: dict[str, DecisionSets] = {}

    def sets(self, decision: str) -> DecisionSets:
        if decision not in self._sets:
            edition = self.edition
            model = DecisionModel(edition.vocabulary, edition, decision_named(edition, decision))
            self._sets[decision] = DecisionSets(model, self.core)
        return self._sets[decision]

    def ask(self, decision: str, facts: Mapping[str, Answer], base_url: str = "") -> Asked:
        """The decision's outcome for these facts (checked names and values), with its citations."""
        edition, core = self.edition, self.core
        sets = self.sets(decision)
        model = sets.model
        head = Asked(edition.id, decision, tuple(sorted(facts.items())), "",
                     not_tested=tuple(sorted(set(facts) - set(model.facts))),
                     ignored=_ignored(edition.vocabulary, set(facts) - set(model.facts)),
                     given=describe(model.decision.given) if model.decision.given is not None else None)
        space = set(model.facts) | set(facts)
        here = allowed_space(core, edition.vocabulary, space) & core.situation(dict(facts))
        if here == core.false:
            return replace(head, status="impossible",
                           ruled_out_by=_ruled_out(core, edition.vocabulary, space, facts))
        regions = _outcome_regions(sets, here)
        if len(regions) > 1:
            return replace(head, status="undecided", possible=tuple(regions),
                           missing=_missing(core, model, facts, here, regions))
        (outcome, _), = regions.items()
        if outcome.status == NOT_ASKED:
            return replace(head, status=outcome.status)
        applied, overridden = _citations(edition, sets, here, base_url)
        return replace(head, status=outcome.status, answer=outcome.answer, applied=applied, overridden=overridden,
                       definitions=_definitions(edition, model, applied, base_url))


def ask(edition: Edition, decision: str, facts: Mapping[str, Answer], base_url: str = "",
        core: Core | None = None) -> Asked:
    """One question (``Asker`` for many: making a core is most of the time of a small one)."""
    return Asker(edition, core).ask(decision, facts, base_url)


def _ignored(vocabulary: Vocabulary, facts: set[str]) -> tuple[str, ...]:
    """The facts no constraint names together with another fact: whatever their value, nothing follows."""
    tied: set[str] = set()
    for c in vocabulary.constraints:
        named = facts_used(c.never, {})
        if len(named) > 1:
            tied |= named
    return tuple(sorted(facts - tied))


def _outcome_regions(sets: DecisionSets, here: Node) -> dict[Outcome, Node]:
    """Each outcome that some completion of the facts gets, and where: answers in the decision's order."""
    core = sets.core
    found: dict[Outcome, Node] = {}
    for value in sets.model.decision.domain:
        region = sets.outcomes.get(answer_key(value), core.false) & here
        if region != core.false:
            found[Outcome("decided", value)] = region
    asked = here & sets.allowed
    for status, region in ((NO_ANSWER, sets.empty & here), (CONFLICT, sets.conflict & here),
                           (NOT_ASKED, here & ~asked)):
        if region != core.false:
            found[Outcome(status)] = region
    return found


def _missing(core: Core, model: DecisionModel, facts: Mapping[str, Answer], here: Node,
             regions: Mapping[Outcome, Node]) -> tuple[Missing, ...]:
    """The facts not given whose value alone can change the outcome somewhere, with their values.

    Where the constraints tie facts so that none changes the outcome alone (a fact
    that must equal another), every fact not given that takes more than one value is named.
    """
    open_facts = [f for f in model.facts if f not in facts]
    values = {f: tuple(v for v in core.domains[f] if (here & core.eq(f, v)) != core.false) for f in open_facts}
    needed = [f for f in open_facts
              if any((core.exists([f], region) & here) != region for region in regions.values())]
    if not needed:
        needed = [f for f in open_facts if len(values[f]) > 1]
    return tuple(Missing(f, values[f]) for f in needed)


def _ruled_out(core: Core, vocabulary: Vocabulary, space: set[str],
               facts: Mapping[str, Answer]) -> tuple[Constraint, ...]:
    """A smallest set of constraints (no one of them can be left out) that rules the facts out."""
    point = core.situation(dict(facts))

    def rules_out(kept: Sequence[Constraint]) -> bool:
        view = Vocabulary(vocabulary.facts, tuple(kept))
        return (allowed_space(core, view, space) & point) == core.false

    kept = list(vocabulary.constraints)
    for c in list(kept):
        trial = [k for k in kept if k is not c]
        if rules_out(trial):
            kept = trial
    return tuple(kept)


def _citations(edition: Edition, sets: DecisionSets, here: Node,
               base_url: str) -> tuple[tuple[Cited, ...], tuple[Cited, ...]]:
    """The rules left standing in the situations asked, and those they override there."""
    core, model = sets.core, sets.model
    standing = [i for i, region in enumerate(sets.standing) if (region & here) != core.false]
    applied = tuple(_cited(edition, model.rules[i], base_url, _says(sets, i, sets.standing[i] & here),
                           everywhere=(here & ~sets.standing[i]) == core.false) for i in standing)
    overridden = []
    for i, rule in enumerate(model.rules):
        beaten = sets.applies[i] & ~sets.standing[i] & here
        if beaten == core.false:
            continue
        by = tuple(model.rules[j].ref for j in standing
                   if model.override_bits[j] >> i & 1 and (sets.standing[j] & beaten) != core.false)
        overridden.append(_cited(edition, rule, base_url, _says(sets, i, beaten),
                                 everywhere=(here & ~beaten) == core.false, overridden_by=by))
    return applied, tuple(overridden)


def _says(sets: DecisionSets, i: int, where: Node) -> tuple[Answer, ...]:
    """What rule i answers within ``where``, in the decision's order of values."""
    core = sets.core
    keys = {key for key, region in sets.answers[i].items() if (region & where) != core.false}
    return tuple(v for v in _ordered_values(sets) if answer_key(v) in keys)


def _ordered_values(sets: DecisionSets) -> tuple[Answer, ...]:
    domain = tuple(sets.model.decision.domain)
    return domain + tuple(v for v in sets.values.values() if v not in domain)


def _cited(edition: Edition, rule: Rule, base_url: str, says: tuple[Answer, ...], *, everywhere: bool,
           overridden_by: tuple[str, ...] = ()) -> Cited:
    clause = edition.clause_by_ref[rule.clause]
    return Cited(rule.ref, clause, permalink(base_url, clause.term, clause.id), says, rule.exception_to,
                 everywhere, overridden_by)


def _definitions(edition: Edition, model: DecisionModel, applied: Sequence[Cited], base_url: str) -> tuple[Cited, ...]:
    """The clauses defining the predicates the applied rules use, directly or through others."""
    rules = {r.ref: r for r in model.rules}
    stack = [c for cited in applied for c in (rules[cited.rule].when, rules[cited.rule].test) if c is not None]
    names: list[str] = []
    while stack:
        for ref in sorted(refs(stack.pop())):
            if ref in model.predicates and ref not in names:
                names.append(ref)
                stack.append(model.predicates[ref])
    out = []
    cited = {c.clause.ref for c in applied}  # a clause whose rule is cited already is not cited again
    for name in names:
        predicate = edition.predicates[name]
        clause = edition.clause_by_ref[predicate.clause]
        if clause.ref in cited:
            continue
        out.append(Cited(clause.ref, clause, permalink(base_url, clause.term, clause.id), (), defines=name))
    return tuple(out)


# -- writing it -----------------------------------------------------------------

def _show(value: Answer | None) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _either(words: Sequence[str]) -> str:
    if not words:
        return ""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def render_text(asked: Asked) -> str:
    """The answer for a terminal: every name and text from the sources made printable."""
    state = show_state(dict(asked.facts)) if asked.facts else ""
    lines = [f"{asked.decision}, edition {asked.edition}, " + (f"when {state}" if state else "in any situation")]
    if asked.status == "impossible":
        lines.append("No such situation: " + _ruled_out_words(asked.ruled_out_by))
        return _printable(lines)
    lines.append("Answer: " + _answer_words(asked))
    for title, group, overridden in (("Rules that applied", asked.applied, False),
                                     ("Overridden by an exception", asked.overridden, True),
                                     ("Definitions they use", asked.definitions, False)):
        if group:
            lines += ["", f"{title}:"] + [line for cited in group for line in _cited_lines(cited, overridden)]
    if asked.missing:
        lines += ["", "Facts needed (not given):"]
        lines += [f"  {m.fact}: {', '.join(_show(v) for v in m.values)}" for m in asked.missing]
    tied = [f for f in asked.not_tested if f not in asked.ignored]
    if tied:
        they = "it counts" if len(tied) == 1 else "they count"
        lines += ["", f"Note: {asked.decision} does not test {', '.join(tied)}; {they} only through the constraints."]
    if asked.ignored:
        it = "it" if len(asked.ignored) == 1 else "them"
        lines += ["", f"Note: {asked.decision} does not test {', '.join(asked.ignored)}, and no constraint ties "
                      f"{it} to another fact: ignored."]
    return _printable(lines)


def _printable(lines: list[str]) -> str:
    return "".join(printable(line) + "\n" for line in lines)


def _answer_words(asked: Asked) -> str:
    if asked.status == "decided":
        return _show(asked.answer)
    if asked.status == "undecided":
        return "not decided yet; it could be " + _either([o.words() for o in asked.possible])
    if asked.status == NOT_ASKED:
        return f"not asked: the decision is asked only when {asked.given}"
    if asked.status == CONFLICT:
        return "in conflict: rules left standing answer differently, and no rule is an exception to the other"
    return _WORDS[asked.status]


def _ruled_out_words(constraints: Sequence[Constraint]) -> str:
    if len(constraints) == 1:
        c, = constraints
        return f"constraint {c.id} rules it out ({c.text})"
    return "constraints " + _either([c.id for c in constraints]).replace(" or ", " and ") + \
        " rule it out together (" + " ".join(c.text for c in constraints) + ")"


def _cited_lines(cited: Cited, overridden: bool) -> list[str]:
    number = f" ({cited.clause.number})" if cited.clause.number is not None else ""
    said = _either([_show(v) for v in cited.says])
    if cited.defines is not None:
        what = f"defines {cited.defines}"
    elif overridden:
        what = f"would say {said}; overridden by {', '.join(cited.overridden_by)}"
    else:
        what = f"says {said}" + (f", an exception to {', '.join(cited.exception_to)}" if cited.exception_to else "")
    if not cited.everywhere:
        what += " (in some of the situations these facts allow)"
    text = [f"    {line}" for line in cited.clause.text.splitlines() or [""]]
    return [f"  {cited.rule}{number}: {what}", *text, f"    {cited.url}"]


def to_json(asked: Asked) -> dict[str, Any]:
    """The documented JSON shape (docs/ask.md): every key always present."""
    return {
        "format": FORMAT,
        "edition": asked.edition,
        "decision": asked.decision,
        "facts": dict(asked.facts),
        "status": asked.status,
        "answer": asked.answer,
        "possible": [{"status": o.status, "answer": o.answer} for o in asked.possible],
        "applied": [_cited_json(c) for c in asked.applied],
        "overridden": [_cited_json(c) for c in asked.overridden],
        "definitions": [{"clause": c.clause.ref, "term": c.clause.term, "number": c.clause.number,
                         "text": c.clause.text, "url": c.url, "defines": c.defines} for c in asked.definitions],
        "missing": [{"fact": m.fact, "values": list(m.values)} for m in asked.missing],
        "not_tested": list(asked.not_tested),
        "ignored": list(asked.ignored),
        "given": asked.given,
        "ruled_out_by": [{"id": c.id, "text": c.text} for c in asked.ruled_out_by],
    }


def _cited_json(c: Cited) -> dict[str, Any]:
    return {"rule": c.rule, "clause": c.clause.ref, "term": c.clause.term, "number": c.clause.number,
            "text": c.clause.text, "url": c.url, "says": list(c.says), "exception_to": list(c.exception_to),
            "everywhere": c.everywhere, "overridden_by": list(c.overridden_by)}
