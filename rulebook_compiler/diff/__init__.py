"""Semantic diff of two rulebook editions: matching, classification, behaviour, redlines.

Public API: ``diff_editions(book_old, ed_old, book_new, ed_new) -> DiffResult``
(in ``rulebook_compiler.diff.engine``) and ``redline_html(old, new)`` (in
``rulebook_compiler.diff.redline``). Import the submodules directly; this package
imports nothing heavy on its own.
"""
