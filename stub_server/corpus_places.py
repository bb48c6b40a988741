"""Where the records stand: a camera view for every capture, photo and annotation,
a BIM reference for the findings pinned to a building element, and each project's
host scope (organisation, team) and each finding's review.

Drawn from a generator of its own (``views-<seed>``), after the core corpus, so
adding places moved no record that tests and the demo already count. A capture's
camera stands on its level, inside the project's footprint, at eye height; a
photo is taken a step or two from its capture; a finding is seen from its
capture's camera, looking at the pin a few metres away.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from stub_server.records import Annotation, Bim, Capture, HostScope, Photo, Project, Vector, View

ORGANISATION = "Northline Builders"
REVIEWS: Mapping[str, str] = MappingProxyType(
    {"safety": "Weekly safety review", "quality": "Monthly quality review"}
)
_CAMERA_HEIGHT = 1.6  # a 360 camera on its pole, metres above the floor
_HAND_HEIGHT = 1.5  # a photo taken by hand
_MARGIN = 1.0  # a camera stands at least this far inside the slab edge
_REACH = (2.0, 6.0)  # how far the look-at point lies from the camera, metres
_TILT = (-1.0, 0.5)  # how far below or above the camera it lies, metres


@dataclass(frozen=True, slots=True)
class Footprint:
    """A level's plan in metres (x across, y deep) and the storey height (z)."""

    width: float
    depth: float
    storey: float

    def floor(self, level_number: int) -> float:
        return (level_number - 1) * self.storey


FOOTPRINTS: Mapping[str, Footprint] = MappingProxyType(
    {
        "prj-harbor-tower": Footprint(48.0, 32.0, 3.6),
        "prj-maple-clinic": Footprint(60.0, 24.0, 4.2),
        "prj-cedar-school": Footprint(72.0, 40.0, 3.9),
        "prj-riverside-depot": Footprint(90.0, 50.0, 7.5),
    }
)
_ANY_FOOTPRINT = Footprint(40.0, 30.0, 3.5)
# A finding's title (before its zone) → the model discipline and the element it is
# pinned to; findings about people and loose material (PPE, debris) pin to none.
_ELEMENTS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "Unprotected slab edge": ("STR", "slab edge S-{n}"),
        "Guardrail gap at stair opening": ("STR", "stair opening SO-{n}"),
        "Open shaft cover": ("STR", "shaft SH-{n}"),
        "Exposed live conductors": ("ELE", "conduit run E-{n}"),
        "Panel left open": ("ELE", "panel P-{n}"),
        "Extinguisher missing from station": ("FIR", "extinguisher cabinet X-{n}"),
        "Blocked exit": ("ARC", "exit door ED-{n}"),
        "Uneven plaster finish": ("ARC", "wall W-{n}"),
        "Paint runs on column": ("STR", "column C-{n}"),
        "Scuffed drywall corner": ("ARC", "partition PT-{n}"),
        "Curtain wall bracket out of line": ("ARC", "curtain wall bracket CW-{n}"),
        "Door frame out of plumb": ("ARC", "door frame DF-{n}"),
        "Duct offset": ("MEC", "supply duct D-{n}"),
        "Membrane lap not sealed": ("ARC", "membrane M-{n}"),
        "Ponding on podium deck": ("STR", "podium deck PD-{n}"),
        "Leak at window head": ("ARC", "window head WH-{n}"),
    }
)


def footprint(project_id: str) -> Footprint:
    return FOOTPRINTS.get(project_id, _ANY_FOOTPRINT)


@dataclass(frozen=True, slots=True)
class Places:
    views: Mapping[str, View]
    bims: Mapping[str, Bim]
    reviews: Mapping[str, str]  # a finding's id → the review it is raised in
    scopes: Mapping[str, HostScope]

    def fields(self, record_id: str, project: Project) -> dict[str, Any]:
        """The place fields of a record's tool item: its view, BIM reference and review
        when it has them, and its project's host scope."""
        out: dict[str, Any] = {}
        if (view := self.views.get(record_id)) is not None:
            out["view"] = {
                "position": list(view.position),
                "look_at": list(view.look_at),
                "direction": list(view.direction),
            }
        if (bim := self.bims.get(record_id)) is not None:
            out["bim"] = {"model": bim.model, "element": bim.element, "level": bim.level}
        if (scope := self.scopes.get(project.id)) is not None:
            out["organisation"], out["team"] = scope.organisation, scope.team
        out["project_name"] = project.name
        if (review := self.reviews.get(record_id)) is not None:
            out["review"] = review
        return out


