"""The README's commands do what it says: up, token, ask, demo."""

from __future__ import annotations

import os
import signal
import subprocess

import httpx
import jwt
import pytest

from harness.stack import Stack, beacon_executable, parse_up_lines

pytestmark = pytest.mark.e2e


def run_beacon(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [beacon_executable(), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
        check=False,
    )


def test_token_prints_an_rs256_token_the_stub_jwks_verifies(stack: Stack) -> None:
    done = run_beacon("token", "--tier", "professional", "--mcp", stack.mcp_url)
    assert done.returncode == 0, done.stderr
    token = done.stdout.strip()
    jwks = httpx.get(f"{stack.mcp_origin}/.well-known/jwks.json", timeout=10).json()
    key = jwt.PyJWKSet.from_dict(jwks).keys[0].key
    claims = jwt.decode(token, key, algorithms=["RS256"], audience="beacon")
    assert claims["tiers"] == ["professional"]


def test_token_without_an_mcp_url_is_a_usage_error() -> None:
    env = {k: v for k, v in os.environ.items() if k != "BEACON_MCP_URL"}
    done = subprocess.run(
        [beacon_executable(), "token"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert done.returncode == 2 and "--mcp" in done.stderr


def test_ask_prints_the_frames_and_the_final_answer(stack: Stack) -> None:
    done = run_beacon(
        "ask",
        "List all panoramas in Harbor Tower",
        "--chat",
        stack.chat_url,
        "--mcp",
        stack.mcp_url,
    )
    assert done.returncode == 0, done.stderr
    assert "] start " in done.stdout and "] done " in done.stdout
    assert "answer: Harbor Tower has at least 3,000 panoramas" in done.stdout


def test_demo_once_answers_three_questions_and_prints_no_panel_url_for_stopped_servers() -> None:
    done = run_beacon("demo", env={"DEMO_ONCE": "1"})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    answers = [ln for ln in done.stdout.splitlines() if ln.startswith("answer: ")]
    assert len(answers) == 3
    assert "exactly" in answers[0] and "at least 3,000" in answers[1]
    assert "at least" in answers[2]
    assert not any(ln.startswith("panel:") or "?token=" in ln for ln in done.stdout.splitlines())
    assert "DEMO_ONCE=1: the servers stop now" in done.stdout


def test_up_prints_its_urls_then_ready_and_stops_all_three_on_ctrl_c() -> None:
    proc = subprocess.Popen([beacon_executable(), "up"], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    lines = []
    try:
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.strip() == "ready" or len(lines) > 50:
                break
        assert lines[-1] == "ready", lines
        urls = parse_up_lines(lines)
        assert [ln.split(":")[0] for ln in lines[:3]] == ["chat", "mcp", "llm"]
        assert urls["mcp"].endswith("/mcp") and urls["llm"].endswith("/v1")
        healths = [
            f"{urls['chat']}/healthz",
            urls["mcp"].removesuffix("/mcp") + "/healthz",
            urls["llm"].removesuffix("/v1") + "/healthz",
        ]
        assert all(httpx.get(url, timeout=5).status_code == 200 for url in healths)
        proc.send_signal(signal.SIGINT)  # the parent only: it must stop its children
        assert proc.wait(timeout=30) == 0
        for url in healths:
            with pytest.raises(httpx.TransportError):
                httpx.get(url, timeout=2)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        proc.stdout.close()


def test_demo_stops_every_process_it_started_when_its_turns_fail() -> None:
    # upstream-401: the stub refuses every bearer, so each demo turn ends in `error`.
    done = run_beacon("demo", "--scenario", "upstream-401", env={"DEMO_ONCE": "1"})
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stdout + done.stderr
    assert "beacon demo: 3 of 3 turns failed" in done.stderr
    assert done.stdout.count("answer: none: error upstream_auth") == 3
    urls = parse_up_lines(done.stdout.splitlines())
    healths = [
        f"{urls['chat']}/healthz",
        urls["mcp"].removesuffix("/mcp") + "/healthz",
        urls["llm"].removesuffix("/v1") + "/healthz",
    ]
    for url in healths:
        with pytest.raises(httpx.TransportError):
            httpx.get(url, timeout=2)


def test_ask_prints_the_question_above_the_answer(stack: Stack) -> None:
    question = "List all panoramas in Harbor Tower"
    done = run_beacon("ask", question, "--chat", stack.chat_url, "--mcp", stack.mcp_url)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    at = lines.index(f"question: {question}")
    assert lines[at + 1].startswith("answer: ")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("token", "--mcp", "http://127.0.0.1:9/mcp"), "beacon token: cannot reach"),
        (("ask", "hi", "--chat", "http://127.0.0.1:9", "--token", "t"), "beacon ask: cannot reach"),
        (("ask", "hi", "--chat", "chat.example", "--token", "t"), "not a usable http://"),
    ],
)
def test_unreachable_or_bad_urls_are_one_line_errors(args: tuple[str, ...], says: str) -> None:
    done = run_beacon(*args)
    assert done.returncode == 3  # README "Troubleshooting": 3 is a server not reached
    assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_an_unknown_scenario_is_one_line(stack: Stack) -> None:
    done = run_beacon(
        "ask", "hi", "--chat", stack.chat_url, "--mcp", stack.mcp_url, "--scenario", "no-such"
    )
    assert done.returncode == 2  # a bad option value is usage, for ask as for up
    assert done.stderr.strip() == (
        "beacon ask: unknown scenario 'no-such' (`beacon stub-mcp --help` lists the scenarios)"
    )
    up = run_beacon("up", "--scenario", "no-such")
    assert up.returncode == 2 and "Traceback" not in up.stderr
    assert "unknown scenario 'no-such'" in up.stderr
