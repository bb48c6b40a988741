"""Verify's frame rules on bare frames (``harness.verify.turns``): the rules every verified
turn is held to, and the ones the benches judge their turns by."""

from __future__ import annotations

import json

from beacon.wire.sse import SseEvent
from harness.verify.turns import frame_problem, order_problem, seq_problem, terminal_problem


def _frame(seq: int, kind: str, *, data_seq: int | None = None, turn: str = "t_1") -> SseEvent:
    body = {"turn_id": turn, "seq": seq if data_seq is None else data_seq}
    return SseEvent(kind, str(seq), json.dumps(body))


def _turn(*kinds: str) -> list[SseEvent]:
    return [_frame(seq, kind) for seq, kind in enumerate(kinds, start=1)]


def test_seq_runs_one_two_three_without_a_gap_and_agrees_with_the_sse_id() -> None:
    assert seq_problem(_turn("start", "references", "delta", "done")) is None
    assert "seq goes from 1 to 3" in str(seq_problem([_frame(1, "start"), _frame(3, "done")]))
    assert "seq goes from 0 to 2" in str(seq_problem([_frame(2, "start"), _frame(3, "done")]))
    assert "seq goes from 2 to 2" in str(seq_problem([*_turn("start", "plan"), _frame(2, "done")]))
    disagreeing = [_frame(1, "start"), _frame(2, "done", data_seq=5)]
    assert "data.seq is 5" in str(seq_problem(disagreeing))
    assert "no numeric SSE id" in str(seq_problem([SseEvent("start", None, "{}")]))


def test_the_frames_of_one_stream_name_one_turn() -> None:
    mixed = [_frame(1, "start"), _frame(2, "done", turn="t_2")]
    assert "several turns" in str(seq_problem(mixed))


def test_start_comes_first_once_and_nothing_is_gathered_after_the_narration() -> None:
    assert order_problem(_turn("start", "plan", "tool_call", "references", "delta", "done")) is None
    assert "not start" in str(order_problem(_turn("plan", "start", "done")))
    assert "more than one start" in str(order_problem(_turn("start", "start", "done")))
    assert "2 references frames" in str(order_problem(_turn("start", "references", "references")))
    late = order_problem(_turn("start", "references", "delta", "tool_result", "done"))
    assert "gathered after the narration began: ['4 tool_result']" in str(late)


def test_exactly_one_terminal_and_it_is_the_last_frame() -> None:
    assert terminal_problem(_turn("start", "error")) is None
    assert "2 terminal frames" in str(terminal_problem(_turn("start", "done", "error")))
    assert "0 terminal frames" in str(terminal_problem(_turn("start", "plan")))
    assert "not the last frame" in str(terminal_problem(_turn("start", "done", "heartbeat")))


def test_a_stream_is_judged_by_its_first_broken_rule_and_an_empty_one_is_named() -> None:
    assert frame_problem([]) == "the stream carried no frame"
    assert frame_problem(_turn("start", "references", "delta", "done")) is None
    assert "seq goes from" in str(frame_problem([_frame(1, "plan"), _frame(3, "done")]))
    assert "not start" in str(frame_problem(_turn("plan", "start", "done")))
