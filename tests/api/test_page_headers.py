"""The page's headers (issue 79): a Content-Security-Policy that allows no inline script and no framing,
nosniff and no referrer; the page itself holds nothing inline that the policy would block."""

import re

import pytest

from api.main import STATIC_DIR


def policy(client) -> dict[str, str]:
    csp = client.get("/").headers["content-security-policy"]
    return dict(part.strip().split(" ", 1) for part in csp.split(";"))


def test_the_page_runs_scripts_from_its_own_origin_only(client):
    assert policy(client)["script-src"] == "'self'"
    assert "unsafe-inline" not in client.get("/").headers["content-security-policy"]


def test_no_other_site_may_frame_the_page(client):
    assert policy(client)["frame-ancestors"] == "'none'"
    assert client.get("/").headers["x-frame-options"] == "DENY"


def test_the_page_is_not_sniffed_and_sends_no_referrer(client):
    page = client.get("/")
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize("path", ["/api/health", "/static/app.js", "/no-such-page"])
def test_every_answer_is_not_sniffed(client, path):
    assert client.get(path).headers["x-content-type-options"] == "nosniff"


def test_a_refused_body_gets_the_headers_too(client):
    r = client.post("/api/score", content=b"x" * 100_000, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.headers["x-content-type-options"] == "nosniff"


def test_the_docs_keep_their_own_start_up_script(client):
    assert "content-security-policy" not in client.get("/docs").headers


def test_the_page_holds_no_inline_script_style_or_handler():
    html = (STATIC_DIR / "index.html").read_text()
    assert all("src=" in tag for tag in re.findall(r"<script[^>]*>", html))
    assert "<style" not in html
    assert not re.search(r"\sstyle=|\son[a-z]+=", html)


def test_the_scripts_set_no_inline_style_or_handler_as_text():
    for script in STATIC_DIR.glob("*.js"):
        text = script.read_text()
        assert not re.search(r"setAttribute\(\s*['\"](style|on[a-z]+)['\"]|\.cssText\s*=", text), \
            script.name
