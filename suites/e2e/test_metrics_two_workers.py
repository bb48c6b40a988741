"""`beacon serve --workers 2` on PostgreSQL: `/metrics` from either worker is the sum
of both (prometheus_client's multiprocess mode, in a directory `beacon serve` makes
and removes)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psycopg
import pytest

from beacon.store.crypto import new_key_slot
from harness.chat_process import chat_env, chat_process
from harness.stack import Stack
from harness.turn_streams import PANORAMAS, frames_of, post

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("postgres-e2e")]


def _sample(text: str, name: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"{name} not in the scrape")


def test_every_scrape_of_two_workers_counts_the_turns_of_both(
    stack: Stack, pg_url: str, tmp_path: Path
) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = chat_env(
        stack, tmp_path, BEACON_DB=pg_url, BEACON_KEYS=new_key_slot("m2"), TMPDIR=str(temp)
    )
    token = stack.token(sub="metrics-workers")
    with chat_process(env, "--workers", "2") as (url, _):
        # The supervisor made one directory for its workers' series.
        assert [p.name.startswith("beacon-metrics-") for p in temp.iterdir()] == [True]

        def last_event(_: int) -> str:
            return frames_of(post(url, token, PANORAMAS).content)[-1].event

        turns, workers = 0, 0
        deadline = time.monotonic() + 60
        while workers < 2 and time.monotonic() < deadline:
            with ThreadPoolExecutor(max_workers=8) as pool:
                assert set(pool.map(last_event, range(16))) == {"done"}
            turns += 16
            with psycopg.connect(pg_url) as conn:
                row = conn.execute("SELECT COUNT(DISTINCT worker) FROM turns").fetchone()
            workers = row[0] if row else 0
        assert workers == 2  # both workers ran turns
        scrapes = [httpx.get(f"{url}/metrics", timeout=10).text for _ in range(12)]
        for text in scrapes:  # whichever worker answers, it reports both
            assert _sample(text, "beacon_turns_started_total") == turns
            assert _sample(text, 'beacon_turns_ended_total{code="ok",terminal="done"}') == turns
            assert _sample(text, "beacon_turn_first_frame_seconds_count") == turns
    assert list(temp.iterdir()) == []  # removed when the workers stopped
