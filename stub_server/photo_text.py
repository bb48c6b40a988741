"""Photo vocabulary: the sentences photos are written from and the concepts search knows.

One table serves both sides so they cannot drift: only the ``ppe`` topic ever
uses hard-hat or "missing" words, which makes the number of photos a query like
"missing hard hats" matches a property of the generator, not of luck.
"""

from __future__ import annotations

import random

PPE_TOPIC = "ppe"

# topic -> (titles, sentences); every description draws two sentences from its topic.
_TOPIC_TEXT: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    PPE_TOPIC: (
        (
            "Workers without hard hats near hoist",
            "Missing hard hats at material landing",
            "Crew member not wearing a helmet",
            "PPE breach under overhead lifting",
        ),
        (
            "Two workers are seen without hard hats while moving formwork panels near the hoist.",
            "A laborer on the deck is not wearing a helmet despite overhead lifting in progress.",
            "Several crew members were missing hard hats at the material landing during a lift.",
            "Head protection is absent for a worker cutting blockwork next to the stair core.",
            "The PPE check failed: an electrician worked under the slab edge without a helmet.",
            "A visitor walked through the active zone lacking a hard hat and was escorted out.",
        ),
    ),
    "rebar": (
        ("Rebar mats before pour", "Column starter bars", "Reinforcement at beam-column joint"),
        (
            "Rebar mats on the slab are tied at the specified spacing and chaired off the deck.",
            "Starter bars at the column heads are capped with orange protective caps.",
            "Reinforcement congestion at the beam-column joint needs an engineer's review.",
            "Lap lengths on the wall rebar were measured and recorded for the inspector.",
        ),
    ),
    "scaffolding": (
        ("Facade scaffold tower", "Scaffold ties check", "Cracked scaffold plank"),
        (
            "The scaffold tower along the facade has toe boards and a tagged inspection card.",
            "Scaffolding ties to the structure were checked at every second lift.",
            "A scaffold platform plank is cracked and should be replaced before use.",
            "The scaffolding access ladder is tied off at the top and extends above the landing.",
        ),
    ),
    "fire extinguisher": (
        ("Fire extinguisher station", "Extinguisher at hot-work area", "Extinguisher rehung"),
        (
            "A fire extinguisher station is mounted beside the stair door with a current tag.",
            "The extinguisher at the hot-work area is the correct class for electrical fires.",
            "Fire extinguisher signage is visible from both ends of the corridor.",
            "An extinguisher was found on the floor instead of its bracket and was rehung.",
        ),
    ),
    "water leak": (
        ("Leak at slab penetration", "Ponding under roof drain", "Dripping riser joint"),
        (
            "Water is leaking through the slab penetration above the electrical room.",
            "A puddle has formed under the temporary roof drain after overnight rain.",
            "Staining on the ceiling soffit suggests an active leak from the level above.",
            "The plumbing riser joint is dripping and a bucket was placed underneath.",
        ),
    ),
    "cable trays": (
        ("Corridor cable trays", "Cable tray supports", "Cable tray clash with sprinkler main"),
        (
            "Cable trays along the corridor ceiling are installed and bonded to earth.",
            "The cable tray support spacing matches the electrical layout drawings.",
            "Cables in the tray are dressed neatly and labelled at each junction.",
            "A cable tray clashes with the sprinkler main and needs rerouting.",
        ),
    ),
    "formwork": (
        ("Shear wall formwork", "Slab edge formwork gaps", "Transfer beam props"),
        (
            "Formwork for the shear wall is braced and the ties are in place.",
            "Plywood formwork on the slab edge shows gaps that could leak grout.",
            "Formwork props are spaced evenly under the transfer beam.",
            "Release agent was applied to the formwork faces before closing the shutters.",
        ),
    ),
    "guardrail": (
        ("Slab edge guardrail", "Stair void guardrail", "Loose guardrail post"),
        (
            "A guardrail runs along the slab edge with midrails and toe boards fitted.",
            "The temporary guardrail at the stair void is secured with clamps.",
            "One guardrail post has come loose and the barrier sags near the corner.",
            "Guardrail mesh panels enclose the lift shaft opening.",
        ),
    ),
    "concrete": (
        ("Slab pour in progress", "Power floating the deck", "Curing blankets on deck"),
        (
            "Concrete is being placed in the slab bay using a boom pump.",
            "The finished concrete surface is being power floated after the pour.",
            "Test cylinders were cast from the concrete truck for strength testing.",
            "Curing blankets cover the freshly poured concrete deck.",
        ),
    ),
    "drywall": (
        ("Drywall taping", "Corridor partitions", "Damaged corner bead"),
        (
            "Drywall boards are hung on metal studs and the joints are taped.",
            "Drywall partitions in the corridor are ready for the second coat of compound.",
            "A drywall corner bead is damaged near the doorway.",
            "Stacks of drywall sheets are stored flat on dunnage away from the wet area.",
        ),
    ),
    "curtain wall": (
        ("Curtain wall progress", "Curtain wall bracket check", "Glazing panel film"),
        (
            "Curtain wall units are installed up to the slab edge on this face.",
            "The curtain wall bracket alignment is being checked with a string line.",
            "Sealant at the curtain wall joints is continuous and tooled.",
            "A glazing panel in the curtain wall still has its protective film attached.",
        ),
    ),
    "ductwork": (
        ("Ceiling void ductwork", "Duct clash with beam", "Duct insulation"),
        (
            "Ductwork in the ceiling void is hung from threaded rods and sealed at the joints.",
            "A ductwork branch clashes with a beam and will be offset.",
            "Ductwork openings are covered with plastic to keep dust out.",
            "Insulation on the supply ductwork is complete up to the riser.",
        ),
    ),
    "housekeeping": (
        ("Floor housekeeping", "Debris at hoist landing", "Sorted waste bins"),
        (
            "Offcuts and packaging are collected in a skip at the end of the floor.",
            "The walkway is clear and materials are stacked against the wall.",
            "Debris has accumulated near the hoist landing and needs clearing.",
            "Waste bins are labelled for timber, metal and general rubbish.",
        ),
    ),
}
TOPICS: tuple[str, ...] = tuple(t for t in _TOPIC_TEXT if t != PPE_TOPIC)

