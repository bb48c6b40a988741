"""What a turn says of a count of another set than the one asked about (loop/scope.py):
the disclosures, and the code's own sentence for such a count's figure.
"""

from __future__ import annotations

from collections.abc import Mapping

# A count that left out something the question named (constraints.py): it is not the answer.
# Another set, not a wider one: "not open", other records than asked, or another event's
# date leave out what the question named without widening it.
SCOPE_UNAPPLIED: Mapping[str, str] = {
    "en": "Not applied to the count shown: {phrases}. It counts another set than the one you "
    "asked about, so it is not the answer.",
    "ko": "표시된 집계에 적용되지 않은 조건: {phrases}. 질문과 다른 범위를 센 것이므로 답이 "
    "아닙니다.",
    "ja": "表示した件数に適用されていない条件: {phrases}。質問とは異なる範囲を数えたもので、"
    "答えではありません。",
    "de": "Nicht auf die gezeigte Zählung angewandt: {phrases}. Sie zählt eine andere Menge als "
    "gefragt und ist daher nicht die Antwort.",
    "es": "No se aplicó al recuento mostrado: {phrases}. Cuenta un conjunto distinto del "
    "preguntado, así que no es la respuesta.",
}
# A count narrowed by a filter the question never named (adjudication/added.py).
SCOPE_ADDED: Mapping[str, str] = {
    "en": "The count shown was narrowed by {phrases}, which you did not ask for. It counts "
    "another set than the one you asked about, so it is not the answer.",
    "ko": "표시된 집계는 질문에 없던 조건 {phrases}(으)로 좁혀졌습니다. 질문과 다른 범위를 센 "
    "것이므로 답이 아닙니다.",
    "ja": "表示した件数は、質問にない条件 {phrases} で絞り込まれています。質問とは異なる範囲を"
    "数えたもので、答えではありません。",
    "de": "Die gezeigte Zählung wurde durch {phrases} eingegrenzt, wonach Sie nicht gefragt "
    "haben. Sie zählt eine andere Menge als gefragt und ist daher nicht die Antwort.",
    "es": "El recuento mostrado se acotó con {phrases}, que usted no pidió. Cuenta un conjunto "
    "distinto del preguntado, así que no es la respuesta.",
}
# The code's own sentence for such a count: what narrowed it.
SCOPE_COUNT_ADDED: Mapping[str, str] = {
    "en": "The count with {phrases}: {figure}.",
    "ko": "{phrases} 조건으로 센 수: {figure}.",
    "ja": "{phrases}で絞り込んだ件数: {figure}。",
    "de": "Die Zählung mit {phrases}: {figure}.",
    "es": "El recuento con {phrases}: {figure}.",
}
# A count that both left a phrase out and carried a filter never asked for.
SCOPE_COUNT_BOTH: Mapping[str, str] = {
    "en": "The count without {phrases} and with {added}: {figure}.",
    "ko": "{phrases} 조건 없이 {added} 조건으로 센 수: {figure}.",
    "ja": "{phrases}を除き、{added}で絞り込んだ件数: {figure}。",
    "de": "Die Zählung ohne {phrases} und mit {added}: {figure}.",
    "es": "El recuento sin {phrases} y con {added}: {figure}.",
}
# A comparison one side of which no call counted ("level 3 vs level 4", 4 never asked).
SCOPE_MISSING_SIDE: Mapping[str, str] = {
    "en": "Not counted: {phrases}.",
    "ko": "집계되지 않음: {phrases}.",
    "ja": "数えられていません: {phrases}。",
    "de": "Nicht gezählt: {phrases}.",
    "es": "No contado: {phrases}.",
}
# The code's own sentence for a count of another set: what it counts, and what it left out.
SCOPE_COUNT: Mapping[str, str] = {
    "en": "The count without {phrases}: {figure}.",
    "ko": "{phrases} 조건 없이 센 수: {figure}.",
    "ja": "{phrases}を除いて数えた件数: {figure}。",
    "de": "Die Zählung ohne {phrases}: {figure}.",
    "es": "El recuento sin {phrases}: {figure}.",
}
