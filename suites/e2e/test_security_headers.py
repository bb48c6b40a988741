"""Security headers (issue 27): the panel and the demo hosts are served with a
Content-Security-Policy that lets them work and nothing else, and every answer
(the API's, the guard's refusals) with nosniff, no referrer and no framing by
another origin. The panel and both hosts answer a question in Chromium under
that policy without one violation, thumbnails from the upstream included."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from harness.stack import Stack

pytestmark = pytest.mark.e2e
PAGES = ("/panel/", "/panel/app.js", "/panel/style.css", "/hosts/", "/hosts/viewer/")
SURFACES = ("/panel/", "/hosts/viewer/", "/hosts/console/")
SETTLED = re.compile(r"^(complete|complete-sample|empty-with-standing|unknown|denied|failed)$")
PHOTOS = "Photos of missing hard hats in Harbor Tower"


def directives(policy: str) -> dict[str, str]:
    pairs = (part.strip().partition(" ") for part in policy.split(";") if part.strip())
    return {name: value for name, _, value in pairs}


@pytest.mark.parametrize("path", PAGES)
def test_the_panel_and_the_hosts_are_served_with_a_policy_of_their_own_origin(
    stack: Stack, path: str
) -> None:
    response = httpx.get(f"{stack.chat_url}{path}", timeout=10)
    assert response.status_code == 200
    policy = directives(response.headers["content-security-policy"])
    assert policy["default-src"] == "'none'"
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["connect-src"] == "'self'"
    assert policy["frame-ancestors"] == "'self'"
    assert response.headers["x-frame-options"] == "SAMEORIGIN"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        pytest.param("GET", "/healthz", id="health"),
        pytest.param("GET", "/openapi.json", id="schema"),
        pytest.param("POST", "/v1/turns", id="guard-refusal-401"),
        pytest.param("GET", "/v1/sessions/s_missing", id="guard-refusal-401-get"),
    ],
)
def test_every_api_answer_may_run_nothing_and_be_framed_by_nobody(
    stack: Stack, method: str, path: str
) -> None:
    response = httpx.request(method, f"{stack.chat_url}{path}", timeout=10)
    assert response.headers["content-security-policy"].startswith("default-src 'none'")
    assert directives(response.headers["content-security-policy"])["frame-ancestors"] == "'none'"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"


def test_a_turns_stream_keeps_its_own_headers_beside_the_added_ones(
    stack: Stack, token: str
) -> None:
    response = httpx.post(
        f"{stack.chat_url}/v1/turns",
        json={"message": "How many panoramas are in Harbor Tower?"},
        headers={"Authorization": f"Bearer {token}"},
        timeout=60,
    )
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["x-content-type-options"] == "nosniff"


def _watch_violations(page: Page) -> list[str]:
    """The console's policy messages; the page's own violation events go to a list."""
    console: list[str] = []
    page.on(
        "console",
        lambda message: (
            console.append(message.text)
            if "Content Security Policy" in message.text
            or "Content-Security-Policy" in message.text
            else None
        ),
    )
    page.add_init_script(
        "window.__cspViolations = [];"
        "document.addEventListener('securitypolicyviolation', (e) =>"
        " window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));"
    )
    return console


@pytest.mark.browser
@pytest.mark.parametrize("path", SURFACES)
def test_the_panel_and_both_hosts_answer_in_chromium_without_one_policy_violation(
    stack: Stack, token: str, page: Page, path: str
) -> None:
    console = _watch_violations(page)
    page.goto(f"{stack.chat_url}{path}?token={token}")
    expect(page.get_by_test_id("send")).to_be_enabled()
    page.get_by_test_id("question").fill(PHOTOS)
    page.get_by_test_id("send").click()
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", SETTLED, timeout=20_000)
    expect(page.get_by_test_id("citation-card").first).to_be_visible()
    page.wait_for_load_state("networkidle")  # the cards' thumbnails have been fetched

    assert page.evaluate("window.__cspViolations") == []
    assert console == []
    # The upstream's thumbnails (another origin on this stack) are shown, not blocked.
    thumb = page.locator("img.thumb").first
    expect(thumb).to_be_visible()
    assert thumb.evaluate("img => img.naturalWidth") > 0
