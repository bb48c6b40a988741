"""What tells a question's language when the request named no locale
(``beacon.loop.language``): the script decides Korean and Japanese; between the
Latin-script locales, these words and letters do — common in questions, each
belonging to one language only. So the tables have the three Latin-script locales.
"""

from __future__ import annotations

from collections.abc import Mapping


def _vocabulary(words: str) -> frozenset[str]:
    return frozenset(words.split())


WORDS: Mapping[str, frozenset[str]] = {
    "de": _vocabulary(
        "wie viele gibt es welche welcher welches zeige zeig alle auf der die das den dem "
        "und im in ist sind wer hat haben mit von fotos befunde mängel ebene stockwerk "
        "geschoss offene offenen wurden nicht keine wo liegt wann meisten"
    ),
    "es": _vocabulary(
        "cuántos cuántas cuantos cuantas hay qué que cuál cuáles quién quiénes muestra "
        "muéstrame todas todos los las del el en la de con por fotos hallazgos nivel "
        "planta abiertos abiertas son está están sin"
    ),
    "en": _vocabulary(
        "how many what which who show list all the of on in are is were with photos "
        "findings level open there any where when most"
    ),
}
# Letters English never writes: German's umlauts and ß, Spanish's ñ, accents and
# inverted marks.
LETTERS: Mapping[str, str] = {"de": "äöüß", "es": "ñ¿¡áéíóú"}
