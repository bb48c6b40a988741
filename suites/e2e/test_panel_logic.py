"""Panel logic in real Chromium against routed ``/v1/turns`` answers.

The reducer, the SSE parser and the count line are pinned without a chat
server: each test fulfils the turn with a canned SSE body.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Request, Route, expect

from harness.browser import PageLog

SETTLED = re.compile("^(complete|complete-sample|empty-with-standing|unknown|denied|failed)$")
QUESTION = "How many open safety findings are on level 3 of Harbor Tower?"
ROUTED_TOKEN = "routed-test-bearer-7f3a"

pytestmark = pytest.mark.browser

# A 1×1 grey PNG: thumbnails must not need the network.
PIXEL = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR4"
    "nGNgYAAAAAMAASsJTYQAAAAASUVORK5CYII="
)


def _citation(i: int) -> dict[str, Any]:
    return {
        "id": f"ann-{i:04d}",
        "source": "query_data",
        "kind": "annotation",
        "title": f"Open safety finding #{i}: missing guardrail at stair core",
        "deep_link": f"beacon:annotation/ann-{i:04d}?project=prj-harbor-tower",
        "target": {
            "kind": "annotation",
            "id": f"ann-{i:04d}",
            "project_id": "prj-harbor-tower",
            "level_number": 3,
            "panorama_id": "cap-000003",
        },
        "thumbnail": PIXEL if i % 2 == 0 else None,
        "level": "Level 3",
        "date": f"2026-11-{i + 1:02d}",
    }


def _count(grade: str, total: int | None, displayed: int = 0) -> dict[str, Any]:
    return {
        "source": "query_data",
        "slot": "c1",
        "displayed": displayed,
        "total": total,
        "total_is_lower_bound": grade == "LOWER_BOUND",
        "has_more": grade == "LOWER_BOUND",
        "grade": grade,
    }


def _plan_and_gather() -> list[tuple[str, dict[str, Any]]]:
    arguments = {"project_id": "prj-harbor-tower", "sql": "SELECT count(*) …"}
    return [
        (
            "plan",
            {
                "round": 1,
                "purpose": "gather",
                "calls": [
                    {"call_id": "call-1", "tool": "query_data", "arguments": arguments},
                ],
            },
        ),
        ("tool_call", {"call_id": "call-1", "tool": "query_data", "arguments": arguments}),
        (
            "tool_result",
            {
                "call_id": "call-1",
                "tool": "query_data",
                "status": "ok",
                "grade": "EXACT",
                "emptiness": "non_empty",
                "returned": 1,
                "bytes": 120,
            },
        ),
    ]


def _references(counts: list[dict[str, Any]], cited: int) -> tuple[str, dict[str, Any]]:
    return (
        "references",
        {
            "citations": [_citation(i) for i in range(cited)],
            "counts": counts,
            "complete": True,
        },
    )


def _done(answer: str = "") -> tuple[str, dict[str, Any]]:
    return ("done", {"finish_reason": "stop", "answer": answer})


def sse_body(frames: list[tuple[str, dict[str, Any]]], turn_id: str = "turn-routed-1") -> str:
    """Frames as the server writes them; `start` is not implied."""
    lines = []
    for seq, (event, data) in enumerate(frames, start=1):
        payload = {"turn_id": turn_id, "seq": seq, **data}
        lines.append(f"event: {event}\r\nid: {seq}\r\ndata: {json.dumps(payload)}\r\n\r\n")
    return ": stream opened\r\n\r\n" + "".join(lines)


START: tuple[str, dict[str, Any]] = ("start", {"session_id": None, "mode": "single"})


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


def _body(request: Request) -> dict[str, Any]:
    body = request.post_data_json
    assert isinstance(body, dict), body
    return body


def ask(page: Page, question: str = QUESTION) -> None:
    page.get_by_test_id("question").fill(question)
    with page.expect_response("**/v1/turns"):
        page.get_by_test_id("send").click()
    _wait_for_the_turn_to_end(page)


def _wait_for_the_turn_to_end(page: Page) -> None:
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", SETTLED)


def test_count_line_is_drawn_only_from_the_references_frame(
    page: Page, page_log: PageLog, routed_turn: Callable[..., list[Request]], screenshots: Path
) -> None:
    narration = "Of the findings on level 3, 7 are shown here; there are 42 in all."
    routed_turn(
        sse_body(
            [
                START,
                *_plan_and_gather(),
                _references([_count("EXACT", 42, displayed=10)], cited=10),
                ("delta", {"text": narration[:30]}),
                ("delta", {"text": narration[30:]}),
                _done(narration),
            ]
        )
    )
    ask(page)

    expect(page.get_by_test_id("count-line")).to_have_text("exactly 42 — showing 10")
    expect(page.get_by_test_id("count-line")).to_have_attribute("data-grade", "EXACT")
    expect(page.get_by_test_id("citation-card")).to_have_count(10)
    expect(page.get_by_test_id("prose")).to_have_text(narration)
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "complete-sample")
    expect(page.get_by_test_id("notice")).to_have_count(0)
    assert page_log.errors == []
    page.screenshot(path=str(screenshots / "panel-routed-exact.png"), full_page=True)


def test_prose_alone_never_draws_a_count_line(
    page: Page, routed_turn: Callable[..., list[Request]]
) -> None:
    routed_turn(sse_body([START, ("delta", {"text": "There are exactly 42 findings."}), _done()]))
    ask(page)

    expect(page.get_by_test_id("prose")).to_have_text("There are exactly 42 findings.")
    expect(page.get_by_test_id("count-line")).to_be_hidden()
    expect(page.get_by_test_id("count-line")).to_have_text("")


@pytest.mark.parametrize(
    ("counts", "cited", "line"),
    [
        pytest.param([_count("EXACT", 3000)], 0, "exactly 3,000", id="exact-without-cards"),
        pytest.param([_count("EXACT", 4)], 4, "exactly 4", id="exact-all-shown"),
        pytest.param(
            [_count("LOWER_BOUND", 3000, 10)],
            10,
            "at least 3,000 — showing 10",
            id="lower-bound-with-cards",
        ),
        pytest.param([_count("LOWER_BOUND", 189)], 0, "at least 189", id="lower-bound-no-cards"),
        pytest.param([_count("SHOWN", None, 4)], 4, "these 4", id="shown-is-the-cards"),
        pytest.param(
            [_count("EXACT", 5, 2), _count("LOWER_BOUND", 900)],
            2,
            "exactly 5 — showing 2",
            id="first-count-is-primary",
        ),
    ],
)
def test_count_line_says_what_the_grade_permits(
    page: Page,
    routed_turn: Callable[..., list[Request]],
    counts: list[dict[str, Any]],
    cited: int,
    line: str,
) -> None:
    routed_turn(sse_body([START, _references(counts, cited), _done()]))
    ask(page)

    expect(page.get_by_test_id("count-line")).to_be_visible()
    expect(page.get_by_test_id("count-line")).to_have_text(line)
    expect(page.get_by_test_id("citation-card")).to_have_count(cited)


@pytest.mark.parametrize(
    "counts",
    [
        pytest.param([_count("UNKNOWN", None)], id="unknown"),
        pytest.param([_count("UNKNOWN", 42)], id="unknown-even-with-a-total"),
        pytest.param([], id="no-counts"),
    ],
)
def test_an_unknown_count_hides_the_count_line(
    page: Page, routed_turn: Callable[..., list[Request]], counts: list[dict[str, Any]]
) -> None:
    routed_turn(sse_body([START, _references(counts, 3), _done()]))
    ask(page)

    expect(page.get_by_test_id("citation-card")).to_have_count(3)
    expect(page.get_by_test_id("count-line")).to_be_hidden()
    expect(page.get_by_test_id("count-line")).to_have_text("")


def test_frames_after_done_are_not_drawn(
    page: Page, page_log: PageLog, routed_turn: Callable[..., list[Request]]
) -> None:
    routed_turn(
        sse_body(
            [
                START,
                _references([_count("EXACT", 42, displayed=2)], cited=2),
                ("delta", {"text": "There are exactly 42."}),
                _done(),
                ("delta", {"text": " LEAKED"}),
                _references([_count("LOWER_BOUND", 3000)], cited=9),
                ("notice", {"kind": "disclosure", "text": "LEAKED notice", "options": []}),
                ("error", {"code": "late_error", "message": "LEAKED error"}),
            ]
        )
    )
    ask(page)

    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "complete-sample")
    expect(page.get_by_test_id("prose")).to_have_text("There are exactly 42.")
    expect(page.get_by_test_id("count-line")).to_have_text("exactly 42 — showing 2")
    expect(page.get_by_test_id("citation-card")).to_have_count(2)
    expect(page.get_by_test_id("notice")).to_have_count(0)
    warnings = page_log.warnings()
    assert sum("after-terminal" in w for w in warnings) == 3, warnings
    assert sum("duplicate-terminal" in w for w in warnings) == 1, warnings


def test_frames_before_start_are_refused(
    page: Page, page_log: PageLog, routed_turn: Callable[..., list[Request]]
) -> None:
    routed_turn(
        sse_body(
            [
                ("delta", {"text": "EARLY "}),
                _references([_count("EXACT", 99)], cited=1),
                START,
                ("delta", {"text": "On time."}),
                _done(),
            ]
        )
    )
    ask(page)

    expect(page.get_by_test_id("prose")).to_have_text("On time.")
    expect(page.get_by_test_id("count-line")).to_be_hidden()
    expect(page.get_by_test_id("citation-card")).to_have_count(0)
    assert any("delta-before-start" in w for w in page_log.warnings())
    assert any("references-before-start" in w for w in page_log.warnings())


def test_a_stream_that_ends_without_a_terminal_is_a_failure(
    page: Page, routed_turn: Callable[..., list[Request]]
) -> None:
    routed_turn(sse_body([START, ("delta", {"text": "Half an ans"})]))
    ask(page)

    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "failed")
    expect(page.locator('[data-testid="notice"][data-kind="error"]')).to_have_attribute(
        "data-code", "unterminated"
    )


def test_an_error_frame_shows_its_code_and_message(
    page: Page, routed_turn: Callable[..., list[Request]]
) -> None:
    routed_turn(
        sse_body(
            [
                START,
                ("error", {"code": "upstream_unavailable", "message": "The tool server is down."}),
            ]
        )
    )
    ask(page)

    notice = page.locator('[data-testid="notice"][data-kind="error"]')
    expect(notice).to_have_attribute("data-code", "upstream_unavailable")
    expect(notice).to_contain_text("upstream_unavailable")
    expect(notice).to_contain_text("The tool server is down.")
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "failed")


def test_notice_frames_show_their_text_and_options_send_their_reply(
    page: Page, routed_turn: Callable[..., list[Request]]
) -> None:
    sent = routed_turn(
        sse_body(
            [
                START,
                (
                    "notice",
                    {
                        "kind": "counter_question",
                        "text": "Which project do you mean?",
                        "options": [
                            {"label": "Harbor Tower", "reply": "Harbor Tower", "recommended": True},
                            {
                                "label": "All my projects",
                                "reply": "all projects",
                                "recommended": False,
                            },
                        ],
                    },
                ),
                _done(),
            ]
        )
    )
    ask(page)

    notice = page.get_by_test_id("notice")
    expect(notice).to_have_attribute("data-kind", "counter_question")
    expect(notice).to_contain_text("Which project do you mean?")
    expect(page.get_by_test_id("option")).to_have_count(2)
    with page.expect_response("**/v1/turns"):
        page.get_by_test_id("option").first.click()
    _wait_for_the_turn_to_end(page)
    assert len(sent) == 2
    assert _body(sent[1])["message"] == "Harbor Tower"


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        pytest.param(
            401,
            {"error": {"code": "unauthorized", "message": "The bearer is not valid."}},
            ["HTTP 401", "unauthorized", "The bearer is not valid."],
            id="401-error-envelope",
        ),
        pytest.param(
            422,
            {"detail": [{"loc": ["body", "message"], "msg": "Field required", "type": "missing"}]},
            ["HTTP 422", "body.message: Field required"],
            id="422-fastapi-detail",
        ),
        pytest.param(500, {"unexpected": True}, ["HTTP 500"], id="500-unknown-body"),
    ],
)
def test_a_refused_request_shows_the_status_and_the_servers_message(
    page: Page,
    routed_turn: Callable[..., list[Request]],
    status: int,
    body: dict[str, Any],
    expected: list[str],
) -> None:
    routed_turn(json.dumps(body), status=status, content_type="application/json")
    ask(page)

    notice = page.locator('[data-testid="notice"][data-kind="error"]')
    for text in expected:
        expect(notice).to_contain_text(text)
    expect(page.get_by_test_id("status")).to_have_attribute("data-phase", "failed")
    expect(page.get_by_test_id("count-line")).to_be_hidden()


def test_send_carries_the_bearer_from_the_url_and_never_shows_it(
    page: Page, routed_turn: Callable[..., list[Request]]
) -> None:
    sent = routed_turn(sse_body([START, _done("ok")]))
    page.get_by_test_id("locale").select_option("de")
    page.get_by_test_id("question").fill(QUESTION)
    with page.expect_response("**/v1/turns"):
        page.get_by_test_id("question").press("Enter")
    _wait_for_the_turn_to_end(page)

    assert len(sent) == 1
    request = sent[0]
    assert request.method == "POST"
    assert request.headers["authorization"] == f"Bearer {ROUTED_TOKEN}"
    assert request.headers["accept"] == "text/event-stream"
    assert _body(request) == {"mode": "single", "message": QUESTION, "locale": "de"}
    assert ROUTED_TOKEN not in page.url
    assert ROUTED_TOKEN not in page.content()


def test_chat_mode_continues_the_session_the_server_started(
    page: Page, routed_turn: Callable[..., list[Request]]
) -> None:
    sent = routed_turn(sse_body([("start", {"session_id": "ses-1", "mode": "chat"}), _done("a")]))
    page.get_by_test_id("mode").select_option("chat")
    ask(page, "first")
    ask(page, "second")

    assert [_body(r).get("session_id") for r in sent] == [None, "ses-1"]
    assert all(_body(r)["mode"] == "chat" for r in sent)


def test_untrusted_text_is_drawn_as_text_and_unsafe_links_are_dropped(
    page: Page, page_log: PageLog, routed_turn: Callable[..., list[Request]]
) -> None:
    markup = '<img src=x onerror="window.__pwned=1"><b>bold</b>'
    hostile = {
        **_citation(0),
        "title": markup,
        "deep_link": "javascript:window.__pwned=2",
        "target": {"kind": "photo", "id": "javascript:window.__pwned=3"},
    }
    routed_turn(
        sse_body(
            [
                START,
                ("references", {"citations": [hostile], "counts": [], "complete": True}),
                ("delta", {"text": markup}),
                _done(),
            ]
        )
    )
    ask(page)

    expect(page.get_by_test_id("prose")).to_have_text(markup)
    card = page.get_by_test_id("citation-card")
    expect(card).to_contain_text(markup)
    assert page.locator('[data-testid="prose"] img, [data-testid="citation-card"] b').count() == 0
    # The server's link is never followed, and the host's URL for the target is a path.
    hrefs = card.locator("a").evaluate_all("links => links.map((a) => a.getAttribute('href'))")
    origin = page.evaluate("location.origin")
    assert hrefs == [f"{origin}/hosts/viewer/?photo=javascript%3Awindow.__pwned%3D3"]
    assert page.evaluate("window.__pwned") is None
    assert page_log.errors == []


def test_citation_cards_carry_thumbnail_title_level_date_and_a_link_the_host_built(
    page: Page, routed_turn: Callable[..., list[Request]]
) -> None:
    cited = {**_citation(3), "thumbnail": PIXEL}
    routed_turn(
        sse_body(
            [
                START,
                ("references", {"citations": [cited], "counts": [], "complete": True}),
                _done(),
            ]
        )
    )
    ask(page)

    card = page.get_by_test_id("citation-card")
    expect(card.locator("img")).to_have_attribute("alt", cited["title"])
    expect(card.locator("a")).to_have_text(cited["title"])
    # Standalone, the panel's own host builds the URL from the target: the demo viewer.
    expect(card.locator("a")).to_have_attribute(
        "href",
        re.compile(
            r"^http://[^/]+/hosts/viewer/\?project=prj-harbor-tower&annotation=ann-0003&level=3$"
        ),
    )
    expect(card).to_contain_text("Level 3")
    expect(card).to_contain_text(cited["date"])


# Every split of a CRLF stream into two chunks, including between \r and \n.
SPLIT_PROBE = """async (text) => {
  const { SseParser } = await import(new URL("sse.js", document.baseURI).href);
  const seen = [];
  for (let cut = 0; cut <= text.length; cut += 1) {
    const parser = new SseParser();
    const events = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut)),
                    ...parser.end()];
    seen.push(JSON.stringify(events));
  }
  return [...new Set(seen)];
}"""


def test_sse_parser_reassembles_frames_split_across_chunks(page: Page, panel_origin: str) -> None:
    page.goto(f"{panel_origin}/panel/")
    text = (
        ': comment\r\n\r\nevent: start\r\nid: 1\r\ndata: {"seq":1}\r\n\r\n'
        "event: delta\nid: 2\ndata: line one\ndata: line two\n\n"
        "event: done\rid: 3\rdata: {}\r\r"
        "event: delta\ndata: never terminated\n"
    )
    distinct = page.evaluate(SPLIT_PROBE, text)

    assert len(distinct) == 1, distinct
    assert json.loads(distinct[0]) == [
        {"event": "start", "id": "1", "data": '{"seq":1}'},
        {"event": "delta", "id": "2", "data": "line one\nline two"},
        {"event": "done", "id": "3", "data": "{}"},
    ]
