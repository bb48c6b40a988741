"""The check kinds the sweep knows how to run, one plain function each.

A check returns nothing when the boundary holds and raises ``CheckFailed``
(naming the registry field) when it does not. Symbols are found by import or
by parsing, never by line number.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import importlib
import inspect
import io
import re
import tempfile
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
from pydantic import BaseModel

from harness import producers
from harness.refs import (
    CheckFailed,
    defined_names,
    imported_modules,
    js_string_array,
    module_file,
    normalize,
    require,
    resolve,
)

CROSSING_DIRS = ("suites",)


@dataclass(frozen=True, slots=True)
class CheckContext:
    root: Path
    boundary_id: str


Check = Callable[[Mapping[str, Any], CheckContext], None]


def _validate(instance: Any, schema: Any, field: str) -> None:
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        raise CheckFailed(field, f"the pinned schema is not a JSON Schema: {exc.message}") from exc
    errors = sorted(
        jsonschema.Draft202012Validator(schema).iter_errors(instance),
        key=lambda e: list(map(str, e.absolute_path)),
    )
    if errors:
        where = "/".join(map(str, errors[0].absolute_path)) or "(root)"
        raise CheckFailed(field, f"at {where}: {errors[0].message[:300]}")


def defined_where_named(ref: str, ctx: CheckContext, field: str) -> None:
    """A pin names the module that defines the value: a pin of a re-export (or two pins of
    one constant through two re-exports) compares a value with itself and cannot fail."""
    module, _, name = ref.partition(":")
    if name.split(".")[0] not in defined_names(module_file(module, ctx.root)):
        raise CheckFailed(field, f"{ref} is imported there, not defined: pin where it is defined")


def python_constant(params: Mapping[str, Any], ctx: CheckContext) -> None:
    defined_where_named(require(params, "ref"), ctx, "check.ref")
    actual = normalize(resolve(require(params, "ref")))
    expected = normalize(require(params, "equals"))
    if actual != expected:
        raise CheckFailed("check.equals", f"{params['ref']} is {actual!r}, pinned {expected!r}")


def same_value(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """Two owners' copies of one value agree (``casefold``: as HTTP header names do)."""
    refs = require(params, "refs")
    for index, ref in enumerate(refs):
        defined_where_named(ref, ctx, f"check.refs[{index}]")
    values = [normalize(resolve(ref, "check.refs")) for ref in refs]
    if params.get("casefold"):
        values = [v.casefold() if isinstance(v, str) else v for v in values]
    for ref, value in zip(refs[1:], values[1:], strict=True):
        if value != values[0]:
            raise CheckFailed("check.refs", f"{ref} is {value!r} but {refs[0]} is {values[0]!r}")
    if "equals" in params and values[0] != normalize(params["equals"]):
        raise CheckFailed("check.equals", f"all are {values[0]!r}, pinned {params['equals']!r}")


def _field_names(obj: Any) -> set[str]:
    if isinstance(obj, type) and issubclass(obj, BaseModel):
        return set(obj.model_fields)
    if dataclasses.is_dataclass(obj):
        return {f.name for f in dataclasses.fields(obj)}
    if isinstance(obj, type) and hasattr(obj, "__members__"):
        return {str(normalize(m)) for m in obj.__members__.values()}
    raise CheckFailed("check.fields", f"{obj!r} has no fields to check")


def _symbol(spec: Mapping[str, Any], field: str) -> None:
    obj = resolve(require(spec, "ref"), f"{field}.ref")
    if spec.get("callable") and not callable(obj):
        raise CheckFailed(f"{field}.callable", f"{spec['ref']} is not callable")
    if "params" in spec:
        try:
            names = list(inspect.signature(obj).parameters)
        except (TypeError, ValueError) as exc:
            raise CheckFailed(f"{field}.params", f"{spec['ref']} has no signature") from exc
        if names != list(spec["params"]):
            raise CheckFailed(
                f"{field}.params", f"{spec['ref']} takes {names}, pinned {spec['params']}"
            )
    wanted = set(spec.get("fields", ()))
    missing = sorted(wanted - _field_names(obj)) if wanted else []
    if missing:
        raise CheckFailed(f"{field}.fields", f"{spec['ref']} lacks {', '.join(missing)}")