_CLOSERS: tuple[str, ...] = (
    "Lighting was adequate and the image is sharp enough for close review of the details.",
    "The site superintendent flagged this view for discussion at the weekly coordination meeting.",
    "Weather was dry and the area was accessible to the field team at the time of the walk.",
    "Follow-up is scheduled with the responsible trade before the next inspection round.",
    "The photo was pinned to the nearest panorama so reviewers can see the surrounding context.",
    "Measurements were taken with a laser distance meter and noted on the current drawing set.",
)
_ZONES: tuple[str, ...] = ("north core", "south core", "east wing", "west wing", "atrium")

# Search concepts: a query phrase and a description phrase meet when they share
# a concept. "missing" only sharpens a topic match; it never matches on its own.
CONCEPTS: dict[str, tuple[str, ...]] = {
    "hard hat": (
        "hard hat",
        "hard hats",
        "hardhat",
        "hardhats",
        "helmet",
        "helmets",
        "head protection",
        "ppe",
    ),
    "missing": ("missing", "without", "not wearing", "lacking", "absent", "no"),
    "rebar": ("rebar", "reinforcement", "reinforcing", "starter bars"),
    "scaffolding": ("scaffold", "scaffolds", "scaffolding"),
    "extinguisher": ("fire extinguisher", "fire extinguishers", "extinguisher", "extinguishers"),
    "leak": ("leak", "leaks", "leaking", "water leak", "dripping", "puddle", "ponding"),
    "cable tray": ("cable tray", "cable trays", "cables"),
    "formwork": ("formwork", "shuttering", "shutters"),
    "guardrail": ("guardrail", "guardrails", "guard rail", "edge protection"),
    "concrete": ("concrete", "pour", "poured"),
    "drywall": ("drywall", "plasterboard", "gypsum board"),
    "curtain wall": ("curtain wall", "glazing"),
    "ductwork": ("ductwork", "duct", "ducts", "hvac"),
    "housekeeping": ("housekeeping", "debris", "waste", "rubbish"),
}
MODIFIER_CONCEPTS: frozenset[str] = frozenset({"missing"})


def describe(rng: random.Random, topic: str, project_name: str, level_name: str) -> tuple[str, str]:
    """A (title, description) of roughly 300–600 characters for one photo."""
    titles, sentences = _TOPIC_TEXT[topic]
    first, second = rng.sample(sentences, 2)
    closers = rng.sample(_CLOSERS, 2)
    grid = f"{rng.choice('ABCDEFGH')}-{rng.randrange(1, 12)}"
    opener = (
        f"Photo taken on {level_name} of {project_name}, near gridline {grid} "
        f"in the {rng.choice(_ZONES)}."
    )
    title = f"{level_name}: {rng.choice(titles)}"
    return title, " ".join((opener, first, second, *closers))
