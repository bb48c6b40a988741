"""Month names, written as each language writes them, defined once.

Korean and Japanese have no month names: they write the number (3월, 3月), so this
table has three locales. The question reader (``dates.py``) matches them case-folded;
the guard (``standing.py``) protects a card's date in each spelling; the counter-
question copy names a month with them; the sentence splitter (``slots.py``) knows a
German ordinal's dot before a month ("12. März") ends no sentence.
"""

from __future__ import annotations

from collections.abc import Mapping

MONTHS: Mapping[str, tuple[str, ...]] = {
    "en": (
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ),
    "de": (
        "Januar", "Februar", "März", "April", "Mai", "Juni",
        "Juli", "August", "September", "Oktober", "November", "Dezember",
    ),
    "es": (
        "enero", "febrero", "marzo", "abril", "mayo", "junio",
        "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre",
    ),
}  # fmt: skip
