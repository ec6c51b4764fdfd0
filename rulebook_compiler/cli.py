"""The ``rulebook`` command: the group, assembled from the command layer (``rulebook_compiler.commands``).

This is the entry point (``rulebook = rulebook_compiler.cli:main``, ``python -m rulebook_compiler``) and the
only module that imports the commands. Each command module imports only click and light
modules at its top; each back end's libraries (mkdocs, jinja2, deepdiff) load inside the
command that needs them (tests/test_startup.py).
"""

from __future__ import annotations

import click

from .commands.ask import ask
from .commands.check import check
from .commands.common import RulebookGroup
from .commands.conformance import conformance
from .commands.diff import changelog_command, diff_command, history_command
from .commands.export import export
from .commands.import_ import import_command
from .commands.init import init
from .commands.pdf import pdf
from .commands.publish import correct, publish
from .commands.schema import schema
from .commands.site import build as site_build, serve as site_serve
from .commands.options import QUIET_HELP
from .progress import add_quiet_option


@click.group(cls=RulebookGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulebook-compiler")
def main() -> None:
    """Compile a card game's rules glossary: check, export, diff, conformance, site."""


for _command in (check, export, ask, schema, conformance, diff_command, history_command, site_build, site_serve,
                 publish, correct, init, changelog_command, import_command, pdf):
    main.add_command(_command)
    add_quiet_option(_command, QUIET_HELP)

if __name__ == "__main__":  # pragma: no cover
    main()
