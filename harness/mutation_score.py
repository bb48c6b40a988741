"""Read mutmut's results and print the kill rate; exit 1 under the floor.

``mutmut results`` lists one ``name: status`` line per mutant; the rate is
killed over all mutants that ran (timeouts count as killed: the mutant broke
the suite's time bound).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections import Counter
from pathlib import Path

KILLED = frozenset({"killed", "timeout"})


def tally(lines: list[str]) -> Counter[str]:
    statuses: Counter[str] = Counter()
    for line in lines:
        name, sep, status = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            statuses[status.strip()] += 1
    return statuses


def kill_rate(statuses: Counter[str]) -> float:
    total = sum(statuses.values())
    return 100.0 * sum(n for s, n in statuses.items() if s in KILLED) / total if total else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--floor", type=float, default=90.0)
    args = parser.parse_args(argv)
    mutmut = Path(sys.executable).with_name("mutmut")
    listed = subprocess.run(
        [str(mutmut), "results", "--all", "true"], capture_output=True, text=True, check=False
    )
    statuses = tally(listed.stdout.splitlines())
    if not statuses:
        print("no mutmut results: run `mutmut run` first", file=sys.stderr)
        return 1
    rate = kill_rate(statuses)
    detail = ", ".join(f"{status} {n}" for status, n in sorted(statuses.items()))
    print(f"mutation kill rate {rate:.1f}% over {sum(statuses.values())} mutants ({detail})")
    return 0 if rate >= args.floor else 1


if __name__ == "__main__":
    sys.exit(main())
