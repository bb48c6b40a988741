"""Words of a chat question that continues the one before it.

"How many of them are safety findings?", "Wie viele davon …", "그중 안전 지적은?" point
back at the earlier question's set (``REFERS_BACK``); "And on level 4?", "What about
Cedar School?", "Level 3" are made of nothing but what they change, and the words
that join it on (``CONTINUING``). Either way the question names only part of the set
it asks about: the rest is the conversation's (adjudication/conversation.py). A
question with a subject of its own ("Where is Maple Clinic?", "What is the progress
on level 2?") is not one of these: its words are not all here.

Latin-script entries are whole words (``REFERS_BACK`` phrases, ``CONTINUING`` words);
Korean and Japanese entries are pieces found anywhere in what is left once the
constraints, the form's pieces and the particles are read (lexicon/shape.py).
"""

from __future__ import annotations

from collections.abc import Mapping

REFERS_BACK: Mapping[str, tuple[str, ...]] = {
    "en": ("of them", "of these", "of those", "among them", "among these", "from them", "them"),
    "de": ("davon", "darunter", "von diesen", "von ihnen", "unter diesen"),
    "es": ("de ellos", "de ellas", "de esos", "de esas", "de estos", "de estas",
           "entre ellos", "entre ellas"),
    "ko": ("그중", "그 중", "이 중", "이중", "그것들"),
    "ja": ("そのうち", "その中", "このうち", "この中", "それら"),
}  # fmt: skip
CONTINUING: Mapping[str, tuple[str, ...]] = {
    "en": ("and", "what", "about", "how", "many", "much", "are", "is", "there", "on", "in",
           "at", "of", "for", "the", "also", "then", "now", "only", "just", "were", "was",
           "captured", "taken", "raised", "created", "recorded", "logged", "please", "ones"),
    "de": ("und", "was", "ist", "mit", "wie", "viele", "sind", "es", "gibt", "auf", "im",
           "in", "am", "von", "der", "die", "das", "jetzt", "nur", "auch", "wurden", "wurde",
           "aufgenommen", "erstellt", "erfasst", "bitte"),
    "es": ("y", "qué", "que", "tal", "hay", "de", "en", "el", "la", "los", "las", "del",
           "cuántos", "cuántas", "cuantos", "cuantas", "sobre", "solo", "también", "ahora",
           "fueron", "fue", "tomadas", "tomados", "creados", "creadas", "registrados",
           "registradas", "por", "favor"),
    "ko": ("그럼", "그러면", "그리고", "이제", "는요", "은요", "요"),
    "ja": ("では", "じゃあ", "それでは", "それなら", "なら", "それと"),
}  # fmt: skip

__all__ = ["CONTINUING", "REFERS_BACK"]
