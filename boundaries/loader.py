"""Load the registry: one YAML file per boundary, each validated by ``schema.json``.

Bad input never crashes and is never skipped: every problem becomes a
``Problem`` naming the file and the field, and the caller (the sweep) fails.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml

PACKAGE_DIR = Path(__file__).resolve().parent
SCHEMA_PATH = PACKAGE_DIR / "schema.json"
REGISTRY_DIR = "boundaries/registry"
FLOOR_FILE = "boundaries/floor.txt"
KINDS: tuple[str, ...] = (
    "external-wire",
    "pinned-mirror",
    "internal-seam",
    "doc-citation",
    "gate-contract",
)
# SPEC §6: the registry as it was pinned; the floor file names each id.
EXPECTED_COUNTS: dict[str, int] = {
    "external-wire": 41,
    "pinned-mirror": 31,
    "internal-seam": 15,
    "doc-citation": 12,
    # SPEC §6 says 103 boundaries and 41/31/15/12 by kind, which sums to 99: the
    # other four are the gates' own exit-code and promotion contracts.
    "gate-contract": 4,
}


@dataclass(frozen=True, slots=True)
class Boundary:
    id: str
    kind: str
    title: str
    owner: str
    paths: tuple[str, ...]
    check: dict[str, Any]
    evidence: tuple[str, ...]
    file: str  # repo-relative path of the data file


@dataclass(frozen=True, slots=True)
class Problem:
    file: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.field}: {self.message}"


@dataclass(frozen=True, slots=True)
class Registry:
    boundaries: tuple[Boundary, ...]
    problems: tuple[Problem, ...]
    floor: tuple[str, ...] = field(default=())

    def by_kind(self) -> dict[str, list[Boundary]]:
        grouped: dict[str, list[Boundary]] = {kind: [] for kind in KINDS}
        for boundary in self.boundaries:
            grouped.setdefault(boundary.kind, []).append(boundary)
        return grouped

    def get(self, boundary_id: str) -> Boundary | None:
        return next((b for b in self.boundaries if b.id == boundary_id), None)


@cache
def schema() -> dict[str, Any]:
    loaded = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def _field_name(error: jsonschema.ValidationError) -> str:
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    wanted = error.validator_value
    if (
        error.validator == "required"
        and isinstance(error.instance, dict)
        and isinstance(wanted, list)
    ):
        missing = [r for r in wanted if r not in error.instance]
        path += f".{missing[0]}" if missing else ""
    elif (
        error.validator == "additionalProperties"
        and isinstance(error.instance, dict)
        and isinstance(error.schema, dict)
    ):
        allowed = set(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - allowed)
        path += f".{extra[0]}" if extra else ""
    return path.lstrip(".") or "(document)"


# libyaml's loader where PyYAML was built with it (ten times the pure-Python one's speed).
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema())


@lru_cache(maxsize=1024)
def _parsed(text: str) -> tuple[Any, str | None, tuple[tuple[str, str], ...]]:
    """A boundary file's document, why it is not YAML, and its schema errors (field,
    message), by its text: the sweep, the gates and the fan-in audit read the same
    files many times in one process, and a file read again unchanged is not re-parsed."""
    try:
        raw = yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        return None, f"not valid YAML: {exc}".splitlines()[0], ()
    errors = sorted(_validator().iter_errors(raw), key=lambda e: list(map(str, e.absolute_path)))
    return raw, None, tuple((_field_name(e), e.message) for e in errors)


def _read(path: Path, root: Path) -> tuple[Boundary | None, list[Problem]]:
    rel = path.relative_to(root).as_posix()
    try:
        raw, not_yaml, errors = _parsed(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        return None, [Problem(rel, "(document)", f"not valid YAML: {exc}".splitlines()[0])]
    if not_yaml is not None:
        return None, [Problem(rel, "(document)", not_yaml)]
    problems = [Problem(rel, name, message) for name, message in errors]
    if problems:
        return None, problems
    assert isinstance(raw, dict)
    expected_dir = path.parent.name
    if raw["kind"] != expected_dir:
        problems.append(Problem(rel, "kind", f"{raw['kind']!r} filed under {expected_dir}/"))
    for index, guarded in enumerate(raw["paths"]):
        if not (root / guarded).exists():
            problems.append(Problem(rel, f"paths[{index}]", f"{guarded} does not exist"))
    for index, node_id in enumerate(raw["evidence"]):
        test_file = node_id.split("::", 1)[0]
        if not (root / test_file).is_file():
            problems.append(Problem(rel, f"evidence[{index}]", f"{test_file} does not exist"))
    boundary = Boundary(
        id=raw["id"],
        kind=raw["kind"],
        title=raw["title"],
        owner=raw["owner"],
        paths=tuple(raw["paths"]),
        check=copy.deepcopy(raw["check"]),  # the parsed document is shared by the memo
        evidence=tuple(raw["evidence"]),
        file=rel,
    )
    return (None if problems else boundary), problems


def read_floor(root: Path) -> tuple[tuple[str, ...], list[Problem]]:
    path = root / FLOOR_FILE
    if not path.is_file():
        return (), [Problem(FLOOR_FILE, "(document)", "the floor file is missing")]
    ids = [
        line.strip()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    dupes = sorted(i for i, n in Counter(ids).items() if n > 1)
    problems = [Problem(FLOOR_FILE, i, "pinned twice") for i in dupes]
    return tuple(ids), problems


def load_registry(root: Path) -> Registry:
    """Every boundary file under ``boundaries/registry/<kind>/``, plus the floor."""
    registry_dir = root / REGISTRY_DIR
    problems: list[Problem] = []
    boundaries: list[Boundary] = []
    files = sorted(registry_dir.rglob("*")) if registry_dir.is_dir() else []
    for path in files:
        if path.is_dir():
            continue
        rel = path.relative_to(root).as_posix()
        if path.suffix not in (".yaml", ".yml"):
            problems.append(Problem(rel, "(file)", "not a .yaml boundary file"))
            continue
        boundary, found = _read(path, root)
        problems.extend(found)
        if boundary is not None:
            boundaries.append(boundary)
    seen: dict[str, str] = {}
    unique: list[Boundary] = []
    for boundary in boundaries:
        if boundary.id in seen:
            first = seen[boundary.id]
            problems.append(Problem(boundary.file, "id", f"duplicate id {boundary.id!r} ({first})"))
            continue
        seen[boundary.id] = boundary.file
        unique.append(boundary)
    floor, floor_problems = read_floor(root)
    problems.extend(floor_problems)
    found_ids = {b.id for b in unique}
    for pinned in floor:
        if pinned not in found_ids:
            problems.append(
                Problem(FLOOR_FILE, pinned, "pinned boundary not found in the registry")
            )
    pinned_set = set(floor)
    for boundary in unique:
        if boundary.id not in pinned_set:
            problems.append(
                Problem(boundary.file, "id", f"{boundary.id!r} is not pinned in {FLOOR_FILE}")
            )
    return Registry(tuple(unique), tuple(problems), floor)
