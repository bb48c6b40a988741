"""One audit: connect, list every tool (every page), classify, probe, judge, report.

Exit codes are data (``EXIT_CODES``): 0 no ``fail`` finding, 1 some, 2 usage,
3 a target that cannot be reached or refused the authorization.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
from mcp import MCPError

from harness.audit_upstream.classify import Kind, classify
from harness.audit_upstream.client import CallAnswer, Target, connect
from harness.audit_upstream.errors import AuditUsageError, TargetUnavailable
from harness.audit_upstream.findings import Finding, Severity, judge
from harness.audit_upstream.probes import Caller, Harvest, ToolRecord, probe

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_TARGET = 3
EXIT_CODES = {
    EXIT_CLEAN: "no fail finding",
    EXIT_FINDINGS: "at least one fail finding",
    EXIT_USAGE: "usage",
    EXIT_TARGET: "unreachable or authorization refused",
}
DEFAULT_MAX_PAGES = 10


@dataclass(frozen=True, slots=True)
class AuditOptions:
    mcp: str | None = None
    token: str | None = None
    stdio: str | None = None
    max_pages: int = DEFAULT_MAX_PAGES
    timeout_s: float = 30.0
    progress: Callable[[str], None] = lambda _line: None
    # Arguments the deployment fixes (a repository): sent on every call that takes them.
    fixed: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ToolAudit:
    name: str
    kind: Kind
    reason: str
    findings: tuple[Finding, ...]
    record: ToolRecord
    description: str = ""
    tool: dict[str, Any] = field(default_factory=dict)
    fixed: dict[str, str] = field(default_factory=dict)  # the fixed arguments it was sent

    @property
    def failed(self) -> bool:
        return any(f.severity is Severity.FAIL for f in self.findings)


@dataclass(frozen=True, slots=True)
class AuditReport:
    target: str
    tools_list_pages: int
    tools: tuple[ToolAudit, ...]

    @property
    def exit_code(self) -> int:
        return EXIT_FINDINGS if any(t.failed for t in self.tools) else EXIT_CLEAN

    def as_json(self) -> dict[str, Any]:
        """SPEC's shape; ``tools_list_pages``, ``reason`` and ``calls`` are extra keys."""
        return {
            "target": self.target,
            "tools_list_pages": self.tools_list_pages,
            "tools": [
                {
                    "name": t.name,
                    "kind": t.kind.value,
                    "findings": [f.as_json() for f in t.findings],
                    "reason": t.reason,
                    "calls": len(t.record.calls),
                }
                for t in self.tools
            ],
        }


def usage_problem(options: AuditOptions) -> str | None:
    if (options.mcp is None) == (options.stdio is None):
        return 'give the upstream with --mcp URL or --stdio "CMD ARGS" (one of them)'
    if options.mcp is not None and not options.mcp.startswith(("http://", "https://")):
        return f"--mcp must be an http(s) URL, got {options.mcp!r}"
    if options.stdio is not None and not options.stdio.strip():
        return "--stdio needs a command"
    if options.max_pages < 1:
        return "--max-pages must be at least 1"
    return None


def _order(tools: list[dict[str, Any]]) -> list[int]:
    """Tools needing no arguments first: what they return fills others' arguments."""

    def needs(tool: dict[str, Any]) -> bool:
        schema = tool.get("inputSchema") or {}
        return bool(schema.get("required") or schema.get("anyOf"))

    return sorted(range(len(tools)), key=lambda i: needs(tools[i]))


def _line(audit: ToolAudit) -> str:
    codes = ", ".join(f"{f.code.value} ({f.severity.value})" for f in audit.findings)
    calls = len(audit.record.calls)
    counted = audit.kind in (Kind.LIST, Kind.SEARCH)
    unmeasured = counted and calls > 0 and not any(c.answered for c in audit.record.calls)
    # A tool whose every probe failed was not measured: "clean" would be a false green.
    clean = "not measured: every probe call failed" if unmeasured else "clean"
    detail = codes or (clean if counted else audit.reason)
    return f"{audit.name}: {audit.kind.value}, {calls} call{'' if calls == 1 else 's'}: {detail}"


def _fixed_for(tool: dict[str, Any], fixed: dict[str, str]) -> dict[str, str]:
    """The fixed arguments this tool takes (its input schema names them)."""
    properties = (tool.get("inputSchema") or {}).get("properties") or {}
    return {name: value for name, value in fixed.items() if name in properties}


def _with_fixed(call: Caller, fixed: dict[str, str]) -> Caller:
    if not fixed:
        return call

    async def fixed_call(tool: str, arguments: dict[str, Any]) -> CallAnswer:
        return await call(tool, {**arguments, **fixed})

    return fixed_call


async def _audit(options: AuditOptions) -> AuditReport:
    target = Target(options.mcp, options.token, options.stdio, options.timeout_s)
    async with connect(target) as upstream:
        try:
            tools, pages = await upstream.list_tools()
        except (MCPError, TimeoutError) as exc:
            raise TargetUnavailable(f"{target.label} answered tools/list with {exc}") from exc
        options.progress(f"tools/list: {len(tools)} tools in {pages} page{'s' * (pages != 1)}")
        harvest = Harvest()
        audits: dict[int, ToolAudit] = {}
        for index in _order(tools):
            tool = tools[index]
            plan = classify(tool)
            description = str(tool.get("description") or "")
            if plan.kind in (Kind.LIST, Kind.SEARCH):
                call = _with_fixed(upstream.call, _fixed_for(tool, options.fixed))
                record = await probe(plan, description, call, harvest, options.max_pages)
            else:
                record = ToolRecord(plan, plan.kind, plan.reason)
            audit = ToolAudit(
                plan.name,
                record.kind,
                record.reason,
                tuple(judge(record)),
                record,
                description,
                tool,
                _fixed_for(tool, options.fixed),
            )
            options.progress(_line(audit))
            audits[index] = audit
    return AuditReport(target.label, pages, tuple(audits[i] for i in range(len(tools))))


def run_audit(options: AuditOptions) -> AuditReport:
    """The audit; ``AuditUsageError`` / ``TargetUnavailable`` when it cannot run."""
    problem = usage_problem(options)
    if problem is not None:
        raise AuditUsageError(problem)
    return anyio.run(_audit, options)
