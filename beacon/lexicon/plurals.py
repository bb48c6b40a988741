"""Which plural form a number takes in a locale: CLDR's rules, through babel.

A word table keys its forms by CLDR plural category (``one``, ``few``, ``many``,
``other`` …) rather than by a hand-written "n == 1": Spanish has a ``many`` for a
million, Korean and Japanese have only ``other`` (their counters carry the
number instead), and a locale added later brings its own rules with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from babel import Locale

Forms = Mapping[str, str]  # CLDR plural category → the word in that form


@cache
def _locale(locale: str) -> Locale:
    return Locale.parse(locale)


def plural_category(count: float, locale: str) -> str:
    """CLDR's category of ``count`` in ``locale`` (``one``, ``other`` …)."""
    return str(_locale(locale).plural_form(count))


def plural(forms: Forms, count: float | None, locale: str) -> str:
    """The form ``count`` takes; ``other`` when the count is not known (a slot whose
    number the server writes later still reads naturally with the general form) or
    when the table does not distinguish the category (es ``many`` → ``other``)."""
    if count is None:
        return forms["other"]
    return forms.get(plural_category(count, locale), forms["other"])
