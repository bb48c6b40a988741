"""The baseline: failures a deployment is known to have, so CI can hold it to no new ones.

A baseline file names cases (``check::case``) or whole checks (``check``), as
a JSON list, a JSON object ``{"failures": [...]}``, or plain text one per line
(``#`` starts a comment). Against it:

- a named case that fails is ``baselined`` (the run may still exit 0);
- a named case that now passes is a ``stale_baseline`` (exit 1): the fix is
  real, so the entry must go, or it would hide the same failure coming back;
- a named whole check is stale when none of its cases fails any more;
- an entry that names nothing in this run is reported, never silently dropped.
"""

from __future__ import annotations

import json
from pathlib import Path

from harness.verify.model import CHECKS, CaseResult, Status


class BaselineError(ValueError):
    """The baseline file is missing or unreadable: a usage error."""


def load_baseline(path: Path) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BaselineError(f"cannot read the baseline {path}: {exc.strerror}") from exc
    stripped = text.strip()
    entries: object
    if stripped.startswith(("[", "{")):
        try:
            entries = json.loads(stripped)
        except ValueError as exc:
            raise BaselineError(f"the baseline {path} is not valid JSON: {exc}") from exc
        if isinstance(entries, dict):
            entries = entries.get("failures")
        if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
            raise BaselineError(f"the baseline {path} must list check or case ids (strings)")
    else:
        entries = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    names = [e.strip() for e in entries if isinstance(e, str) and e.strip()]
    unknown = [n for n in names if n.partition("::")[0] not in CHECKS]
    if unknown:
        raise BaselineError(f"the baseline names checks that do not exist: {unknown[:5]}")
    return list(dict.fromkeys(names))


def apply_baseline(results: list[CaseResult], entries: list[str]) -> list[str]:
    """Re-grade ``results`` in place against ``entries``; the entries that named nothing."""
    unmatched = []
    for entry in entries:
        check, _, case = entry.partition("::")
        named = [r for r in results if r.check == check and (not case or r.case == case)]
        ran = [r for r in named if r.status is not Status.NOT_VERIFIED]
        if not ran:
            unmatched.append(entry)
            continue
        failed = [r for r in ran if r.status is Status.FAIL]
        for result in failed:
            result.status = Status.BASELINED
            result.expected_failure = True
        if case and not failed:
            for result in ran:
                result.status = Status.STALE
                result.expected_failure = True
                result.message = f"the baseline expects {entry} to fail, and it passes"
        elif not case and not failed:
            first = ran[0]
            first.status = Status.STALE
            first.expected_failure = True
            first.message = f"the baseline expects {check} to fail, and every case passes"
    return unmatched
