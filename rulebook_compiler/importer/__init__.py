"""``rulebook import``: term files from a publisher's document (plain text extracted from its PDF).

The pipeline runs one way: ``source`` reads the file into lines (or clean
errors); a ``layouts`` class marks each line (page furniture, entry heading,
metadata, sub-heading, bullet, numbered step or rule, text); ``assemble``
joins the marked lines into entries, sections and blocks, and reports every
line it could not place; ``ids`` gives terms and clauses their ids; ``match``
(on top of an existing rulebook) keeps the ids of the previous edition's
clauses and proposes lineage; ``emit`` writes the term files as YAML.
The layout rules live in ``layouts`` alone: one small class per layout.
"""
