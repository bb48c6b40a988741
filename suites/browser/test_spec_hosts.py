"""Specs 14–15: two hosts through one adapter. The viewer sends its full view,
the console names only (asserted on the request body the server accepted),
and a citation clicked in the viewer moves the viewer. Each host page is
screenshotted with an answer on screen into reports/screens/."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from spec_helpers import PANORAMAS, PHOTOS, ask, body, open_surface

from harness.stack import Stack

pytestmark = [pytest.mark.e2e, pytest.mark.browser]
VIEW_FIELDS = {
    "project_id",
    "project_name",
    "team_name",
    "level",
    "level_number",
    "panorama_id",
    "capture_label",
    "capture_time",
    "selected_annotation_id",
    "annotations",
}


def test_the_viewer_sends_its_full_view_and_the_console_sends_names_only(
    stack: Stack, token: str, page: Page, browser_page_two: Page, screens: Path
) -> None:
    open_surface(page, stack, token, "/hosts/viewer/")
    expect(page.get_by_test_id("viewer-annotations")).to_have_text("64")
    viewer = body(ask(page, PHOTOS))["view_context"]

    assert set(viewer) == VIEW_FIELDS
    assert viewer["project_name"] == "Harbor Tower" and viewer["level_number"] == 3
    assert viewer["panorama_id"] == "cap-000003"
    assert len(viewer["annotations"]) == 50  # 64 pins in view, trimmed to the wire's cap
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "complete-sample")
    page.screenshot(path=str(screens / "host-viewer.png"), full_page=True)

    console = browser_page_two
    open_surface(console, stack, token, "/hosts/console/")
    names = body(ask(console, PHOTOS))["view_context"]

    assert names == {
        "project_name": "Harbor Tower",
        "team_name": "Northline Builders — Safety office",
        "review_name": "Weekly safety review",
    }
    expect(console.get_by_test_id("status")).to_have_attribute("data-phase", "complete-sample")
    expect(console.get_by_test_id("tool-trail")).to_contain_text("search_photos: ok")
    console.screenshot(path=str(screens / "host-console.png"), full_page=True)


def test_clicking_a_citation_moves_the_viewer_and_the_next_question_carries_the_new_view(
    stack: Stack, token: str, page: Page, screens: Path
) -> None:
    open_surface(page, stack, token, "/hosts/viewer/")
    ask(page, PANORAMAS)
    expect(page.get_by_test_id("viewer-level")).to_have_text("Level 3")
    first = page.get_by_test_id("citation-card").first
    target = first.get_attribute("data-citation-id")
    level = first.locator(".card-level").inner_text()
    assert target and level != "Level 3"

    first.locator("a").click()

    expect(page.get_by_test_id("viewer-level")).to_have_text(level)
    expect(page.get_by_test_id("viewer-panorama")).to_have_attribute("data-id", target)
    expect(page.get_by_test_id("viewer-focus")).to_have_text(target)
    expect(page.get_by_test_id("view-context")).to_contain_text(level)
    assert page.url.split("?")[0].endswith("/hosts/viewer/")
    expect(page.get_by_test_id("citation-card")).to_have_count(10)  # the panel stayed
    page.screenshot(path=str(screens / "host-viewer-after-citation.png"), full_page=True)

    moved = body(ask(page, PHOTOS))["view_context"]
    assert moved["panorama_id"] == target
    assert moved["level"] == level
