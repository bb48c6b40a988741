"""After "Load more" the answer's shown-set number names the cards on screen (issue 19),
moved exactly where the server marked it (``done.shown_spans``, issue 29) — never found
by searching the prose for a number. Run in Node on the panel's own modules."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

PANEL = Path(__file__).resolve().parents[2] / "beacon" / "panel"
NODE_TIMEOUT_S = 30


def _node(script: str, case: dict[str, Any]) -> Any:
    head = (
        f"const S = await import({json.dumps((PANEL / 'reducer.js').as_uri())});"
        f"const {{ copyFor }} = await import({json.dumps((PANEL / 'copy.js').as_uri())});"
        "const c = JSON.parse(await new Response(process.stdin).text());"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", head + script],
        input=json.dumps(case),
        capture_output=True,
        text=True,
        timeout=NODE_TIMEOUT_S,
        check=True,
    )
    return json.loads(done.stdout)


def span(slot: str, prose: str, number: str, sentence: str) -> dict[str, Any]:
    """A span as the server sends it: code points of ``number`` inside ``sentence``."""
    # Python's str indexes code points, as the wire does.
    begin = prose.index(sentence)
    start = begin + sentence.index(number)
    return {
        "slot": slot,
        "start": start,
        "end": start + len(number),
        "sentence_start": begin,
        "sentence_end": begin + len(sentence),
    }


def loaded(
    prose: str, spans: list[dict[str, Any]], before: int, after: int, locale: str = "en"
) -> dict[str, Any]:
    """The state after a page for slot c1 took its cards from ``before`` to ``after``."""
    script = (
        "const state = {...S.initialState(), phase: 'complete-sample', prose: c.prose,"
        " shown: c.spans, counts: [{slot: 'c1', source: 'search_photos', displayed: c.before,"
        " total: 3000, total_is_lower_bound: true, has_more: true, grade: 'LOWER_BOUND'}]};"
        "const count = {...state.counts[0], displayed: c.after};"
        "const out = S.moreLoaded(state, {slot: 'c1', citations: [], count, notices: []},"
        " {number: copyFor(c.locale).number});"
        "console.log(JSON.stringify({prose: out.prose, shown: out.shown}));"
    )
    case = {"prose": prose, "spans": spans, "before": before, "after": after, "locale": locale}
    result: dict[str, Any] = _node(script, case)
    return result


@pytest.mark.parametrize(
    ("prose", "number", "sentence", "after", "locale", "expected"),
    [
        pytest.param(
            "Harbor Tower has at least 173 photos. The first 10 are shown below as cards.",
            "10",
            "The first 10 are shown below as cards.",
            20,
            "en",
            "Harbor Tower has at least 173 photos. The first 20 are shown below as cards.",
            id="en",
        ),
        pytest.param(
            "写真は少なくとも173枚です。まず10枚を下のカードに表示しています。",
            "10",
            "まず10枚を下のカードに表示しています。",
            20,
            "ja",
            "写真は少なくとも173枚です。まず20枚を下のカードに表示しています。",
            id="ja-counter-after-the-number",
        ),
        pytest.param(
            "Mindestens 3.000 Fotos. Die ersten 990 stehen unten als Karten.",
            "990",
            "Die ersten 990 stehen unten als Karten.",
            1000,
            "de",
            "Mindestens 3.000 Fotos. Die ersten 1.000 stehen unten als Karten.",
            id="de-grouping",
        ),
    ],
)
def test_the_shown_number_at_its_span_moves_to_the_cards_now_on_screen(
    prose: str, number: str, sentence: str, after: int, locale: str, expected: str
) -> None:
    out = loaded(prose, [span("c1", prose, number, sentence)], 1, after, locale)
    assert out["prose"] == expected
    (moved,) = out["shown"]
    written = {20: "20", 1000: "1.000"}[after]  # in the locale's grouping
    assert expected[moved["start"] : moved["end"]] == written
    assert expected[moved["sentence_start"] : moved["sentence_end"]] == sentence.replace(
        number, written
    )


@pytest.mark.parametrize(
    ("prose", "number_at", "sentence", "expected"),
    [
        pytest.param(
            "10 of them are open. The first 10 are shown below as cards.",
            "The first 10",
            "The first 10 are shown below as cards.",
            "10 of them are open. The first 20 are shown below as cards.",
            id="the-same-number-earlier-in-the-prose",
        ),
        pytest.param(
            "Exactly 10 match on Level 10. The cards below show 10 of them.",
            "show 10",
            "The cards below show 10 of them.",
            "Exactly 10 match on Level 10. The cards below show 20 of them.",
            id="a-count-and-a-level-with-the-same-number",
        ),
        pytest.param(
            'At least 173 photos match "hard hats on level 10". The first 10 are shown below.',
            "first 10",
            "The first 10 are shown below.",
            'At least 173 photos match "hard hats on level 10". The first 20 are shown below.',
            id="the-same-number-inside-a-quotation",
        ),
    ],
)
def test_only_the_marked_number_moves_whatever_else_reads_the_same(
    prose: str, number_at: str, sentence: str, expected: str
) -> None:
    begin = prose.index(sentence)
    start = prose.index(number_at, begin) + number_at.index("10")
    marked = {
        "slot": "c1",
        "start": start,
        "end": start + 2,
        "sentence_start": begin,
        "sentence_end": begin + len(sentence),
    }
    out = loaded(prose, [marked], 10, 20)
    assert out["prose"] == expected
    assert out["shown"] == [{**marked}]  # "10" → "20": nothing moves


def test_without_spans_the_prose_is_left_as_the_server_wrote_it() -> None:
    prose = "Harbor Tower has at least 173 photos. These 10 are shown as cards."
    assert loaded(prose, [], 10, 20)["prose"] == prose


def test_a_span_after_a_number_that_grew_moves_with_it() -> None:
    prose = "Die ersten 990 stehen unten. Auch 990 Pläne."
    first = {"slot": "c1", "start": 11, "end": 14, "sentence_start": 0, "sentence_end": 28}
    other = {"slot": "c2", "start": 34, "end": 37, "sentence_start": 29, "sentence_end": 44}
    out = loaded(prose, [first, other], 990, 1000, "de")
    assert out["prose"] == "Die ersten 1.000 stehen unten. Auch 990 Pläne."
    assert out["shown"] == [
        {"slot": "c1", "start": 11, "end": 16, "sentence_start": 0, "sentence_end": 30},
        {"slot": "c2", "start": 36, "end": 39, "sentence_start": 31, "sentence_end": 46},
    ]


def done_state(answer: str, spans: Any, streamed: str | None = None) -> list[Any]:
    """The panel state's spans after a turn whose done frame carried ``spans``."""
    script = (
        "let s = S.sending(S.initialState());"
        "const frames = [['start', {turn_id: 't_1', seq: 1, session_id: null}],"
        " ['references', {turn_id: 't_1', seq: 2, citations: [], counts: [], complete: false}]];"
        "if (c.streamed !== null)"
        " frames.push(['delta', {turn_id: 't_1', seq: 3, text: c.streamed}]);"
        "frames.push(['done', {turn_id: 't_1', seq: 4, finish_reason: 'stop', answer: c.answer,"
        " shown_spans: c.spans}]);"
        "for (const [type, data] of frames) s = S.reduce(s, {type, data});"
        "console.log(JSON.stringify(s.shown));"
    )
    result: list[Any] = _node(script, {"answer": answer, "spans": spans, "streamed": streamed})
    return result


