"""Hostile input over real HTTP (issue 15): every case is a 4xx with a reason code,
a small answer with no echo of the input, and never the catch-all's coded 500.

Limits come before work: a body over the cap is a 413 without being read, a
caller without a valid bearer is answered before its body is read, a request
head over the cap is refused by h11, a token living over the maximum is a 401,
a session id the server never issued is a 404, and scenarios are a 400 on a
server that does not allow them.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from beacon.cli.ask import run_turn
from harness.chat_process import chat_env, running_chat
from harness.stack import Stack

pytestmark = pytest.mark.e2e
SMALL = 1024  # bytes: no refusal is longer than this
MB = 1 << 20


def assert_refused(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text[:300]
    assert len(response.content) < SMALL
    assert response.json()["error"]["code"] == code  # never "internal": no 5xx


BODIES = [
    pytest.param(b'{"message": NaN}', 422, "json_not_strict", id="nan"),
    pytest.param(b'{"message": "x", "view_context": {"level_number": Infinity}}', 422,
                 "json_not_strict", id="infinity"),
    pytest.param(b'{"message": -Infinity}', 422, "json_not_strict", id="minus-infinity"),
    pytest.param(b'{"message": "x", "view_context": {"level_number": 1e400}}', 422,
                 "number_out_of_range", id="float-overflow"),
    pytest.param(b'{"message": "x", "view_context": {"level_number": 9223372036854775808}}',
                 422, "invalid_request", id="int-past-int64"),
    pytest.param(b'{"message": "x", "view_context": {"level_number": ' + b"9" * 5000 + b"}}",
                 422, "number_out_of_range", id="int-of-5000-digits"),
    pytest.param(b'{"message": "\\ud800"}', 422, "lone_surrogate", id="lone-surrogate"),
    pytest.param(b'{"\\udc00": 1, "message": "x"}', 422, "lone_surrogate",
                 id="lone-surrogate-key"),
    pytest.param(b'{"message": "\xff\xfe"}', 400, "body_not_utf8", id="invalid-utf8"),
    pytest.param('{"message": "hi"}'.encode("utf-16"), 400, "body_not_utf8", id="utf16"),
    pytest.param(b"{not json", 422, "json_invalid", id="not-json"),
    pytest.param(b"[" * 100_000, 422, "json_too_deep", id="nested-100k-deep"),
    pytest.param(b'{"' + b"k" * 200_000 + b'": 1, "message": "x"}', 422, "invalid_request",
                 id="200k-unknown-key"),
    pytest.param(b'{"message": "' + b"m" * 200_000 + b'"}', 422, "invalid_request",
                 id="200k-message"),
]  # fmt: skip


@pytest.mark.parametrize(("body", "status", "code"), BODIES)
def test_a_body_the_api_cannot_take_is_a_coded_4xx_without_its_input(
    stack: Stack, token: str, body: bytes, status: int, code: str
) -> None:
    response = httpx.post(
        f"{stack.chat_url}/v1/turns",
        content=body,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        timeout=30,
    )
    assert_refused(response, status, code)


@pytest.mark.parametrize(
    ("query", "headers"),
    [
        pytest.param("?after=9223372036854775808", {}, id="after-past-int64"),
        pytest.param("?after=-1", {}, id="after-negative"),
        pytest.param("?after=%C2%B3", {}, id="after-superscript-three"),
        pytest.param("", {b"Last-Event-ID": b"\xb3"}, id="last-event-id-superscript"),
        pytest.param("", {b"Last-Event-ID": "٣".encode()}, id="last-event-id-arabic-digit"),
        pytest.param("", {b"Last-Event-ID": b"9" * 20}, id="last-event-id-past-int64"),
    ],
)
def test_a_seq_that_is_not_a_small_ascii_number_is_a_422(
    stack: Stack, token: str, query: str, headers: dict[bytes, bytes]
) -> None:
    events = run_turn(stack.chat_url, {"message": "hi"}, token=token)
    turn_id = events[0].json()["turn_id"]
    response = httpx.get(
        f"{stack.chat_url}/v1/turns/{turn_id}/events{query}",
        headers={b"Authorization": f"Bearer {token}".encode(), **headers},
        timeout=30,
    )
    assert_refused(response, 422, "invalid_request")


# --- limits before work ----------------------------------------------------------


def chat_address(stack: Stack) -> tuple[str, int]:
    parts = urlsplit(stack.chat_url)
    assert parts.hostname is not None and parts.port is not None
    return parts.hostname, parts.port


def server_rss_kb(port: int) -> int:
    """The chat server's resident set, found by its ``serve --port N`` command line."""
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
            status = (proc / "status").read_text()
        except OSError:
            continue
        if b"serve" in argv and str(port).encode() in argv:
            return int(next(x for x in status.splitlines() if x.startswith("VmRSS")).split()[1])
    raise AssertionError(f"no chat server process on port {port}")


def send_and_read(
    address: tuple[str, int], head: bytes, body_bytes: int, *, chunked: bool = False
) -> tuple[bytes, float]:
    """Send ``head`` then up to ``body_bytes`` of body from a thread while reading the
    answer: (the answer as read until the server closes, seconds it took)."""
    sock = socket.create_connection(address, timeout=30)
    started = time.monotonic()
    piece = b"x" * (256 * 1024)
    chunk = b"40000\r\n" + piece + b"\r\n" if chunked else piece

    def upload() -> None:
        sent = 0
        try:
            sock.sendall(head)
            while sent < body_bytes:
                sock.sendall(chunk)
                sent += len(chunk)
        except OSError:
            pass  # the server answered and closed: exactly what is tested

    sender = threading.Thread(target=upload, daemon=True)
    sender.start()
    answer = b""
    try:
        while chunk := sock.recv(65536):
            answer += chunk
    except OSError:
        pass
    elapsed = time.monotonic() - started
    sock.close()
    sender.join(timeout=10)
    return answer, elapsed


