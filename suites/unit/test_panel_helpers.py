"""The panel's pure helpers, run in Node on the modules they live in: the example
questions (chrome.js), a card's headline (cards.js), what a refused request says
(requests.js) and the turns the tab keeps for a reload (kept.js)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

PANEL = Path(__file__).resolve().parents[2] / "beacon" / "panel"
NODE_TIMEOUT_S = 30
# A copy table of the panel's shape with words of its own, so no expectation is read
# from copy.js.
COPY = (
    "const copy = {photo: 'Picture', refused: (s) => `Refused ${s}`,"
    " authExpired: 'Expired.', authRejected: 'Rejected.', newToken: 'Get a new one.'};"
)


def _node(module: str, script: str) -> Any:
    head = f"const M = await import({json.dumps((PANEL / module).as_uri())});" + COPY
    done = subprocess.run(
        ["node", "--input-type=module", "-e", head + script],
        capture_output=True,
        text=True,
        timeout=NODE_TIMEOUT_S,
        check=True,
    )
    return json.loads(done.stdout)


def test_example_questions_name_the_callers_projects_in_turn_and_stop_at_four() -> None:
    templates = ["Open items in {project}?", "What can you do?", "Photos in {project}", "A", "B"]
    got = _node(
        "chrome.js",
        f"console.log(JSON.stringify(M.examplesFor({json.dumps(templates)}, ['North', 'South'])));",
    )
    assert got == ["Open items in North?", "What can you do?", "Photos in South", "A"]


def test_an_example_that_needs_a_project_is_left_out_while_none_is_known() -> None:
    templates = ["Open items in {project}?", "What can you do?"]
    got = _node(
        "chrome.js", f"console.log(JSON.stringify(M.examplesFor({json.dumps(templates)}, [])));"
    )
    assert got == ["What can you do?"]


def test_a_card_headline_drops_the_level_its_meta_line_repeats_and_never_is_a_bare_id() -> None:
    cases = [
        {
            "id": "a1",
            "title": "Level 3: missing guardrail",
            "level": "Level 3",
            "kind": "annotation",
        },
        {"id": "p9", "title": "p9", "level": "Level 2", "kind": "photo", "date": "2026-11-01"},
        {"id": "a2", "title": "", "kind": "annotation"},
    ]
    got = _node(
        "cards.js",
        f"console.log(JSON.stringify({json.dumps(cases)}.map((c) => M.headline(c, copy))));",
    )
    assert got == ["missing guardrail", "Picture · Level 2 · 2026-11-01", "annotation"]


def test_a_refused_token_says_whether_it_expired_or_was_rejected_and_how_to_get_a_new_one() -> None:
    failures = [
        [401, {"code": "auth_expired", "message": "exp in the past"}],
        [401, {"code": "auth_bad_signature", "message": "signature"}],
        [422, {"code": "invalid_request", "message": "body.message: Field required"}],
        [500, {"code": "http_500", "message": ""}],
    ]
    got = _node(
        "requests.js",
        f"console.log(JSON.stringify({json.dumps(failures)}"
        ".map(([s, f]) => M.refusedText(s, f, copy))));",
    )
    assert got == [
        "Refused 401: Expired. Get a new one.",
        "Refused 401: Rejected. (signature) Get a new one.",
        "Refused 422: body.message: Field required",
        "Refused 500",
    ]


def test_the_tab_keeps_the_last_ten_turns_with_their_questions_across_a_reload() -> None:
    script = (
        "const store = new Map();"
        "globalThis.window = {sessionStorage: {getItem: (k) => store.get(k) ?? null,"
        " setItem: (k, v) => store.set(k, v)}};"
        "const kept = M.keptTurns();"
        "for (let i = 1; i <= 12; i += 1) {"
        "  M.remember(kept, {turnId: `t${i}`, mode: 'chat', sessionId: 's1'}, `q${i}`); }"
        "const reloaded = M.keptTurns();"
        "M.forgetSession(reloaded);"
        "console.log(JSON.stringify({reloaded: M.keptTurns(), before: kept}));"
    )
    got = _node("kept.js", script)
    turns = [f"t{i}" for i in range(3, 13)]
    assert got["before"] == {
        "turns": turns,
        "asked": {t: f"q{t[1:]}" for t in turns},
        "mode": "chat",
        "sessionId": "s1",
    }
    assert got["reloaded"]["turns"] == turns
    assert (got["reloaded"]["mode"], got["reloaded"]["sessionId"]) == ("single", None)
