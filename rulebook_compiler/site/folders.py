"""Where the site's templates, theme overrides and stylesheet come from.

The defaults ship in the package (``rulebook_compiler/site/theme/``), so a site builds
from a wheel anywhere. A project's own ``site/`` folder (beside its mkdocs.yml,
or the current folder under ``rulebook build --rulebook``) overrides them file
by file: ``site/templates/`` for the page templates (Jinja2), ``site/overrides/``
for mkdocs-material's, ``site/docs/assets/stylesheets/rulebook.css`` for the
stylesheet. Only those three places count, so an output folder that happens to
be called ``site`` overrides nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

PACKAGE_SITE = Path(__file__).resolve().parent / "theme"
STYLESHEET = "assets/stylesheets/rulebook.css"


@dataclass(frozen=True)
class SiteFolders:
    templates: tuple[Path, ...]  # searched in order: the project's first
    overrides: tuple[Path, ...]  # mkdocs-material overrides, the project's first
    stylesheet: Path
    own: tuple[tuple[str, Path], ...]  # (what, path) of the project's overrides that exist: inputs of a build


def site_folders(project_site: Path | None) -> SiteFolders:
    """The folders a build reads, given the project's site/ folder (None: the package's only)."""
    own: list[tuple[str, Path]] = []
    templates, overrides = [PACKAGE_SITE / "templates"], [PACKAGE_SITE / "overrides"]
    stylesheet = PACKAGE_SITE / "docs" / STYLESHEET
    if project_site is not None:
        if (project_site / "templates").is_dir():
            templates.insert(0, project_site / "templates")
            own.append(("the project's site templates", project_site / "templates"))
        if (project_site / "overrides").is_dir():
            overrides.insert(0, project_site / "overrides")
            own.append(("the project's theme overrides", project_site / "overrides"))
        if (project_site / "docs" / STYLESHEET).is_file():
            stylesheet = project_site / "docs" / STYLESHEET
            own.append(("the project's stylesheet", stylesheet))
    return SiteFolders(tuple(templates), tuple(overrides), stylesheet, tuple(own))
