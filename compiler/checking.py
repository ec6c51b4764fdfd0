"""``rulebook check`` as a function: build, logic checks and the lock, with what the cache proved before.

Kept out of ``cli.py`` so that ``serve`` and other callers share it. See
compiler/proofs.py for what is cached and how it is keyed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Diagnostic


@dataclass(frozen=True)
class Checked:
    problems: list[Diagnostic]
    summary: str | None  # the line printed when nothing is wrong; None when the build failed
    reused: int = 0  # decisions whose logic checks were taken from the cache
    proved: int = 0  # decisions proved in this run
    whole: bool = False  # the whole outcome came from the cache (nothing was read but hashed)


def check_rulebook(root: Path, use_cache: bool = True) -> Checked:
    """Check the rulebook at ``root``; never raises for bad sources."""
    from .proofs import Proofs, decode_outcome, encode_outcome, summary_line, whole_key

    cache = _cache() if use_cache else None
    fp = _fingerprint(root) if cache is not None else None
    key = whole_key(fp.key, root) if fp is not None else None
    if key is not None:
        held = cache.proofs([key]).get(key)
        outcome = decode_outcome(held) if held is not None else None
        if outcome is not None:
            return Checked(outcome[0], outcome[1], whole=True)
    # imported only past the cache: a check of unchanged files needs none of them
    from .build import check as build_check
    from .lock import problems as lock_problems
    from .logic import logic_problems

    book, problems = build_check(root)
    if book is None:
        return Checked(problems, None)
    proofs = Proofs(cache)
    problems = logic_problems(book, proofs) + lock_problems(book)
    summary = summary_line(book)
    if cache is not None and fp is not None and _fingerprint(root) == fp:  # unchanged while it was read
        cache.store(root, fp, book)  # a diff after this check starts warm
        cache.store_proofs({**proofs.made, key: encode_outcome(problems, summary)})
    return Checked(problems, summary, proofs.reused, len(proofs.made))


def _cache():
    from .cache import Cache, disabled_by_env

    return None if disabled_by_env() else Cache.open()


def _fingerprint(root: Path):
    from .cache import fingerprint

    return fingerprint(root)
