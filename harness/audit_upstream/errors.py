"""The audit's exceptions; a finding is a value, never one of these.

::

    AuditError
     ├── AuditUsageError     the command was given something it cannot run (exit 2)
     └── TargetUnavailable   the upstream cannot be reached or refused the bearer (exit 3)
"""

from __future__ import annotations


class AuditError(Exception):
    """Root of the audit's errors."""


class AuditUsageError(AuditError):
    pass


class TargetUnavailable(AuditError):
    pass
