"""Concurrent runs wait for each other (rulebook_compiler/cache.py): a run that finds the cache held by another
run's transaction waits for it (up to ten seconds) rather than going on without the cache."""

from __future__ import annotations

import sqlite3
import threading

from rulebook_compiler import cache


def test_a_write_waits_for_another_run_s_transaction_of_a_few_seconds(tmp_path):
    warned: list[str] = []
    opened = cache.Cache(tmp_path / "cache", warned.append)
    assert opened.store_proofs({"a": "[1]"}) is True
    other = sqlite3.connect(opened.path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another run's store, which takes longer than SQLite's default wait (5 s)
    other.execute("INSERT OR REPLACE INTO proofs VALUES('b', '[2]', 0)")
    done = threading.Timer(5.5, lambda: other.execute("COMMIT"))
    done.start()
    try:
        assert opened.store_proofs({"c": "[3]"}) is True
    finally:
        done.join()
        other.close()
    assert (warned, opened.proofs(["a", "b", "c"])) == ([], {"a": "[1]", "b": "[2]", "c": "[3]"})
    opened.close()
