"""The server's pruning task (``beacon/server/retention.py``): its rules on stderr
when the process stands, a pass at its interval in a worker thread beside the
loop, a failed pass logged and tried again, and a stop that ends it. What a pass
deletes is the store's (suites/unit/test_retention.py)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import anyio
import pytest

from beacon.server.retention import PruningTask
from beacon.store.crypto import parse_keys
from beacon.store.opening import open_store
from beacon.store.retention import Retention, retention_now
from beacon.store.turns import TurnStore

WAIT_S = 10.0  # a hard bound on each wait: a pass due every 10 ms comes long before


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TurnStore]:
    opened = open_store(str(tmp_path / "beacon.sqlite3"), parse_keys("k1:" + "A" * 43 + "="))
    yield opened
    opened.close()


def _clock(calls: list[int], failing: int = 0) -> tuple[Callable[[], float], threading.Event]:
    """A pass's clock that counts its readings (one per pass), raises on the first
    ``failing`` ones, and says when a pass got past it."""
    passed = threading.Event()

    def now() -> float:
        calls.append(1)
        if len(calls) <= failing:
            raise OSError("the clock is away")
        passed.set()
        return retention_now()

    return now, passed


async def test_the_rules_are_printed_when_the_process_stands_and_a_pass_runs_at_its_interval(
    store: TurnStore, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[int] = []
    now, passed = _clock(calls)
    task = PruningTask(store, Retention(interval_s=0.01), now=now)
    task.start()
    assert capsys.readouterr().err.startswith("retention: sessions and turns 365 days")
    with anyio.fail_after(WAIT_S):
        assert await anyio.to_thread.run_sync(passed.wait, WAIT_S)
    with anyio.fail_after(WAIT_S):
        await task.stop()


async def test_a_failed_pass_is_logged_and_tried_again_at_the_next_interval(
    store: TurnStore, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[int] = []
    now, passed = _clock(calls, failing=1)
    task = PruningTask(store, Retention(interval_s=0.01), now=now)
    with caplog.at_level(logging.ERROR, logger="beacon.server.retention"):
        task.start()
        with anyio.fail_after(WAIT_S):
            assert await anyio.to_thread.run_sync(passed.wait, WAIT_S)
        with anyio.fail_after(WAIT_S):
            await task.stop()
    assert len(calls) >= 2
    assert "the retention pass failed; trying again" in caplog.text


async def test_pruning_off_in_the_server_says_so_and_runs_no_pass(
    store: TurnStore, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[int] = []
    now, passed = _clock(calls)
    task = PruningTask(store, Retention(interval_s=0), now=now)
    task.start()
    # A pass would come at once (no interval to wait): half a second of none is none.
    assert not await anyio.to_thread.run_sync(passed.wait, 0.5)
    await task.stop()
    assert "pruning off in the server" in capsys.readouterr().err
    assert calls == [] and task.passes == []