def test_the_done_frames_spans_are_kept_when_they_fit_the_answer() -> None:
    answer = "これら10件を表示しています。"
    marked = {"slot": "c1", "start": 3, "end": 5, "sentence_start": 0, "sentence_end": 15}
    assert done_state(answer, [marked]) == [marked]
    assert done_state(answer, [marked], streamed=answer) == [marked]


def _span(slot: str | None, start: int, end: int, first: int, last: int) -> dict[str, Any]:
    fields = {"start": start, "end": end, "sentence_start": first, "sentence_end": last}
    return fields if slot is None else {"slot": slot, **fields}


@pytest.mark.parametrize(
    "spans",
    [
        pytest.param([_span("c1", 3, 99, 0, 99)], id="past-the-end"),
        pytest.param([_span("c1", 5, 3, 0, 9)], id="backwards"),
        pytest.param([_span(None, 3, 5, 0, 9)], id="no-slot"),
        pytest.param(None, id="an-older-server-sends-none"),
    ],
)  # fmt: skip
def test_spans_that_do_not_fit_the_answer_are_dropped(spans: Any) -> None:
    assert done_state("These 10 are shown.", spans) == []


def test_spans_for_another_text_than_the_streamed_prose_are_dropped() -> None:
    marked = {"slot": "c1", "start": 6, "end": 8, "sentence_start": 0, "sentence_end": 19}
    # The span fits the streamed text's length, but it indexes another text.
    streamed = "Something else was streamed here."
    assert done_state("These 10 are shown.", [marked], streamed=streamed) == []
