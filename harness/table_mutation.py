"""Table mutation: every legal row's target is changed in turn, and a test must fail.

The expected transitions of each table live apart from the table, in a reviewed
golden file (``suites/golden/<table>.yaml``, written from SPEC's rules). This
check proves the table tests read them: for each legal row of each table it
edits the row's target in the table's own source data (as an edit of that line
would), rebuilds the table and its index with the module's own builder, runs
the table's tests in-process, and requires at least one failure. The original
table is restored after every mutant.

The panel's JS table (``beacon/panel/state_table.js``) is mutated the same way in a
copy of the panel that its row tests are pointed at (one retarget per legal cell).

``python -m harness.table_mutation [--all-targets] [--table NAME] [--json PATH]``
prints rows mutated / caught per table and exits 1 when any mutant survived (or
the unmutated tests fail). ``--all-targets`` tries every other state per legal
row of the Python tables instead of one.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import importlib
import io
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
GOLDEN_DIR = REPO / "suites" / "golden"


@dataclass(frozen=True, slots=True)
class GoldenRow:
    """One expected transition: ``to`` is ``from`` for an illegal row."""

    id: str
    source: str
    event: str
    legal: bool
    target: str


@dataclass(frozen=True, slots=True)
class Golden:
    table: str
    states: tuple[str, ...]
    events: tuple[str, ...]
    rows: tuple[GoldenRow, ...]


def load_golden(name: str, directory: Path = GOLDEN_DIR) -> Golden:
    """Read ``<directory>/<name>.yaml``; malformed files raise ``ValueError``."""
    raw = yaml.safe_load((directory / f"{name}.yaml").read_text(encoding="utf-8"))
    if not isinstance(raw, dict) or raw.get("table") != name:
        raise ValueError(f"golden file {name}.yaml does not name its table")
    states = tuple(str(s) for s in raw["states"])
    events = tuple(str(e) for e in raw["events"])
    rows: list[GoldenRow] = []
    for item in raw["rows"] if "rows" in raw else _expand(raw, states, events):
        row = GoldenRow(
            id=str(item["id"]),
            source=str(item["from"]),
            event=str(item["event"]),
            legal=bool(item["legal"]),
            target=str(item["to"]),
        )
        if row.source not in states or row.target not in states or row.event not in events:
            raise ValueError(f"golden row {row.id} names an unknown state or event")
        if not row.legal and row.target != row.source:
            raise ValueError(f"illegal golden row {row.id} moves the state")
        rows.append(row)
    ids = [r.id for r in rows]
    cells = [(r.source, r.event) for r in rows]
    if len(set(ids)) != len(ids) or len(set(cells)) != len(cells):
        raise ValueError(f"golden file {name}.yaml repeats a row id or a cell")
    if set(cells) != {(s, e) for s in states for e in events}:
        raise ValueError(f"golden file {name}.yaml does not cover every (state, event) cell")
    return Golden(name, states, events, tuple(rows))


def _expand(raw: dict[str, Any], states: Sequence[str], events: Sequence[str]) -> list[Any]:
    """The compact form: only the legal cells (``legal: {from: {event: to}}``) are
    written; every other cell is an illegal row that stays; ids by ``id_format``."""
    legal: dict[str, dict[str, str]] = raw["legal"]
    if set(legal) - set(states):
        raise ValueError("a legal cell names an unknown state")
    form = str(raw["id_format"])
    return [
        {
            "id": form.format(**{"from": state, "event": event}),
            "from": state,
            "event": event,
            "legal": event in legal.get(state, {}),
            "to": legal.get(state, {}).get(event, state),
        }
        for state in states
        for event in events
    ]


# ---------------------------------------------------------------- the tables


@dataclass(frozen=True, slots=True)
class TableSpec:
    name: str
    module: str
    table_attr: str
    state_enum: str
    tests: tuple[str, ...]
    # Rebuilds the table from source data in which the legal row at (state, event)
    # points at ``target`` instead; returns the rebuilt rows.
    rebuild: Callable[[ModuleType, Any, Any, Any], tuple[Any, ...]]


def _rebuild_frames(mod: ModuleType, state: Any, event: Any, target: Any) -> tuple[Any, ...]:
    legal = dict(vars(mod)["_LEGAL"])
    legal[(state, event)] = (target, legal[(state, event)][1])
    vars(mod)["_LEGAL"] = legal
    rows: tuple[Any, ...] = vars(mod)["_build"]()
    return rows


def _rebuild_from_legal_rows(
    builder: str,
) -> Callable[[ModuleType, Any, Any, Any], tuple[Any, ...]]:
    def rebuild(mod: ModuleType, state: Any, event: Any, target: Any) -> tuple[Any, ...]:
        source_rows = tuple(
            (rid, src, ev, target if (src, ev) == (state, event) else dst)
            for rid, src, ev, dst in vars(mod)["LEGAL_ROWS"]
        )
        vars(mod)["LEGAL_ROWS"] = source_rows
        rows: tuple[Any, ...] = getattr(mod, builder)()
        return rows

    return rebuild


TABLES: tuple[TableSpec, ...] = (
    TableSpec(
        "frame_table",
        "beacon.loop.frame_table",
        "FRAME_TABLE",
        "TurnState",
        ("suites/unit/test_frame_table.py",),
        _rebuild_frames,
    ),
    TableSpec(
        "subset_gate",
        "beacon.adjudication.subset_gate",
        "GATE_TABLE",
        "GateState",
        ("suites/unit/test_subset_gate.py",),
        _rebuild_from_legal_rows("build_table"),
    ),
    TableSpec(
        "harness_fsm",
        "harness.fsm",
        "HARNESS_TABLE",
        "HarnessState",
        ("suites/harness/test_fsm.py",),
        _rebuild_from_legal_rows("_table"),
    ),
)
_SOURCE_ATTRS = ("_LEGAL", "LEGAL_ROWS")


@contextlib.contextmanager
def mutated(spec: TableSpec, state: Any, event: Any, target: Any) -> Iterator[None]:
    """The table with one legal row retargeted, installed where every reader looks."""
    mod = importlib.import_module(spec.module)
    saved = {
        a: getattr(mod, a) for a in (spec.table_attr, "_INDEX", *_SOURCE_ATTRS) if hasattr(mod, a)
    }
    try:
        rows = spec.rebuild(mod, state, event, target)
        setattr(mod, spec.table_attr, rows)
        vars(mod)["_INDEX"] = {(row.source, row.event): row for row in rows}
        yield
    finally:
        for attr, value in saved.items():
            setattr(mod, attr, value)


def retargets_unseen(
    spec: TableSpec, row: Any, states: Iterable[Any], outcome: Callable[[], object]
) -> list[str]:
    """The other states ``row`` can point at that leave ``outcome()`` as it was: a
    reader that really follows the table's rows leaves none."""
    baseline = outcome()
    unseen = []
    for target in states:
        if target == row.target:
            continue
        with mutated(spec, row.source, row.event, target):
            if outcome() == baseline:
                unseen.append(str(getattr(target, "value", target)))
    return unseen


