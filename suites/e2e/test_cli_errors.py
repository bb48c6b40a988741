"""`beacon` as a new user meets it (issue 29 item 3): every expected failure is one line
naming the fix with its own exit code, never a traceback; every command answers `-h`;
every server says where it listens."""

from __future__ import annotations

import os
import queue
import socket
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from beacon.cli import main as cli
from beacon.cli.errors import Exit
from beacon.store.crypto import new_key_slot
from harness.stack import Stack, beacon_executable

pytestmark = pytest.mark.e2e
CLOSED = "http://127.0.0.1:9"  # the discard port: nothing listens there


def beacon(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [beacon_executable(), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
        check=False,
    )


def one_line_naming(done: subprocess.CompletedProcess[str], code: int, *words: str) -> None:
    assert done.returncode == code, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) <= 3
    assert all(word in done.stderr for word in words), done.stderr


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield int(sock.getsockname()[1])


def serve_env(tmp_path: Path) -> dict[str, str]:
    return {
        "BEACON_MCP_URL": f"{CLOSED}/mcp",
        "BEACON_LLM_BASE_URL": f"{CLOSED}/v1",
        "BEACON_JWKS": f"{CLOSED}/.well-known/jwks.json",
        "BEACON_DB": str(tmp_path / "beacon.sqlite3"),
        "BEACON_KEYS": new_key_slot("t1"),
    }


def test_version_prints_the_package_version_and_exits_0() -> None:
    done = beacon("--version")
    assert done.returncode == 0 and done.stdout.startswith("beacon 0."), done


def _commands() -> list[list[str]]:
    from typer.main import get_command

    def walk(command: object, path: list[str]) -> Iterator[list[str]]:
        yield path
        for name, sub in getattr(command, "commands", {}).items():
            yield from walk(sub, [*path, name])

    return list(walk(get_command(cli.app), []))


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_every_command_answers_help_with_exit_0_and_no_rest_backticks(flag: str) -> None:
    runner = CliRunner()
    commands = _commands()
    assert ["gate", "observe"] in commands and ["postgres", "status"] in commands
    for path in commands:
        done = runner.invoke(cli.app, [*path, flag], prog_name="beacon")
        assert done.exit_code == 0, (path, done.output)
        assert "``" not in done.output, path


def test_every_option_of_every_command_has_help_text() -> None:
    from typer.main import get_command

    root = get_command(cli.app)
    lacking = []
    for path in _commands():
        command = root
        for name in path:
            command = command.commands[name]  # type: ignore[attr-defined]
        lacking += [
            (path, p.opts)
            for p in command.params
            if getattr(p, "param_type_name", "") == "option" and not p.help  # type: ignore[attr-defined]
        ]
    assert lacking == []


def test_up_refuses_an_unknown_scenario_before_starting_anything() -> None:
    done = beacon("up", "--scenario", "nope")
    one_line_naming(done, Exit.USAGE, "unknown scenario 'nope'", "beacon stub-mcp -h")
    assert "exited with" not in done.stderr  # no child was started to find out


def test_up_with_an_unreachable_database_says_so_in_one_line() -> None:
    done = beacon("up", "--db", "postgresql://127.0.0.1:9/x")
    one_line_naming(done, Exit.DATABASE_UNREACHABLE, "cannot connect to the database", "--db")


def test_debug_shows_the_traceback_of_an_expected_failure() -> None:
    done = beacon("--debug", "up", "--db", "postgresql://127.0.0.1:9/x")
    assert done.returncode == Exit.DATABASE_UNREACHABLE and "Traceback" in done.stderr


def test_up_on_a_busy_chat_port_names_the_port_and_the_option(busy_port: int) -> None:
    done = beacon("up", "--chat-port", str(busy_port))
    one_line_naming(done, Exit.PORT_IN_USE, f"port {busy_port}", "--chat-port")


def test_serve_on_a_busy_port_names_the_port_and_the_option(busy_port: int, tmp_path: Path) -> None:
    done = beacon("serve", "--port", str(busy_port), env=serve_env(tmp_path))
    one_line_naming(done, Exit.PORT_IN_USE, f"port {busy_port}", "--port")


def test_ask_against_a_closed_port_is_unreachable() -> None:
    done = beacon("ask", "hello", "--chat", CLOSED, "--token", "x")
    one_line_naming(done, Exit.UNREACHABLE, "cannot reach the chat server", "beacon up")


def test_token_against_a_closed_port_is_unreachable() -> None:
    done = beacon("token", "--mcp", f"{CLOSED}/mcp")
    one_line_naming(done, Exit.UNREACHABLE, "cannot reach the stub MCP server")


def test_verify_against_a_closed_port_is_a_target_that_cannot_be_tested(tmp_path: Path) -> None:
    done = beacon("verify", "--target", CLOSED, "--token", "x", "--out-dir", str(tmp_path))
    one_line_naming(done, 3, "verify:")


def test_ask_with_a_malformed_token_names_the_command_that_mints_one(stack: Stack) -> None:
    done = beacon("ask", "hello", "--chat", stack.chat_url, "--token", "not-a-jwt")
    one_line_naming(done, Exit.TOKEN_REFUSED, "refused the token", "beacon token")
    assert "not-a-jwt" not in done.stderr


@contextmanager
def started(*args: str, env: dict[str, str] | None = None) -> Iterator[queue.Queue[str]]:
    """`beacon ARGS` with its stdout lines in a queue; stopped on exit."""
    proc = subprocess.Popen(
        [beacon_executable(), *args],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))

    threading.Thread(target=pump, daemon=True).start()
    try:
        yield lines
    finally:
        proc.terminate()
        proc.wait(timeout=15)
        assert proc.stdout is not None
        proc.stdout.close()


@pytest.mark.parametrize(
    "command", [["stub-llm"], ["stub-mcp"], ["serve"]], ids=["stub-llm", "stub-mcp", "serve"]
)
def test_a_server_prints_where_it_listens_and_with_access_log_one_line_per_request(
    command: list[str], tmp_path: Path
) -> None:
    env = serve_env(tmp_path) if command == ["serve"] else None
    with started(*command, "--port", "0", "--access-log", env=env) as lines:
        first = lines.get(timeout=60)
        assert first.startswith("listening on http://127.0.0.1:"), first
        origin = first.removeprefix("listening on ")
        assert httpx.get(f"{origin}/healthz?secret=1", timeout=10).status_code == 200
        logged = lines.get(timeout=10)
        assert logged.startswith("GET /healthz 200 ") and logged.endswith("ms"), logged
        assert "secret" not in logged
