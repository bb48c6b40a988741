"""A serving process keeps its start-up heap out of the collector's sight and runs
young collections less often (``beacon.server.app.settle_collector``, issue 32).

Run in a child process: freezing the heap is a process-wide change the test
runner must not take on.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from beacon.store.crypto import new_key_slot

# What the child prints: the frozen objects and the young generation's threshold,
# before the uvicorn factory built the app and after.
CHILD = """
import gc
from beacon.server.app import app_from_env
print(gc.get_freeze_count(), gc.get_threshold()[0])
app_from_env()
print(gc.get_freeze_count(), gc.get_threshold()[0])
"""


def test_the_served_apps_factory_freezes_the_start_up_heap_and_widens_the_young_generation(
    tmp_path: Path,
) -> None:
    env = {
        **os.environ,
        "BEACON_MCP_URL": "http://127.0.0.1:9/mcp",
        "BEACON_LLM_BASE_URL": "http://127.0.0.1:9/v1",
        "BEACON_JWKS": "http://127.0.0.1:9/.well-known/jwks.json",
        "BEACON_DB": str(tmp_path / "beacon.sqlite3"),
        "BEACON_KEYS": new_key_slot("t1"),
    }
    done = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    (frozen_before, young_before), (frozen_after, young_after) = (
        tuple(int(n) for n in line.split()) for line in done.stdout.splitlines()
    )
    assert (frozen_before, young_before) == (0, 700)  # CPython's defaults
    assert frozen_after > 50_000  # modules, models and the app: ~150k objects
    assert young_after >= 10_000
