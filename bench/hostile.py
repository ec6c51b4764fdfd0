"""Hostile rulebooks that stress the checker's bounds (issue 8: "Bounded everything").

    python bench/hostile.py CASE SIZE OUTDIR

writes a one-edition rulebook folder (edition ``v1``, term ``t``) in which one
thing is pushed to SIZE. ``rulebook check OUTDIR`` must refuse or report it
quickly, with bounded memory, never with a traceback or a hang. Cases:

- ``deep-yaml``: a term's ``notes`` nested SIZE lists deep.
- ``deep-alias``: a list nested SIZE deep, repeated through nine levels of
  nine aliases (the shape that took 17 s and 1.9 GB at SIZE=400).
- ``predicate-chain``: SIZE predicates, each defined by the next.
- ``deep-not``: a rule's ``when`` nested SIZE ``not`` deep.
- ``tied-constraints``: a decision over one fact that SIZE constraints tie to
  SIZE other facts (only one combination of them is allowed, the last tried).
- ``wide-condition``: a rule's ``when`` over 16 facts, an ``any`` of SIZE
  ``all`` items (SIZE=10000 makes a term file of about 400 KB).
- ``exception-chain``: SIZE clauses of SIZE rules each, every rule an
  exception to the clause before (SIZE=60: 3,600 rules, 274 KB).
- ``long-patch``: a term of SIZE clauses in one section, and a later edition's
  patch of SIZE operations that reverse them (rulebook_compiler/overlay.py).

Commands that measure one case (see bench/README.md):

    python bench/hostile.py tied-constraints 25 /tmp/h && /usr/bin/time -v python -m rulebook_compiler check /tmp/h
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable

RULEBOOK = ("title: Hostile\npublisher: bench/hostile.py\neditions:\n"
            "  - {id: v1, title: One, date: null, status: draft}\n")


def _fact(name: str) -> str:
    return f"  - {{name: {name}, type: bool, meaning: Fact {name}.}}\n"


def _write(out: Path, facts: list[str], term: str, constraints: str = "[]") -> Path:
    (out / "editions" / "v1").mkdir(parents=True, exist_ok=True)
    (out / "rulebook.yaml").write_text(RULEBOOK, encoding="utf-8")
    (out / "vocabulary.yaml").write_text("facts:\n" + "".join(map(_fact, facts))
                                         + f"constraints: {constraints}\n", encoding="utf-8")
    (out / "editions" / "v1" / "t.yaml").write_text(term, encoding="utf-8")
    return out


def _term(clauses: str, head: str = "") -> str:
    """Term ``t`` with bool decision ``t.q`` and the given clause lines."""
    return ("id: t\nname: T\n" + head + "decisions:\n  - {name: t.q, type: bool, meaning: Q.}\n"
            "sections:\n  - key: s\n    kind: definition\n    clauses:\n" + clauses)


def _base_rule(when: str) -> str:
    return ("      - {id: base, text: Base., rules: [{decision: t.q, value: false}]}\n"
            f"      - id: top\n        text: Top.\n        rules:\n"
            f"          - {{decision: t.q, value: true, exception_to: ['t#base'], when: {when}}}\n")


def deep_yaml(out: Path, size: int) -> Path:
    return _write(out, ["a"], _term(_base_rule("a"), head="notes: " + "[" * size + "]" * size + "\n"))


def deep_alias(out: Path, size: int) -> Path:
    lines = ["l0: &l0 " + "[" * size + "]" * size]
    for level in range(1, 9):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 9) + "]")
    # the bomb sits in a mapping the schema ignores: only the loader can stop it
    return _write(out, ["a"], _term(_base_rule("a"), head="\n".join(lines) + "\n"))


def predicate_chain(out: Path, size: int) -> Path:
    clauses = "".join(f"      - {{id: p{i}, text: P{i}., defines: {{name: p{i}, as: p{i + 1}}}}}\n"
                      for i in range(size))
    clauses += f"      - {{id: p{size}, text: P{size}., defines: {{name: p{size}, as: a}}}}\n"
    return _write(out, ["a"], _term(clauses + _base_rule("p0")))


def deep_not(out: Path, size: int) -> Path:
    return _write(out, ["a"], _term(_base_rule("{not: " * size + "a" + "}" * size)))


def tied_constraints(out: Path, size: int) -> Path:
    others = [f"x{i}" for i in range(size)]
    # when a holds every x must too: the all-true combination, tried last, is the only one allowed
    constraints = "\n" + "".join(f"  - {{id: c{i}, text: C{i}., never: {{all: [a, {{not: {x}}}]}}}}\n"
                                 for i, x in enumerate(others))
    return _write(out, ["a", *others], _term(_base_rule("a")), constraints)


def wide_condition(out: Path, size: int) -> Path:
    facts = [f"f{i}" for i in range(16)]
    # every item needs f0 and not f0: never true, so every item is evaluated in every situation
    items = [json.dumps({"all": ["f0", facts[1 + i % 15], {"not": "f0"}]}) for i in range(size)]
    when = '{"any": [' + ", ".join(items) + "]}"
    return _write(out, facts, _term(_base_rule(when)))


def exception_chain(out: Path, size: int) -> Path:
    clauses = []
    for c in range(size):
        if c == 0:
            rule = "{decision: t.q, value: false}"
        else:
            rule = (f"{{decision: t.q, value: {'true' if c % 2 else 'false'}, when: {{all: [a, a]}}, "
                    f"exception_to: ['t#c{c - 1}']}}")
        clauses.append(f"      - {{id: c{c}, text: C{c}., rules: [{', '.join([rule] * size)}]}}\n")
    return _write(out, ["a"], _term("".join(clauses)))


def long_patch(out: Path, size: int) -> Path:
    """Edition v1's term holds SIZE clauses in one section; edition v2 patches it with SIZE operations,
    each moving the clause at the end of the section to its start."""
    _write(out, ["a"], _term("".join(f"      - {{id: c{c}, text: C{c}.}}\n" for c in range(size))))
    (out / "rulebook.yaml").write_text(RULEBOOK + "  - {id: v2, title: Two, date: null, status: draft}\n",
                                       encoding="utf-8")
    (out / "editions" / "v2").mkdir(exist_ok=True)
    moves = "".join(f"  - {{move: c{size - 1 - i}, before: c{size - i if i else 0}}}\n" for i in range(size))
    (out / "editions" / "v2" / "t.yaml").write_text("id: t\npatch:\n" + moves, encoding="utf-8")
    return out


CASES: dict[str, Callable[[Path, int], Path]] = {
    "deep-yaml": deep_yaml, "deep-alias": deep_alias, "predicate-chain": predicate_chain,
    "deep-not": deep_not, "tied-constraints": tied_constraints, "wide-condition": wide_condition,
    "exception-chain": exception_chain, "long-patch": long_patch,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("size", type=int)
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    CASES[args.case](args.out, args.size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
