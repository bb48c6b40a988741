"""After "Load more" the answer's "these N" names the cards on screen (issue 19):
the panel's ``reshown`` moves the number the server rendered for a shown slot,
and only where it cannot be anything else (run in Node on the panel's own module)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

PANEL = Path(__file__).resolve().parents[2] / "beacon" / "panel"
NODE_TIMEOUT_S = 30


def _reshown(prose: str, before: int, after: int, locale: str = "en", **context: Any) -> str:
    script = (
        f"const {{ reshown }} = await import({json.dumps((PANEL / 'state.js').as_uri())});"
        f"const {{ copyFor }} = await import({json.dumps((PANEL / 'copy.js').as_uri())});"
        "const c = JSON.parse(await new Response(process.stdin).text());"
        "const out = reshown(c.prose, c.before, c.after, copyFor(c.locale).number, c.context);"
        "console.log(JSON.stringify(out));"
    )
    case = {"prose": prose, "before": before, "after": after, "locale": locale, "context": context}
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps(case),
        capture_output=True,
        text=True,
        timeout=NODE_TIMEOUT_S,
        check=True,
    )
    result: str = json.loads(done.stdout)
    return result


@pytest.mark.parametrize(
    ("prose", "before", "after", "locale", "expected"),
    [
        pytest.param(
            "Harbor Tower has at least 173 photos. These 10 are shown as cards.",
            10,
            20,
            "en",
            "Harbor Tower has at least 173 photos. These 20 are shown as cards.",
            id="en",
        ),
        pytest.param(
            "これら10件をカードに表示しています。",
            10,
            20,
            "ja",
            "これら20件をカードに表示しています。",
            id="ja-counter-after-the-number",
        ),
        pytest.param(
            "Mindestens 3.000 Datensätze. Diese 990 werden als Karten gezeigt.",
            990,
            1000,
            "de",
            "Mindestens 3.000 Datensätze. Diese 1.000 werden als Karten gezeigt.",
            id="de-grouping",
        ),
    ],
)
def test_the_shown_number_moves_to_the_cards_now_on_screen(
    prose: str, before: int, after: int, locale: str, expected: str
) -> None:
    assert _reshown(prose, before, after, locale) == expected


@pytest.mark.parametrize(
    ("prose", "context"),
    [
        pytest.param(
            "These 10 are shown as cards; 10 of them are open.", {}, id="twice-in-the-prose"
        ),
        pytest.param(
            "Exactly 10 match. These 10 are shown as cards.", {}, id="also-a-count-in-the-prose"
        ),
        pytest.param(
            "The photos are on Level 10.",
            {"citations": [{"level": "Level 10", "title": "Rebar", "date": "2026-10-01"}]},
            id="inside-a-quoted-level",
        ),
        pytest.param(
            'At least 173 photos match "hard hats on level 10".', {}, id="inside-a-quotation"
        ),
        pytest.param(
            "The photos are on level 10.",
            {"citations": [{"level": "Level 10"}]},
            id="inside-a-level-in-another-case",
        ),
        pytest.param(
            "At least 10 records.",
            {"counts": [{"total": 10}]},
            id="the-number-is-a-total",
        ),
        pytest.param("No number was written here.", {}, id="no-shown-number"),
        pytest.param("These 110 are shown as cards.", {}, id="only-inside-a-larger-number"),
    ],
)
def test_a_number_that_may_be_something_else_is_left_as_the_server_wrote_it(
    prose: str, context: dict[str, Any]
) -> None:
    assert _reshown(prose, 10, 20, **context) == prose


def test_a_date_on_a_card_does_not_stop_the_shown_number_from_moving() -> None:
    cards = [{"level": "Level 3", "title": "Hard hat missing", "date": "2026-10-10"}]
    moved = _reshown("These 10 are shown as cards.", 10, 20, citations=cards)
    assert moved == "These 20 are shown as cards."
