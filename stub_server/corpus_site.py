"""The rest of the site record: documents (specs, RFIs), progress per level, BIM clashes.

Drawn from a generator of its own (``seed`` offset), after the core corpus, so
adding these records never moves a single photo, capture or annotation that
tests and the demo already count.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta

from stub_server.records import Clash, Document, Level, Progress, Project

# The site record types are re-exported: the tools import them from here.
__all__ = [
    "CLASH_STATUSES",
    "DISCIPLINES",
    "RFI_STATUSES",
    "SEVERITIES",
    "SPEC_STATUSES",
    "TRADES",
    "Clash",
    "Document",
    "Progress",
    "SiteRecords",
    "build_site_records",
]

_SITE_SEED_OFFSET = 1_000_003
_START = date(2025, 9, 1)
_AS_OF = "2026-06-29"
RFI_STATUSES: tuple[str, ...] = ("open", "answered", "closed")
SPEC_STATUSES: tuple[str, ...] = ("issued", "superseded")
TRADES: tuple[str, ...] = ("structure", "mep rough-in", "drywall", "finishes")
DISCIPLINES: tuple[str, ...] = ("structural", "mechanical", "electrical", "plumbing", "fire")
SEVERITIES: tuple[str, ...] = ("critical", "major", "minor")
CLASH_STATUSES: tuple[str, ...] = ("new", "active", "resolved")
_SPEC_SECTIONS: tuple[tuple[str, str, str], ...] = (
    ("03 30 00", "Cast-in-place concrete", "Mix design, placement, curing and slab tolerances."),
    ("05 12 00", "Structural steel framing", "Connections, bolting, shop drawings and erection."),
    ("07 92 00", "Joint sealants", "Sealant types at facade joints, window heads and podium."),
    ("08 44 13", "Glazed curtain walls", "Bracket alignment, anchors and water testing."),
    ("09 21 16", "Gypsum board assemblies", "Drywall partitions, finishes and corner protection."),
    ("21 13 13", "Wet-pipe sprinkler systems", "Sprinkler heads, mains and fire stopping."),
    ("23 31 13", "Metal ducts", "Duct construction, supports and offsets around beams."),
    ("26 05 19", "Low-voltage conductors", "Conductor sizing, terminations and panel labelling."),
)
_RFI_TOPICS: tuple[tuple[str, str], ...] = (
    ("Slab edge detail at {zone}", "Guardrail embed conflicts with the slab edge detail."),
    ("Duct routing below beam on {level}", "Duct offset needed where the beam is deeper."),
    ("Curtain wall bracket tolerance", "Bracket out of line beyond the specified tolerance."),
    ("Membrane lap at podium drain", "Waterproofing membrane lap around the podium drain."),
    ("Sprinkler main clearance on {level}", "Sprinkler main clashes with the cable tray."),
    ("Door frame substitution", "Substitute hollow metal frames at the {zone} stair."),
    ("Fire stopping at shaft {zone}", "Fire stopping detail at the riser shaft penetrations."),
)
_ZONES: tuple[str, ...] = ("north core", "south core", "east wing", "west wing", "atrium")
_ELEMENTS: dict[str, tuple[str, ...]] = {
    "structural": ("beam B-{n}", "column C-{n}", "slab edge S-{n}"),
    "mechanical": ("supply duct D-{n}", "return duct R-{n}", "AHU connection A-{n}"),
    "electrical": ("cable tray T-{n}", "conduit run E-{n}", "panel P-{n}"),
    "plumbing": ("drain line W-{n}", "riser PL-{n}", "vent stack V-{n}"),
    "fire": ("sprinkler main F-{n}", "sprinkler branch FB-{n}", "standpipe SP-{n}"),
}
# Per project: (documents, clashes); Harbor Tower is the big one, as everywhere.
_SIZES: dict[str, tuple[int, int]] = {
    "prj-harbor-tower": (48, 240),
    "prj-maple-clinic": (14, 30),
    "prj-cedar-school": (18, 45),
    "prj-riverside-depot": (8, 12),
}


@dataclass(frozen=True, slots=True)
class SiteRecords:
    documents: tuple[Document, ...]
    progress: tuple[Progress, ...]
    clashes: tuple[Clash, ...]


def _day(rng: random.Random) -> str:
    return (_START + timedelta(days=rng.randrange(300))).isoformat()


def _document(rng: random.Random, n: int, project: Project, levels: int, k: int) -> Document:
    level = rng.randrange(1, levels + 1)
    zone = rng.choice(_ZONES)
    if k % 3 == 0:
        section, title, summary = _SPEC_SECTIONS[(k // 3) % len(_SPEC_SECTIONS)]
        discipline = rng.choice(DISCIPLINES)
        status = rng.choices(SPEC_STATUSES, weights=(80, 20))[0]
        return Document(
            f"doc-{n:06d}", project.id, "spec", section, title, summary, status, discipline,
            level, _day(rng),
        )  # fmt: skip
    topic, summary = rng.choice(_RFI_TOPICS)
    title = topic.format(zone=zone, level=f"Level {level}")
    status = rng.choices(RFI_STATUSES, weights=(35, 40, 25))[0]
    return Document(
        f"doc-{n:06d}", project.id, "rfi", f"{project.code}-RFI-{k + 1:03d}", title,
        summary.format(zone=zone, level=f"Level {level}"), status, rng.choice(DISCIPLINES),
        level, _day(rng),
    )  # fmt: skip


def _progress(rng: random.Random, project: Project, levels: int) -> list[Progress]:
    rows = []
    for level in range(1, levels + 1):
        # Lower levels are further along, as a building rises floor by floor.
        base = max(0, 100 - (level - 1) * (90 // max(levels, 1)))
        for t, trade in enumerate(TRADES):
            planned = max(0, min(100, base - t * 15))
            actual = max(0, min(100, planned + rng.randrange(-12, 7)))
            rows.append(Progress(project.id, level, trade, planned, actual, _AS_OF))
    return rows


def _clash(rng: random.Random, n: int, project: Project, levels: int) -> Clash:
    first, second = rng.sample(DISCIPLINES, 2)
    return Clash(
        f"clash-{n:06d}",
        project.id,
        rng.randrange(1, levels + 1),
        first,
        second,
        rng.choice(_ELEMENTS[first]).format(n=rng.randrange(1, 90)),
        rng.choice(_ELEMENTS[second]).format(n=rng.randrange(1, 90)),
        rng.choices(SEVERITIES, weights=(15, 45, 40))[0],
        rng.choices(CLASH_STATUSES, weights=(25, 40, 35))[0],
        _day(rng),
    )


def build_site_records(
    seed: int, projects: tuple[Project, ...], levels: tuple[Level, ...]
) -> SiteRecords:
    rng = random.Random(seed + _SITE_SEED_OFFSET)
    documents: list[Document] = []
    progress: list[Progress] = []
    clashes: list[Clash] = []
    for project in projects:
        count = sum(1 for lv in levels if lv.project_id == project.id)
        docs, clash_count = _SIZES.get(project.id, (6, 6))
        for k in range(docs):
            documents.append(_document(rng, len(documents) + 1, project, count, k))
        progress.extend(_progress(rng, project, count))
        for _ in range(clash_count):
            clashes.append(_clash(rng, len(clashes) + 1, project, count))
    return SiteRecords(tuple(documents), tuple(progress), tuple(clashes))
