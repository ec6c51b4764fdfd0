"""The command layer: every ``rulebook`` subcommand, above the library and imported by nothing but
the entry point (``rulebook_compiler.cli``).

One module per command or group of commands (``check``, ``export``, ``schema``, ``diff``
with ``history`` and ``changelog``, ``site`` with ``build`` and ``serve``, ``conformance``,
``publish`` with ``correct``, ``init``, ``import_``); ``common`` holds what they share
(the problem report, loading or exiting, the group class) and ``options`` the one vocabulary of
options every command speaks (``--rulebook``, ``--edition``, ``-q``, the usage-error format; docs/cli.md).
A new command is a module here, added to ``rulebook_compiler.cli``'s list. Each module imports only
click and light modules at its top: the back ends and their libraries (mkdocs, jinja2,
deepdiff) load inside the command that runs (tests/test_startup.py).
"""
