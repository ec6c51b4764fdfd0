"""rulebook-compiler: a card game's rules glossary as checked, versioned data.

Public entry points: :func:`rulebook_compiler.build.load_rulebook` (sources to model),
:mod:`rulebook_compiler.export`, :mod:`rulebook_compiler.evaluate`, and the ``rulebook`` command.
"""

__version__ = "0.2.0"
