"""The hub publishes a turn's frames as they come and saves them whole with the
terminal, which it publishes only once they are saved."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

from beacon.loop.frames import Frame, FrameMaker
from beacon.server.hub import LiveTurn, TurnHub


def _frames(maker: FrameMaker, *, terminal: bool = True) -> list[Frame]:
    made = [
        maker.make("start", session_id=None, mode="single"),
        maker.make("references", citations=[], counts=[], complete=False),
    ]
    if terminal:
        made.append(maker.make("done", finish_reason="stop", answer="Hello."))
    return made


async def _run(frames: list[Frame], persist_fails: bool = False) -> tuple[list[str], list[int]]:
    """(events in order, frames per save); the save blocks until the test lets it go."""
    events: list[str] = []
    saved: list[int] = []
    release = asyncio.Event()
    live = LiveTurn("t1", "u")

    async def persist(held: Sequence[Frame]) -> None:
        events.append(f"save:{len(held)} with {live.published} published")
        await release.wait()
        saved.append(len(held))
        if persist_fails:
            raise OSError("disk full")

    async def source() -> AsyncIterator[Frame]:
        for frame in frames:
            yield frame

    async def follow() -> None:
        async for chunk in live.follow(0):
            events.extend(
                f"pub:{line[7:]}"
                for line in chunk.decode().split("\n")
                if line.startswith("event: ")
            )

    hub = TurnHub()
    follower = asyncio.create_task(follow())
    hub.start(live, source(), persist)
    for _ in range(20):
        await asyncio.sleep(0)
    release.set()
    await hub.drain()
    await follower
    return events, saved


def test_frames_stream_at_once_and_the_terminal_waits_for_the_whole_turn_to_be_saved() -> None:
    events, saved = asyncio.run(_run(_frames(FrameMaker("t1"))))
    assert events[0] == "save:3 with 2 published"  # start and references went out at once
    assert events[1:] == ["pub:start", "pub:references", "pub:done"]
    assert saved == [3]  # one save: every frame, terminal included


def test_a_failing_store_still_lets_the_terminal_through() -> None:
    events, _ = asyncio.run(_run(_frames(FrameMaker("t1")), persist_fails=True))
    assert events[-1] == "pub:done"


def test_a_turn_that_ends_without_a_terminal_keeps_what_it_said() -> None:
    events, saved = asyncio.run(_run(_frames(FrameMaker("t1"), terminal=False)))
    assert events[0] == "save:2 with 2 published" and saved == [2]
