"""The host's view list: disclosed as possibly cut short only when the answer used it.

A host sends the annotation list of the panorama on screen with every turn, and
at its wire cap that list may have been cut. That matters only to an answer
that speaks of the list: a turn about photos on another level never read it,
so a "the 50 shown may not be all" card there is noise (the viewer once showed
it on every turn). The answer used the list when its published narration names
one of the listed annotations, by id or by title: nothing else in a turn reads
it (the evidence comes from tool calls).
"""

from __future__ import annotations

import re

from beacon.adjudication import grade_view_list
from beacon.lexicon.copy import VIEW_TRUNCATED, say
from beacon.wire.turns import VIEW_ANNOTATIONS_CAP, ViewContext


def used_view_list(view: ViewContext | None, narration: str) -> bool:
    if view is None or not view.annotations:
        return False
    folded = narration.casefold()
    for item in view.annotations:
        for name in (item.id, item.title or ""):
            # Whole words only: a one-letter title is not named by every word holding it.
            wanted = name.strip().casefold()
            if wanted and re.search(rf"(?<!\w){re.escape(wanted)}(?!\w)", folded):
                return True
    return False


VIEW_SLOT = "view"  # the host list's own shown slot: {{shown:view}} renders its length


def view_list_at_cap(view: ViewContext | None) -> int | None:
    """The host list's length when it is at its wire cap (it may have been cut), else None."""
    if view is None or view.annotations is None:
        return None
    listed = grade_view_list(len(view.annotations), VIEW_ANNOTATIONS_CAP)
    return len(view.annotations) if listed.disclose_truncation else None


def view_list_disclosure(view: ViewContext | None, narration: str, locale: str) -> str | None:
    """The disclosure text, or None when the list was not used or is below its cap."""
    listed = view_list_at_cap(view)
    if listed is None or not used_view_list(view, narration):
        return None
    return say(VIEW_TRUNCATED, locale, n=listed)
