"""The product stands alone: ``beacon`` imports nothing of its harness, and keeps every command.

The stub, the harness and the gates add their ``beacon`` sub-commands through
the ``beacon.commands`` entry points; the import graph (grimp) shows no edge
from ``beacon`` into them and no import circle anywhere in the tree.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

import grimp
import pytest
import typer

import gates.cli
import harness.cli
import harness.postgres_cli
import stub_server.cli
from beacon.cli.commands import COMMAND_GROUP, STUB_COMMANDS, command_names, load_commands
from beacon.cli.main import app
from gates import observe, promote
from stub_server.records import Level, Project

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = "beacon"
BESIDE = ("harness", "gates", "bench", "stub_server")
PACKAGES = (PRODUCT, *BESIDE, "boundaries")

# Every `beacon` sub-command as it was before the split, with its options and
# arguments (path → (options, arguments)). The gates parse their own arguments.
COMMANDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "up": (
        (
            "--allow-drift",
            "--chat-port",
            "--db",
            "--scenario",
            "--upstream-contract",
            "--upstream-mcp",
            "--upstream-token",
            "--workers",
        ),
        (),
    ),
    # --access-log: one line per request, never content (issue 29).
    "serve": (("--access-log", "--allow-drift", "--host", "--port", "--workers"), ()),
    "stub-mcp": (("--access-log", "--port", "--scenario"), ()),
    "stub-llm": (("--access-log", "--port"), ()),
    "token": (("--mcp", "--quota", "--scope", "--service", "--sub", "--tier"), ()),
    "ask": (("--chat", "--locale", "--mcp", "--mode", "--scenario", "--token"), ("question",)),
    "demo": (("--scenario",), ()),
    # issue 30: the analyst's report and the retention prune.
    "report": (("--db", "--format", "--since"), ()),
    "store prune": (("--db", "--dry-run"), ()),
    # issue 33: every record under the active key, and records per key id.
    "store reseal": (("--batch", "--db"), ()),
    "store keys": (("--db",), ()),
    # issue 33: --upstream checks a live MCP server; watch runs that on a schedule.
    "sweep": (("--out", "--root", "--token", "--upstream"), ()),
    "watch": (("--every", "--once", "--out", "--root", "--times", "--token", "--upstream"), ()),
    "boundaries list": (("--by-kind", "--root"), ()),
    # Typed options now (their --help exits 0), passed on to the gates' own parsers.
    "gate observe": (("--bypass", "--junit", "--root"), ()),
    "gate promote": (("--bypass", "--from", "--junit", "--root", "--to"), ()),
    "gate history": (("--root",), ()),
    "check-executed": (("--junit", "--root"), ()),
    "audit fan-in": (("--junit", "--root"), ()),
    "probe": (
        ("--all", "--list", "--llm", "--mcp", "--scenario", "--target", "--token"),
        ("name",),
    ),
    "postgres start": (("--directory", "--port"), ()),
    "postgres stop": (("--directory",), ()),
    "postgres status": (("--directory",), ()),
    # issue 28: any MCP server's accounting, measured.
    "audit-upstream": (
        (
            "--contract-out",
            "--fixed",
            "--html",
            "--json",
            "--junit",
            "--max-pages",
            "--mcp",
            "--stdio",
            "--token",
        ),
        (),
    ),
    "verify": (
        (
            "--baseline",
            "--check",
            # turns side by side; --workers stays a hidden alias of it
            "--concurrency",
            "--expired-token",
            "--html",
            "--json",
            "--junit",
            "--jwks",
            "--leeway",
            "--mcp",
            "--other-token",
            "--out-dir",
            "--question",
            "--target",
            "--token",
            "--turn-deadline",
            "--workers",
        ),
        (),
    ),
}
GATE_OPTIONS = {
    "observe": {"--root", "--junit", "--bypass"},
    "promote": {"--from", "--to", "--root", "--junit", "--bypass"},
}
ENTRY_POINTS = {
    "stub": "stub_server.cli:register",
    "harness": "harness.cli:register",
    "gates": "gates.cli:register",
    "postgres": "harness.postgres_cli:register",
}


@pytest.fixture(scope="module")
def graph(bench_importable: None) -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, cache_dir=None)


@pytest.fixture(scope="module")
def bench_importable() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(ROOT))  # bench is not installed, only beside the others
        yield


def _top(module: str) -> str:
    return module.split(".")[0]


def test_no_module_under_beacon_imports_the_harness_gates_bench_or_stub(
    graph: grimp.ImportGraph,
) -> None:
    product = sorted(m for m in graph.modules if _top(m) == PRODUCT)
    assert "beacon.cli.main" in product and "beacon.loop" in product
    edges = [
        (importer, imported)
        for importer in product
        for imported in graph.find_modules_directly_imported_by(importer)
        if _top(imported) in BESIDE
    ]
    assert edges == []
    for beside in BESIDE:
        assert not graph.chain_exists(PRODUCT, beside, as_packages=True), beside


def test_the_product_and_its_harness_import_one_way(graph: grimp.ImportGraph) -> None:
    # The harness drives the product (beacon.cli.ask, beacon.cli.up, ...); never the reverse.
    assert graph.chain_exists("harness", PRODUCT, as_packages=True)
    assert not graph.chain_exists(PRODUCT, "harness", as_packages=True)
    assert graph.chain_exists("gates", "harness", as_packages=True)
    assert not graph.chain_exists("harness", "gates", as_packages=True)


def test_the_corpus_and_its_site_records_import_one_way(graph: grimp.ImportGraph) -> None:
    assert graph.direct_import_exists(importer="stub_server.corpus", imported="stub_server.records")
    assert graph.direct_import_exists(
        importer="stub_server.corpus_site", imported="stub_server.records"
    )
    assert graph.chain_exists("stub_server.corpus", "stub_server.corpus_site")
    assert not graph.chain_exists("stub_server.corpus_site", "stub_server.corpus")
    assert graph.find_modules_directly_imported_by("stub_server.records") == set()
    # the moved types are the ones the generators and tools always used
    from stub_server import corpus, corpus_site

    assert corpus.Project is Project and corpus.Level is Level
    assert corpus_site.Document is corpus.Document and corpus_site.Clash is corpus.Clash


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph.modules):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = []
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        work.append((start, iter(sorted(graph.find_modules_directly_imported_by(start)))))
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_the_tree_has_no_import_circle(graph: grimp.ImportGraph) -> None:
    assert _cycles(graph) == []
    tops = sorted({_top(m) for m in graph.modules})
    for a in tops:
        for b in tops:
            if a < b:
                both = graph.chain_exists(a, b, as_packages=True) and graph.chain_exists(
                    b, a, as_packages=True
                )
                assert not both, f"{a} and {b} import each other"


def test_the_cycle_finder_finds_a_circle() -> None:
    fake = grimp.ImportGraph()
    for module in ("p", "p.a", "p.b", "p.c"):
        fake.add_module(module)
    fake.add_import(importer="p.a", imported="p.b")
    fake.add_import(importer="p.b", imported="p.a")
    fake.add_import(importer="p.c", imported="p.a")
    assert _cycles(fake) == [["p.a", "p.b"]]


def _leaves(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    subs = getattr(command, "commands", None)
    if subs is None:
        yield " ".join(path), command
        return
    for name, sub in subs.items():
        yield from _leaves(sub, (*path, name))


def test_every_subcommand_of_before_is_still_registered_with_its_options() -> None:
    registered = dict(_leaves(typer.main.get_command(app)))
    assert sorted(registered) == sorted(COMMANDS)
    for path, (options, arguments) in COMMANDS.items():
        params = registered[path].params
        got_options = sorted(o for p in params if p.param_type_name == "option" for o in p.opts)
        got_arguments = [p.name for p in params if p.param_type_name == "argument"]
        assert (tuple(got_options), tuple(got_arguments)) == (options, arguments), path
    for gate, parser in (("observe", observe.parser()), ("promote", promote.parser())):
        assert set(parser._option_string_actions) - {"-h", "--help"} == GATE_OPTIONS[gate]


def test_the_stub_harness_and_gates_register_through_entry_points() -> None:
    declared = {p.name: p.value for p in entry_points(group=COMMAND_GROUP)}
    assert declared == ENTRY_POINTS
    assert stub_server.cli.register is _load("stub")
    assert harness.cli.register is _load("harness")
    assert gates.cli.register is _load("gates")
    assert harness.postgres_cli.register is _load("postgres")
    fresh = typer.Typer()
    assert load_commands(fresh) == sorted(ENTRY_POINTS)
    assert command_names(fresh) == {
        "stub-mcp", "stub-llm", "sweep", "boundaries", "check-executed", "audit", "probe",
        "verify", "gate", "postgres", "audit-upstream", "watch",
    }  # fmt: skip
    assert set(STUB_COMMANDS) <= command_names(app)


def _load(name: str) -> Any:
    return EntryPoint(name=name, value=ENTRY_POINTS[name], group=COMMAND_GROUP).load()


def test_a_broken_entry_point_is_reported_and_skipped(capsys: pytest.CaptureFixture[str]) -> None:
    fresh = typer.Typer()
    broken = EntryPoint(name="broken", value="no_such_module:register", group=COMMAND_GROUP)
    stub = EntryPoint(name="stub", value=ENTRY_POINTS["stub"], group=COMMAND_GROUP)
    assert load_commands(fresh, [broken, stub]) == ["stub"]
    assert command_names(fresh) == set(STUB_COMMANDS)
    assert "the 'broken' commands (no_such_module:register) did not load" in capsys.readouterr().err


_WITHOUT_THE_HARNESS = textwrap.dedent(
    """
    import sys
    from importlib.abc import MetaPathFinder

    class Absent(MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in {"harness", "gates", "bench", "stub_server"}:
                raise ModuleNotFoundError(name)
            return None

    sys.meta_path.insert(0, Absent())
    from beacon.cli.commands import command_names
    from beacon.cli.main import app

    print(" ".join(sorted(command_names(app))), flush=True)
    sys.argv = ["beacon", *sys.argv[1:]]
    app(prog_name="beacon")
    """
)


def test_the_product_commands_work_with_no_harness_gates_bench_or_stub_importable() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_THE_HARNESS, "up"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stdout.splitlines()[0] == "ask demo report serve store token up"
    # `up` needs the stub's commands to start the stub servers: it says so, exit 1
    assert done.returncode == 1, done.stderr
    assert "beacon up: the stub's commands are not installed (stub-mcp, stub-llm" in done.stderr
    assert "the 'harness' commands (harness.cli:register) did not load" in done.stderr
