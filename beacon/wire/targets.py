"""A citation's ``target``: where the cited record lives and the view onto it.

Host-neutral (SPEC §4, seed §4.11): the record (kind, id), its place (project,
level, panorama), the camera view a host moves to (position, look-at point,
direction; metres, project coordinates), the BIM reference (model, element,
level) and the host scope (organisation, project, review, team). Every field
past kind and id is copied from the upstream record, never made up: a record
without a view has a target without one.

One rule says what a camera view is (``camera_view``): the wire model refuses
anything else, and the citation builder drops it from a record rather than
forwarding it, so an upstream sending NaN never moves a host's camera.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

VIEW_AXES = ("position", "look_at", "direction")
BIM_AXES = ("model", "element", "level")
SCOPE_FIELDS = ("organisation", "project", "review", "team")
# A name a host shows; as long as the view context's names (beacon/wire/turns.py).
MAX_NAME_CHARS = 200


def _vector(value: object) -> list[float] | None:
    # Unrolled: each of a page's 500 kept cards may carry a view, three vectors each.
    if not isinstance(value, list | tuple) or len(value) != 3:
        return None
    x, y, z = value
    # JSON's numbers only: a bool is no coordinate, and neither is "1.5".
    if not (_number(x) and _number(y) and _number(z)):
        return None
    try:
        floats = [float(x), float(y), float(z)]
    except OverflowError:  # an integer past any float: no coordinate either
        return None
    fx, fy, fz = floats
    return floats if math.isfinite(fx) and math.isfinite(fy) and math.isfinite(fz) else None


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def camera_view(value: object) -> dict[str, list[float]] | None:
    """``value`` as a camera view's fields, or None when it is not one: an object with
    three finite numbers for each of position, look_at and direction, and a direction
    that is not all zeros (a camera pointed nowhere)."""
    if not isinstance(value, dict):
        return None
    position, look_at, direction = (_vector(value.get(axis)) for axis in VIEW_AXES)
    if position is None or look_at is None or direction is None or not any(direction):
        return None
    return {"position": position, "look_at": look_at, "direction": direction}


def bim_reference(value: object) -> dict[str, str] | None:
    """``value`` as a BIM reference's fields (each a non-empty name, those present), or
    None when it names none of model, element and level."""
    if not isinstance(value, dict):
        return None
    names = {
        axis: name
        for axis in BIM_AXES
        if isinstance(name := value.get(axis), str) and 0 < len(name) <= MAX_NAME_CHARS
    }
    return names or None


class _Wire(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Vector = tuple[float, float, float]


class CameraView(_Wire):
    """Where a host's camera stands, the point it looks at and the way it faces
    (metres, the project's coordinates), as the upstream record gives them."""

    position: Vector
    look_at: Vector
    direction: Vector

    @model_validator(mode="before")
    @classmethod
    def _one_rule(cls, data: Any) -> Any:
        if isinstance(data, CameraView) or camera_view(data) is not None:
            return data
        raise ValueError(
            "a view is three finite numbers each for position, look_at and direction,"
            " the direction not all zeros"
        )


class BimReference(_Wire):
    """The building model, element and model level a record points at, as named upstream."""

    model: str | None = Field(default=None, min_length=1, max_length=MAX_NAME_CHARS)
    element: str | None = Field(default=None, min_length=1, max_length=MAX_NAME_CHARS)
    level: str | None = Field(default=None, min_length=1, max_length=MAX_NAME_CHARS)

    @model_validator(mode="after")
    def _names_one(self) -> BimReference:
        if self.model is None and self.element is None and self.level is None:
            raise ValueError("a BIM reference names a model, an element or a level")
        return self


class CitationTarget(_Wire):
    """Where a cited record lives, host-neutral: each host adapter builds its own URL
    from these fields (the server knows no host's addresses)."""

    kind: str
    id: str
    project_id: str | None = None
    level_number: int | None = None
    panorama_id: str | None = None
    # Additive (issue 33): each null when the upstream record does not carry it.
    view: CameraView | None = None
    bim: BimReference | None = None
    organisation: str | None = Field(default=None, min_length=1, max_length=MAX_NAME_CHARS)
    project: str | None = Field(default=None, min_length=1, max_length=MAX_NAME_CHARS)
    review: str | None = Field(default=None, min_length=1, max_length=MAX_NAME_CHARS)
    team: str | None = Field(default=None, min_length=1, max_length=MAX_NAME_CHARS)
