"""A declared upstream contract (YAML, ``boundaries/upstream_contract.schema.json``): what
Beacon knows about each tool of one MCP upstream, read as tool-table rows.

``beacon audit-upstream --contract-out`` writes one for any MCP server and an
operator completes it (capabilities, arguments fixed by the deployment); Beacon's
own stub is described by ``contracts/stub.yaml``, which a test holds equal to the
tool table, row for row. ``beacon serve`` with ``BEACON_UPSTREAM_CONTRACT`` fronts
the server a contract describes (beacon/upstream/contracted.py).

The file is a wire edge: it is parsed once, strictly, by the models below (the
published JSON Schema says the same for tools that are not Beacon; a test holds
the two in agreement). A contract that does not parse refuses the start.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from beacon.wire.tools import AT_HOURS, FilterAxis, NounKey, RecordKind, ToolRole, ToolSpec

STUB_CONTRACT = "contracts/stub.yaml"

ToolKind = Literal["list", "search", "lookup", "skipped"]
ScopeAxisName = Literal[
    "project", "level", "status", "category", "company", "kind", "date", "person", "topic"
]
OfferAxisName = Literal["level", "status", "category", "company", "kind", "date_range"]
FindingCode = Literal[
    "no-accounting",
    "page-labelled-total",
    "cap-saturation",
    "limit-ignored",
    "cursor-unpinned",
    "error-as-result",
    "schema-violation",
    "empty-without-accounting",
]
# Where a field lives in the raw result: a JSON Pointer, or "text" (only the prose has it).
Location = str | None
_LOCATION = r"^(/.*|text)$"
_ARGUMENT_VALUE = str | int | float | bool


class ContractError(ValueError):
    """A contract file that cannot be read or does not parse: the start is refused."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Applied(_Strict):
    axis: ScopeAxisName
    arguments: tuple[str, ...] = Field(min_length=1)
    hours: bool = False


class Offered(_Strict):
    axis: OfferAxisName
    arguments: tuple[str, ...] = Field(min_length=1)


class Cited(_Strict):
    kind: str = Field(min_length=1)
    id_prefix: str = Field(min_length=1)


class Paging(_Strict):
    size_argument: str | None = None
    default_size: int | None = Field(default=None, ge=1)
    max_size: int | None = Field(default=None, ge=1)
    cursor_argument: str | None = None
    offset_argument: str | None = None


class AuditSeen(_Strict):
    findings: tuple[FindingCode, ...] = ()
    calls: int = Field(default=0, ge=0)


class ContractTool(_Strict):
    kind: ToolKind
    reason: str | None = None
    capability: str | None = Field(pattern=r"^[a-z][a-z0-9_]*$")
    result_kind: Literal["search", "rows"] | None
    items: Location = Field(pattern=_LOCATION)
    total: Location = Field(pattern=_LOCATION)
    total_lower_bound: Location = Field(pattern=_LOCATION)
    has_more: Location = Field(pattern=_LOCATION)
    cursor: Location = Field(pattern=_LOCATION)
    paging: Paging | None = None
    page_cap: int | None = Field(ge=1)
    cursor_pins_query: bool | None
    applies: tuple[Applied, ...]
    offers: tuple[Offered, ...] = ()
    narrowed_page: int | None = Field(default=None, ge=1)
    cites: tuple[Cited, ...] = ()
    intent: str | None = None
    noun: NounKey | None = None
    relation: str | None = Field(default=None, pattern=r"^[a-z_]+$")
    role: ToolRole | None = None
    # Arguments the deployment fixes (a repository, a database): always sent as written
    # here, whatever the model asked, and hidden from the model's catalog.
    fixed_arguments: dict[str, _ARGUMENT_VALUE] = Field(default_factory=dict)
    # sha256 of the tool's input and output schemas as listed (schema_digest): a
    # changed schema is a drift, refused at start-up.
    schema_digest: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")
    audit: AuditSeen | None = None

    @property
    def fronted(self) -> bool:
        """Whether Beacon may call it: not skipped, and an operator named its capability."""
        return self.kind != "skipped" and self.capability is not None


class UpstreamContract(_Strict):
    version: Literal[1]
    target: str = Field(min_length=1)
    tools_list_pages: int | None = Field(default=None, ge=1)
    tools: dict[str, ContractTool] = Field(min_length=1)


