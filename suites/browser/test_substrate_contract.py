"""The e2e substrate is green: the installed build streams each scenario's
frames over real HTTP/SSE, fails closed without a bearer, and carries every
field the browser specs assert on in the DOM. If this is red, the specs skip
with the clauses that failed."""

from __future__ import annotations

import pytest
from browser_substrate import SubstrateVerdict

pytestmark = [pytest.mark.e2e]


def test_the_substrate_streams_scenarios_fails_closed_and_carries_every_dom_field(
    substrate: SubstrateVerdict,
) -> None:
    assert substrate.ok, substrate.why
