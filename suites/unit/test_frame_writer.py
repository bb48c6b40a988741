"""The frame writer commits on the event loop (a SQLite batch at once, in the
publisher's own step) and leaves WAL checkpoints to a worker thread, now and then."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from beacon.loop.frames import FrameMaker
from beacon.server.writer import FrameWriter
from beacon.store.crypto import format_key, generate_key, parse_keys
from beacon.store.records import AnswerRows
from beacon.store.sqlite import SqliteStore


def test_a_busy_writer_checkpoints_the_wal_into_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SqliteStore, "CHECKPOINT_EVERY", 4)
    store = SqliteStore(tmp_path / "b.sqlite3", parse_keys(format_key("k1", generate_key())))
    store.open_turn("t1", owner="u", session_id=None, mode="single")
    maker = FrameMaker("t1")

    async def write_all() -> None:
        writer = FrameWriter(store)
        await writer.submit("t1", [maker.make("start", session_id=None, mode="single")])
        for _ in range(6):
            await writer.submit("t1", [maker.make("heartbeat")])
        await writer.close()  # waits for a checkpoint in flight

    database = tmp_path / "b.sqlite3"
    before = database.stat().st_size  # the frames so far live in the WAL only
    asyncio.run(write_all())
    assert store.frames_after("t1", 0)[0].startswith(b"event: start")
    assert not store.checkpoint_due()
    # The checkpoint moved the frames' pages into the database file itself. (Not a
    # copy of the file read alone: a PASSIVE checkpoint may stop partway behind a
    # reader, which leaves the file meaningful only together with its WAL.)
    assert database.stat().st_size >= before + 4096


def test_on_sqlite_a_batch_is_stored_before_submit_returns_and_a_refusal_is_its_own(
    tmp_path: Path,
) -> None:
    store = SqliteStore(tmp_path / "b.sqlite3", parse_keys(format_key("k1", generate_key())))
    store.open_turn("t1", owner="u", session_id=None, mode="single")
    maker, stranger = FrameMaker("t1"), FrameMaker("t2")  # t2 has no row: refused

    async def submit_both() -> tuple[bool, bool]:
        writer = FrameWriter(store)
        stored = writer.submit("t1", [maker.make("start", session_id=None, mode="single")])
        refused = writer.submit("t2", [stranger.make("start", session_id=None, mode="single")])
        # No pass of the loop between: the commit was made in the submitting step.
        settled = stored.done() and refused.done()
        in_store = len(store.frames_after("t1", 0)) == 1
        await stored
        with pytest.raises(Exception, match="t2"):
            await refused
        await writer.close()
        return settled, in_store

    assert asyncio.run(submit_both()) == (True, True)
    store.close()


def test_an_answer_is_stored_with_its_done_and_never_with_another_terminal(
    tmp_path: Path,
) -> None:
    store = SqliteStore(tmp_path / "b.sqlite3", parse_keys(format_key("k1", generate_key())))
    for turn_id in ("t1", "t2"):
        store.open_turn(turn_id, owner="u", session_id=None, mode="single")
    done, broken = FrameMaker("t1"), FrameMaker("t2")

    async def submit_both() -> None:
        writer = FrameWriter(store)
        for maker in (done, broken):
            opened = [
                maker.make("start", session_id=None, mode="single"),
                maker.make("references", citations=[], counts=[], complete=False),
            ]
            await writer.submit(maker.turn_id, opened)
        await writer.submit(
            "t1",
            [
                done.make("delta", text="Seven.", saves=AnswerRows("t1", "q", "Seven.")),
                done.make("done", finish_reason="stop", answer="Seven."),
            ],
        )
        # A bug's error after the answer's sentences: the turn did not end in `done`.
        await writer.submit(
            "t2",
            [
                broken.make("delta", text="Nine.", saves=AnswerRows("t2", "q", "Nine.")),
                broken.make("error", code="internal", message="the turn failed inside Beacon"),
            ],
        )
        await writer.close()

    asyncio.run(submit_both())
    assert store.answer("t1") == ("Seven.", [])
    assert store.answer("t2") is None and len(store.frames_after("t2", 0)) == 4
    store.close()
