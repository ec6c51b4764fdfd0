"""The published glossary: pages generated from the model for mkdocs-material.

``plugin`` is the mkdocs plugin (entry point ``rulebook``); ``pages`` plans the
pages; ``render`` turns a planned page into escaped HTML with the Jinja2
templates in ``theme/templates`` (the package's default site); ``lineage`` knows since when
each clause reads as it does; ``markup`` escapes rule text and links mentions;
``config`` makes the mkdocs configuration of ``rulebook build`` and ``rulebook serve``
(``rulebook_compiler.commands.site``).

Only ``plugin`` and ``serve`` import mkdocs at module level; the commands import
them inside their functions.
"""
