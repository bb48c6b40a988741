"""The chat server keeps its own OpenAPI promises under generated input.

The schemathesis CLI reads `/openapi.json` from the running chat server
(started by `beacon up`) and sends it generated requests with a real bearer:
every answer must be a status the schema documents with a body that matches
it — a bad body or header is a documented 422, never a 500 or a surprise 400.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.stack import Stack

pytestmark = pytest.mark.e2e


def test_every_operation_answers_as_documented(stack: Stack, token: str) -> None:
    cli = Path(sys.executable).with_name("schemathesis")
    done = subprocess.run(
        [
            str(cli),
            "run",
            f"{stack.chat_url}/openapi.json",
            "-H",
            f"Authorization: Bearer {token}",
            "--max-examples",
            "10",
            "--seed",
            "7",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
