"""The question quota without a server: the count on SQLite (one row per user and
day, a spend refused at the limit changes nothing), the token's claim read
strictly, and the stream of one process with a controllable clock — its first
event, a push per spend, and a push at the UTC reset."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from beacon.auth import TokenRejected, verify_with_keys
from beacon.auth.verify import Identity
from beacon.server.quota import Quota
from beacon.store.quota import SqliteQuota
from harness.forged_tokens import KEY_1, POLICY, mint

DAY = date(2026, 12, 2)


def identity(sub: str = "u1", questions_per_day: int | None = None) -> Identity:
    expires = datetime(2030, 1, 1, tzinfo=UTC)
    return Identity(sub, frozenset({"core"}), expires, questions_per_day)


def test_a_spend_at_the_limit_is_refused_and_a_new_day_is_a_new_row(tmp_path: Path) -> None:
    counts = SqliteQuota(str(tmp_path / "q.sqlite3"))
    assert [counts.spend("u1", DAY, 2) for _ in range(3)] == [1, 2, None]
    assert counts.spent(["u1", "u2"], DAY) == {"u1": 2, "u2": 0}
    assert counts.spend("u1", DAY + timedelta(days=1), 2) == 1
    assert counts.spend("u2", DAY, 0) is None  # a quota of none asks nothing
    assert counts.spent(["u2"], DAY) == {"u2": 0}
    counts.close()


@pytest.mark.parametrize("claim", [5, 0])
def test_a_whole_number_claim_is_the_users_quota(claim: int) -> None:
    token = mint(questions_per_day=claim)
    assert verify_with_keys(token, {"k1": KEY_1.public_key()}, POLICY).questions_per_day == claim


def test_a_token_without_the_claim_leaves_the_quota_to_the_server() -> None:
    assert verify_with_keys(mint(), {"k1": KEY_1.public_key()}, POLICY).questions_per_day is None


@pytest.mark.parametrize("claim", ["5", True, -1, 1.5, 10**7, None])
def test_a_claim_that_is_not_a_whole_number_refuses_the_token(claim: Any) -> None:
    with pytest.raises(TokenRejected):
        verify_with_keys(mint(questions_per_day=claim), {"k1": KEY_1.public_key()}, POLICY)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


async def _next_event(stream: AsyncIterator[bytes]) -> bytes:
    while True:
        chunk = await asyncio.wait_for(anext(stream), timeout=5)
        if chunk.startswith(b"event: "):
            return chunk


def test_the_stream_sends_the_count_on_connect_a_push_per_spend_and_the_reset(
    tmp_path: Path,
) -> None:
    clock = Clock(datetime(2026, 12, 2, 23, 59, 59, 500_000, tzinfo=UTC))
    quota = Quota(SqliteQuota(str(tmp_path / "q.sqlite3")), 3, now=clock, keep_alive_s=0.2)
    user = identity()

    async def scenario() -> list[bytes]:
        first = await quota.first(user)
        stream = quota.events(user, first)
        seen = [await _next_event(stream)]
        assert await quota.admit(user) is None
        seen.append(await _next_event(stream))
        clock.now += timedelta(seconds=1)  # past 00:00 UTC: a new day's count
        seen.append(await _next_event(stream))
        await stream.aclose()
        return seen

    seen = asyncio.run(scenario())
    quota.close()
    assert seen == [
        b'event: quota\ndata: {"remaining":3,"limit":3,"reset_at":"2026-12-03T00:00:00Z"}\n\n',
        b'event: quota\ndata: {"remaining":2,"limit":3,"reset_at":"2026-12-03T00:00:00Z"}\n\n',
        b'event: quota\ndata: {"remaining":3,"limit":3,"reset_at":"2026-12-04T00:00:00Z"}\n\n',
    ]


def test_a_stream_cancelled_while_it_waits_leaves_no_task_and_no_waiter_behind(
    tmp_path: Path,
) -> None:
    # A client that goes away cancels the stream where it waits (Starlette cancels the
    # response's task group): its wake-up tasks must go with it, not stay pending on the
    # process's stop signal until the server stops (one more per disconnect).
    quota = Quota(SqliteQuota(str(tmp_path / "q.sqlite3")), 3, keep_alive_s=30)
    user = identity()

    async def scenario() -> tuple[int, int]:
        stream = quota.events(user, await quota.first(user))
        await _next_event(stream)
        reading = asyncio.create_task(anext(stream))  # waits for a spend or a stop
        await asyncio.sleep(0.05)
        reading.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reading
        await asyncio.sleep(0)  # a cancelled task ends on the loop's next pass
        await stream.aclose()
        left = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        stopping = quota._stop_signal()
        return len(left), len(stopping._waiters)  # type: ignore[attr-defined]

    assert asyncio.run(scenario()) == (0, 0)
    quota.close()


def test_a_refusal_names_its_reset_and_the_seconds_until_it(tmp_path: Path) -> None:
    clock = Clock(datetime(2026, 12, 2, 23, 0, 0, tzinfo=UTC))
    quota = Quota(SqliteQuota(str(tmp_path / "q.sqlite3")), None, now=clock)
    user = identity(questions_per_day=1)

    async def twice() -> Any:
        assert await quota.admit(user) is None
        return await quota.admit(user)

    refused = asyncio.run(twice())
    quota.close()
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "3600"
    assert refused.body.startswith(b'{"error":{"code":"quota_exhausted"')
    assert b'"reset_at":"2026-12-03T00:00:00Z"' in refused.body