def symbol_exists(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """A public name is importable where it is published, callable with the pinned
    parameters, with the pinned fields; ``symbols`` pins several names of one surface."""
    if "symbols" in params:
        for index, spec in enumerate(params["symbols"]):
            _symbol(spec, f"check.symbols[{index}]")
    else:
        _symbol(params, "check")


def stub_tool_result(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """The stub's real result for one call (in-process) against the pinned wire schema,
    and (``matches``) a value in it against the constant our side keeps for it."""
    result = producers.tool_result(
        require(params, "tool"), dict(params.get("arguments", {})), params.get("mode", "ok")
    )
    _validate(result, require(params, "schema"), "check.schema")
    for index, pair in enumerate(params.get("matches", ())):
        field = f"check.matches[{index}]"
        produced: Any = result
        for key in str(pair["pointer"]).strip("/").split("/"):
            if not isinstance(produced, dict) or key not in produced:
                raise CheckFailed(field, f"the result has no {pair['pointer']}")
            produced = produced[key]
        defined_where_named(pair["ref"], ctx, f"{field}.ref")
        ours = normalize(resolve(pair["ref"], f"{field}.ref"))
        if produced != ours:
            raise CheckFailed(
                field, f"upstream sent {produced!r} at {pair['pointer']}, {pair['ref']} is {ours!r}"
            )


def produced_shape(params: Mapping[str, Any], ctx: CheckContext) -> None:
    name = require(params, "producer")
    if name not in producers.PRODUCERS:
        raise CheckFailed("check.producer", f"unknown producer {name!r}")
    _validate(producers.PRODUCERS[name](), require(params, "schema"), "check.schema")


def recorded_frame(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """The first frame of one type a running chat server sent (``harness.recorded``)
    against the pinned schema of its data."""
    from harness.recorded import TURNS, first_frame

    frame = require(params, "frame")
    found = first_frame(frame)
    if "missing" in found:
        asked = ", ".join(scenario for scenario, _ in TURNS)
        raise CheckFailed("check.frame", f"no {frame} frame in the recorded turns ({asked})")
    _validate(found["data"], require(params, "schema"), "check.schema")


_ROUTE_METHODS = {"get", "post", "put", "patch", "delete"}


def _declared_routes(source: Path) -> set[tuple[str, str]]:
    """(METHOD, path) pairs declared as ``@app.post("/x")`` or ``Route("/x", methods=[...])``."""
    found: set[tuple[str, str]] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        first = node.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _ROUTE_METHODS:
            found.add((func.attr.upper(), first.value))
        elif isinstance(func, ast.Name) and func.id == "Route":
            methods = next((k.value for k in node.keywords if k.arg == "methods"), None)
            names = (
                [m.value for m in methods.elts if isinstance(m, ast.Constant)]
                if isinstance(methods, ast.List)
                else ["GET"]
            )
            found.update((str(m).upper(), first.value) for m in names)
    return found


def route(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """The module still declares the route (found by parsing, wherever it moved in the file),
    and each ``called_from`` file, the other side of the wire, still calls that path."""
    file, method, path = require(params, "file"), require(params, "method"), require(params, "path")
    source = ctx.root / file
    if not source.is_file():
        raise CheckFailed("check.file", f"{file} does not exist")
    if (str(method).upper(), path) not in _declared_routes(source):
        raise CheckFailed("check.path", f"{file} declares no {method} {path}")
    for index, caller in enumerate(params.get("called_from", ())):
        called = ctx.root / caller
        if not called.is_file() or f'{path}"' not in called.read_text(encoding="utf-8"):
            raise CheckFailed(f"check.called_from[{index}]", f"{caller} no longer calls {path}")


def recorded_llm_request(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """Every request body the running chat server sent the model (``harness.recorded``)
    against the pinned schema; both kinds of call must have been made (``kinds``)."""
    from harness.recorded import llm_requests

    bodies = llm_requests()
    for index, body in enumerate(bodies):
        _validate(body, require(params, "schema"), f"check.schema (request {index + 1})")
    made = {"with_tools" if body.get("tools") else "without_tools" for body in bodies}
    missing = sorted(set(params.get("kinds", ())) - made)
    if missing:
        raise CheckFailed("check.kinds", f"no recorded request {', '.join(missing)}")


def served_openapi(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """The operation the running chat server serves in its ``/openapi.json``, and its request
    body schema (resolved in that document) against required fields and examples."""
    from harness.recorded import served_openapi as served

    document = served()
    method, path = str(require(params, "method")).lower(), require(params, "path")
    operation = document.get("paths", {}).get(path, {}).get(method)
    if operation is None:
        raise CheckFailed("check.path", f"the served document has no {method.upper()} {path}")
    name = require(params, "schema")
    components = document.get("components", {})
    if name not in components.get("schemas", {}):
        raise CheckFailed("check.schema", f"the served document has no schema {name!r}")
    schema = {"$ref": f"#/components/schemas/{name}", "components": components}
    required = set(components["schemas"][name].get("required", ()))
    missing = sorted(set(params.get("requires", ())) - required)
    if missing:
        raise CheckFailed("check.requires", f"{name} no longer requires {', '.join(missing)}")
    for index, example in enumerate(params.get("examples", ())):
        _validate(example, schema, f"check.examples[{index}]")
    for index, example in enumerate(params.get("rejects", ())):
        try:
            _validate(example, schema, f"check.rejects[{index}]")
        except CheckFailed:
            continue
        raise CheckFailed(f"check.rejects[{index}]", "the served schema accepts a shape it forbids")


def _crossing_marks(path: Path) -> list[tuple[str, str]]:
    """(test function, boundary id) for every ``@pytest.mark.crossing("id")`` in a file."""
    found: list[tuple[str, str]] = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for deco in node.decorator_list:
            if (
                isinstance(deco, ast.Call)
                and isinstance(deco.func, ast.Attribute)
                and deco.func.attr == "crossing"
            ):
                found += [
                    (node.name, a.value)
                    for a in deco.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)
                ]
    return found


@lru_cache(maxsize=8)
def _crossing_index(root: Path, stamp: tuple[tuple[str, int], ...]) -> dict[str, list[str]]:
    index: dict[str, list[str]] = {}
    for rel, _mtime in stamp:
        for name, boundary_id in _crossing_marks(root / rel):
            index.setdefault(boundary_id, []).append(f"{rel}::{name}")
    return index


def crossing_tests(root: Path, boundary_id: str) -> list[str]:
    """Test functions carrying ``@pytest.mark.crossing("<boundary_id>")``, found by parsing."""
    files = [p for top in CROSSING_DIRS for p in sorted((root / top).rglob("test_*.py"))]
    stamp = tuple((p.relative_to(root).as_posix(), p.stat().st_mtime_ns) for p in files)
    return list(_crossing_index(root, stamp).get(boundary_id, []))


def _values(ref: str, root: Path, field: str) -> set[str]:
    if ref.endswith(".js") or ".js:" in ref:
        path, _, name = ref.partition(":")
        return set(js_string_array(root / path, name))
    value = normalize(resolve(ref, field))
    items = value.keys() if isinstance(value, dict) else value
    return {str(v) for v in items}


def seam(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """Both sides exist; an import seam is really wired; the values one side emits are
    all handled by the other; and a crossing test names this boundary."""
    producer, consumer = require(params, "producer"), require(params, "consumer")
    via = params.get("via", "import")
    for field, ref in (("check.producer", producer), ("check.consumer", consumer)):
        if not (ref.endswith(".js") or ".js:" in ref):
            resolve(ref, field)
        elif not (ctx.root / ref.partition(":")[0]).is_file():
            raise CheckFailed(field, f"{ref} does not exist")
    if via == "import":
        consumer_module = consumer.partition(":")[0]
        producer_module = producer.partition(":")[0]
        imports = imported_modules(module_file(consumer_module, ctx.root))
        if not any(i == producer_module or i.startswith(producer_module + ".") for i in imports):
            raise CheckFailed("check.via", f"{consumer_module} no longer imports {producer_module}")
    if "emits" in params:
        emitted = _values(params["emits"], ctx.root, "check.emits")
        handled = _values(require(params, "handles"), ctx.root, "check.handles")
        handled |= set(params.get("also_handled", ()))
        unhandled = sorted(emitted - handled)
        if unhandled:
            raise CheckFailed("check.handles", f"emitted but not handled: {', '.join(unhandled)}")
        if params.get("exact") and handled - emitted:
            extra = ", ".join(sorted(handled - emitted))
            raise CheckFailed("check.handles", f"handled but never emitted: {extra}")
    if not crossing_tests(ctx.root, ctx.boundary_id):
        raise CheckFailed("check", f"no test is marked crossing({ctx.boundary_id!r})")


def transition_table(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """The table has the pinned number of rows, one per (state, event) pair, unique row
    ids, and more illegal rows than legal ones (SPEC §6)."""
    defined_where_named(require(params, "ref"), ctx, "check.ref")
    rows = list(resolve(require(params, "ref")))
    expected = require(params, "rows")
    if len(rows) != expected:
        raise CheckFailed("check.rows", f"{params['ref']} has {len(rows)} rows, pinned {expected}")
    pairs = {(getattr(r, "source", None), getattr(r, "event", None)) for r in rows}
    if len(pairs) != len(rows):
        raise CheckFailed("check.rows", f"{len(rows) - len(pairs)} (state, event) pairs repeat")
    if len({getattr(r, "id", None) for r in rows}) != len(rows):
        raise CheckFailed("check.rows", f"{params['ref']} repeats a row id")
    illegal = sum(1 for row in rows if not getattr(row, "legal", True))
    if illegal * 2 <= len(rows):
        raise CheckFailed("check", f"only {illegal} of {len(rows)} rows are illegal (need > half)")
    for name in params.get("named_illegal", ()):
        if not any(getattr(r, "id", None) == name and not r.legal for r in rows):
            raise CheckFailed("check.named_illegal", f"no illegal row named {name!r}")


def generated_file(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """A checked-in generated file is, byte for byte, what its generator writes from the
    source now (a generator that refuses inconsistent source fails the check too)."""
    file, ref = require(params, "file"), require(params, "generator")
    generator = resolve(ref, "check.generator")
    if not callable(generator):
        raise CheckFailed("check.generator", f"{ref} is not callable")
    path = ctx.root / file
    if not path.is_file():
        raise CheckFailed("check.file", f"{file} does not exist")
    try:
        expected = generator()
    except ValueError as exc:
        raise CheckFailed("check.generator", f"{ref} refused the source: {exc}") from exc
    if path.read_text(encoding="utf-8") != expected:
        fix = params.get("command", f"regenerate it with {ref}")
        raise CheckFailed("check.file", f"{file} is not what {ref} writes: run `{fix}`")


def gate_exit(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """A gate's own exit code for a command line, run on an empty root (no sweep record,
    no JUnit): what CI sees, not the table that maps it."""
    gate = require(params, "gate")
    main = importlib.import_module(f"gates.{gate}").main  # gates import the harness: by name
    for index, case in enumerate(require(params, "cases")):
        with (
            tempfile.TemporaryDirectory(prefix="beacon-gate-exit-") as root,
            contextlib.redirect_stdout(io.StringIO()),
            contextlib.redirect_stderr(io.StringIO()),
        ):
            code = main([*case["argv"], "--root", root])
        if code != case["exit"]:
            shown = " ".join([gate, *case["argv"]])
            raise CheckFailed(
                f"check.cases[{index}]",
                f"`beacon gate {shown}` exited {code}, pinned {case['exit']}",
            )


def gate_callers(params: Mapping[str, Any], ctx: CheckContext) -> None:
    """Each gate is invoked from what CI runs (``.ci/run``, the Makefile targets it reaches,
    a gate's ``INVOKES``), by the named caller: a gate nothing calls is a dead path."""
    from harness.callers import find_callers

    callers = find_callers(ctx.root).callers
    for gate, caller in require(params, "called_by").items():
        who = callers.get(f"gate {gate}")
        if who is None:
            raise CheckFailed(f"check.called_by.{gate}", f"{gate} is not a gate the harness knows")
        if caller not in who:
            raise CheckFailed(f"check.called_by.{gate}", f"{caller} no longer calls {gate} ({who})")


_REQ_NAME = re.compile(r"^\s*([A-Za-z0-9_.-]+)(\[[^\]]*\])?\s*(.*)$")


def dependency_pin(params: Mapping[str, Any], ctx: CheckContext) -> None:
    package, needs = require(params, "package"), require(params, "requires")
    data = tomllib.loads((ctx.root / "pyproject.toml").read_text(encoding="utf-8"))
    for requirement in data.get("project", {}).get("dependencies", []):
        match = _REQ_NAME.match(requirement)
        if match and match.group(1).lower() == str(package).lower():
            specs = {s.strip() for s in match.group(3).split(",") if s.strip()}
            missing = sorted(set(needs) - specs)
            if missing:
                raise CheckFailed("check.requires", f"{requirement!r} lacks {', '.join(missing)}")
            return
    raise CheckFailed("check.package", f"{package} is not a declared dependency")


def _cite(cite: Mapping[str, Any], index: int, ctx: CheckContext, doc: str) -> None:
    field = f"check.cites[{index}]"
    text = cite.get("text")
    if not isinstance(text, str) or not text:
        raise CheckFailed(f"{field}.text", "every citation needs the text the doc cites")
    if text not in doc:
        raise CheckFailed(f"{field}.text", f"the doc no longer cites {text!r}")
    root = ctx.root
    if "path" in cite and not (root / cite["path"]).exists():
        raise CheckFailed(f"{field}.path", f"{cite['path']} does not exist")
    if "symbol" in cite:
        path, _, name = str(cite["symbol"]).partition(":")
        if not (root / path).is_file():
            raise CheckFailed(f"{field}.symbol", f"{path} does not exist")
        if name not in defined_names(root / path):
            raise CheckFailed(f"{field}.symbol", f"{path} defines no {name}")
    if "occurs_in" in cite:
        target = root / cite["occurs_in"]
        needle = cite.get("needle", text)
        if not target.is_file() or needle not in target.read_text(encoding="utf-8"):
            raise CheckFailed(f"{field}.occurs_in", f"{needle!r} is not in {cite['occurs_in']}")
    if "command" in cite:
        from beacon.cli.main import app

        names = {
            c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands
        }
        names |= {g.name or "" for g in app.registered_groups}
        if cite["command"] not in names:
            raise CheckFailed(f"{field}.command", f"`beacon {cite['command']}` is not a command")
    if "make_target" in cite:
        makefile = (root / "Makefile").read_text(encoding="utf-8")
        if not re.search(rf"^{re.escape(cite['make_target'])}:", makefile, re.MULTILINE):
            raise CheckFailed(f"{field}.make_target", f"the Makefile has no {cite['make_target']}")


def doc_citation(params: Mapping[str, Any], ctx: CheckContext) -> None:
    doc_path = ctx.root / require(params, "file")
    if not doc_path.is_file():
        raise CheckFailed("check.file", f"{params['file']} does not exist")
    doc = doc_path.read_text(encoding="utf-8")
    cites = require(params, "cites")
    if not isinstance(cites, list) or not cites:
        raise CheckFailed("check.cites", "a doc citation cites at least one thing")
    for index, cite in enumerate(cites):
        if not isinstance(cite, Mapping):
            raise CheckFailed(f"check.cites[{index}]", "a citation is a mapping")
        _cite(cite, index, ctx, doc)


CHECKS: dict[str, Check] = {
    "python-constant": python_constant,
    "same-value": same_value,
    "symbol-exists": symbol_exists,
    "stub-tool-result": stub_tool_result,
    "produced-shape": produced_shape,
    "recorded-frame": recorded_frame,
    "served-openapi": served_openapi,
    "recorded-llm-request": recorded_llm_request,
    "gate-exit": gate_exit,
    "gate-callers": gate_callers,
    "route": route,
    "seam": seam,
    "transition-table": transition_table,
    "dependency-pin": dependency_pin,
    "doc-citation": doc_citation,
    "generated-file": generated_file,
}


def run_check(check: Mapping[str, Any], ctx: CheckContext) -> None:
    kind = check.get("type")
    if kind not in CHECKS:
        raise CheckFailed("check.type", f"unknown check type {kind!r}")
    CHECKS[str(kind)](check, ctx)
