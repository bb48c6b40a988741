"""The browser suite: sixteen specs against ``beacon up`` processes, gated by
the substrate contract (``browser_substrate.py``). One Chromium while a worker
runs its browser tests (suites/conftest.py), the session's stack per worker;
pages are fresh contexts."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from browser_substrate import SubstrateVerdict, check_substrate
from playwright.sync_api import Browser, Page

from harness.stack import Stack

REPO_ROOT = Path(__file__).resolve().parents[2]
SCREENS = REPO_ROOT / "reports" / "screens"
SETTLED = r"^(complete|complete-sample|empty-with-standing|unknown|denied|failed)$"


@pytest.fixture(scope="session")
def substrate(stack: Stack) -> SubstrateVerdict:
    """The substrate verdict, recorded once per worker before any spec runs."""
    return check_substrate(stack)


@pytest.fixture(autouse=True)
def _specs_need_a_green_substrate(request: pytest.FixtureRequest) -> None:
    if not request.module.__name__.startswith("test_spec_"):
        return
    verdict: SubstrateVerdict = request.getfixturevalue("substrate")
    if not verdict.ok:
        pytest.skip("the e2e substrate is red, so no spec verdict means anything: " + verdict.why)


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Pages in fresh contexts; ``scenario`` sets the stub scenario header on every request."""
    contexts = []

    def make(scenario: str | None = None) -> Page:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
        if scenario is not None:
            context.set_extra_http_headers({"X-Beacon-Scenario": scenario})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page: Callable[..., Page]) -> Page:
    return new_page()


@pytest.fixture
def browser_page_two(new_page: Callable[..., Page]) -> Page:
    return new_page()


@pytest.fixture(scope="session")
def screens() -> Path:
    SCREENS.mkdir(parents=True, exist_ok=True)
    return SCREENS
