"""``rulebook check`` as a function: build, logic checks and the lock, with what the cache proved before.

Kept out of the command layer (``rulebook_compiler.commands.check``) so that ``serve`` and other callers share it. See
rulebook_compiler/proofs.py for what is cached and how it is keyed.
"""

from __future__ import annotations

import hashlib
import json
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
    incremental: bool = False  # only the edited term files were read (rulebook_compiler/recheck.py)
    read: int = 0  # ... how many


def check_rulebook(root: Path, use_cache: bool = True) -> Checked:
    """Check the rulebook at ``root``; never raises for bad sources."""
    from .proofs import decode_outcome, whole_key

    cache = _cache() if use_cache else None
    known, known_at = _known(cache, root) if cache is not None else (None, "")
    fp = _fingerprint(root, known) if cache is not None else None
    # what the next check need not read again; not rewritten for a few edited files (they are cheap
    # to hash again, and the record is as large as the rulebook has files)
    if cache is not None and fp is not None and fp.hashed > max(16, len(fp.files) // 20):
        from .recheck import dump

        cache.store_proofs({known_at: dump({"taken": fp.taken, "stats": fp.stats})})
    key = ""
    if cache is not None and fp is not None:
        key = whole_key(fp.key, root)
        held = cache.proofs([key]).get(key)
        whole = decode_outcome(held) if held is not None else None
        from .cache import sources_present

        if whole is not None and sources_present(root, whole[2]):
            return Checked(whole[0], whole[1], whole=True)
    # imported only past the cache: a check of unchanged files needs none of them (not even the build)
    from .build import collector_skips_loads

    with collector_skips_loads():
        return _check_again(root, cache, fp, key)


def _check_again(root: Path, cache, fp, key: str) -> Checked:
    """The check the cache does not hold whole: incremental from the state it keeps, else in full."""
    from .recheck import base_key, full, incremental, state_key

    if cache is None or fp is None:
        outcome = full(root, None, record=False)
        return Checked(outcome.problems, outcome.summary, proved=outcome.proved)
    from .proofs import Proofs

    proofs = Proofs(cache)
    top_at = state_key(proofs.compiler, root)
    top = _json(cache.proofs([top_at]).get(top_at))
    base_at = top.get("base") if type(top) is dict else None
    base_text = cache.proofs([base_at]).get(base_at) if type(base_at) is str else None
    if base_text is not None and base_key(base_text) == base_at:
        from .build import cyclic_gc_paused

        # The record is a million small lists and no cycles: decoded and freed while the cyclic
        # collector is paused, it is never scanned (a collection in the midst of it, or of the young
        # objects it left, rescanned a large heap: up to seconds, bench_recheck.py).
        with cyclic_gc_paused():
            again = incremental(root, fp, _json(base_text), top, proofs)
            if again is not None:
                checked = _keep(root, cache, fp, key, proofs, again, top_at, base_at)
                del again
                return checked
    return _keep(root, cache, fp, key, proofs, full(root, proofs, record=True), top_at, base_at)


def _keep(root: Path, cache, fp, key: str, proofs, outcome, top_at: str, base_at) -> Checked:
    """Store what the check found and proved, and what the next one starts from; the result."""
    from .proofs import encode_outcome
    from .recheck import base_key, dump

    # unchanged while it was read (an incremental check verified each file it read itself)
    if outcome.read or _fingerprint(root, fp) == fp:
        stored = _store_book(root, cache, fp, outcome)  # a diff after this check starts warm
        made = dict(proofs.made)
        if outcome.sources is not None:
            made[key] = encode_outcome(outcome.problems, outcome.summary, outcome.sources)
        replaced: tuple[str, ...] = ()
        if outcome.state is not None:
            top = {k: v for k, v in outcome.state["top"].items() if k != "book"}
            if stored:
                top["book"] = fp.key
            if not outcome.read:  # a full check: a new base, which replaces the one before (megabytes)
                base_text = dump({**outcome.state["base"], "shas": fp.files})
                made[base_key(base_text)] = base_text
                top = {**top, "base": base_key(base_text)}
                replaced = (base_at,) if type(base_at) is str else ()
            made[top_at] = dump(top)
        cache.store_proofs(made, replaced)
    return Checked(outcome.problems, outcome.summary, proofs.reused, len(proofs.made),
                   incremental=outcome.read > 0, read=outcome.read)


def _store_book(root: Path, cache, fp, outcome) -> bool:
    """Store the rulebook for ``diff`` when it passes ``build.check`` (it builds, and its published
    editions are as the lock records them): the model a full check built, else the rulebook the
    check before stored with the terms an incremental check read again; whether it is stored."""
    if not outcome.locked:
        return False  # a diff must not be served what its own load would refuse
    if outcome.book is not None:
        return cache.store(root, fp, outcome.book)
    if outcome.summary is None or not outcome.terms:
        return False
    since = outcome.state["top"].get("book") if outcome.state is not None else None
    return type(since) is str and cache.store_edited(root, fp, since, outcome.terms)


def _json(text: str | None):
    """JSON data the cache holds (checked as it is used), or None."""
    if text is None:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _cache():
    from .cache import Cache, disabled_by_env

    return None if disabled_by_env() else Cache.open()


def _fingerprint(root: Path, known=None):
    from .cache import fingerprint

    return fingerprint(root, known)


def _known(cache, root: Path):
    """The fingerprint the check before kept of this folder (file sizes, times and hashes), and its key."""
    from .cache import known_fingerprint

    at = "stat-" + hashlib.sha256(str(root.resolve()).encode("utf-8", "surrogateescape")).hexdigest()
    return known_fingerprint(_json(cache.proofs([at]).get(at))), at
