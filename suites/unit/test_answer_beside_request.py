"""The answer request goes out before the frames that precede the answer's text are
made (issue 32): the references, notices and page records are Beacon's CPU work
that the answer call does not read, so they are done while the model works, not
before it is asked.

``answer._answered`` is driven with a fake answer call that logs when its request
is out and when its answer is read; the frames are the real ``announce``'s.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

import beacon.loop.answer as answer_module
from beacon.loop.answer import Derived, _answered
from beacon.loop.finalize import FinalAnswer, FinalizationError

NOTHING = Derived(counted=(), listed=None, released=False, records=())


def _state(log: list[str]) -> Any:
    async def pause() -> None:
        log.append("paused")

    return SimpleNamespace(
        deps=SimpleNamespace(pause=pause, http=None, llm=None, answer_deadline_s=5.0),
        scenario=None,
        turn_id="t_1",
        evidence=[],
        constraints=(),
        locale="en",
        paged={},
        made=[],
        session_id=None,
        turn_block="",
        conversation=[],
        request=SimpleNamespace(message="How many open findings are there?"),
        emit=lambda frame_type, **_: log.append(f"frame {frame_type}"),
    )


def _answer_call(log: list[str], *, fails: bool = False) -> Any:
    async def finalize(*_: Any, **__: Any) -> FinalAnswer:
        log.append("answer request out")
        if fails:
            raise FinalizationError("answer_refused", "no")
        try:
            await asyncio.sleep(0.01)  # the model at work
        except asyncio.CancelledError:
            log.append("answer request cancelled")
            raise
        log.append("answer read")
        return FinalAnswer("Three.", "stop", 1)

    return finalize


def test_the_answer_request_is_out_before_the_references_are_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log: list[str] = []
    monkeypatch.setattr(answer_module, "finalize", _answer_call(log))
    final, prepared = asyncio.run(_answered(_state(log), NOTHING, narrowed=True))
    assert final.text == "Three." and prepared.pages == {} and prepared.tool_calls == []
    assert log == ["paused", "answer request out", "frame references", "answer read"]


def test_a_failed_answer_request_still_follows_its_references(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log: list[str] = []
    monkeypatch.setattr(answer_module, "finalize", _answer_call(log, fails=True))
    with pytest.raises(FinalizationError):
        asyncio.run(_answered(_state(log), NOTHING, narrowed=True))
    assert log == ["paused", "answer request out", "frame references"]


def test_work_that_fails_beside_the_request_takes_the_request_with_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log: list[str] = []
    monkeypatch.setattr(answer_module, "finalize", _answer_call(log))

    def broken(*_: Any, **__: Any) -> None:
        raise RuntimeError("references could not be made")

    monkeypatch.setattr(answer_module, "references", broken)
    with pytest.raises(RuntimeError):
        asyncio.run(_answered(_state(log), NOTHING, narrowed=True))
    assert log == ["paused", "answer request out", "answer request cancelled"]