def run_tests(paths: Sequence[str]) -> int:
    """The table's tests, in this process (so the patched module is the one they use)."""
    import pytest

    args = [
        *(str(REPO / p) for p in paths),
        "-q",
        "-x",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:xdist",
        f"--rootdir={REPO}",
    ]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return int(pytest.main(args))


# The panel's JS table (beacon/panel/state_table.js): each legal cell is retargeted in a
# copy of the panel, right after the LEGAL map is written, and the row tests are
# pointed at the copy.
PANEL = REPO / "beacon" / "panel"
PANEL_TESTS = ("suites/browser/test_panel_state_rows.py",)
PANEL_ENV = "BEACON_TABLE_MUTATION_PANEL"
_LEGAL_END = "\n});\n"


def mutate_panel(all_targets: bool = False) -> list[Mutant]:
    golden = load_golden("panel_states")
    source = (PANEL / "state_table.js").read_text(encoding="utf-8")
    cut = source.index(_LEGAL_END, source.index("export const LEGAL")) + len(_LEGAL_END)
    mutants: list[Mutant] = []
    with tempfile.TemporaryDirectory(prefix="panel-mutant-") as tmp:
        copy = Path(tmp) / "panel"
        shutil.copytree(PANEL, copy)
        for row in golden.rows:
            if not row.legal:
                continue
            states = list(golden.states)
            others = [s for s in states if s != row.target]
            if not all_targets:
                others = [states[(states.index(row.target) + 1) % len(states)]]
            for target in others:
                patch = f"LEGAL[{json.dumps(row.source)}][{json.dumps(row.event)}] = "
                patch += f"{json.dumps(target)};\n"
                (copy / "state_table.js").write_text(source[:cut] + patch + source[cut:], "utf-8")
                saved = os.environ.get(PANEL_ENV)
                os.environ[PANEL_ENV] = str(copy)
                try:
                    code = run_tests(PANEL_TESTS)
                finally:
                    if saved is None:
                        os.environ.pop(PANEL_ENV, None)
                    else:
                        os.environ[PANEL_ENV] = saved
                mutants.append(Mutant(row.id, row.source, row.event, row.target, target, code == 1))
    return mutants


