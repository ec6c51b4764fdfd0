"""The mkdocs configuration made for a rulebook folder, where no mkdocs.yml is used
(``rulebook build`` and ``rulebook serve``: ``rulebook_compiler.commands.site``)."""

from __future__ import annotations

from pathlib import Path

PROJECT_SITE = Path("site")  # without a mkdocs.yml, ./site overrides the package's site files


def default_config(root: Path, title: str) -> str:
    """An mkdocs.yml for a rulebook folder, with absolute paths.

    The site name is the title as plain text: the plugin escapes it for the theme
    (``RulebookPlugin.on_config``). Dumped by PyYAML with Unicode as itself, so any
    character reads back as written (JSON's surrogate pairs would read back as two
    lone surrogates, which cannot be written out as UTF-8).
    """
    import yaml

    from ..site.render import SITE_DIR

    config = {
        "site_name": title,
        "docs_dir": str((SITE_DIR / "docs").resolve()),
        "strict": True,
        "theme": {"name": "material", "features": ["navigation.sections", "search.highlight"]},
        # The theme overrides and templates come from the plugin: the package's, and ./site's over them.
        "plugins": ["search", {"rulebook": {"rulebook": str(root.resolve()), "site": str(PROJECT_SITE.resolve())}}],
        "extra_css": ["assets/stylesheets/rulebook.css"],
    }
    return yaml.safe_dump(config, allow_unicode=True, sort_keys=False, width=float("inf"))
