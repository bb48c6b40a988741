"""Checks of the gates as CI sees them: a gate's exit code for a command line, and the
caller that invokes each gate."""

from __future__ import annotations

import contextlib
import importlib
import io
import tempfile
from collections.abc import Mapping
from typing import Any

from harness.checks.base import CheckContext
from harness.refs import CheckFailed, require


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
