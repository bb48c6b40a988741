"""``python -m bench``: every bench in order, each on its own stack, figures printed.

``--json-dir DIR`` also writes each bench's figures to ``DIR/<name>.json``
(``make bench`` uses ``reports/bench``). Exits non-zero when a bench's run was
not valid (a failed turn, frames lost, a relay that did not replay the same
traffic); a missed performance goal is reported, never a failure.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import (
    breakdown,
    concurrency,
    gauge,
    load,
    model_input,
    new_questions,
    paced,
    restart,
    timeline,
    turn_overhead,
)
from bench.common import write_json

BENCHES: tuple[
    tuple[str, Callable[[], dict[str, Any]], Callable[[dict[str, Any]], list[str]]], ...
] = (
    (turn_overhead.NAME, turn_overhead.run, turn_overhead.lines),
    (paced.NAME, paced.run, paced.lines),
    (timeline.NAME, timeline.run, timeline.lines),
    (breakdown.NAME, breakdown.run, breakdown.lines),
    (new_questions.NAME, new_questions.run, new_questions.lines),
    (concurrency.NAME, concurrency.run, concurrency.lines),
    (model_input.NAME, model_input.run, model_input.lines),
    (load.NAME, load.run, load.lines),
    (restart.NAME, restart.run, restart.lines),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--json-dir", type=Path, default=None)
    parser.add_argument("--only", action="append", default=None, help="run only this bench")
    args = parser.parse_args(argv)
    failed: list[str] = []
    for name, run, lines in BENCHES:
        if args.only and name not in args.only:
            continue
        # Other work on the machine shares the cores, and a core's own speed moves
        # by the hour (bench/gauge.py): both are part of the record.
        load = [round(x, 2) for x in os.getloadavg()]
        core = gauge.core_ms()
        started = time.perf_counter()
        try:
            figures = run()
        except Exception as exc:
            print(f"{name}: FAILED: {exc!r}", flush=True)
            failed.append(name)
            continue
        figures["bench_seconds"] = round(time.perf_counter() - started, 2)
        figures["load_average_before"] = load
        figures["core_ms_before"] = core
        print("\n".join(lines(figures)), flush=True)
        print(
            f"  ({name} took {figures['bench_seconds']:.1f} s;"
            f" load average before {load[0]:.2f} on {os.cpu_count()} cores;"
            f" a core's pace before {core:.1f} ms for {gauge.STEPS:,} steps)\n",
            flush=True,
        )
        if args.json_dir is not None:
            write_json(args.json_dir, name, figures)
        if not figures.get("ok", False):
            failed.append(name)
    if failed:
        print(f"invalid bench runs: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
