"""The corpus's record types: what a project, level, capture, photo, annotation,
document, progress row and clash look like, and where a record stands (a camera
view, a BIM reference, the host scope).

Plain frozen dataclasses with no behaviour and no imports of the stub: the
generators (``corpus`` for the core records, ``corpus_site`` for the site
records) and the tools that serve them all import these one way.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Project:
    id: str
    name: str
    code: str
    city: str


@dataclass(frozen=True, slots=True)
class Level:
    id: str
    project_id: str
    number: int
    name: str


@dataclass(frozen=True, slots=True)
class Capture:
    id: str
    project_id: str
    level_number: int
    label: str
    captured_at: str


@dataclass(frozen=True, slots=True)
class Photo:
    id: str
    project_id: str
    level_number: int
    capture_id: str
    title: str
    description: str
    taken_at: str


@dataclass(frozen=True, slots=True)
class Annotation:
    id: str
    project_id: str
    level_number: int
    capture_id: str
    kind: str
    category: str
    status: str
    company: str
    created_at: str
    title: str
    inspector: str  # who raised the finding


@dataclass(frozen=True, slots=True)
class Document:
    id: str
    project_id: str
    kind: str
    number: str
    title: str
    summary: str
    status: str
    discipline: str
    level_number: int
    issued_on: str


@dataclass(frozen=True, slots=True)
class Progress:
    project_id: str
    level_number: int
    trade: str
    planned_pct: int
    actual_pct: int
    as_of: str


@dataclass(frozen=True, slots=True)
class Clash:
    id: str
    project_id: str
    level_number: int
    discipline_a: str
    discipline_b: str
    element_a: str
    element_b: str
    severity: str
    status: str
    detected_on: str


Vector = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class View:
    """A camera view onto a record: where the camera stands, the point it looks at and
    the unit vector between them (metres, the project's coordinates)."""

    position: Vector
    look_at: Vector
    direction: Vector


@dataclass(frozen=True, slots=True)
class Bim:
    """The building model, element and model level a finding is pinned to."""

    model: str
    element: str
    level: str


@dataclass(frozen=True, slots=True)
class HostScope:
    """Who a project's records belong to: the organisation and the site team."""

    organisation: str
    team: str
