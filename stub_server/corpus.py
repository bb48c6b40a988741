"""The seeded construction corpus: projects, levels, captures, photos, annotations.

Generated from ``random.Random(seed)`` alone (no downloads, no clock), so every
process with the same seed sees byte-identical records. Harbor Tower's 7,961
panoramas are the figure that saturates the upstream's 3000-row cap; the three
small projects are fully reachable in one page.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from stub_server.corpus_places import NO_PLACES, Places, build_places
from stub_server.corpus_site import build_site_records

# Photo vocabulary lives in its own table so the search index and the generator
# agree on which words mark a topic (only the "ppe" topic ever names a hard hat).
from stub_server.photo_text import PPE_TOPIC, TOPICS, describe
from stub_server.records import (
    Annotation,
    Capture,
    Clash,
    Document,
    Level,
    Photo,
    Progress,
    Project,
)

# The record types are re-exported: the tools import them from here.
__all__ = [
    "COMPANIES",
    "INSPECTORS",
    "QUALITY_CATEGORIES",
    "SAFETY_CATEGORIES",
    "STATUSES",
    "Annotation",
    "Capture",
    "Clash",
    "Corpus",
    "Document",
    "Level",
    "Photo",
    "Places",
    "Progress",
    "Project",
    "build_corpus",
]

_EPOCH = datetime(2025, 9, 1, 6, 0, 0)
_SPAN_DAYS = 302  # through 2026-06-29
COMPANIES: tuple[str, ...] = (
    "Apex Scaffolding",
    "Northline Electric",
    "Keystone Concrete",
    "Bluewater Plumbing",
    "Summit Steel",
    "Crescent Drywall",
    "Ironbridge Mechanical",
    "Pioneer Glazing",
)
# Who raises findings on site. Drawn from a stream of their own, so adding them
# moved no other record of the corpus.
INSPECTORS: tuple[str, ...] = (
    "Dana Whitfield",
    "Marco Ruiz",
    "Ji-woo Park",
    "Kenji Sato",
    "Lena Hoffmann",
    "Priya Nair",
)
SAFETY_CATEGORIES: tuple[str, ...] = (
    "fall protection",
    "ppe",
    "housekeeping",
    "electrical",
    "fire safety",
)
QUALITY_CATEGORIES: tuple[str, ...] = ("finish", "alignment", "waterproofing")
STATUSES: tuple[str, ...] = ("open", "closed", "in_review")
_ZONES: tuple[str, ...] = ("north core", "south core", "east wing", "west wing", "atrium")
_ANNOTATION_TITLES: dict[str, tuple[str, ...]] = {
    "fall protection": (
        "Unprotected slab edge",
        "Guardrail gap at stair opening",
        "Open shaft cover",
    ),
    "ppe": ("Worker without hard hat", "No hi-vis vest in loading area", "Eye protection absent"),
    "housekeeping": (
        "Debris blocking egress path",
        "Loose offcuts on walkway",
        "Unsecured pallets",
    ),
    "electrical": ("Exposed live conductors", "Damaged extension lead", "Panel left open"),
    "fire safety": ("Extinguisher missing from station", "Hot work without permit", "Blocked exit"),
    "finish": ("Uneven plaster finish", "Paint runs on column", "Scuffed drywall corner"),
    "alignment": ("Curtain wall bracket out of line", "Door frame out of plumb", "Duct offset"),
    "waterproofing": ("Membrane lap not sealed", "Ponding on podium deck", "Leak at window head"),
}


@dataclass(frozen=True, slots=True)
class Corpus:
    seed: int
    projects: tuple[Project, ...]
    levels: tuple[Level, ...]
    captures: tuple[Capture, ...]
    photos: tuple[Photo, ...]
    annotations: tuple[Annotation, ...]
    documents: tuple[Document, ...] = ()
    progress: tuple[Progress, ...] = ()
    clashes: tuple[Clash, ...] = ()
    # Camera views, BIM references and host scope, by record id (corpus_places.py).
    places: Places = NO_PLACES

    def project(self, project_id: str) -> Project | None:
        return next((p for p in self.projects if p.id == project_id), None)

    def capture(self, capture_id: str) -> Capture | None:
        # Ids are sequential (``cap-000001`` …), so the id is its own index.
        prefix, _, number = capture_id.partition("-")
        if prefix != "cap" or not number.isdigit() or not 1 <= int(number) <= len(self.captures):
            return None
        capture = self.captures[int(number) - 1]
        return capture if capture.id == capture_id else None


@dataclass(frozen=True, slots=True)
class _Plan:
    project: Project
    levels: int
    captures: int
    photos: int
    ppe_photos: int
    annotations: int


_PLANS: tuple[_Plan, ...] = (
    _Plan(Project("prj-harbor-tower", "Harbor Tower", "HT", "Portside"), 14, 7961, 1500, 173, 1800),
    _Plan(Project("prj-maple-clinic", "Maple Clinic", "MC", "Elmford"), 4, 120, 60, 6, 90),
    _Plan(Project("prj-cedar-school", "Cedar School", "CS", "Brookvale"), 6, 260, 120, 11, 160),
    _Plan(Project("prj-riverside-depot", "Riverside Depot", "RD", "Millbank"), 2, 40, 24, 2, 30),
)


def _moment(rng: random.Random) -> datetime:
    return _EPOCH + timedelta(days=rng.randrange(_SPAN_DAYS), minutes=rng.randrange(10 * 60))


def _iso_datetime(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _iso_date(moment: datetime | date) -> str:
    return moment.strftime("%Y-%m-%d")


class _Builder:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.inspectors = random.Random(f"inspectors-{seed}")
        self.levels: list[Level] = []
        self.captures: list[Capture] = []
        self.photos: list[Photo] = []
        self.annotations: list[Annotation] = []

    def add_project(self, plan: _Plan) -> None:
        rng, pid = self.rng, plan.project.id
        by_level: dict[int, list[str]] = {}
        for number in range(1, plan.levels + 1):
            self.levels.append(Level(f"lvl-{pid[4:]}-{number:02d}", pid, number, f"Level {number}"))
            by_level[number] = []
        for n in range(plan.captures):
            # Every level gets captures before any gets a second round, so none is empty.
            number = n % plan.levels + 1 if n < plan.levels else rng.randrange(1, plan.levels + 1)
            cap_id = f"cap-{len(self.captures) + 1:06d}"
            zone = rng.choice(_ZONES)
            label = f"L{number} {zone} walk #{n + 1:04d}"
            self.captures.append(Capture(cap_id, pid, number, label, _iso_datetime(_moment(rng))))
            by_level[number].append(cap_id)
        topics = [PPE_TOPIC] * plan.ppe_photos + [
            rng.choice(TOPICS) for _ in range(plan.photos - plan.ppe_photos)
        ]
        rng.shuffle(topics)
        for topic in topics:
            number = rng.randrange(1, plan.levels + 1)
            title, description = describe(rng, topic, plan.project.name, f"Level {number}")
            self.photos.append(
                Photo(
                    f"ph-{len(self.photos) + 1:06d}",
                    pid,
                    number,
                    rng.choice(by_level[number]),
                    title,
                    description,
                    _iso_date(_moment(rng)),
                )
            )
        for _ in range(plan.annotations):
            self.annotations.append(self._annotation(pid, plan.levels, by_level))

    def _annotation(self, pid: str, levels: int, by_level: dict[int, list[str]]) -> Annotation:
        rng = self.rng
        kind = "safety" if rng.random() < 0.55 else "quality"
        category = rng.choice(SAFETY_CATEGORIES if kind == "safety" else QUALITY_CATEGORIES)
        status = rng.choices(STATUSES, weights=(40, 45, 15))[0]
        number = rng.randrange(1, levels + 1)
        title = f"{rng.choice(_ANNOTATION_TITLES[category])} ({rng.choice(_ZONES)})"
        return Annotation(
            f"ann-{len(self.annotations) + 1:06d}",
            pid,
            number,
            rng.choice(by_level[number]),
            kind,
            category,
            status,
            rng.choice(COMPANIES),
            _iso_date(_moment(rng)),
            title,
            self.inspectors.choice(INSPECTORS),
        )


@functools.lru_cache(maxsize=4)
def build_corpus(seed: int = 7) -> Corpus:
    builder = _Builder(seed)
    for plan in _PLANS:
        builder.add_project(plan)
    projects, levels = tuple(plan.project for plan in _PLANS), tuple(builder.levels)
    site = build_site_records(seed, projects, levels)
    captures, photos = tuple(builder.captures), tuple(builder.photos)
    annotations = tuple(builder.annotations)
    return Corpus(
        seed=seed,
        projects=projects,
        levels=levels,
        captures=captures,
        photos=photos,
        annotations=annotations,
        documents=site.documents,
        progress=site.progress,
        clashes=site.clashes,
        places=build_places(seed, projects, captures, photos, annotations),
    )
