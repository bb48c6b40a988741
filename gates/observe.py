"""``beacon gate observe``: may a change be called done?

Exit codes are the contract (one table, ``harness.gate_exits``, shown by
``--help``). The JUnit record is read whole: one failed or errored case, a
suite-level error, or a file that is not JUnit is failing evidence. One bypass
flag, ``--bypass REASON``, overrides a stale sweep and nothing else: on green
evidence the gate opens and stamps who, why and when into
``reports/gates/observe.json``; on failing evidence it is refused in one line
and nothing is stamped.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from harness.gate_exits import exit_codes_line
from harness.gating import (
    DEFAULT_JUNIT,
    decide_observe,
    gate_args,
    report_decision,
)

# What this gate runs (the caller check reads it): it judges, it does not re-run.
INVOKES: tuple[str, ...] = ()


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="beacon gate observe", description=__doc__, epilog=exit_codes_line()
    )
    p.add_argument("--root", type=Path, default=Path.cwd())
    p.add_argument("--junit", type=Path, default=None)
    p.add_argument("--bypass", metavar="REASON", default=None)
    return p


def main(argv: list[str] | None = None) -> int:
    args = gate_args(parser(), argv)
    if isinstance(args, int):
        return args
    root = args.root.resolve()
    junit = args.junit or root / DEFAULT_JUNIT
    return report_decision(root, decide_observe(root, junit, args.bypass))


if __name__ == "__main__":
    raise SystemExit(main())
