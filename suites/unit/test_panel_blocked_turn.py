"""A turn a safety filter stopped, as the panel folds it (Node on the panel's own
reducer): the frames a blocked question streams end the turn failed with cause
``blocked``, the notice's words shown beside the error, and no answer drawn."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

PANEL = Path(__file__).resolve().parents[2] / "beacon" / "panel"
TURN = "t_0123456789abcdef0123"
NOTICE = (
    "This question was stopped by a safety filter before anything was searched. "
    "Rephrase it or ask your administrator."
)
# What `POST /v1/turns` streamed for a blocked question (README "Safety filters").
FRAMES = [
    {
        "type": "start",
        "data": {"turn_id": TURN, "seq": 1, "session_id": None, "mode": "single", "locale": "en"},
    },
    {
        "type": "notice",
        "data": {"turn_id": TURN, "seq": 2, "kind": "blocked", "text": NOTICE, "options": []},
    },
    {
        "type": "error",
        "data": {
            "turn_id": TURN,
            "seq": 3,
            "code": "blocked",
            "message": "a safety filter stopped this turn's input",
        },
    },
]


def _fold(frames: list[dict[str, Any]]) -> Any:
    script = (
        f"const S = await import({json.dumps((PANEL / 'reducer.js').as_uri())});"
        "const frames = JSON.parse(await new Response(process.stdin).text());"
        "let state = S.sending(S.initialState());"
        "for (const frame of frames) state = S.reduce(state, frame);"
        "console.log(JSON.stringify({phase: state.phase, cause: state.cause,"
        " prose: state.prose, notices: state.notices.map((n) => [n.kind, n.code, n.text])}));"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps(frames),
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(done.stdout)


def test_a_blocked_turn_ends_failed_with_its_notice_and_no_answer() -> None:
    assert _fold(FRAMES) == {
        "phase": "failed",
        "cause": "blocked",
        "prose": "",
        "notices": [
            ["blocked", None, NOTICE],
            ["error", "blocked", "a safety filter stopped this turn's input"],
        ],
    }
