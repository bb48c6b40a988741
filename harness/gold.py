"""The gold eval: questions over the corpus with facts computed from the generator.

Nothing here is typed by hand: each case's gold facts (the count, its grade,
the members of a set) come from the corpus records. A case the system cannot
answer exactly by design — a count over a similarity search — states its
honest expected outcome and why, instead of pretending.
"""

from __future__ import annotations

from collections.abc import Iterator

from beacon.adjudication import DEFAULT_SENTINEL
from harness.gold_asked import asked_set_cases, combined_cases
from harness.gold_case import Case, open_annotations
from harness.gold_site import site_team_cases
from stub_server.corpus import Corpus, build_corpus
from stub_server.tools_search import SearchIndex

FETCH_CAP = 200
TOPICS = (
    "missing hard hats",
    "rebar",
    "scaffolding",
    "fire extinguisher",
    "water leak",
    "formwork",
    "guardrail",
    "cable tray",
)


def _count_cases(corpus: Corpus) -> Iterator[Case]:
    levels = {
        "prj-harbor-tower": (1, 2, 3, 4, 5, 6, 7, 8, 9, 11),
        "prj-cedar-school": (1, 2, 3),
        "prj-maple-clinic": (1, 2),
    }
    names = {p.id: p.name for p in corpus.projects}
    for project, numbers in levels.items():
        for level in numbers:
            for kind, status in (("safety", "open"), ("quality", "closed")):
                gold = len(open_annotations(corpus, project, level, kind, status))
                question = (
                    f"How many {status} {kind} findings are on level {level} of {names[project]}?"
                )
                yield Case(f"count-{project}-{level}-{kind}-{status}", question, "EXACT", gold)


def _panorama_cases(corpus: Corpus) -> Iterator[Case]:
    for project in corpus.projects:
        total = sum(1 for c in corpus.captures if c.project_id == project.id)
        yield Case(
            f"how-many-panoramas-{project.id}",
            f"How many panoramas are in {project.name}?",
            "EXACT",
            total,
        )
        saturated = total >= DEFAULT_SENTINEL
        yield Case(
            f"list-panoramas-{project.id}",
            f"List all panoramas in {project.name}",
            "LOWER_BOUND" if saturated else "EXACT",
            DEFAULT_SENTINEL if saturated else total,
        )


def _photo_cases(corpus: Corpus) -> Iterator[Case]:
    index = SearchIndex(corpus)
    for topic in TOPICS:
        bound = len(index.candidates("prj-harbor-tower", topic, FETCH_CAP))
        yield Case(
            f"photos-{topic.replace(' ', '-')}",
            f"Photos of {topic} in Harbor Tower",
            "LOWER_BOUND",
            bound,
        )
    for topic in TOPICS[:4]:
        # A similarity search has no exact population: the honest answer is a bound.
        truth = len(index.candidates("prj-harbor-tower", topic, 10_000))
        yield Case(
            f"exact-count-of-photos-{topic.replace(' ', '-')}",
            f"Photos of {topic} in Harbor Tower",
            "EXACT",
            truth,
            red_reason="an exact count of a similarity search is unobtainable by design: "
            "Beacon answers 'at least N' and never asserts the true total",
            honest_grade="LOWER_BOUND",
        )


def _set_cases(corpus: Corpus) -> Iterator[Case]:
    for level in (2, 3, 4, 5, 6, 7, 8, 9):
        members = sorted(
            {
                a.company
                for a in open_annotations(corpus, "prj-harbor-tower", level, "safety", "open")
            }
        )
        yield Case(
            f"which-companies-level-{level}",
            f"Which companies have open safety findings on level {level} of Harbor Tower?",
            "EXACT",
            members=tuple(members),
        )


def _unknown_cases() -> Iterator[Case]:
    for topic in TOPICS[:4]:
        yield Case(
            f"legacy-{topic.replace(' ', '-')}",
            f"Photos of {topic} in Harbor Tower",
            "UNKNOWN",
            None,
            scenario="legacy-upstream",
        )


def gold_cases(seed: int = 7) -> list[Case]:
    corpus = build_corpus(seed)
    return [
        *_count_cases(corpus),
        *_panorama_cases(corpus),
        *_photo_cases(corpus),
        *_set_cases(corpus),
        *_unknown_cases(),
        *site_team_cases(corpus),
        *asked_set_cases(corpus),
        *combined_cases(corpus),
    ]
