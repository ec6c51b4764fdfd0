"""Counted nouns for every text output: "1 edition", "2 editions", "0 mutants".

Summary lines wrote ``f"{n} editions"`` (hence "1 editions", "1 decisions") or
each its own ``'s' if n != 1``; every count of a noun now goes through ``counted``.
"""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None, *, thousands: bool = False) -> str:
    """``n`` and the noun, singular for exactly one: ``counted(1, "edition")`` is "1 edition".

    ``plural`` for a noun that does not take an "s" ("entry", "entries");
    ``thousands``: the number with commas, as "2,002 terms".
    """
    number = f"{n:,}" if thousands else str(n)
    return f"{number} {noun if n == 1 else plural or noun + 's'}"
