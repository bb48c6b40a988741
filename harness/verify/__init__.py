"""``beacon verify``: the honesty conformance suite for any server that speaks the frame protocol.

Point it at a chat server (``--target``) with a token and it judges every
turn it makes by Beacon's own rules — frame order, one terminal, references
before narration, every number in the form its grade permits (verify's own
judge, ``judge.py``, independent of the chat server's guard, in five locales), no unearned "all" or
"none", replays byte for byte — and probes auth and hostile input. Given the
stub upstream the target uses (``--mcp``), it also runs the canonical
scenarios. It writes JUnit, ``checks.json`` and one self-contained HTML page;
exit 0 all pass or baselined, 1 a failure or a stale baseline, 2 usage, 3 a
target that cannot be tested at all (unreachable, or answering no turn with a
stream), said in one line.
"""

from harness.verify.model import (
    CHECKS,
    EXIT_FAILED,
    EXIT_OK,
    EXIT_TARGET,
    EXIT_USAGE,
    CaseResult,
    Report,
    Status,
)
from harness.verify.report import (
    summary_line,
    write_html,
    write_json,
    write_junit,
    write_reports,
)
from harness.verify.run import (
    Verified,
    VerifyError,
    VerifyOptions,
    VerifyTargetError,
    VerifyUsageError,
    run_verify,
    usage_problem,
    verify,
)

__all__ = [
    "CHECKS",
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_TARGET",
    "EXIT_USAGE",
    "CaseResult",
    "Report",
    "Status",
    "Verified",
    "VerifyError",
    "VerifyOptions",
    "VerifyTargetError",
    "VerifyUsageError",
    "run_verify",
    "summary_line",
    "usage_problem",
    "verify",
    "write_html",
    "write_json",
    "write_junit",
    "write_reports",
]
