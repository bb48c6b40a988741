"""Host-blind links: the server names where a cited record lives; each host builds
its own URL for it. A photo card opens the viewer at that photo's own capture,
from the viewer itself, from the console (which routes to the viewer) and from
the standalone panel. Where a photo was taken is read from the stub's corpus,
not from the frames under test."""

from __future__ import annotations

from functools import cache

import pytest
from playwright.sync_api import Page, expect
from spec_helpers import PHOTOS, ask, open_surface

from harness.stack import Stack
from stub_server.corpus import Photo, build_corpus

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


@cache
def _photos() -> dict[str, Photo]:
    return {photo.id: photo for photo in build_corpus().photos}


def _first_photo_card(page: Page) -> Photo:
    card = page.get_by_test_id("citation-card").first
    cited = card.get_attribute("data-citation-id")
    assert cited is not None and cited in _photos(), cited
    return _photos()[cited]


def _viewer_shows(page: Page, photo: Photo) -> None:
    expect(page.get_by_test_id("viewer-level")).to_have_text(f"Level {photo.level_number}")
    expect(page.get_by_test_id("viewer-focus")).to_have_text(photo.id)


def test_a_photo_card_moves_the_viewer_to_the_capture_the_photo_was_taken_in(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token, "/hosts/viewer/")
    ask(page, PHOTOS)
    photo = _first_photo_card(page)

    page.get_by_test_id("citation-card").first.locator("a").click()

    _viewer_shows(page, photo)
    expect(page.get_by_test_id("viewer-panorama")).to_have_attribute("data-id", photo.capture_id)
    expect(page.get_by_test_id("citation-card").first).to_be_visible()  # the panel stayed


def test_the_consoles_photo_link_opens_the_viewer_at_the_photos_capture(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token, "/hosts/console/")
    ask(page, PHOTOS)
    photo = _first_photo_card(page)

    page.get_by_test_id("citation-card").first.locator("a").click()

    page.wait_for_url("**/hosts/viewer/?*")
    _viewer_shows(page, photo)
    expect(page.get_by_test_id("viewer-panorama")).to_have_attribute("data-id", photo.capture_id)


def test_the_standalone_panels_photo_link_opens_the_viewer_on_the_photos_level(
    stack: Stack, token: str, page: Page
) -> None:
    open_surface(page, stack, token, "/panel/")
    ask(page, PHOTOS)
    photo = _first_photo_card(page)

    page.get_by_test_id("citation-card").first.locator("a").click()

    page.wait_for_url("**/hosts/viewer/?*")
    _viewer_shows(page, photo)