def parse_contract(document: object) -> UpstreamContract:
    """A parsed YAML document as a contract, or ContractError naming the first problems."""
    try:
        return UpstreamContract.model_validate(document)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'/'.join(str(p) for p in e['loc']) or '(document)'}: {e['msg']}"
            for e in exc.errors()[:3]
        )
        raise ContractError(f"not an upstream contract: {problems}") from None


def load_contract(path: str | Path) -> UpstreamContract:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ContractError(f"cannot read the upstream contract {str(path)!r}: {exc}") from None
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ContractError(f"{path}: not YAML: {str(exc).splitlines()[0]}") from None
    try:
        return parse_contract(document)
    except ContractError as exc:
        raise ContractError(f"{path}: {exc}") from None


def stub_contract() -> dict[str, Any]:
    """The stub's declared contract, from the package."""
    text = files("beacon.wire").joinpath(STUB_CONTRACT).read_text(encoding="utf-8")
    document = yaml.safe_load(text)
    assert isinstance(document, dict)
    return document


def _axis(entry: Mapping[str, Any]) -> FilterAxis:
    axis = FilterAxis(str(entry["axis"]), tuple(str(a) for a in entry["arguments"]))
    # A time of day rides the date axis; the row keeps the one object that says so.
    return AT_HOURS if entry.get("hours") and axis == AT_HOURS else axis


def tool_spec_of(name: str, tool: Mapping[str, Any]) -> ToolSpec:
    return ToolSpec(
        name,
        str(tool["capability"]),
        tool["result_kind"],
        filter_axes=tuple(_axis(e) for e in tool.get("offers", ())),
        narrowed_page=tool.get("narrowed_page"),
        cites=tuple(RecordKind(str(c["kind"]), str(c["id_prefix"])) for c in tool.get("cites", ())),
        intent=tool.get("intent"),
        applies=tuple(_axis(e) for e in tool.get("applies", ())),
        noun=tool.get("noun"),
        relation=tool.get("relation"),
        role=tool.get("role"),
    )


def tool_specs_of(document: Mapping[str, Any] | UpstreamContract) -> tuple[ToolSpec, ...]:
    """Every tool of a contract as a row, in the document's order (skipped tools and
    tools whose capability is not filled in have no row: hidden and blocked)."""
    raw = document.model_dump() if isinstance(document, UpstreamContract) else document
    return tuple(
        tool_spec_of(name, tool)
        for name, tool in raw["tools"].items()
        if tool["kind"] != "skipped" and tool.get("capability")
    )


def schema_digest(listed: Mapping[str, Any]) -> str:
    """sha256 of a listed tool's input and output schemas, canonical JSON: what its
    callers depend on (a reworded description is not a drift)."""
    both = {"input": listed.get("inputSchema"), "output": listed.get("outputSchema")}
    canonical = json.dumps(both, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Drift:
    """How the live ``tools/list`` differs from the contract, for the fronted tools."""

    gone: tuple[str, ...]  # fronted in the contract, no longer listed
    changed: tuple[str, ...]  # listed with another schema than the contract's digest
    unknown: tuple[str, ...]  # listed, not in the contract: hidden, not a drift

    @property
    def drifted(self) -> tuple[str, ...]:
        return (*self.gone, *self.changed)

    def describe(self) -> str:
        parts = []
        if self.gone:
            parts.append(f"gone from tools/list: {', '.join(self.gone)}")
        if self.changed:
            parts.append(f"schema changed since the contract: {', '.join(self.changed)}")
        return "; ".join(parts) or "no drift"


def drift(
    document: Mapping[str, Any] | UpstreamContract, listed: Iterable[Mapping[str, Any] | str]
) -> Drift:
    """The drift between a contract and the tools an upstream lists now (their
    ``tools/list`` entries; a bare name has no schema to compare)."""
    contract = document if isinstance(document, UpstreamContract) else parse_contract(document)
    live = {(t if isinstance(t, str) else str(t["name"])): t for t in listed}
    fronted = {name: tool for name, tool in contract.tools.items() if tool.fronted}
    changed = tuple(
        name
        for name, tool in fronted.items()
        if name in live
        and tool.schema_digest is not None
        and not isinstance(live[name], str)
        and schema_digest(live[name]) != tool.schema_digest  # type: ignore[arg-type]
    )
    return Drift(
        gone=tuple(sorted(set(fronted) - set(live))),
        changed=tuple(sorted(changed)),
        unknown=tuple(sorted(set(live) - set(contract.tools))),
    )
