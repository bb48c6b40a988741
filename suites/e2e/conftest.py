"""Browser fixtures: Debian's Chromium through Playwright's sync API, and a
loopback static server for the panel files so panel logic can be tested with
routed turns, without the chat server."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from panel_routing import ROUTED_TOKEN
from playwright.sync_api import Browser, ConsoleMessage, Error, Page, Request, Route

from harness.browser import PageLog

REPO_ROOT = Path(__file__).resolve().parents[2]
PANEL_DIR = REPO_ROOT / "beacon" / "panel"
SCREENSHOTS = REPO_ROOT / "reports" / "screenshots"


class _PanelFiles(SimpleHTTPRequestHandler):
    """Serves ``beacon/panel/`` at ``/panel/`` as the chat server does; 404 elsewhere."""

    extensions_map = {  # noqa: RUF012 - the stdlib declares it as a class dict
        **SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".css": "text/css",
        ".html": "text/html",
    }

    def translate_path(self, path: str) -> str:
        route = urlsplit(path).path
        if route == "/panel" or route.startswith("/panel/"):
            return super().translate_path(path[len("/panel") :] or "/")
        return str(PANEL_DIR / "__not_served__")

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def panel_origin() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_PanelFiles, directory=str(PANEL_DIR)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield f"http://{host!s}:{port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    try:
        opened = context.new_page()
        opened.set_default_timeout(15_000)
        yield opened
    finally:
        context.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def page_log(page: Page) -> PageLog:
    log = PageLog()

    def on_console(message: ConsoleMessage) -> None:
        log.console.append((message.type, message.text))

    def on_error(error: Error) -> None:
        log.errors.append(str(error))

    page.on("console", on_console)
    page.on("pageerror", on_error)
    return log


@pytest.fixture
def routed_turn(page: Page, panel_origin: str) -> Iterator[Callable[..., list[Request]]]:
    """Open the panel with ``/v1/turns`` answered by a canned response; returns the
    requests the panel sent."""
    sent: list[Request] = []

    def open_with(
        body: str, *, status: int = 200, content_type: str = "text/event-stream"
    ) -> list[Request]:
        def fulfil(route: Route) -> None:
            sent.append(route.request)
            route.fulfill(status=status, headers={"Content-Type": content_type}, body=body)

        page.route("**/v1/turns", fulfil)
        page.goto(f"{panel_origin}/panel/?token={ROUTED_TOKEN}")
        return sent

    yield open_with
    page.unroute_all(behavior="ignoreErrors")
