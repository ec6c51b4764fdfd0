"""rulebook-compiler: a card game's rules glossary as checked, versioned data.

Public entry points: :func:`compiler.build.load_rulebook` (sources to model),
:mod:`compiler.export`, :mod:`compiler.evaluate`, and the ``rulebook`` command.
"""

__version__ = "0.1.0"
