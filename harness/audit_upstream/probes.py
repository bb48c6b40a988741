"""Call one list or search tool read-only with probing arguments, and keep what came back.

The calls, in order: argument variants with the tool's default page size (free
text from its description or from titles other tools returned; ids other tools
returned), a small page size, and a cursor walk from the fullest variant with the
default size, up to ``max_pages`` pages. Nothing here judges: ``findings`` does.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from harness.audit_upstream import names
from harness.audit_upstream.classify import Argument, Kind, ToolPlan, is_identifier
from harness.audit_upstream.client import CallAnswer
from harness.audit_upstream.reading import Reading, read

VARIANT_CALLS = 8  # calls spent finding arguments that return items
VARIANTS_WANTED = 3  # different queries that returned items, to compare their totals
_SQL = re.compile(r"\b(SQL|SELECT)\b")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{3,}")
_STOP = frozenset(
    {
        "this",
        "that",
        "with",
        "from",
        "into",
        "onto",
        "over",
        "about",
        "also",
        "only",
        "those",
        "these",
        "their",
        "there",
        "when",
        "where",
        "which",
        "while",
        "each",
        "every",
        "optional",
        "optionally",
        "results",
        "result",
        "returns",
        "return",
        "tool",
        "tools",
        "list",
        "lists",
        "search",
        "query",
        "queries",
        "given",
        "using",
        "used",
        "because",
        "cannot",
        "paginated",
        "inclusive",
        "answer",
        "filters",
        "filtered",
        "anded",
    }
)

Caller = Callable[[str, dict[str, Any]], Awaitable[CallAnswer]]


@dataclass(frozen=True, slots=True)
class Call:
    purpose: str  # variant | small | page
    arguments: dict[str, Any]
    reading: Reading | None
    rpc_error: str | None = None

    @property
    def answered(self) -> bool:
        """A result that is not an error (isError or JSON-RPC)."""
        return self.reading is not None and not self.reading.is_error

    @property
    def items(self) -> int:
        return self.reading.items if self.reading is not None else 0


@dataclass(frozen=False, slots=True)  # classified, then walked, call by call
class ToolRecord:
    plan: ToolPlan
    kind: Kind
    reason: str
    calls: list[Call] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    walk_pages: int = 0
    walk_complete: bool | None = None  # None: no walk
    walk_from: int | None = None  # the index in ``calls`` of the walk's first page

    def walk(self) -> list[Call]:
        """The walk's pages in order, its first page (the base variant) included."""
        if self.walk_from is None:
            return []
        return [self.calls[self.walk_from], *(c for c in self.calls if c.purpose == "page")]


@dataclass(frozen=False, slots=True)  # gathers values from every tool's result in turn
class Harvest:
    """Values other tools returned, by the argument names they can fill."""

    values: dict[str, list[Any]] = field(default_factory=dict)
    titles: list[str] = field(default_factory=list)

    def add(self, tool: str, raw: dict[str, Any], reading: Reading) -> None:
        nouns = [t for t in names.tokens(tool) if t not in names.LIST_VERBS | names.SEARCH_VERBS]
        for item in _items(raw):
            if not isinstance(item, dict):
                if isinstance(item, str) and item.startswith("/") and len(item) < 300:
                    self._keep("path", item)
                continue
            for key, value in item.items():
                if isinstance(value, str | int) and not isinstance(value, bool):
                    if names.folded(key).endswith("_id"):
                        self._keep(names.folded(key), value)
                    if key == "id":
                        for noun in nouns:
                            self._keep(f"{noun.removesuffix('s')}_id", value)
        for title in reading.titles:
            short = " ".join(title.split()[:3])
            if short not in self.titles and len(self.titles) < 6:
                self.titles.append(short)

    def _keep(self, key: str, value: Any) -> None:
        kept = self.values.setdefault(key, [])
        if value not in kept and len(kept) < 4:
            kept.append(value)

    def for_argument(self, arg: Argument) -> list[Any]:
        found = list(self.values.get(names.folded(arg.name), ()))
        if names.in_names(arg.name, names.PATH_ARGS):
            found += [p for p in self.values.get("path", ()) if p not in found] + ["."]
        return found


def _items(raw: dict[str, Any]) -> list[Any]:
    structured = raw.get("structuredContent")
    if isinstance(structured, dict):
        arrays = [v for v in structured.values() if isinstance(v, list)]
        return max(arrays, key=len) if arrays else []
    lines: list[Any] = []
    for block in raw.get("content") or ():
        if isinstance(block, dict) and block.get("type") == "text":
            lines += [line.strip() for line in str(block.get("text", "")).splitlines()]
    return lines


def _description_words(description: str) -> list[str]:
    words: list[str] = []
    for word in _WORD.findall(description):
        lowered = word.lower().strip("'-")
        if lowered.endswith("'s") or lowered in _STOP or lowered in words:
            continue
        words.append(lowered)
    # Plural nouns first: what a list or a question is about ("panoramas", "commits").
    return sorted(words, key=lambda w: not (w.endswith("s") and not w.endswith("ss")))


