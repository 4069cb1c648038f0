"""The template files of the pages, reports, boards and Codabench texts (`archehr/templates/`), and their renderer.

Jinja2 with autoescape on for `.html` and `.svg`: every value a template prints is HTML-escaped unless the code
marks it as markup already made (`Markup`, or `|safe` on a rendered fragment). The escaping is the standard
library's `html.escape(quote=True)` (`&quot;`, `&#x27;`), the entities these pages always used, so a page
renders byte for byte as before its markup moved here; `None` prints as nothing. Markdown templates (`.md`)
are not escaped. Static files (CSS, JS) are read as they are.

Layout in a template file: a line ending in a backslash continues on the next line (the line break and the
next line's indentation are not output), so markup printed on one line can be written one element per line.
A file's last line break is not output (Jinja's default): a page that ends with one says so (`{{ "\\n" }}`).
"""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path
from typing import Any

TEMPLATES = Path(__file__).with_name("templates")
ESCAPED = ("html", "svg")


def _escape_as_before(value: Any) -> Any:
    from markupsafe import Markup

    if value is None:
        return ""
    if isinstance(value, Markup):
        return value
    return Markup(html.escape(str(value), quote=True))


def _continued_lines() -> Any:
    import jinja2.ext

    class ContinuedLines(jinja2.ext.Extension):
        """`\\` at the end of a line joins it with the next one (see the module's docstring)."""

        def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
            return CONTINUED.sub("", source)

    return ContinuedLines


CONTINUED = re.compile(r"\\\n[ \t]*")


@cache
def environment(escaped: bool) -> Any:
    """One Jinja2 environment per kind (escaped markup, plain Markdown); templates are compiled once."""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=escaped, undefined=jinja2.StrictUndefined,
        trim_blocks=True, lstrip_blocks=True, extensions=[_continued_lines()],
        finalize=_escape_as_before if escaped else (lambda v: "" if v is None else v))


def render(name: str, **values: Any) -> str:
    """The template `name` (a path under archehr/templates/) filled with `values`."""
    escaped = name.rsplit(".", 1)[-1] in ESCAPED
    return environment(escaped).get_template(name).render(**values)


def markup(text: str) -> Any:
    """Text that is markup already (a fragment a template rendered): printed as it is."""
    from markupsafe import Markup

    return Markup(text)


@cache
def static(name: str) -> str:
    """A file under archehr/templates/ as it is (a stylesheet, a script)."""
    return (TEMPLATES / name).read_text(encoding="utf-8")
