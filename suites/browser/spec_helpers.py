"""What every spec does: open a surface with a bearer, ask, wait for a settled phase."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, Request, expect

from harness.stack import Stack

SETTLED = re.compile(r"^(complete|complete-sample|empty-with-standing|unknown|denied|failed)$")
TURN_TIMEOUT_MS = 20_000

HOW_MANY = "How many open safety findings are on level 3 of Harbor Tower?"
LIST_FINDINGS = "List open safety findings on level 3 of Harbor Tower"
PHOTOS = "Photos of missing hard hats in Harbor Tower"
PANORAMAS = "List all panoramas in Harbor Tower"


def open_surface(page: Page, stack: Stack, token: str, path: str = "/panel/") -> None:
    page.goto(f"{stack.chat_url}{path}?token={token}")
    expect(page.get_by_test_id("send")).to_be_enabled()


def ask(page: Page, question: str) -> Request:
    """Send a question and wait for the turn to settle; returns the turn request."""
    page.get_by_test_id("question").fill(question)
    with page.expect_request(lambda r: r.url.endswith("/v1/turns") and r.method == "POST") as sent:
        page.get_by_test_id("send").click()
    settle(page)
    return sent.value


def settle(page: Page) -> None:
    expect(page.get_by_test_id("status")).to_have_attribute(
        "data-phase", SETTLED, timeout=TURN_TIMEOUT_MS
    )


def body(request: Request) -> dict[str, Any]:
    data = request.post_data_json
    assert isinstance(data, dict), data
    return data


def open_safety_findings_on_level_3() -> int:
    """The gold count, from the corpus (the gold eval's own helper)."""
    from harness.gold_case import open_annotations
    from stub_server.corpus import build_corpus

    return len(open_annotations(build_corpus(), "prj-harbor-tower", 3, "safety", "open"))


def visible_text(page: Page) -> str:
    """What the answer area says: prose, count line and notices."""
    parts = [page.get_by_test_id("prose").inner_text()]
    line = page.get_by_test_id("count-line")
    if line.is_visible():
        parts.append(line.inner_text())
    parts += page.get_by_test_id("notice").all_inner_texts()
    return "\n".join(parts)
