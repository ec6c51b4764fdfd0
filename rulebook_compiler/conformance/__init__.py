"""Conformance suites: cases from the rule conditions, an engine adapter, and mutation strength.

``cases`` builds the cases of an edition from the reference evaluator;
``suite`` writes them as ``cases.json`` and a pytest module and reads them back;
``engines`` loads engines (Python objects or JSON-lines subprocesses);
``runner`` runs cases through an engine; ``mutants`` measures a suite's strength;
``plugin`` is the pytest plugin. The ``rulebook conformance`` commands are in
``rulebook_compiler.commands.conformance``.
"""
