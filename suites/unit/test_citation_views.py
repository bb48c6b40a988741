"""The view in the link: a citation's target carries the camera view, BIM reference
and host scope its upstream record gives, and nothing a record does not give.

Records are written out here as an upstream shapes them; the expected targets are
written out too, never computed by the code under test.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from pydantic import ValidationError

from beacon.loop.citations import card_fields, pack_card, unpack_card
from beacon.wire.frames import Citation, CitationTarget

HARBOR = "prj-harbor-tower"
VIEW = {"position": [12.5, 30.25, 9.1], "look_at": [15.5, 34.25, 8.6], "direction": [0.6, 0.8, 0.0]}
ANNOTATION = {
    "id": "ann-000020",
    "title": "Membrane lap not sealed (atrium)",
    "level_number": 2,
    "capture_id": "cap-000002",
    "view": VIEW,
    "bim": {"model": "HT-ARC", "element": "membrane M-14", "level": "L02"},
    "organisation": "Northline Builders",
    "project_name": "Harbor Tower",
    "review": "Monthly quality review",
    "team": "Harbor Tower site team",
}


def _target(record: dict[str, Any], source: str = "list_annotations") -> dict[str, Any]:
    card = card_fields(source, record, HARBOR)
    assert card is not None
    return Citation(**card).target.model_dump()


def test_a_record_with_a_view_gives_a_target_with_that_view_its_bim_and_its_host_scope() -> None:
    assert _target(ANNOTATION) == {
        "kind": "annotation",
        "id": "ann-000020",
        "project_id": HARBOR,
        "level_number": 2,
        "panorama_id": "cap-000002",
        "view": {
            "position": (12.5, 30.25, 9.1),
            "look_at": (15.5, 34.25, 8.6),
            "direction": (0.6, 0.8, 0.0),
        },
        "bim": {"model": "HT-ARC", "element": "membrane M-14", "level": "L02"},
        "organisation": "Northline Builders",
        "project": "Harbor Tower",
        "review": "Monthly quality review",
        "team": "Harbor Tower site team",
    }


def test_a_record_without_coordinates_gives_a_target_without_a_view_never_a_default() -> None:
    record = {"id": "ph-000223", "title": "PPE", "level_number": 7, "capture_id": "cap-000019"}
    target = _target(record, "search_photos")
    assert target["view"] is None and target["bim"] is None
    assert [target[k] for k in ("organisation", "project", "review", "team")] == [None] * 4


def test_integers_are_coordinates_too_and_whole_metres_stay_whole() -> None:
    record = {
        **ANNOTATION,
        "view": {"position": [1, 2, 3], "look_at": [4, 6, 3], "direction": [0, 0, -1]},
    }
    assert _target(record)["view"] == {
        "position": (1.0, 2.0, 3.0),
        "look_at": (4.0, 6.0, 3.0),
        "direction": (0.0, 0.0, -1.0),
    }


MALFORMED_VIEWS = [
    pytest.param({**VIEW, "position": [1.0, math.nan, 2.0]}, id="a-nan-coordinate"),
    pytest.param({**VIEW, "look_at": [1.0, math.inf, 2.0]}, id="an-infinite-coordinate"),
    pytest.param({**VIEW, "position": [1.0, 2.0]}, id="two-numbers"),
    pytest.param({**VIEW, "position": [1.0, 2.0, 3.0, 4.0]}, id="four-numbers"),
    pytest.param({**VIEW, "look_at": ["1", "2", "3"]}, id="numbers-as-strings"),
    pytest.param({**VIEW, "position": [True, 2.0, 3.0]}, id="a-boolean-is-no-coordinate"),
    pytest.param({**VIEW, "direction": [0.0, 0.0, 0.0]}, id="a-direction-of-zeros"),
    pytest.param({**VIEW, "position": [10**400, 2.0, 3.0]}, id="an-integer-past-any-float"),
    pytest.param({"position": VIEW["position"], "direction": VIEW["direction"]}, id="no-look-at"),
    pytest.param({**VIEW, "direction": None}, id="a-null-direction"),
    pytest.param([[1, 2, 3], [4, 5, 6], [1, 0, 0]], id="not-an-object"),
    pytest.param("12.5,30.25,9.1", id="a-string"),
]


@pytest.mark.parametrize("view", MALFORMED_VIEWS)
def test_a_malformed_view_is_dropped_and_the_rest_of_the_card_is_kept(view: object) -> None:
    target = _target({**ANNOTATION, "view": view})
    assert target["view"] is None
    assert (target["id"], target["panorama_id"], target["team"]) == (
        "ann-000020",
        "cap-000002",
        "Harbor Tower site team",
    )


@pytest.mark.parametrize("view", MALFORMED_VIEWS)
def test_the_wire_refuses_a_target_whose_view_is_malformed(view: object) -> None:
    with pytest.raises(ValidationError, match="view"):
        CitationTarget(kind="annotation", id="ann-000020", view=view)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("bim", "kept"),
    [
        pytest.param(
            {"element": "beam B-12"},
            {"model": None, "element": "beam B-12", "level": None},
            id="an-element-alone",
        ),
        pytest.param({"model": "", "element": 12, "level": None}, None, id="nothing-named"),
        pytest.param({"model": "x" * 201}, None, id="an-over-long-name"),
        pytest.param("HT-STR", None, id="not-an-object"),
    ],
)
def test_a_bim_reference_keeps_the_names_the_record_gives(
    bim: object, kept: dict[str, Any] | None
) -> None:
    assert _target({**ANNOTATION, "bim": bim})["bim"] == kept


@pytest.mark.parametrize(
    "target",
    [
        pytest.param({"bim": {}}, id="a-bim-reference-naming-nothing"),
        pytest.param({"team": ""}, id="an-empty-team"),
        pytest.param({"organisation": "o" * 201}, id="an-over-long-organisation"),
        pytest.param({"view": {**VIEW, "fov": 60}}, id="a-view-field-the-wire-does-not-know"),
    ],
)
def test_the_wire_refuses_a_target_place_it_does_not_describe(target: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        CitationTarget(kind="annotation", id="ann-000020", **target)


def test_an_upstream_views_extra_fields_are_not_forwarded() -> None:
    view = _target({**ANNOTATION, "view": {**VIEW, "fov": 60}})["view"]
    assert view is not None and set(view) == {"position", "look_at", "direction"}


def test_a_packed_card_keeps_its_view_for_load_more() -> None:
    card = card_fields("list_annotations", ANNOTATION, HARBOR)
    assert card is not None
    back = unpack_card(pack_card(card), "list_annotations", HARBOR)
    assert back == card
    assert Citation(**back).target.view is not None


def test_a_card_packed_before_views_existed_unpacks_without_one() -> None:
    older = ["ann-000020", "Membrane lap", None, "Level 2", "2026-03-01", 2, "cap-000002"]
    served = Citation(**unpack_card(older, "list_annotations", HARBOR))
    assert served.target.panorama_id == "cap-000002"
    assert served.target.view is None and served.target.team is None