def _texts(plan: ToolPlan, description: str, harvest: Harvest) -> list[str]:
    words = _description_words(description)[:5]
    titles = harvest.titles[:3]
    question = any(names.folded(a.name) == "question" for a in plan.query_args)
    # A question is phrased from the tool's own description; a query from what the
    # upstream has shown elsewhere (titles it returned), then the description's words.
    ordered = words + titles if question else titles + words
    tables = [name for name in harvest.titles[:3] if _NAME.match(name)]
    if tables and any(_SQL.search(a.description) for a in plan.query_args):
        # An argument that takes SQL itself: read the tables other tools named.
        ordered = [f"SELECT * FROM {name}" for name in tables]
    return ordered or ["a"]


def _plain(arg: Argument) -> Any:
    if arg.default is not None:
        return arg.default
    if arg.choices:
        return arg.choices[0]
    return {"integer": 1, "number": 1, "boolean": False}.get(arg.type)


class _Filler:
    """Argument sets for one tool, or the reason it cannot be filled."""

    def __init__(self, plan: ToolPlan, description: str, harvest: Harvest) -> None:
        self.plan = plan
        paging = {a.name for a in (plan.size_arg, plan.cursor_arg, plan.offset_arg) if a}
        self.queries = [a for a in plan.query_args if a.required]
        paging |= {a.name for a in self.queries}
        self.texts = _texts(plan, description, harvest) if self.queries else [None]
        fixed: dict[str, Any] = {}
        self.varied: list[tuple[str, list[Any]]] = []
        self.missing: list[str] = []
        for arg in plan.arguments:
            if arg.name in paging:
                continue
            harvested = harvest.for_argument(arg) if is_identifier(arg) else []
            if harvested:
                self.varied.append((arg.name, harvested))
            elif arg.required:
                value = _plain(arg)
                if value is None:
                    self.missing.append(arg.name)
                else:
                    fixed[arg.name] = value
        self.fixed = fixed

    def arguments(self, text: str | None, choice: int) -> dict[str, Any]:
        args = dict(self.fixed)
        for arg in self.queries:
            args[arg.name] = text
        for name, values in self.varied:
            args[name] = values[min(choice, len(values) - 1)]
        return args

    def plans(self) -> list[tuple[str | None, int]]:
        """(text, id choice) pairs in the order they are tried."""
        choices = max((len(v) for _, v in self.varied), default=1)
        order = [(t, 0) for t in self.texts]
        return order + [(t, c) for c in range(1, choices) for t in self.texts[:1]]


async def probe(
    plan: ToolPlan, description: str, call: Caller, harvest: Harvest, max_pages: int
) -> ToolRecord:
    record = ToolRecord(plan, plan.kind, plan.reason)
    filler = _Filler(plan, description, harvest)
    if filler.missing:
        record.kind = Kind.SKIPPED
        record.reason = f"cannot fill its required argument {', '.join(filler.missing)}"
        return record

    async def made(purpose: str, arguments: dict[str, Any]) -> Call:
        answer = await call(plan.name, arguments)
        reading = read(answer.result, plan.output_schema) if answer.result is not None else None
        done = Call(purpose, arguments, reading, answer.rpc_error)
        record.calls.append(done)
        if answer.result is not None and reading is not None and done.answered:
            harvest.add(plan.name, answer.result, reading)
        return done

    successes: list[Call] = []
    for text, choice in filler.plans():
        if len(record.calls) >= VARIANT_CALLS or len(successes) >= VARIANTS_WANTED:
            break
        if choice > 0 and not successes:
            break  # other ids only vary a query that returned items
        if choice > 0:
            text = successes[0].arguments.get(filler.queries[0].name) if filler.queries else None
        done = await made("variant", filler.arguments(text, choice))
        if done.answered and done.items > 0:
            successes.append(done)
    if plan.maybe_lookup and successes and all(c.items <= 1 for c in record.calls if c.answered):
        record.kind = Kind.LOOKUP
        record.reason = "every probe answered one item for the thing it names"
        return record
    if not successes:
        record.notes.append("no probe returned items")
        return record
    base = max(successes, key=lambda c: c.items)
    size = plan.size_arg
    if size is not None:
        default = plan.default_size
        small = 1 if default is not None and default <= 2 else 2
        await made("small", {**base.arguments, size.name: small})
    await _walk(record, plan, base, made, max_pages)
    return record


async def _walk(
    record: ToolRecord,
    plan: ToolPlan,
    base: Call,
    made: Callable[[str, dict[str, Any]], Awaitable[Call]],
    max_pages: int,
) -> None:
    """Follow the base call's cursor (or count an offset) with the default page size."""
    reading = base.reading
    assert reading is not None
    cursor = plan.cursor_arg
    offset = plan.offset_arg
    if cursor is None and offset is None:
        return
    pages, seen, last = 1, base.items, reading
    record.walk_complete = False
    record.walk_from = record.calls.index(base)
    while pages < max_pages:
        if last.more is False or last.items == 0:
            break
        if cursor is not None:
            token = last.next_cursor.value if last.next_cursor is not None else None
            if token in (None, ""):
                break
            step = {**base.arguments, cursor.name: token}
        else:
            assert offset is not None
            if last.more is None and plan.default_size not in (None, last.items):
                break  # a short page with nothing saying more: the end
            step = {**base.arguments, offset.name: seen}
        page = await made("page", step)
        pages += 1
        if not page.answered or page.reading is None:
            record.notes.append(f"page {pages} of the cursor walk was refused")
            break
        last = page.reading
        seen += last.items
    record.walk_pages = pages
    record.walk_complete = last.more is not True