@dataclass(frozen=True, slots=True)
class Mutant:
    row_id: str
    source: str
    event: str
    original: str
    mutated_to: str
    caught: bool


def mutate_table(spec: TableSpec, all_targets: bool = False) -> list[Mutant]:
    mod = importlib.import_module(spec.module)
    table: tuple[Any, ...] = getattr(mod, spec.table_attr)
    states: list[Any] = list(getattr(mod, spec.state_enum))
    mutants: list[Mutant] = []
    for row in table:
        if not row.legal:
            continue
        others = [s for s in states if s != row.target]
        if not all_targets:  # the next state after the real target, cyclically
            others = [states[(states.index(row.target) + 1) % len(states)]]
        for target in others:
            with mutated(spec, row.source, row.event, target):
                code = run_tests(spec.tests)
            mutants.append(
                Mutant(
                    row.id, str(row.source), str(row.event), str(row.target), str(target), code == 1
                )
            )
    return mutants


def summarise(name: str, mutants: list[Mutant]) -> dict[str, Any]:
    rows = {m.row_id for m in mutants}
    caught_rows = {m.row_id for m in mutants} - {m.row_id for m in mutants if not m.caught}
    return {
        "table": name,
        "rows_mutated": len(rows),
        "rows_caught": len(caught_rows),
        "mutants": len(mutants),
        "mutants_caught": sum(m.caught for m in mutants),
        "survivors": [dataclasses.asdict(m) for m in mutants if not m.caught],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.table_mutation")
    parser.add_argument(
        "--all-targets", action="store_true", help="every other target per row (Python tables)"
    )
    parser.add_argument("--table", action="append", help="only this table (repeatable)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    chosen = [s for s in TABLES if not args.table or s.name in args.table]
    runs: list[tuple[str, Sequence[str], Callable[[], list[Mutant]]]] = [
        (s.name, s.tests, functools.partial(mutate_table, s, args.all_targets)) for s in chosen
    ]
    if not args.table or "panel_states" in args.table:
        # One retarget per cell: a Node run each, ~1 s (all ten targets would take ~10 min).
        runs.append(("panel_states", PANEL_TESTS, functools.partial(mutate_panel, False)))
    failed = False
    report = []
    for name, tests, mutate in runs:
        if run_tests(tests) != 0:
            print(f"{name}: the unmutated table's tests fail; nothing to judge")
            failed = True
            continue
        summary = summarise(name, mutate())
        report.append(summary)
        print(
            f"{name}: rows mutated {summary['rows_mutated']}, caught {summary['rows_caught']}"
            f" ({summary['mutants_caught']}/{summary['mutants']} mutants)"
        )
        for survivor in summary["survivors"]:
            print(
                f"  survived: {survivor['row_id']} ({survivor['source']} --{survivor['event']}--> "
                f"{survivor['mutated_to']} instead of {survivor['original']})"
            )
        failed = failed or bool(summary["survivors"])
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
