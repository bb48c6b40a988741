"""What Beacon knows about each upstream tool: one row per tool (SPEC §2.1), data only.

Catalog scoping and the PEP (the capability), adjudication (whether a result is
counted, and as what), narrowing (the filter axes, the arguments they travel in,
the narrowed page), intents (the question only this tool can answer) and
citations (the record kinds a tool returns, by id prefix) all read these rows
through ``tool_spec``/``tool_specs`` and keep no table of their own. The rows
live in ``wire`` because policy and adjudication may import nothing else.

A tool missing here is hidden and blocked: a new upstream tool stays dark until
someone writes its row.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, get_args

from beacon.wire.frames import ScopeAxis

# How the upstream labels a counted result (the envelope's ``result_kind``).
ResultKind = Literal["search", "rows"]
# What a count of a tool's records is called, as a key into the locale package's noun
# tables (beacon/lexicon/narration.py NOUNS): "photos" → "3 matching photos" / "사진 3장".
NounKey = Literal["photos", "findings", "documents", "panoramas"]
# A job only one tool of an upstream does: the single-value aggregate "how many" needs,
# the project directory round 0 reads, the levels a one-sided comparison offers.
ToolRole = Literal["aggregate", "context", "levels"]
# The argument a narrowed scope sets to ask for the tool's largest page.
PAGE_ARGUMENT = "limit"


@dataclass(frozen=True, slots=True)
class FilterAxis:
    """A way to narrow a result, and the arguments it travels in (the tools' own names)."""

    name: str
    arguments: tuple[str, ...]


LEVEL = FilterAxis("level", ("level_number",))
STATUS = FilterAxis("status", ("status",))
CATEGORY = FilterAxis("category", ("category",))
COMPANY = FilterAxis("company", ("company",))
KIND = FilterAxis("kind", ("kind",))
DATE_RANGE = FilterAxis("date_range", ("date_from", "date_to"))
# The six axes findings and analytics rows can be narrowed by, in tie-break order.
_FINDING_AXES = (LEVEL, STATUS, CATEGORY, COMPANY, KIND, DATE_RANGE)

# The axes a question's constraints are read on (SPEC §4, ``references.counts[].scope``),
# and the arguments that apply each one. A tool applies a constraint only through
# the arguments its row names here: what it cannot take, it cannot have applied.
SCOPE_AXES: tuple[str, ...] = get_args(ScopeAxis)
IN_PROJECT = FilterAxis("project", ("project_id",))
IN_WINDOW = FilterAxis("date", ("date_from", "date_to"))
# A time of day is on the date axis too, in hours ("06:00"–"11:59"): a tool takes it only
# where its records carry a time (panoramas' capture time), not only a day.
AT_HOURS = FilterAxis("date", ("time_from", "time_to"))
BY_PERSON = FilterAxis("person", ("inspector",))
ABOUT = FilterAxis("topic", ("query",))
_FINDING_SCOPE = (IN_PROJECT, LEVEL, STATUS, CATEGORY, COMPANY, KIND, IN_WINDOW, BY_PERSON)


@dataclass(frozen=True, slots=True)
class RecordKind:
    """A citable record kind and the id prefix the upstream gives it (a stable convention)."""

    name: str
    id_prefix: str


PHOTO = RecordKind("photo", "ph-")
PANORAMA = RecordKind("panorama", "cap-")
ANNOTATION = RecordKind("annotation", "ann-")
PROJECT = RecordKind("project", "prj-")
DOCUMENT = RecordKind("document", "doc-")
RECORD_KINDS: tuple[RecordKind, ...] = (PHOTO, PANORAMA, ANNOTATION, PROJECT, DOCUMENT)


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One upstream tool, as every part of Beacon that cares about it sees it."""

    name: str
    # The capability a caller needs (SPEC §5).
    capability: str
    # Counted results and their label; None: the tool's answer is its own (one record,
    # prose) and is never graded nor judged empty — it has no result contract.
    result_kind: ResultKind | None
    # Axes a counter-question may offer, in tie-break order; none: it is never narrowed.
    filter_axes: tuple[FilterAxis, ...] = ()
    # The largest page a narrowed scope asks for, so one page can hold the whole set.
    narrowed_page: int | None = None
    # The record kinds its results are cited as; a record of another kind gets no card.
    cites: tuple[RecordKind, ...] = ()
    # A question only this tool can answer (regex, case-insensitive): a caller who
    # lacks it is told so instead of getting a vague answer. None: others can stand in.
    intent: str | None = None
    # The constraint axes (SCOPE_AXES) whose values its arguments can carry.
    applies: tuple[FilterAxis, ...] = ()
    # What a count of its records is called; None: what the question's subject names
    # (a text-to-SQL tool counts anything), else results in general.
    noun: NounKey | None = None
    # How a field's values relate to its records, for an enumeration's sentence
    # ("appears_in_findings"); None: records in general.
    relation: str | None = None
    # The one job it does for the loop, if any (tool_with_role).
    role: ToolRole | None = None

    @property
    def has_result_contract(self) -> bool:
        return self.result_kind is not None

    @property
    def axis_names(self) -> tuple[str, ...]:
        return tuple(axis.name for axis in self.filter_axes)

    def applying(self, axis: str, *, hours: bool = False) -> FilterAxis | None:
        """How this tool applies a constraint on ``axis`` (a time of day: ``hours``), or
        None: it cannot."""
        return next((a for a in self.applies if a.name == axis and (a is AT_HOURS) == hours), None)

    @property
    def scope_keys(self) -> tuple[str, ...]:
        """The arguments a narrowed scope may set on this tool."""
        keys = tuple(key for axis in self.filter_axes for key in axis.arguments)
        return (*keys, PAGE_ARGUMENT) if self.narrowed_page is not None else keys


TOOL_SPECS: Mapping[str, ToolSpec] = MappingProxyType(
    {
        spec.name: spec
        for spec in (
            ToolSpec(
                "search_photos",
                "photo_ai",
                "search",
                filter_axes=(LEVEL,),
                narrowed_page=50,
                cites=(PHOTO,),
                intent=r"\b(photos?|pictures?|images?)\b",
                applies=(IN_PROJECT, LEVEL, IN_WINDOW, ABOUT),
                noun="photos",
            ),
            ToolSpec(
                "query_data",
                "analytics",
                "rows",
                filter_axes=_FINDING_AXES,
                cites=(PANORAMA, PHOTO, ANNOTATION),
                applies=(*_FINDING_SCOPE, AT_HOURS),
                relation="appears_in_records",
                role="aggregate",
            ),
            ToolSpec("list_projects", "core", "rows", cites=(PROJECT,), role="context"),
            ToolSpec("get_project", "core", None, cites=(PROJECT,), applies=(IN_PROJECT,)),
            ToolSpec("list_levels", "core", "rows", applies=(IN_PROJECT,), role="levels"),
            ToolSpec("get_capture", "core", None, cites=(PANORAMA,)),
            ToolSpec(
                "list_annotations",
                "core",
                "rows",
                filter_axes=_FINDING_AXES,
                narrowed_page=100,
                cites=(ANNOTATION,),
                applies=_FINDING_SCOPE,
                noun="findings",
                relation="appears_in_findings",
            ),
            ToolSpec(
                "search_documents",
                "documents",
                "search",
                cites=(DOCUMENT,),
                intent=r"\b(specs?|specifications?|rfis?|documents?)\b",
                applies=(IN_PROJECT, ABOUT),
                noun="documents",
                relation="named_in_documents",
            ),
            ToolSpec(
                "get_progress_summary",
                "progress",
                "rows",
                intent=r"\bprogress\b",
                applies=(IN_PROJECT, LEVEL),
            ),
            ToolSpec(
                "get_clash_report",
                "bim",
                "rows",
                intent=r"\b(clash(es)?|bim)\b",
                applies=(IN_PROJECT, LEVEL),
                relation="appears_in_clashes",
            ),
        )
    }
)


# The table of the upstream this process fronts: the stub's by default; another
# upstream's, from its declared contract, once at start-up (front_tool_table). One
# process fronts one upstream, so every reader below sees the same rows for its life.
_FRONTED: list[Mapping[str, ToolSpec]] = [TOOL_SPECS]


# What a text-to-SQL tool's rows are, by the table its ``sql`` reads them from (the
# upstream's schema, as its result reports the query it ran): a count's records are read
# from its result, never assumed to be what the question named.
QUERIED_TABLES: Mapping[str, NounKey] = MappingProxyType(
    {
        "annotations": "findings",
        "photos": "photos",
        "captures": "panoramas",
        "documents": "documents",
    }
)
# What a count's records are, by the kind they are cited as.
CITED_AS: Mapping[str, NounKey] = MappingProxyType(
    {
        ANNOTATION.name: "findings",
        PHOTO.name: "photos",
        PANORAMA.name: "panoramas",
        DOCUMENT.name: "documents",
    }
)


def tool_spec(tool: object) -> ToolSpec | None:
    """The row of ``tool``, or None for anything that is not a known tool's name."""
    return _FRONTED[-1].get(tool) if isinstance(tool, str) else None


def tool_specs() -> tuple[ToolSpec, ...]:
    """Every row of the fronted upstream (the stub's in SPEC §2.1 order)."""
    return tuple(_FRONTED[-1].values())


def tool_with_role(role: ToolRole) -> str | None:
    """The fronted upstream's tool for ``role``; None: this upstream has none (an
    upstream fronted through its contract may have no projects, no aggregate)."""
    return next((spec.name for spec in tool_specs() if spec.role == role), None)


def front_tool_table(rows: Iterable[ToolSpec]) -> Mapping[str, ToolSpec]:
    """Make ``rows`` the table every reader sees (the server's start-up, before it serves;
    a test, inside ``fronting``). Returns the table it replaced."""
    previous = _FRONTED[-1]
    _FRONTED[-1] = MappingProxyType({row.name: row for row in rows})
    return previous


@contextmanager
def fronting(rows: Iterable[ToolSpec]) -> Iterator[None]:
    """The table is ``rows`` inside the block, and what it was after it."""
    previous = front_tool_table(rows)
    try:
        yield
    finally:
        _FRONTED[-1] = previous
