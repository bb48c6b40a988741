"""The stubs' pace (stub_server/pace.py): read from the environment, refused in one line
when it is not a number of milliseconds, and waited where a network and a model wait —
every MCP request before it is served, a completion's first chunk and each later one.
The waits are recorded by a stand-in sleep, never timed."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from stub_server.llm_app import _chunks
from stub_server.llm_requests import ChatRequest
from stub_server.pace import (
    LLM_CHUNK_ENV,
    LLM_FIRST_ENV,
    MCP_DELAY_ENV,
    Delayed,
    Pace,
    PaceError,
    pace_from_env,
)
from stub_server.rules_model import Reply


class Recorder:
    """A sleep that records what it was asked to wait, and in what order with the rest."""

    def __init__(self, log: list[Any]) -> None:
        self.log = log

    async def __call__(self, seconds: float) -> None:
        self.log.append(("sleep", seconds))


def test_an_unset_or_zero_pace_waits_nothing() -> None:
    assert pace_from_env({}) == Pace(0.0, 0.0, 0.0)
    assert pace_from_env({MCP_DELAY_ENV: "0", LLM_FIRST_ENV: " ", LLM_CHUNK_ENV: ""}) == Pace()


def test_a_pace_is_read_in_milliseconds() -> None:
    env = {MCP_DELAY_ENV: "20", LLM_FIRST_ENV: "250.5", LLM_CHUNK_ENV: "30"}
    assert pace_from_env(env) == Pace(0.02, 0.2505, 0.03)


@pytest.mark.parametrize("raw", ["abc", "-1", "nan", "60001", "1e9", "20ms"])
def test_a_pace_that_is_not_milliseconds_in_range_is_refused_naming_its_variable(
    raw: str,
) -> None:
    with pytest.raises(PaceError, match=rf"^{LLM_FIRST_ENV}='{raw}' is "):
        pace_from_env({LLM_FIRST_ENV: raw})


async def test_every_http_request_waits_before_it_is_served_and_nothing_else_does() -> None:
    log: list[Any] = []

    async def app(scope: Any, _receive: Any, _send: Any) -> None:
        log.append(("served", scope["type"]))

    paced = Delayed(app, 0.02, sleep=Recorder(log))
    await paced({"type": "http"}, None, None)
    await paced({"type": "lifespan"}, None, None)
    assert log == [("sleep", 0.02), ("served", "http"), ("served", "lifespan")]
    log.clear()
    await Delayed(app, 0.0, sleep=Recorder(log))({"type": "http"}, None, None)
    assert log == [("served", "http")]


async def _streamed(pace: Pace) -> list[Any]:
    log: list[Any] = []
    request = ChatRequest.model_validate(
        {"model": "beacon-rules", "messages": [{"role": "user", "content": "hi"}], "stream": True}
    )
    reply = Reply("Twenty-four characters, then some more.")
    async for chunk in _chunks(request, reply, 0.0, None, pace, sleep=Recorder(log)):
        if chunk.startswith("data: {"):
            delta = json.loads(chunk[6:])["choices"][0]["delta"]
            log.append(("chunk", delta.get("content")))
        else:
            log.append(("chunk", chunk.strip()))
    return log


async def test_a_completion_waits_before_its_first_chunk_and_before_each_later_piece() -> None:
    log = await _streamed(Pace(first_s=0.25, chunk_s=0.03))
    # 39 characters in pieces of 12: four pieces, each after a chunk's wait.
    assert log == [
        ("sleep", 0.25),
        ("chunk", ""),
        ("sleep", 0.03),
        ("chunk", "Twenty-four "),
        ("sleep", 0.03),
        ("chunk", "characters, "),
        ("sleep", 0.03),
        ("chunk", "then some mo"),
        ("sleep", 0.03),
        ("chunk", "re."),
        ("chunk", None),  # the finish
        ("chunk", "data: [DONE]"),
    ]


async def test_an_unpaced_completion_streams_the_same_chunks_without_a_wait() -> None:
    paced = [entry for entry in await _streamed(Pace(0.0, 0.25, 0.03)) if entry[0] == "chunk"]
    assert await _streamed(Pace()) == paced


@pytest.mark.parametrize(
    ("command", "variable"), [("stub-mcp", MCP_DELAY_ENV), ("stub-llm", LLM_CHUNK_ENV)]
)
def test_a_stub_started_with_a_bad_pace_stops_with_one_line(command: str, variable: str) -> None:
    env = {"PATH": "/usr/bin:/bin", variable: "fast"}
    done = subprocess.run(
        [sys.executable, "-m", "beacon.cli.main", command, "--port", "9"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"beacon {command}: {variable}='fast' is not a number of milliseconds"
    ]
