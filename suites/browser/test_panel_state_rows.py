"""Every row of the panel state table (beacon/panel/state_table.js), executed through
the real reducer in Node: legal rows reach their state, illegal rows leave the
state object untouched and carry a named reason. The expected transitions are
read from suites/golden/panel_states.yaml, written apart from the table."""

from __future__ import annotations

import json
import os
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from harness.table_mutation import load_golden

REPO = Path(__file__).resolve().parents[2]
PANEL = REPO / "beacon" / "panel"
DRIVER = Path(__file__).with_name("table_driver.js")
NODE_TIMEOUT_S = 30


def driven_rows() -> dict[str, dict[str, Any]]:
    # `python -m harness.table_mutation` points this at a copy of the panel with one
    # legal cell retargeted; the tests must then fail.
    return _driven(os.environ.get("BEACON_TABLE_MUTATION_PANEL", str(PANEL)))


@cache
def _driven(panel: str) -> dict[str, dict[str, Any]]:
    script = (
        "const fs = await import('node:fs');"
        f"const drive = eval(fs.readFileSync({json.dumps(str(DRIVER))}, 'utf8'));"
        f"console.log(JSON.stringify(await drive({json.dumps(Path(panel).as_uri() + '/')})));"
    )
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=NODE_TIMEOUT_S,
        check=True,
    )
    return {row["id"]: row for row in json.loads(out.stdout)}


ROW_IDS = sorted(driven_rows())
GOLDEN = {row.id: row for row in load_golden("panel_states").rows}


def test_the_table_has_exactly_the_golden_file_rows() -> None:
    assert set(driven_rows()) == set(GOLDEN)
    assert len(GOLDEN) == 231


def test_the_table_has_eleven_states_twenty_one_events_and_mostly_illegal_rows() -> None:
    rows = driven_rows().values()
    assert len(rows) == 11 * 21
    assert len({r["id"].split("--")[0] for r in rows}) == 11
    assert sum(not r["legal"] for r in rows) > len(rows) / 2


@pytest.mark.parametrize("row_id", ROW_IDS)
def test_each_row_does_what_the_table_says(row_id: str) -> None:
    row, golden = driven_rows()[row_id], GOLDEN[row_id]
    assert (row["legal"], row["expectedTo"]) == (golden.legal, golden.target), row
    assert (row["stepLegal"], row["stepTo"]) == (golden.legal, golden.target), row
    if golden.legal:
        assert row["reachedPhase"] == golden.target, row
        assert not row["untouched"], row
    else:
        assert row["untouched"], row
        assert row["reason"] and row["stepReason"] == row["reason"], row
