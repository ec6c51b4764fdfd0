"""The published glossary: pages generated from the model for mkdocs-material.

``plugin`` is the mkdocs plugin (entry point ``rulebook``); ``pages`` plans the
pages; ``render`` turns a planned page into escaped HTML with the Jinja2
templates in ``theme/templates`` (the package's default site); ``lineage`` knows since when
each clause reads as it does; ``markup`` escapes rule text and links mentions;
``command`` holds ``rulebook build`` and ``rulebook serve``.

Nothing here imports mkdocs at module level except ``plugin`` and ``command``
(which import it inside their functions).
"""
