"""`beacon` as a new user meets it: every command listed, choices shown, errors in one line,
and `beacon demo` stops what it started however a turn ends (no servers: fakes stand in)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
import rich.console
from typer.testing import CliRunner

import beacon.cli.ask as asking
import beacon.cli.up as stacks
from beacon.cli import ask_cmd, commands
from beacon.cli import main as cli
from beacon.cli.ask import AskError, mint_token, reaching, run_turn
from beacon.cli.errors import Exit
from beacon.cli.up import UpError, Urls
from beacon.policy.capabilities import TIERS

runner = CliRunner()
DEAD = "http://127.0.0.1:9"  # the discard port: nothing listens there


def invoke(*args: str) -> Any:
    return runner.invoke(cli.app, list(args), prog_name="beacon")


def one_line(text: str) -> bool:
    return len(text.strip().splitlines()) == 1 and "Traceback" not in text


def test_the_tier_choices_are_the_policy_tiers() -> None:
    assert commands.TIER_NAMES == TIERS


def test_help_lists_every_registered_command_and_hides_none() -> None:
    shown = invoke("--help").output
    names = commands.command_names(cli.app)
    assert {"up", "serve", "token", "ask", "demo", "stub-mcp", "stub-llm", "sweep", "gate"} <= names
    hidden = [c.name for c in cli.app.registered_commands if c.hidden]
    hidden += [g.name for g in cli.app.registered_groups if g.typer_instance and g.hidden]
    assert hidden == []
    for name in names:
        assert re.search(rf"│ {re.escape(name)}\s", shown), name


def test_token_help_lists_the_four_tiers_and_refuses_another() -> None:
    shown = invoke("token", "--help").output
    for tier in TIERS:
        assert tier in shown.replace("\n", "").replace("│", "").replace(" ", "")
    refused = invoke("token", "--tier", "platinum", "--mcp", DEAD)
    assert refused.exit_code == 2 and "platinum" in refused.output


def test_stub_mcp_help_lists_the_scenarios() -> None:
    from stub_server.scenarios import available_scenarios

    shown = " ".join(invoke("stub-mcp", "--help").output.replace("│", " ").split())
    for name in available_scenarios():
        assert name in shown


@pytest.mark.parametrize(
    ("url", "says"),
    [
        (DEAD + "/mcp", "cannot reach the stub MCP server at http://127.0.0.1:9"),
        ("notaurl", "is not a usable http:// or https:// URL"),
        ("http://", "is not a usable http:// or https:// URL"),
    ],
)
def test_token_at_a_bad_url_is_one_line_and_exit_3(url: str, says: str) -> None:
    done = invoke("token", "--mcp", url)
    assert done.exit_code == Exit.UNREACHABLE
    assert one_line(done.output) and says in done.output
    assert not isinstance(done.exception, httpx.HTTPError)


@pytest.mark.parametrize("chat", [DEAD, "nope", "http://[::1"])
def test_ask_at_a_bad_chat_url_is_one_line_and_exit_3(chat: str) -> None:
    done = invoke("ask", "How many?", "--chat", chat, "--token", "t")
    assert done.exit_code == Exit.UNREACHABLE, done.output
    assert one_line(done.output) and done.output.startswith("beacon ask: ")


def test_the_http_client_errors_become_ask_errors() -> None:
    with pytest.raises(AskError, match="cannot reach the stub MCP server"):
        mint_token(DEAD, tier="essentials")
    with pytest.raises(AskError, match="cannot reach the chat server"):
        run_turn(DEAD, {"mode": "single", "message": "x"}, token="t")


class FakeStack:
    """Stands in for DevStack: records whether it was shut down."""

    started: list[FakeStack] = []  # noqa: RUF012 - the test reads the instances back

    def __init__(self, scenario: str, chat_port: int = 0, **_options: object) -> None:
        self.scenario = scenario
        self.shut = 0
        self.urls = Urls(chat=DEAD, mcp=f"{DEAD}/mcp", llm=f"{DEAD}/v1")
        FakeStack.started.append(self)

    def start(self) -> None:
        pass

    def shutdown(self) -> None:
        self.shut += 1


@pytest.fixture
def fake_stack(monkeypatch: pytest.MonkeyPatch) -> list[FakeStack]:
    FakeStack.started = []
    # The commands import these when they run (beacon/lazy.py): patched where they live.
    monkeypatch.setattr(stacks, "DevStack", FakeStack)
    monkeypatch.setattr(asking, "mint_token", lambda *_a, **_k: "tok")
    monkeypatch.setenv("DEMO_ONCE", "1")
    return FakeStack.started


def raising(exc: BaseException) -> Any:
    def run(*_a: object, **_k: object) -> None:
        raise exc

    return run


@pytest.mark.parametrize(
    "exc",
    [
        httpx.ReadTimeout("read timed out"),
        httpx.RemoteProtocolError("peer closed connection"),
        KeyError("text"),
        AskError("the chat server answered HTTP 500: boom"),
    ],
    ids=lambda e: type(e).__name__,
)
def test_demo_stops_every_process_when_a_turn_breaks(
    fake_stack: list[FakeStack], monkeypatch: pytest.MonkeyPatch, exc: Exception
) -> None:
    if isinstance(exc, httpx.HTTPError):
        # as run_turn raises it: reaching() turns the client's errors into one line
        def run(*_a: object, **_k: object) -> None:
            with reaching("chat server", DEAD):
                raise exc

        monkeypatch.setattr(asking, "run_turn", run)
    else:
        monkeypatch.setattr(asking, "run_turn", raising(exc))
    done = invoke("demo")
    assert done.exit_code == 1
    assert [s.shut for s in fake_stack] == [1]
    assert "Traceback" not in done.output
    failure = [ln for ln in done.output.splitlines() if ln.startswith("beacon demo failed: ")]
    assert len(failure) == 1


def test_demo_stops_every_process_when_interrupted(
    fake_stack: list[FakeStack], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(asking, "run_turn", raising(KeyboardInterrupt()))
    done = invoke("demo")
    assert done.exit_code == 130
    assert [s.shut for s in fake_stack] == [1]


def test_demo_prints_each_question_above_its_answer_and_fails_on_an_error_frame(
    fake_stack: list[FakeStack], monkeypatch: pytest.MonkeyPatch
) -> None:
    from beacon.wire.sse import SseEvent

    def run(_chat: str, body: dict[str, str], **_k: object) -> list[SseEvent]:
        if "panoramas" in body["message"]:
            data = '{"turn_id": "t", "seq": 2, "code": "upstream_protocol", "message": "boom"}'
            return [SseEvent(event="error", data=data, id="2")]
        text = '{"turn_id": "t", "seq": 2, "text": "An answer."}'
        done = '{"turn_id": "t", "seq": 3}'
        return [
            SseEvent(event="delta", data=text, id="2"),
            SseEvent(event="done", data=done, id="3"),
        ]

    monkeypatch.setattr(asking, "run_turn", run)
    done = invoke("demo")
    assert done.exit_code == 1
    assert [s.shut for s in fake_stack] == [1]
    lines = done.output.splitlines()
    for question in ask_cmd.DEMO_QUESTIONS:
        at = lines.index(f"question: {question}")
        assert lines[at + 1].startswith("answer: ")
    assert "answer: none: error upstream_protocol: boom" in lines
    assert "beacon demo: 1 of 3 turns failed" in lines


def test_up_stops_what_it_started_when_a_child_fails(
    fake_stack: list[FakeStack], monkeypatch: pytest.MonkeyPatch
) -> None:
    def start(_self: FakeStack) -> None:
        raise UpError("`beacon stub-mcp` exited with 2 before http://x/healthz answered")

    monkeypatch.setattr(FakeStack, "start", start)
    done = invoke("up")
    assert done.exit_code == 1
    assert one_line(done.output) and "stub-mcp` exited with 2" in done.output
    assert [s.shut for s in fake_stack] == [1]


def test_a_terminal_sees_a_spinner_while_the_turn_runs(
    fake_stack: list[FakeStack], monkeypatch: pytest.MonkeyPatch
) -> None:
    from functools import partial

    from rich.console import Console

    from beacon.wire.sse import SseEvent

    statuses: list[str] = []

    class Recording(Console):
        def status(self, status: Any, **kwargs: Any) -> Any:
            statuses.append(str(status))
            return super().status(status, **kwargs)

    def run(_chat: str, _body: object, **kw: Any) -> list[SseEvent]:
        events = [
            SseEvent(event="delta", data='{"turn_id": "t", "seq": 2, "text": "Hi."}', id="2"),
            SseEvent(event="done", data='{"turn_id": "t", "seq": 3}', id="3"),
        ]
        for event in events:
            kw["on_event"](event)
        return events

    monkeypatch.setattr(rich.console, "Console", partial(Recording, force_terminal=True))
    monkeypatch.setattr(asking, "run_turn", run)
    done = invoke("demo")
    assert done.exit_code == 0, done.output
    assert statuses == [f"asking: {q}" for q in ask_cmd.DEMO_QUESTIONS]
    assert "[3] done" in done.output and "answer: Hi." in done.output
    assert [s.shut for s in fake_stack] == [1]


def test_a_missing_chromium_is_one_line_naming_the_install_command(tmp_path: Path) -> None:
    from harness.browser import ChromiumMissing, require_chromium

    with pytest.raises(ChromiumMissing) as raised:
        require_chromium(str(tmp_path / "chromium"))
    (line,) = str(raised.value).splitlines()
    assert "apt-get install --no-install-recommends chromium" in line
    require_chromium()  # this machine has it: nothing raised
