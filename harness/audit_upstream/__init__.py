"""``beacon audit-upstream``: how honestly an MCP server's list and search tools account
for their results (issue 28). ``harness/cli.py`` is the thin adapter."""

from harness.audit_upstream.audit import (
    DEFAULT_MAX_PAGES,
    EXIT_CLEAN,
    EXIT_CODES,
    EXIT_FINDINGS,
    EXIT_TARGET,
    EXIT_USAGE,
    AuditOptions,
    AuditReport,
    ToolAudit,
    run_audit,
    usage_problem,
)
from harness.audit_upstream.classify import Kind
from harness.audit_upstream.errors import AuditError, AuditUsageError, TargetUnavailable
from harness.audit_upstream.findings import Code, Finding, Severity

__all__ = [
    "DEFAULT_MAX_PAGES",
    "EXIT_CLEAN",
    "EXIT_CODES",
    "EXIT_FINDINGS",
    "EXIT_TARGET",
    "EXIT_USAGE",
    "AuditError",
    "AuditOptions",
    "AuditReport",
    "AuditUsageError",
    "Code",
    "Finding",
    "Kind",
    "Severity",
    "TargetUnavailable",
    "ToolAudit",
    "run_audit",
    "usage_problem",
]
