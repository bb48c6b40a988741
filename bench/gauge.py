"""How fast one core of the machine is right now, beside the load average.

The load average says whether other work shares the cores; it does not say how
fast a core runs. On these machines the same code runs a third slower in some
hours with nothing else running (on 2026-12-03 a 20,000,000-step loop of this
kind took 0.97–1.33 s between 10:20 and 11:20, load average ~0 each time, and the
suite's fresh-clone pytest 11 min 45 s at 10:24 against 8 min 52 s at 12:04 for
nearly the same code). So each bench also records the time one fixed piece of pure-Python
work took just before it: runs of different hours compare through it, and "an
idle machine" can be checked rather than assumed. The benches' figures stay
ratios within one run; this is only their context.
"""

from __future__ import annotations

import time
from collections.abc import Callable

# 55–120 ms on a core of these machines (2026-12-03); the best of three, so a moment's
# preemption does not read as a slow machine.
STEPS = 2_000_000
TRIES = 3


def _work(steps: int) -> int:
    total = 0
    for i in range(steps):
        total += i & 7
    return total


def core_ms(
    steps: int = STEPS, tries: int = TRIES, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Milliseconds one core takes for ``steps`` steps of a fixed loop (best of ``tries``)."""
    if steps < 1 or tries < 1:
        raise ValueError("steps and tries must be positive")
    best = float("inf")
    for _ in range(tries):
        started = clock()
        _work(steps)
        best = min(best, clock() - started)
    return round(best * 1000, 1)
