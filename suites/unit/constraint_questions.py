"""The projects and the day the constraint reader's tests read questions against, and
``axes``: what a question limits its set by, axis by axis.
"""

from __future__ import annotations

from datetime import date

from beacon.adjudication.constraints import read_constraints

PROJECTS = [
    {"id": "prj-harbor-tower", "name": "Harbor Tower"},
    {"id": "prj-maple-clinic", "name": "Maple Clinic"},
]
TODAY = date(2026, 12, 1)  # a Tuesday


def axes(question: str) -> dict[str, str]:
    return {c.axis: c.value for c in read_constraints(question, projects=PROJECTS, today=TODAY)}
