"""A photo hit at the weight the real upstream sends (the ``measured`` mode).

The seed measured a 10-photo result at 1,175,854 bytes: the upstream writes a
long vision-model analysis for every image (what each region shows, the objects
it detected, text it read off signs), in the text block meant for a model and
again in ``structuredContent``. The stub's default hits carry two sentences, so
its suites stay fast; this mode restores the measured weight, so a bench can
show what the digest does against a real-sized payload. The analysis is
deterministic per photo (seeded by its id) and built from the photo's own topic
sentences plus site observations, so it reads like what it stands in for.
"""

from __future__ import annotations

import functools
import random

from stub_server.corpus import Photo

MEASURED_RESULT_BYTES = 1_175_854  # a 10-photo result, as measured (seed 000, §4.5)
# The analysis appears twice per hit (text block and structuredContent) and its
# newlines are escaped once more in JSON; this length lands a 10-photo result
# within a few percent of the measured bytes (checked by the stub's contract test).
ANALYSIS_CHARS = 57_400

_REGIONS = (
    "upper left",
    "upper centre",
    "upper right",
    "centre left",
    "centre",
    "centre right",
    "lower left",
    "lower centre",
    "lower right",
)
_OBSERVATIONS = (
    "Temporary lighting is strung along the ceiling and all fittings are lit.",
    "A material hoist is visible through the opening with its gate closed.",
    "Pallets of blockwork are stacked on the slab within the marked loading zone.",
    "Two workers in high-visibility vests are walking along the marked route.",
    "An extension lead runs across the floor without a cable protector.",
    "The concrete surface shows hairline shrinkage cracks near the column base.",
    "Scaffold tubes and fittings are stored on a rack beside the stair core.",
    "A fire door is propped open with a wedge while materials are moved through.",
    "Setting-out marks in blue chalk are visible on the slab surface.",
    "Protective boarding covers the finished floor in the corridor.",
    "A mobile elevating work platform is parked with its outriggers retracted.",
    "Conduit drops from the ceiling void are capped and labelled.",
)
_OBJECTS = (
    "hard hat",
    "hi-vis vest",
    "ladder",
    "scaffold tube",
    "pallet",
    "extension lead",
    "fire extinguisher",
    "guardrail",
    "barrier tape",
    "wheelbarrow",
    "cable tray",
    "duct",
)


@functools.lru_cache(maxsize=4096)
def analysis(photo: Photo) -> str:
    """The long analysis of one photo, ``ANALYSIS_CHARS`` long."""
    rng = random.Random(photo.id)
    own = [s.strip() for s in photo.description.split(". ") if s.strip()]
    parts: list[str] = []
    size = 0
    section = 0
    while size < ANALYSIS_CHARS:
        region = _REGIONS[section % len(_REGIONS)]
        section += 1
        sentences = [rng.choice(own).rstrip(".") + "."] if own else []
        sentences += rng.sample(_OBSERVATIONS, 4)
        detections = ", ".join(
            f"{rng.choice(_OBJECTS)} ({rng.uniform(0.5, 0.99):.2f}) at "
            f"[{rng.randint(0, 3800)}, {rng.randint(0, 2800)}, "
            f"{rng.randint(40, 900)}, {rng.randint(40, 900)}]"
            for _ in range(6)
        )
        block = (
            f"Region {section} ({region} of {photo.title.lower()}): "
            + " ".join(sentences)
            + f"\nDetected objects: {detections}.\n"
            + f"Legible text: LEVEL {photo.level_number} - GRID {rng.choice('ABCDEFGH')}"
            + f"{rng.randint(1, 12)} - KEEP CLEAR\n\n"
        )
        parts.append(block)
        size += len(block)
    return "".join(parts)[:ANALYSIS_CHARS]
