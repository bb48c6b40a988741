"""`GET /metrics` over real HTTP after a scripted set of turns: every series has the
value written here by hand (issue 30), but for the upstream connections opened, which
depend on when each stream's end was read: they have the bound reuse allows.

The chat server is its own stack (no other test's turns in its counters). The turns,
each against the stub's scenarios and scripted models:

1. default          done; list_projects (EXACT) + search_photos (LOWER_BOUND)
2. model-429        error llm_refused: list_projects (EXACT), then the planner is refused
3. inband-502       done; list_projects (EXACT) + search_photos disguised as data (UNKNOWN)
4. model-overclaims done; list_projects (EXACT) + search_photos (LOWER_BOUND); "I found 10"
                    against the lower bound: the guard drops it (free_count, en)
5. upstream-401     error upstream_auth: the MCP upstream refuses the bearer at initialize
6. a professional's photo question (no scenario): list_projects (EXACT) allowed, then
                    search_photos denied by the PEP (photo_ai) before it goes out
then one load-more page of turn 1's photo search.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from beacon.cli.ask import run_turn
from harness.chat_process import chat_env, running_chat
from harness.stack import Stack

pytestmark = pytest.mark.e2e
PHOTOS = "Photos of missing hard hats in Harbor Tower"
SAMPLE = re.compile(r"^(beacon_[a-z_]+)(\{[^}]*\})? (\S+)$")


def scrape(chat: str) -> dict[str, float]:
    """Every beacon_ sample but the buckets and creation times: name{labels} → value."""
    reply = httpx.get(f"{chat}/metrics", timeout=10)
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("text/plain")
    samples = {}
    for line in reply.text.splitlines():
        found = SAMPLE.match(line)
        if found is None or found[1].endswith(("_bucket", "_created")):
            continue
        samples[found[1] + (found[2] or "")] = float(found[3])
    return samples


@pytest.fixture(scope="module")
def scraped(stack: Stack) -> Iterator[tuple[str, dict[str, float]]]:
    """(the page text's samples after the scripted turns, the chat origin)."""
    with (
        tempfile.TemporaryDirectory(prefix="beacon-metrics-e2e-") as tmp,
        running_chat(chat_env(stack, Path(tmp))) as chat,
    ):
        token = stack.token(sub="metrics-user")
        ends = []
        for scenario in ("default", "model-429", "inband-502", "model-overclaims"):
            events = run_turn(chat, {"message": PHOTOS}, token=token, scenario=scenario)
            ends.append(events[-1].event)
            if scenario == "default":
                first = events[0].json()["turn_id"]
        ends.append(
            run_turn(chat, {"message": PHOTOS}, token=token, scenario="upstream-401")[-1].event
        )
        professional = stack.token(sub="metrics-pro", tiers=("professional",))
        ends.append(run_turn(chat, {"message": PHOTOS}, token=professional)[-1].event)
        assert ends == ["done", "error", "done", "done", "error", "done"]
        more = httpx.post(
            f"{chat}/v1/turns/{first}/more",
            json={"slot": "c1"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        assert more.status_code == 200
        yield chat, scrape(chat)


def test_turns_started_and_ended_by_terminal_and_code(
    scraped: tuple[str, dict[str, float]],
) -> None:
    _, samples = scraped
    assert samples["beacon_turns_started_total"] == 6
    assert samples['beacon_turns_ended_total{code="ok",terminal="done"}'] == 4
    assert samples['beacon_turns_ended_total{code="llm_refused",terminal="error"}'] == 1
    assert samples['beacon_turns_ended_total{code="upstream_auth",terminal="error"}'] == 1
    ended = {k: v for k, v in samples.items() if k.startswith("beacon_turns_ended_total")}
    assert len(ended) == 3
    assert samples["beacon_turn_first_frame_seconds_count"] == 6
    assert samples['beacon_turn_duration_seconds_count{terminal="done"}'] == 4
    assert samples['beacon_turn_duration_seconds_count{terminal="error"}'] == 2


def test_counts_by_grade_and_tool_calls_by_envelope_verdict(
    scraped: tuple[str, dict[str, float]],
) -> None:
    _, samples = scraped
    # Five context calls (every turn but upstream-401's), two photo searches graded
    # as lower bounds, one disguised 502 graded UNKNOWN.
    assert samples['beacon_counts_total{grade="EXACT"}'] == 5
    assert samples['beacon_counts_total{grade="LOWER_BOUND"}'] == 2
    assert samples['beacon_counts_total{grade="UNKNOWN"}'] == 1
    assert 'beacon_counts_total{grade="SHOWN"}' not in samples
    assert samples['beacon_tool_calls_total{tool="list_projects",verdict="ok"}'] == 5
    assert samples['beacon_tool_calls_total{tool="search_photos",verdict="ok"}'] == 2
    assert samples['beacon_tool_calls_total{tool="search_photos",verdict="disguised_failure"}'] == 1
    calls = [k for k in samples if k.startswith("beacon_tool_calls_total")]
    assert len(calls) == 3  # the denied call never went out: no tool-call sample
    assert samples['beacon_tool_call_duration_seconds_count{tool="list_projects"}'] == 5
    assert samples['beacon_tool_call_duration_seconds_count{tool="search_photos"}'] == 3


def test_permission_verdicts_guard_drops_and_errors(
    scraped: tuple[str, dict[str, float]],
) -> None:
    _, samples = scraped
    verdicts = {k: v for k, v in samples.items() if k.startswith("beacon_permission_verdicts")}
    # Five context calls (core); three photo searches allowed and one load-more page
    # re-decided (photo_ai); the professional's search denied.
    assert verdicts == {
        'beacon_permission_verdicts_total{capability="core",decision="allowed"}': 5,
        'beacon_permission_verdicts_total{capability="photo_ai",decision="allowed"}': 4,
        'beacon_permission_verdicts_total{capability="photo_ai",decision="denied"}': 1,
    }
    # The overclaim; (the rules narrator's answer to the denied turn may add its own).
    assert samples['beacon_narration_dropped_total{locale="en",rule="free_count"}'] == 1
    errors = {k: v for k, v in samples.items() if k.startswith("beacon_upstream_errors")}
    assert errors == {
        'beacon_upstream_errors_total{cause="llm_refused",service="llm"}': 1,
        'beacon_upstream_errors_total{cause="upstream_auth",service="mcp"}': 1,
    }


def test_streams_load_more_and_quota_series(scraped: tuple[str, dict[str, float]]) -> None:
    _, samples = scraped
    assert samples['beacon_sse_streams_active{route="turn"}'] == 0  # every stream closed
    assert samples['beacon_load_more_pages_total{outcome="served"}'] == 1
    assert samples["beacon_quota_refusals_total"] == 0


def test_no_label_carries_user_content(scraped: tuple[str, dict[str, float]]) -> None:
    chat, _ = scraped
    text = httpx.get(f"{chat}/metrics", timeout=10).text
    for word in ("hard hats", "Harbor", "metrics-user", "metrics-pro", "prj-"):
        assert word not in text
    assert re.search(r"[ts]_[0-9a-f]{20}", text) is None  # no turn or session id
    values = re.findall(r'="([^"]*)"', "\n".join(re.findall(r"^beacon_\S+", text, re.M)))
    assert values and all(re.fullmatch(r"[A-Za-z_]+|[0-9.e+]+|\+Inf", v) for v in values)


def test_upstream_connections_are_counted_and_reused(
    scraped: tuple[str, dict[str, float]],
) -> None:
    _, samples = scraped
    # Seven MCP sessions (six turns, one load-more page), each of five to eight requests
    # (initialize, initialized, its event stream, tools/list, its calls, the DELETE):
    # one connection each would be over forty. A session's requests share one and the
    # sessions share the process's pool; how many depends on when each stream's end
    # was read, so the bound is what reuse allows, not an exact figure.
    opened = samples["beacon_upstream_connections_total"]
    assert 1 <= opened <= 2 * 7, opened
