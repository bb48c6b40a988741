"""No id a server never made reaches a store: NUL and other control bytes, slashes,
spaces and over-long ids in any of the four id routes are 422 (or 404), never a 500,
on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from beacon.store.crypto import new_key_slot
from harness.chat_process import chat_env, chat_process
from harness.postgres import Cluster
from harness.stack import Stack

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("postgres-e2e")]

# An id with at least one byte no server id holds; NUL and the C0/C1 controls first.
CONTROL = st.characters(categories=["Cc"])
hostile_ids = st.builds(
    lambda head, bad, tail: head + bad + tail,
    st.text(alphabet="ts_0123456789abcdef", max_size=12),
    st.one_of(CONTROL, st.sampled_from(["\x00", "%00", " ", "/x", "é", "\u202e"])),
    st.text(max_size=12),
) | st.text(alphabet="ab", min_size=65, max_size=80)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def client(
    request: pytest.FixtureRequest, stack: Stack, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[httpx.Client]:
    """One kept-alive client per store, with one bearer: the examples' round trips
    are the four id routes only (a token minted and a connection opened per example
    made this test ten times slower in a busy run than alone)."""
    data = tmp_path_factory.mktemp(request.param)
    overrides = {"BEACON_KEYS": new_key_slot("ids")}
    if request.param == "postgresql":
        cluster: Cluster = request.getfixturevalue("pg_cluster")
        overrides["BEACON_DB"] = cluster.create_database(f"ids_{data.name}")
    headers = {"Authorization": f"Bearer {stack.token(sub='ids')}"}
    with (
        chat_process(chat_env(stack, Path(data), **overrides)) as (url, _),
        httpx.Client(base_url=url, headers=headers, timeout=30) as client,
    ):
        yield client


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(bad=hostile_ids)
@example(bad="\x7f/")  # a trailing (escaped) slash was a 307 to the id's route
def test_an_id_no_server_made_is_refused_on_every_id_route(client: httpx.Client, bad: str) -> None:
    quoted = quote(bad, safe="")
    replies = [
        client.get(f"/v1/turns/{quoted}/events"),
        client.post(f"/v1/turns/{quoted}/more", json={"slot": "search#1"}),
        client.post(f"/v1/turns/{quoted}/feedback", json={"rating": "up"}),
        client.get(f"/v1/sessions/{quoted}"),
    ]
    for reply in replies:
        assert reply.status_code in (404, 422), (bad, reply.request.url, reply.text[:300])
