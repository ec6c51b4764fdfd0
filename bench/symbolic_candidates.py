"""Measure candidate libraries for the symbolic core (issue 10) on our workload.

The workload is the shape of the logic questions the compiler asks, on
generated decisions: N boolean facts that a decision's rules test, optionally
30 constraints tying them to 30 other facts ("never a and b"), R = N/2 rules,
each a conjunction of 2-3 literals giving true or false, every third rule an
exception to the one before it (Catala-style default logic).

Questions, as the compiler asks them:
  - conflict: an allowed situation where two rules apply, neither overrides the
    other, and they answer differently (one query over all pairs);
  - empty: an allowed situation where no rule applies (one query);
  - dead: per rule, an allowed situation where it applies and is not
    overridden (R queries);
  - mutants: per rule, the rule with its first literal negated; is the
    decision's answer function unchanged? (R queries);
  - count: how many allowed situations answer differently between the
    decision and its first mutant (model counting; only BDD libraries count,
    SAT solvers would enumerate).

Needs: pip install z3-solver python-sat dd pyeda (not project dependencies; a choice to be made)
Run: python bench/symbolic_candidates.py [--sizes 10,20,40,80] [--repeat 3]
Prints one line per library and size, times in ms (best of repeats).
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    lits: tuple[tuple[int, bool], ...]  # (fact index, polarity)
    value: bool
    exception_to: int | None


@dataclass(frozen=True)
class Workload:
    n: int  # decision facts
    extra: int  # other facts tied by constraints
    rules: tuple[Rule, ...]
    constraints: tuple[tuple[tuple[int, bool], tuple[int, bool]], ...]  # never (l1 and l2)


def workload(n: int, linked: bool, seed: int = 7) -> Workload:
    rnd = random.Random(seed * 1000 + n)
    rules = []
    for i in range(max(2, n // 2)):
        k = rnd.choice((2, 3))
        facts = rnd.sample(range(n), k)
        lits = tuple((f, rnd.random() < 0.6) for f in facts)
        exc = i - 1 if i % 3 == 2 else None
        rules.append(Rule(lits, rnd.random() < 0.5, exc))
    extra = 30 if linked else 0
    constraints = []
    if linked:
        for j in range(30):
            a = rnd.randrange(n)
            constraints.append(((a, rnd.random() < 0.5), (n + j, True)))
    return Workload(n, extra, tuple(rules), tuple(constraints))


def mutant(w: Workload, i: int) -> Workload:
    rules = list(w.rules)
    r = rules[i]
    (f, pol), *rest = r.lits
    rules[i] = Rule(((f, not pol), *rest), r.value, r.exception_to)
    return Workload(w.n, w.extra, tuple(rules), w.constraints)


# ---------------------------------------------------------------- formulas, generic


class Builder:
    """What each library must give: variables, and/or/not, constants."""

    def var(self, i): ...
    def and_(self, xs): ...
    def or_(self, xs): ...
    def not_(self, x): ...
    def true(self): ...
    def false(self): ...


def applies(b, w: Workload, i: int, cache: dict):
    if i not in cache:
        r = w.rules[i]
        cache[i] = b.and_([b.var(f) if pol else b.not_(b.var(f)) for f, pol in r.lits])
    return cache[i]


def effective(b, w: Workload, i: int, cache: dict):
    """Rule i applies and no exception to it applies."""
    over = [j for j, r in enumerate(w.rules) if r.exception_to == i]
    a = applies(b, w, i, cache)
    if not over:
        return a
    return b.and_([a] + [b.not_(applies(b, w, j, cache)) for j in over])


def allowed(b, w: Workload):
    return b.and_([b.not_(b.and_([lit(b, l1), lit(b, l2)])) for l1, l2 in w.constraints]) if w.constraints else b.true()


def lit(b, l):
    f, pol = l
    return b.var(f) if pol else b.not_(b.var(f))


def answer_true(b, w: Workload, cache: dict):
    """Some effective rule answers true (the answer function's 'true' part)."""
    return b.or_([effective(b, w, i, cache) for i, r in enumerate(w.rules) if r.value] or [b.false()])


def answer_false(b, w: Workload, cache: dict):
    return b.or_([effective(b, w, i, cache) for i, r in enumerate(w.rules) if not r.value] or [b.false()])


def questions(b, w: Workload, sat, count=None):
    """Ask every question; return the answers so libraries can be cross-checked."""
    cache: dict = {}
    ok = allowed(b, w)
    t, f = answer_true(b, w, cache), answer_false(b, w, cache)
    conflict = sat(b.and_([ok, t, f]))
    none = b.not_(b.or_([applies(b, w, i, cache) for i in range(len(w.rules))]))
    empty = sat(b.and_([ok, none]))
    dead = [not sat(b.and_([ok, effective(b, w, i, cache)])) for i in range(len(w.rules))]
    equivalent = []
    diff0 = None
    for i in range(len(w.rules)):
        m = mutant(w, i)
        mc: dict = {}
        mt, mf = answer_true(b, m, mc), answer_false(b, m, mc)
        differs = b.and_([ok, b.or_([b.and_([t, b.not_(mt)]), b.and_([mt, b.not_(t)]),
                                      b.and_([f, b.not_(mf)]), b.and_([mf, b.not_(f)])])])
        equivalent.append(not sat(differs))
        if i == 0:
            diff0 = differs
    counted = count(diff0, w.n + w.extra) if count else None
    return conflict, empty, tuple(dead), tuple(equivalent), counted


# ---------------------------------------------------------------- libraries


def run_dd(w: Workload, backend: str):
    if backend == "cudd":
        from dd import cudd as _bdd
    else:
        from dd import autoref as _bdd
    bdd = _bdd.BDD()
    names = [f"x{i}" for i in range(w.n + w.extra)]
    bdd.declare(*names)

    class B(Builder):
        def var(self, i): return bdd.var(names[i])
        def and_(self, xs):
            r = bdd.true
            for x in xs: r &= x
            return r
        def or_(self, xs):
            r = bdd.false
            for x in xs: r |= x
            return r
        def not_(self, x): return ~x
        def true(self): return bdd.true
        def false(self): return bdd.false

    return questions(B(), w, lambda u: u != bdd.false, lambda u, nv: bdd.count(u, nvars=nv))


def run_z3(w: Workload):
    import z3
    vs = [z3.Bool(f"x{i}") for i in range(w.n + w.extra)]

    class B(Builder):
        def var(self, i): return vs[i]
        def and_(self, xs): return z3.And(*xs) if xs else z3.BoolVal(True)
        def or_(self, xs): return z3.Or(*xs) if xs else z3.BoolVal(False)
        def not_(self, x): return z3.Not(x)
        def true(self): return z3.BoolVal(True)
        def false(self): return z3.BoolVal(False)

    def sat(e):
        s = z3.Solver()
        s.add(e)
        return s.check() == z3.sat

    return questions(B(), w, sat)


def run_pysat(w: Workload):
    from pysat.formula import And, Atom, Neg, Or, PYSAT_TRUE, PYSAT_FALSE, Formula
    from pysat.solvers import Solver
    vs = [Atom(f"x{i}") for i in range(w.n + w.extra)]

    class B(Builder):
        def var(self, i): return vs[i]
        def and_(self, xs): return And(*xs) if xs else PYSAT_TRUE
        def or_(self, xs): return Or(*xs) if xs else PYSAT_FALSE
        def not_(self, x): return Neg(x)
        def true(self): return PYSAT_TRUE
        def false(self): return PYSAT_FALSE

    def sat(e):
        Formula.cleanup()  # a fresh Tseitin pool per query, as one query per call would need
        with Solver(name="cadical195", bootstrap_with=list(e)) as s:
            return s.solve()

    return questions(B(), w, sat)


def run_pyeda(w: Workload):
    from pyeda.inter import exprvar, And, Or, Not, expr
    vs = [exprvar(f"x{i}") for i in range(w.n + w.extra)]

    class B(Builder):
        def var(self, i): return vs[i]
        def and_(self, xs): return And(*xs)
        def or_(self, xs): return Or(*xs)
        def not_(self, x): return Not(x)
        def true(self): return expr(1)
        def false(self): return expr(0)

    return questions(B(), w, lambda e: e.satisfy_one() is not None)


def brute(w: Workload):
    """Enumeration, the cross-check (small sizes only)."""
    nv = w.n + w.extra

    class B(Builder):
        # A formula is the set of situations (as a bit-set int) where it holds.
        def __init__(self):
            self.all = (1 << (1 << nv)) - 1
            self.vars = []
            for i in range(nv):
                m = 0
                for s in range(1 << nv):
                    if s >> i & 1: m |= 1 << s
                self.vars.append(m)
        def var(self, i): return self.vars[i]
        def and_(self, xs):
            r = self.all
            for x in xs: r &= x
            return r
        def or_(self, xs):
            r = 0
            for x in xs: r |= x
            return r
        def not_(self, x): return self.all & ~x
        def true(self): return self.all
        def false(self): return 0

    return questions(B(), w, lambda u: u != 0, lambda u, n: bin(u).count("1"))


LIBS = {
    "dd.cudd": lambda w: run_dd(w, "cudd"),
    "dd.autoref": lambda w: run_dd(w, "autoref"),
    "z3-solver": run_z3,
    "python-sat": run_pysat,
    "pyeda": run_pyeda,
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10,20,40,80")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--libs", default=",".join(LIBS))
    args = ap.parse_args()
    small = workload(10, False)
    expected = brute(small)
    for name in args.libs.split(","):
        got = LIBS[name](small)
        agree = got[:4] == expected[:4] and (got[4] is None or got[4] == expected[4])
        print(f"cross-check {name} vs enumeration at 10 facts: {'agrees' if agree else 'DISAGREES'}")
    print(f"{'library':<12} {'facts':>5} {'linked':>6} {'rules':>5} {'ms':>9} {'count':>12}")
    for n in map(int, args.sizes.split(",")):
        for linked in (False, True):
            w = workload(n, linked)
            for name in args.libs.split(","):
                best, res = float("inf"), None
                for _ in range(args.repeat):
                    t0 = time.perf_counter()
                    res = LIBS[name](w)
                    best = min(best, time.perf_counter() - t0)
                print(f"{name:<12} {n:>5} {('30' if linked else '-'):>6} {len(w.rules):>5} {best * 1000:>9.1f} "
                      f"{'' if res[4] is None else res[4]:>12}")


if __name__ == "__main__":
    main()
