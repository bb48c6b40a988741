"""The narration code builds from the anchors, when nothing the model wrote may be said.

A disobedient model degrades to this, never to silence: one sentence per
anchor, counts only through slots (rendered per grade like the model's), in
the turn's locale. Population and shown subset get separate sentences, an
unknown count a sentence with no number in it, an absence only the sentence
its cause allows. Every sentence here passes the narration guard on the
evidence that produced its anchor (a test holds it to that).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from beacon.loop.copy import say

Copy = Mapping[str, str]

NOUNS: Mapping[str, Copy] = {
    "search_photos": {"en": "photos", "ko": "사진", "ja": "写真", "de": "Fotos", "es": "fotos"},
    "list_annotations": {
        "en": "findings",
        "ko": "지적 사항",
        "ja": "指摘",
        "de": "Befunde",
        "es": "hallazgos",
    },
    "search_documents": {
        "en": "documents",
        "ko": "문서",
        "ja": "文書",
        "de": "Dokumente",
        "es": "documentos",
    },
    "*": {"en": "records", "ko": "항목", "ja": "記録", "de": "Datensätze", "es": "registros"},
}
COUNT: Copy = {
    "en": "{project} has {slot} matching {noun}.",
    "ko": "{project}에서 일치하는 {noun}: {slot}.",
    "ja": "{project}で一致する{noun}: {slot}。",
    "de": "{project} hat {slot} passende {noun}.",
    "es": "{project} tiene {slot} {noun} que coinciden.",
}
AGGREGATE: Copy = {
    "en": "The count you asked for is {slot}.",
    "ko": "요청하신 개수는 {slot}입니다.",
    "ja": "お尋ねの件数は{slot}です。",
    "de": "Die gefragte Anzahl ist {slot}.",
    "es": "El recuento que pidió es {slot}.",
}
SHOWN: Copy = {
    "en": "These {slot} are shown as cards.",
    "ko": "이 {slot}개가 카드로 표시됩니다.",
    "ja": "これら{slot}件をカードに表示しています。",
    "de": "Diese {slot} werden als Karten gezeigt.",
    "es": "Estos {slot} se muestran como tarjetas.",
}
ENUMERATED: Copy = {
    "en": "The {field} values found: {members}.",
    "ko": "확인된 {field} 값: {members}.",
    "ja": "確認できた{field}の値: {members}。",
    "de": "Gefundene Werte für {field}: {members}.",
    "es": "Valores de {field} encontrados: {members}.",
}
ENUMERATED_PARTIAL: Copy = {
    "en": "Among the records returned, these {field} values appear: {members}.",
    "ko": "반환된 기록에 나타난 {field} 값: {members}.",
    "ja": "返された記録に現れた{field}の値: {members}。",
    "de": "In den gelieferten Datensätzen kommen diese Werte für {field} vor: {members}.",
    "es": "En los registros devueltos aparecen estos valores de {field}: {members}.",
}
FIXED: Mapping[str, Copy] = {
    "unknown_count": {
        "en": "The data source did not say how many results there are, so I give no count.",
        "ko": "데이터 소스가 결과 개수를 알려주지 않아 개수를 말할 수 없습니다.",
        "ja": "データソースが件数を示さなかったため、件数は言えません。",
        "de": "Die Datenquelle hat die Anzahl nicht genannt, daher nenne ich keine Zahl.",
        "es": "La fuente no indicó cuántos resultados hay, así que no puedo dar una cifra.",
    },
    "empty_with_standing": {
        "en": "The data source searched and found none.",
        "ko": "데이터 소스가 검색했지만 일치하는 항목이 없습니다.",
        "ja": "データソースが検索しましたが、一致するものはありませんでした。",
        "de": "Die Datenquelle hat gesucht und keine Treffer gefunden.",
        "es": "La fuente de datos buscó y no encontró ninguno.",
    },
    "absence_permission_denied": {
        "en": "That search could not be run here.",
        "ko": "그 검색은 여기에서 실행할 수 없었습니다.",
        "ja": "その検索はここでは実行できませんでした。",
        "de": "Diese Suche konnte hier nicht ausgeführt werden.",
        "es": "Esa búsqueda no se pudo realizar aquí.",
    },
    "absence_auth_failure": {
        "en": "The data source refused the sign-in, so I could not look.",
        "ko": "데이터 소스가 로그인을 거부해 확인할 수 없었습니다.",
        "ja": "データソースがサインインを拒否したため、確認できませんでした。",
        "de": "Die Datenquelle hat die Anmeldung abgelehnt, daher konnte ich nicht nachsehen.",
        "es": "La fuente de datos rechazó el inicio de sesión, así que no pude mirar.",
    },
    "absence_zero_after_narrowing": {
        "en": "That is not among the previous results; the next search covers the whole project.",
        "ko": "이전 결과에는 없습니다. 다음 검색은 프로젝트 전체를 대상으로 합니다.",
        "ja": "前の結果には含まれていません。次の検索はプロジェクト全体が対象です。",
        "de": "Das ist nicht unter den vorigen Ergebnissen; die nächste Suche umfasst das Projekt.",
        "es": "No está entre los resultados anteriores; la próxima búsqueda abarca el proyecto.",
    },
    "absence_zero_from_start": {
        "en": "The project has no such data.",
        "ko": "이 프로젝트에는 그런 데이터가 없습니다.",
        "ja": "このプロジェクトにはそのようなデータはありません。",
        "de": "Das Projekt enthält keine solchen Daten.",
        "es": "El proyecto no tiene esos datos.",
    },
    "in_band_failure": {
        "en": "The {tool} source did not return a usable result.",
        "ko": "{tool} 소스가 사용할 수 있는 결과를 반환하지 않았습니다.",
        "ja": "{tool} ソースは使える結果を返しませんでした。",
        "de": "Die Quelle {tool} hat kein verwertbares Ergebnis geliefert.",
        "es": "La fuente {tool} no devolvió un resultado utilizable.",
    },
    "narrowing_released": {
        "en": "The next search will cover everything again.",
        "ko": "다음 검색은 다시 전체를 대상으로 합니다.",
        "ja": "次の検索は再び全体が対象です。",
        "de": "Die nächste Suche umfasst wieder alles.",
        "es": "La próxima búsqueda vuelve a abarcarlo todo.",
    },
    "stitch_discarded": {
        "en": "Later pages disagreed with the first, so I answer from the first page.",
        "ko": "이후 페이지가 첫 페이지와 달라 첫 페이지로 답합니다.",
        "ja": "後のページが最初のページと食い違ったため、最初のページで答えます。",
        "de": "Spätere Seiten widersprachen der ersten, daher antworte ich mit der ersten Seite.",
        "es": "Las páginas posteriores no coincidían con la primera; respondo con la primera.",
    },
}
WHICH_PROJECT: Copy = {
    "en": "Which project do you mean? I can see: {projects}.",
    "ko": "어느 프로젝트를 말씀하시나요? 볼 수 있는 프로젝트: {projects}.",
    "ja": "どのプロジェクトですか。表示できるもの: {projects}。",
    "de": "Welches Projekt meinen Sie? Ich sehe: {projects}.",
    "es": "¿Qué proyecto quiere decir? Veo: {projects}.",
}
# The last word when even the code-built narration had nothing sayable: no number,
# no claim — the cards, counts and notices on screen carry the answer.
NOTHING_SAYABLE: Copy = {
    "en": "The cards and notices above show what the sources confirmed.",
    "ko": "위의 카드와 안내에 데이터 소스가 확인한 내용이 있습니다.",
    "ja": "上のカードとお知らせに、データソースが確認した内容があります。",
    "de": "Die Karten und Hinweise oben zeigen, was die Quellen bestätigt haben.",
    "es": "Las tarjetas y avisos de arriba muestran lo que las fuentes confirmaron.",
}


THE_SOURCE: Copy = {
    "en": "The source",
    "ko": "데이터 소스",
    "ja": "データソース",
    "de": "Die Quelle",
    "es": "La fuente",
}


def _count_sentence(record: Mapping[str, Any], names: Mapping[str, str], locale: str) -> str:
    slot = "{{count:" + str(record["slot"]) + "}}"
    if record.get("aggregate"):
        return say(AGGREGATE, locale, slot=slot)
    noun = say(NOUNS.get(str(record.get("tool")), NOUNS["*"]), locale)
    project = names.get(str(record.get("project_id"))) or say(THE_SOURCE, locale)
    return say(COUNT, locale, slot=slot, noun=noun, project=project)


def _enumeration_sentence(record: Mapping[str, Any], locale: str) -> str:
    members = ", ".join(str(m) for m in record.get("members", []))
    table = ENUMERATED if record.get("complete") else ENUMERATED_PARTIAL
    return say(table, locale, field=record.get("field", ""), members=members)


def narrate(
    records: Sequence[Mapping[str, Any]],
    locale: str,
    *,
    projects: Mapping[str, str] | None = None,
) -> list[str]:
    """One sentence per anchor record (the same records the answer call received)."""
    names = dict(projects or {})
    if not records:
        return [say(WHICH_PROJECT, locale, projects=", ".join(names.values()))] if names else []
    # With an exact aggregate, a companion listing only supplies the cards.
    has_aggregate = any(r.get("aggregate") and r.get("kind") == "exact_count" for r in records)
    sentences: list[str] = []
    for record in records:
        kind = str(record.get("kind"))
        if kind in ("exact_count", "lower_bound"):
            if not (has_aggregate and not record.get("aggregate")):
                sentences.append(_count_sentence(record, names, locale))
        elif kind == "shown_subset":
            sentences.append(say(SHOWN, locale, slot="{{shown:" + str(record["slot"]) + "}}"))
        elif kind == "enumeration" and record.get("members"):
            sentences.append(_enumeration_sentence(record, locale))
        elif kind in FIXED:
            sentences.append(say(FIXED[kind], locale, tool=record.get("tool", "data")))
    # Two sources in the same state earn one sentence, not the same one twice.
    return list(dict.fromkeys(sentences))
