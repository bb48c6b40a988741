"""`beacon demo` prints a panel URL only for servers that keep serving (issue 19):
with DEMO_ONCE=1 the servers stop after the questions, so no URL is printed.
No servers run here: a stand-in stack records its shutdown, turns are canned."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

import beacon.cli.ask as asking
import beacon.cli.up as stacks
from beacon.cli import main as cli
from beacon.cli.up import Urls
from beacon.wire.sse import SseEvent

CHAT = "http://127.0.0.1:48111"
MCP = "http://127.0.0.1:48112/mcp"
BEARER = "tok-demo-5d2"
runner = CliRunner()


class StandInStack:
    """Stands in for DevStack: starts nothing, counts its shutdowns."""

    made: list[StandInStack] = []  # noqa: RUF012 - the test reads the instances back

    def __init__(self, scenario: str, chat_port: int = 0, **_options: object) -> None:
        self.shut = 0
        self.urls = Urls(chat=CHAT, mcp=MCP, llm="http://127.0.0.1:48113/v1")
        StandInStack.made.append(self)

    def start(self) -> None:
        pass

    def shutdown(self) -> None:
        self.shut += 1


def _answered(_chat: str, _body: object, **_k: object) -> list[SseEvent]:
    return [
        SseEvent(event="delta", data='{"turn_id": "t", "seq": 2, "text": "An answer."}', id="2"),
        SseEvent(event="done", data='{"turn_id": "t", "seq": 3}', id="3"),
    ]


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> list[StandInStack]:
    StandInStack.made = []
    # The demo imports these when it runs (beacon/lazy.py): patched where they live.
    monkeypatch.setattr(stacks, "DevStack", StandInStack)
    monkeypatch.setattr(asking, "mint_token", lambda *_a, **_k: BEARER)
    monkeypatch.setattr(asking, "run_turn", _answered)
    return StandInStack.made


def _demo() -> Any:
    return runner.invoke(cli.app, ["demo"], prog_name="beacon")


def test_demo_once_prints_no_panel_url_for_the_servers_it_stops(
    stand_in: list[StandInStack], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEMO_ONCE", "1")
    done = _demo()
    assert done.exit_code == 0, done.output
    assert [s.shut for s in stand_in] == [1]
    assert "panel:" not in done.output
    assert BEARER not in done.output and "/panel/" not in done.output
    assert "the servers stop now" in done.output


def test_a_demo_that_keeps_serving_prints_the_panel_url_and_how_to_mint_a_new_token(
    stand_in: list[StandInStack], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DEMO_ONCE", raising=False)
    serving: list[int] = []

    def serve(stack: StandInStack) -> int:
        serving.append(stack.shut)  # still up while it serves
        stack.shutdown()
        return 0

    monkeypatch.setattr(stacks, "serve_until_signal", serve)
    done = _demo()
    assert done.exit_code == 0, done.output
    assert serving == [0]
    lines = done.output.splitlines()
    assert f"panel: {CHAT}/panel/?token={BEARER}" in lines
    after = lines[lines.index(f"panel: {CHAT}/panel/?token={BEARER}") + 1]
    assert "one hour" in after and f"beacon token --mcp {MCP}" in after
