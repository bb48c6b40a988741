"""The view in the link (issue 33, seed §4.11): a citation click moves the viewer's
camera to the target's view without a reload, the viewer's address carries the
view so a fresh open lands there, and the console routes to the viewer with it.

The expected view is read from the turn's own SSE body as the browser received it
(the references frame), never from the viewer's code; the camera is read from the
page (``data-camera-*`` on the viewer and ``window.viewerCamera``). The turn passes
through a route that hands the server's whole answer on unchanged and keeps a
copy (Chromium does not keep a streamed fetch's body for ``response.body()``).
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_substrate import parse_sse
from playwright.sync_api import Page, Route, expect
from spec_helpers import PHOTOS, ask, open_surface

from harness.stack import Stack

pytestmark = [pytest.mark.e2e, pytest.mark.browser]
VIEWER = '[data-testid="viewer"]'


def _ask_for_citations(page: Page, question: str) -> list[dict[str, Any]]:
    """Ask, and return the references frame's citations from the turn's SSE body."""
    bodies: list[bytes] = []

    def keep(route: Route) -> None:
        if route.request.method != "POST":
            route.fallback()
            return
        answer = route.fetch()
        bodies.append(answer.body())
        route.fulfill(response=answer)

    page.route("**/v1/turns", keep)
    try:
        ask(page, question)
    finally:
        page.unroute("**/v1/turns", keep)
    (body,) = bodies
    frames = parse_sse(body)
    (refs,) = [data for event, data in frames if event == "references"]
    citations = refs["citations"]
    assert isinstance(citations, list) and len(citations) >= 2
    return citations


def _camera(page: Page) -> dict[str, Any]:
    """The camera state, once it has stopped moving: the DOM's and the window's."""
    viewer = page.locator(VIEWER)
    expect(viewer).to_have_attribute("data-camera-state", "still")
    dom = {
        axis: [float(n) for n in str(viewer.get_attribute(f"data-camera-{attr}")).split(",")]
        for axis, attr in (
            ("position", "position"),
            ("look_at", "look-at"),
            ("direction", "direction"),
        )
    }
    window = page.evaluate("({...window.viewerCamera})")
    assert {axis: window[axis] for axis in dom} == dom
    return dom


def _count_loads(page: Page) -> list[int]:
    loads: list[int] = []
    page.on("load", lambda _: loads.append(1))
    return loads


def test_a_citation_click_moves_the_viewers_camera_to_the_targets_view_without_a_reload(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token, "/hosts/viewer/")
    expect(page.locator(VIEWER)).to_have_attribute("data-camera-state", "none")
    citations = _ask_for_citations(page, PHOTOS)
    first, second = citations[0]["target"], citations[1]["target"]
    assert first["view"] is not None and second["view"] is not None
    page.evaluate("window.__marker = 1")
    loads = _count_loads(page)

    page.get_by_test_id("citation-card").nth(0).locator("a").click()
    assert _camera(page) == first["view"]
    expect(page.get_by_test_id("viewer-focus")).to_have_text(first["id"])

    # The second move is animated from the first view; it ends exactly on the second. It
    # is "moving" from the click on (read in the click's own task), never still on the
    # old view until an animation frame comes.
    state = page.evaluate(
        """() => {
            document.querySelectorAll('[data-testid="citation-card"] a')[1].click();
            return document.querySelector('[data-testid="viewer"]').dataset.cameraState;
        }"""
    )
    assert state == "moving"
    assert _camera(page) == second["view"]

    assert page.evaluate("window.__marker") == 1  # the same document: no reload
    assert loads == []
    assert page.url.split("?")[0].endswith("/hosts/viewer/")
    expect(page.get_by_test_id("citation-card")).to_have_count(len(citations))  # the panel stayed

    # Back is the previous view, in place too (each citation move is a history entry).
    page.go_back()
    # popstate may fire after go_back returns: wait for the move it starts (the focus is
    # drawn just after the camera is set moving) before reading a still camera.
    expect(page.get_by_test_id("viewer-focus")).to_have_text(first["id"])
    assert _camera(page) == first["view"]
    assert page.evaluate("window.__marker") == 1 and loads == []


def test_the_viewers_address_carries_the_view_so_a_fresh_open_lands_there(
    stack: Stack, token: str, page: Page, browser_page_two: Page
) -> None:
    open_surface(page, stack, token, "/hosts/viewer/")
    (target, *_) = [c["target"] for c in _ask_for_citations(page, PHOTOS)]
    page.get_by_test_id("citation-card").first.locator("a").click()
    _camera(page)
    assert "view=" in page.url

    browser_page_two.goto(page.url)
    assert _camera(browser_page_two) == target["view"]
    expect(browser_page_two.get_by_test_id("viewer-focus")).to_have_text(target["id"])


def test_the_console_routes_a_citation_to_the_viewer_with_its_view(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token, "/hosts/console/")
    (target, *_) = [c["target"] for c in _ask_for_citations(page, PHOTOS)]

    page.get_by_test_id("citation-card").first.locator("a").click()

    page.wait_for_url("**/hosts/viewer/?*")
    assert _camera(page) == target["view"]
    expect(page.get_by_test_id("viewer-focus")).to_have_text(target["id"])