def head(*lines: str) -> bytes:
    return ("\r\n".join(["POST /v1/turns HTTP/1.1", "Host: beacon", *lines]) + "\r\n\r\n").encode()


@pytest.mark.parametrize(
    ("framing", "status"),
    [
        pytest.param("Content-Length: 104857600", b" 413 ", id="declared-100MB"),
        pytest.param("Transfer-Encoding: chunked", b" 401 ", id="chunked-100MB"),
    ],
)
def test_a_100mb_body_without_a_token_is_refused_unread(
    stack: Stack, framing: str, status: bytes
) -> None:
    address = chat_address(stack)
    before = server_rss_kb(address[1])
    answer, elapsed = send_and_read(
        address,
        head("Content-Type: application/json", framing),
        100 * MB,
        chunked="chunked" in framing,
    )
    assert status in answer.split(b"\r\n", 1)[0]
    assert len(answer) < SMALL and elapsed < 5.0  # answered at once, not after 100 MB
    assert server_rss_kb(address[1]) - before < 20 * 1024  # nothing of it was held


def test_the_bearer_is_judged_before_the_body_is_awaited(stack: Stack) -> None:
    # Headers promise a body that never comes: the 401 must not wait for it.
    answer, elapsed = send_and_read(
        chat_address(stack),
        head("Content-Type: application/json", "Authorization: Bearer junk", "Content-Length: 99"),
        0,
    )
    assert answer.startswith(b"HTTP/1.1 401 ") and b"auth_malformed" in answer
    assert elapsed < 5.0


def test_a_streamed_body_past_the_cap_is_a_413_with_a_valid_token(stack: Stack, token: str) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(64):  # 4 MiB, the cap is 256 KiB
            yield b" " * (64 * 1024)

    response = httpx.post(
        f"{stack.chat_url}/v1/turns",
        content=chunks(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        timeout=30,
    )
    assert_refused(response, 413, "body_too_large")


def test_a_request_head_over_its_cap_is_refused_by_the_server(stack: Stack) -> None:
    answer, elapsed = send_and_read(chat_address(stack), head(f"X-Big: {'a' * MB}"), 0)
    assert answer.startswith(b"HTTP/1.1 400 ") and len(answer) < SMALL and elapsed < 5.0


def test_a_token_that_lives_longer_than_a_day_is_a_401(stack: Stack) -> None:
    minted = httpx.post(
        f"{stack.mcp_origin}/dev/tokens",
        json={"sub": "long-lived", "tiers": ["enterprise_ai"], "ttl_s": 2 * 24 * 3600},
        timeout=10,
    ).json()["token"]
    response = httpx.post(
        f"{stack.chat_url}/v1/turns",
        json={"message": "hi"},
        headers={"Authorization": f"Bearer {minted}"},
        timeout=30,
    )
    assert_refused(response, 401, "auth_lifetime_too_long")


def test_a_session_id_the_server_never_issued_is_a_404_like_another_users(
    stack: Stack,
) -> None:
    owner, stranger = stack.token(sub="issued"), stack.token(sub="planter")
    events = run_turn(stack.chat_url, {"mode": "chat", "message": "hi"}, token=owner)
    theirs = events[0].json()["session_id"]

    def continue_in(session_id: str) -> httpx.Response:
        return httpx.post(
            f"{stack.chat_url}/v1/turns",
            json={"mode": "chat", "session_id": session_id, "message": "hi"},
            headers={"Authorization": f"Bearer {stranger}"},
            timeout=30,
        )

    planted, claimed = continue_in("s_chosen_by_me"), continue_in(theirs)
    assert_refused(planted, 404, "session_not_found")
    assert planted.json() == claimed.json() and claimed.status_code == 404
    # Nothing was planted: the name is still unknown to its would-be owner.
    again = httpx.get(
        f"{stack.chat_url}/v1/sessions/s_chosen_by_me",
        headers={"Authorization": f"Bearer {stranger}"},
        timeout=10,
    )
    assert again.status_code == 404


# --- scenarios are a development switch --------------------------------------------


@pytest.fixture(scope="module")
def production_chat(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``beacon serve`` as an operator runs it: no BEACON_SCENARIOS."""
    env = chat_env(stack, tmp_path_factory.mktemp("production"))
    del env["BEACON_SCENARIOS"]
    with running_chat(env) as url:
        yield url


def test_a_server_without_the_switch_refuses_scenarios(production_chat: str, token: str) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    refused = httpx.post(
        f"{production_chat}/v1/turns",
        json={"message": "hi"},
        headers={**headers, "X-Beacon-Scenario": "zero-hits"},
        timeout=30,
    )
    assert_refused(refused, 400, "scenarios_disabled")
    events = run_turn(production_chat, {"message": "hi"}, token=token)
    assert events[-1].event == "done"  # the same turn without the header runs


def test_a_development_stack_lets_a_turn_pick_a_scenario(stack: Stack, token: str) -> None:
    events = run_turn(
        stack.chat_url,
        {"message": "List all panoramas in Harbor Tower"},
        token=token,
        scenario="zero-hits",
    )
    assert events[-1].event == "done"
