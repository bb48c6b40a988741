"""What a tool is, read from its name, annotations and schemas before it is called.

A list or search tool is probed; a lookup (its required arguments name one thing)
and a tool that changes data are not. The name and annotations decide writes
first: a tool is called only when nothing says it writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from harness.audit_upstream import names


class Kind(StrEnum):
    LIST = "list"
    SEARCH = "search"
    LOOKUP = "lookup"
    SKIPPED = "skipped"


@dataclass(frozen=True, slots=True)
class Argument:
    name: str
    type: str  # the JSON type, "" when the schema leaves it open
    description: str
    required: bool
    default: Any = None
    maximum: int | None = None
    choices: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class ToolPlan:
    """A tool as the auditor reads it: its kind and the arguments that matter."""

    name: str
    kind: Kind
    reason: str
    arguments: tuple[Argument, ...]
    output_schema: dict[str, Any] | None
    size_arg: Argument | None = None
    cursor_arg: Argument | None = None  # a token the result hands back
    offset_arg: Argument | None = None  # a position the caller counts
    query_args: tuple[Argument, ...] = ()
    # A list only by its output schema or name, with an argument naming one thing:
    # a lookup if every probe answers one item (``get_project``).
    maybe_lookup: bool = False

    @property
    def default_size(self) -> int | None:
        arg = self.size_arg
        if arg is None:
            return None
        if isinstance(arg.default, int) and not isinstance(arg.default, bool):
            return arg.default
        found = names.DEFAULT_IN_DESCRIPTION.search(arg.description)
        return int(found.group(1)) if found else None

    def argument(self, name: str) -> Argument | None:
        return next((a for a in self.arguments if a.name == name), None)


def _type(schema: dict[str, Any]) -> str:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "")
    if not kind:
        for option in schema.get("anyOf") or schema.get("oneOf") or ():
            if isinstance(option, dict) and option.get("type") not in (None, "null"):
                return _type(option)
    return kind if isinstance(kind, str) else ""


def _required(schema: dict[str, Any]) -> set[str]:
    required = {r for r in schema.get("required") or () if isinstance(r, str)}
    # A schema may require one of several (``anyOf: [{required: [question]}, {required:
    # [cursor]}]``): the first alternative that asks for no cursor is the one a first call takes.
    for option in schema.get("anyOf") or schema.get("oneOf") or ():
        wanted = option.get("required") if isinstance(option, dict) else None
        if isinstance(wanted, list) and not any(
            names.in_names(w, names.CURSOR_ARGS | names.OFFSET_ARGS) for w in wanted
        ):
            required |= {w for w in wanted if isinstance(w, str)}
            break
    return required


def arguments(input_schema: dict[str, Any] | None) -> tuple[Argument, ...]:
    schema = input_schema or {}
    properties = schema.get("properties") or {}
    required = _required(schema)
    found = []
    for name, prop in properties.items():
        prop = prop if isinstance(prop, dict) else {}
        maximum = prop.get("maximum")
        enum = prop.get("enum")
        choices: list[Any] = enum if isinstance(enum, list) else []
        found.append(
            Argument(
                name=name,
                type=_type(prop),
                description=str(prop.get("description") or ""),
                required=name in required,
                default=prop.get("default"),
                maximum=maximum if isinstance(maximum, int) else None,
                choices=tuple(choices),
            )
        )
    return tuple(found)


def is_identifier(arg: Argument) -> bool:
    toks = names.tokens(arg.name)
    return bool(toks) and (
        toks[-1] in names.ID_SUFFIXES or names.in_names(arg.name, names.PATH_ARGS)
    )


def _is_size(arg: Argument) -> bool:
    if arg.type not in ("integer", "number"):
        return False
    return names.in_names(arg.name, names.PAGE_SIZE_ARGS) or bool(
        names.BOUND_DESCRIPTION.search(arg.description)
    )


def write_reason(name: str, annotations: dict[str, Any] | None) -> str | None:
    """Why the tool must not be called, or None when nothing says it writes."""
    notes = annotations or {}
    if notes.get("readOnlyHint") is False:
        return "annotations say it changes data (readOnlyHint: false)"
    if notes.get("destructiveHint") is True and notes.get("readOnlyHint") is not True:
        return "annotations say it is destructive (destructiveHint: true)"
    verbs = [t for t in names.tokens(name) if t in names.WRITE_WORDS]
    if verbs:
        return f"its name says it writes ({verbs[0]!r})"
    return None


def _has_item_array(schema: dict[str, Any] | None) -> bool:
    properties = (schema or {}).get("properties") or {}
    return any(isinstance(p, dict) and _type(p) == "array" for p in properties.values())


def classify(tool: dict[str, Any]) -> ToolPlan:
    """``tool`` is one entry of ``tools/list`` as sent (camelCase)."""
    name = str(tool.get("name", ""))
    args = arguments(tool.get("inputSchema"))
    output = tool.get("outputSchema")
    output = output if isinstance(output, dict) else None
    size = next((a for a in args if _is_size(a)), None)
    cursor = next(
        (a for a in args if names.in_names(a.name, names.CURSOR_ARGS) and a.type != "integer"),
        None,
    )
    offset = next(
        (a for a in args if names.in_names(a.name, names.OFFSET_ARGS) and a.type == "integer"),
        None,
    )
    queries = tuple(
        a for a in args if a.type in ("string", "") and names.in_names(a.name, names.QUERY_ARGS)
    )

    def plan(kind: Kind, reason: str, *, maybe_lookup: bool = False) -> ToolPlan:
        return ToolPlan(
            name, kind, reason, args, output, size, cursor, offset, queries, maybe_lookup
        )

    written = write_reason(name, tool.get("annotations"))
    if written is not None:
        return plan(Kind.SKIPPED, written)
    words = names.tokens(name)
    verb = words[0] if words else ""
    required_ids = [a for a in args if a.required and is_identifier(a)]
    paged = size is not None or cursor is not None or offset is not None
    if (
        (verb in names.LOOKUP_VERBS or not (paged or queries))
        and required_ids
        and not (set(words) & (names.LIST_VERBS | names.SEARCH_VERBS))
    ):
        named = ", ".join(a.name for a in required_ids)
        return plan(Kind.LOOKUP, f"its required arguments ({named}) name one item")
    if queries or set(words) & names.SEARCH_VERBS:
        return plan(
            Kind.SEARCH, "it takes free text to match" if queries else "its name says search"
        )
    if paged:
        return plan(Kind.LIST, "it takes a page size or a cursor")
    ids = any(is_identifier(a) for a in args)
    if set(words) & names.LIST_VERBS:
        return plan(Kind.LIST, "its name says list")
    if _has_item_array(output):
        return plan(Kind.LIST, "its output schema holds an array", maybe_lookup=ids)
    last = words[-1] if words else ""
    whole = (last.endswith("s") and not last.endswith("ss")) or last in names.WHOLE_NOUNS
    if verb in names.LOOKUP_VERBS and whole and not any(a.required for a in args):
        return plan(Kind.LIST, f"it reads ({verb!r}) with nothing to name", maybe_lookup=True)
    return plan(
        Kind.SKIPPED, "no list or search signal (no page size, cursor, query, list name or array)"
    )
