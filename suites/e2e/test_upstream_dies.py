"""An upstream that dies mid-turn is the upstream's failure, named as such.

A dedicated stub MCP process answers slowly; it is killed while the turn is
waiting on it. The turn ends with exactly one `error`, code
`upstream_unavailable` — never `internal` ("failed inside Beacon").
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import httpx
import pytest

from beacon.store.crypto import new_key_slot
from harness.chat_process import chat_env, running_chat
from harness.stack import Stack
from harness.stub_process import running_stub

pytestmark = pytest.mark.e2e


def test_an_upstream_killed_mid_turn_ends_the_turn_as_upstream_unavailable(
    stack: Stack, tmp_path: Path
) -> None:
    with running_stub("mcp", env={"BEACON_STUB_SLOW_MS": "1500"}) as mcp:
        env = chat_env(
            stack,
            tmp_path,
            BEACON_KEYS=new_key_slot("dies"),
            BEACON_SCENARIOS="allow",
            BEACON_MCP_URL=mcp.mcp_url,
            BEACON_JWKS=f"{mcp.origin}/.well-known/jwks.json",
        )
        token = mcp.token(sub="dies")
        with running_chat(env) as chat:
            # Kill the upstream once the turn is waiting on its first tool call.
            killer = threading.Timer(0.8, os.kill, (mcp.pid, signal.SIGKILL))
            killer.start()
            started = time.monotonic()
            with httpx.stream(
                "POST",
                f"{chat}/v1/turns",
                json={"mode": "single", "message": "List all panoramas in Harbor Tower"},
                headers={"Authorization": f"Bearer {token}", "X-Beacon-Scenario": "slow-upstream"},
                timeout=60,
            ) as response:
                body = response.read().decode()
            killer.join()
    events = [b for b in body.split("\n\n") if b.startswith("event: ")]
    kinds = [b.split("\n", 1)[0][7:] for b in events]
    assert kinds.count("error") == 1 and kinds[-1] == "error" and "done" not in kinds, kinds
    data = json.loads(events[-1].split("data: ", 1)[1])
    assert data["code"] == "upstream_unavailable", data
    assert time.monotonic() - started < 30