NO_PLACES = Places(
    MappingProxyType({}), MappingProxyType({}), MappingProxyType({}), MappingProxyType({})
)


def _metres(value: float) -> float:
    return round(value, 2)


def _inside(value: float, reach: float, upper: float) -> float:
    # A look-at point past the slab edge is mirrored back onto the slab.
    return value + reach if 0.0 <= value + reach <= upper else value - reach


def _view(rng: random.Random, plan: Footprint, position: Vector) -> View:
    angle = rng.uniform(0.0, 2 * math.pi)
    reach = rng.uniform(*_REACH)
    look_at = (
        _metres(_inside(position[0], reach * math.cos(angle), plan.width)),
        _metres(_inside(position[1], reach * math.sin(angle), plan.depth)),
        _metres(position[2] + rng.uniform(*_TILT)),
    )
    delta = [b - a for a, b in zip(position, look_at, strict=True)]
    length = math.sqrt(sum(d * d for d in delta))
    x, y, z = (round(d / length, 4) for d in delta)
    return View(position, look_at, (x, y, z))


def _standing(rng: random.Random, plan: Footprint, level: int, near: Vector | None) -> Vector:
    if near is None:
        x = rng.uniform(_MARGIN, plan.width - _MARGIN)
        y = rng.uniform(_MARGIN, plan.depth - _MARGIN)
        return (_metres(x), _metres(y), _metres(plan.floor(level) + _CAMERA_HEIGHT))
    x = min(max(near[0] + rng.uniform(-2.0, 2.0), _MARGIN), plan.width - _MARGIN)
    y = min(max(near[1] + rng.uniform(-2.0, 2.0), _MARGIN), plan.depth - _MARGIN)
    return (_metres(x), _metres(y), _metres(plan.floor(level) + _HAND_HEIGHT))


def _bim(rng: random.Random, project: Project, annotation: Annotation) -> Bim | None:
    pinned = _ELEMENTS.get(annotation.title.rsplit(" (", 1)[0])
    if pinned is None:
        return None
    discipline, element = pinned
    return Bim(
        f"{project.code}-{discipline}",
        element.format(n=rng.randrange(1, 90)),
        f"L{annotation.level_number:02d}",
    )


def build_places(
    seed: int,
    projects: tuple[Project, ...],
    captures: tuple[Capture, ...],
    photos: tuple[Photo, ...],
    annotations: tuple[Annotation, ...],
) -> Places:
    rng = random.Random(f"views-{seed}")
    by_id = {p.id: p for p in projects}
    views: dict[str, View] = {}
    for capture in captures:
        plan = footprint(capture.project_id)
        position = _standing(rng, plan, capture.level_number, None)
        views[capture.id] = _view(rng, plan, position)
    for photo in photos:
        plan = footprint(photo.project_id)
        position = _standing(rng, plan, photo.level_number, views[photo.capture_id].position)
        views[photo.id] = _view(rng, plan, position)
    bims: dict[str, Bim] = {}
    for annotation in annotations:
        plan = footprint(annotation.project_id)
        views[annotation.id] = _view(rng, plan, views[annotation.capture_id].position)
        if (bim := _bim(rng, by_id[annotation.project_id], annotation)) is not None:
            bims[annotation.id] = bim
    reviews = {a.id: REVIEWS[a.kind] for a in annotations}
    scopes = {p.id: HostScope(ORGANISATION, f"{p.name} site team") for p in projects}
    return Places(
        MappingProxyType(views),
        MappingProxyType(bims),
        MappingProxyType(reviews),
        MappingProxyType(scopes),
    )
