"""The gold eval's case record, and the corpus names every case generator speaks of.

A case's gold facts (the count, its grade, the members of a set) come from the
corpus records (``harness/gold.py``, ``gold_site.py``, ``gold_asked.py``); this is
the shape they are written in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from stub_server.corpus import Corpus

HARBOR, CEDAR, MAPLE, RIVERSIDE = (
    "prj-harbor-tower",
    "prj-cedar-school",
    "prj-maple-clinic",
    "prj-riverside-depot",
)
LOCALES = ("en", "de", "es", "ko", "ja")


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    question: str
    grade: str  # the grade an honest answer must carry
    value: int | None = None  # the gold number, where one may be stated
    members: tuple[str, ...] = ()  # the gold set, for "which …" questions
    scenario: str | None = None
    red_reason: str | None = None  # kept red on purpose: why this slot stays unanswered
    honest_grade: str | None = None  # for a red case: the grade Beacon answers instead
    facts: dict[str, Any] = field(default_factory=dict)
    locale: str = "en"  # the panel's locale: the answer must be written in it
    tiers: tuple[str, ...] | None = None  # the caller's licence; None: the eval's default
    denied: bool = False  # the honest answer is a denial notice and no number
    # Phrases of the question no tool can apply: the only right answer discloses them
    # and states no count of the wider set as the answer.
    disclosed: tuple[str, ...] = ()
    kind: str = ""  # the question's shape, for the report (default: the id's first word)

    @property
    def shape(self) -> str:
        return self.kind or self.id.split("-")[0]


def open_annotations(corpus: Corpus, project: str, level: int, kind: str, status: str) -> list[Any]:
    """The gold set: annotations of ``kind`` in ``status`` on one level of a project."""
    return [
        a
        for a in corpus.annotations
        if a.project_id == project
        and a.level_number == level
        and a.kind == kind
        and a.status == status
    ]
