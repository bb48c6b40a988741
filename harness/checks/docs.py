"""The doc-citation check: what a document cites (a text, a path, a symbol, a command, a
make target) still exists where it says."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from harness.checks.base import CheckContext
from harness.refs import CheckFailed, defined_names, require


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
        import beacon.cli.main  # noqa: F401  (registers the product's commands on the table)
        from beacon.cli.commands import app

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
