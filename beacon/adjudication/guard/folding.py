"""Case folding that equates what ``re.IGNORECASE`` equates.

Full case folding equates every pair of characters IGNORECASE matches (checked over
every code point with a one-character case mapping) but one: the dotless ı, which
IGNORECASE takes for i and folding keeps apart. So a lower-case literal found in
``folded(text)`` is the test "could it match under IGNORECASE" — without the
IGNORECASE scan, which re cannot speed up by the first character (every cased
letter defeats its prefix search).
"""

from __future__ import annotations

_DOTLESS_I = str.maketrans({"\u0131": "i"})


def folded(text: str) -> str:
    return text.translate(_DOTLESS_I).casefold()
