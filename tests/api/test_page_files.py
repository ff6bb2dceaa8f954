"""The page's files as read, no browser: ES modules from one entry, no globals, no HTML built from strings,
nothing inline that a Content-Security-Policy without 'unsafe-inline' would block.

The browser tests (test_page*.py) check the same page running; these run where Chromium is not installed.
"""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.main import STATIC_DIR, create_app

SCRIPTS = sorted(STATIC_DIR.glob("*.js"))
IMPORT = re.compile(r'^import\s[^;]*?\sfrom\s+"\./([\w-]+\.js)";', re.MULTILINE)


class Tags(HTMLParser):
    """Every start tag of a page with its attributes, and the text inside each <script>."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.script_text: list[str] = []
        self._in_script = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = self._in_script and tag != "script"

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.script_text.append(data)


def page_tags() -> Tags:
    return Tags((STATIC_DIR / "index.html").read_text(encoding="utf-8"))


def imports(script: Path) -> list[str]:
    return IMPORT.findall(script.read_text(encoding="utf-8"))


def test_the_page_loads_one_module_script_and_no_inline_code():
    tags = page_tags()
    scripts = [attrs for tag, attrs in tags.tags if tag == "script"]
    assert scripts == [{"type": "module", "src": "/static/app.js"}]
    assert "".join(tags.script_text).strip() == ""


def test_the_page_has_no_inline_event_handler_or_style():
    tags = page_tags()
    inline = [(tag, name) for tag, attrs in tags.tags for name in attrs
              if name.startswith("on") or name == "style"]
    assert inline == []
    assert "style" not in [tag for tag, _ in tags.tags]


def test_every_script_is_imported_from_the_entry_and_every_import_exists():
    reached, todo = set(), ["app.js"]
    while todo:
        name = todo.pop()
        reached.add(name)
        assert (STATIC_DIR / name).is_file(), f"{name} is imported but not there"
        todo += [n for n in imports(STATIC_DIR / name) if n not in reached]
    assert reached == {s.name for s in SCRIPTS} - {"sw.js"}  # the service worker: registered, not imported


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_no_script_builds_html_from_a_string(script):
    text = script.read_text(encoding="utf-8")
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write"):
        assert sink not in text, f"{script.name} uses {sink}: build elements with textContent"


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_no_script_sets_a_global(script):
    text = script.read_text(encoding="utf-8")
    assert not re.search(r"\b(window|globalThis|self)\.[\w$]+\s*=[^=]", text)
    assert '"use strict"' not in text  # a module is strict already; the line marks a classic script left over


def test_scripts_are_served_as_javascript():
    # A module script is refused unless served with a JavaScript MIME type.
    client = TestClient(create_app())
    for script in SCRIPTS:
        res = client.get(f"/static/{script.name}")
        assert res.status_code == 200
        assert res.headers["content-type"].split(";")[0] in ("text/javascript", "application/javascript")
