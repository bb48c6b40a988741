"""The narration code builds from the anchors, when nothing the model wrote may be said.

A disobedient model degrades to this, never to silence: one sentence per
anchor, counts only through slots (rendered per grade like the model's), in
the turn's locale. Population and shown subset get separate sentences, an
unknown count a sentence with no number in it, an absence only the sentence
its cause allows. Every sentence here passes the narration guard on the
evidence that produced its anchor (a test holds it to that).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
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
    "panoramas": {
        "en": "panoramas",
        "ko": "파노라마",
        "ja": "パノラマ",
        "de": "Panoramen",
        "es": "panorámicas",
    },
    "*": {"en": "records", "ko": "항목", "ja": "記録", "de": "Datensätze", "es": "registros"},
}
# What a query counted, read from its subject in any locale (query_data counts
# panoramas, photos or findings alike; the sentence must say which).
SUBJECT_NOUNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "panoramas",
        re.compile(
            r"panoram|\bpanos?\b|\bcaptures?\b|\b360s?\b|aufnahme|captura|파노라마|パノラマ",
            re.IGNORECASE,
        ),
    ),
    (
        "search_photos",
        re.compile(r"photo|picture|image|foto|bild|imagen|사진|写真|画像", re.IGNORECASE),
    ),
    (
        "list_annotations",
        re.compile(
            r"finding|issue|annotation|observation|defect|befund|mängel|mangel|hallazgo"
            r"|observaci|incidencia|지적|결함|指摘|不具合",
            re.IGNORECASE,
        ),
    ),
)
COUNT: Copy = {
    "en": "{project} has {slot} matching {noun}.",
    "ko": "{project}에서 일치하는 {noun}: {slot}.",
    "ja": "{project}で一致する{noun}: {slot}。",
    "de": "{project} hat {slot} passende {noun}.",
    "es": "{project} tiene {slot} {noun} que coinciden.",
}
SHOWN: Copy = {
    "en": "These {slot} are shown as cards.",
    "ko": "이 {slot}개가 카드로 표시됩니다.",
    "ja": "これら{slot}件をカードに表示しています。",
    "de": "Diese {slot} werden als Karten gezeigt.",
    "es": "Estos {slot} se muestran como tarjetas.",
}
ENUMERATED: Copy = {
    "en": "The {field} found: {members}.",
    "ko": "확인된 {field}: {members}.",
    "ja": "確認できた{field}: {members}。",
    "de": "Gefundene {field}: {members}.",
    "es": "{field} encontrados: {members}.",
}
ENUMERATED_PARTIAL: Copy = {
    "en": "Among the records returned, these {field} appear: {members}.",
    "ko": "반환된 기록에 나타난 {field}: {members}.",
    "ja": "返された記録に現れた{field}: {members}。",
    "de": "In den gelieferten Datensätzen kommen diese {field} vor: {members}.",
    "es": "En los registros devueltos aparecen estos {field}: {members}.",
}
# The enumerable fields by name (beacon.loop.sets), as the reader says them.
FIELD_NAMES: Mapping[str, Copy] = {
    "company": {"en": "companies", "ko": "업체", "ja": "会社", "de": "Firmen", "es": "Empresas"},
    "inspector": {
        "en": "inspectors",
        "ko": "점검자",
        "ja": "検査員",
        "de": "Prüfer",
        "es": "Inspectores",
    },
    "category": {
        "en": "categories",
        "ko": "분류",
        "ja": "分類",
        "de": "Kategorien",
        "es": "Categorías",
    },
    "status": {"en": "statuses", "ko": "상태", "ja": "状態", "de": "Status", "es": "Estados"},
    "level_number": {"en": "levels", "ko": "층", "ja": "階", "de": "Ebenen", "es": "Niveles"},
    "discipline": {
        "en": "disciplines",
        "ko": "분야",
        "ja": "分野",
        "de": "Fachbereiche",
        "es": "Disciplinas",
    },
    "kind": {"en": "kinds", "ko": "유형", "ja": "種類", "de": "Arten", "es": "Tipos"},
    "trade": {"en": "trades", "ko": "공종", "ja": "工種", "de": "Gewerke", "es": "Oficios"},
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
        # Said of the source, not of the data: a denial of results here would be an
        # absence claim the guard rightly drops (there may be data; the call failed).
        "en": "The {tool} source failed to answer: its reply was an error.",
        "ko": "{tool} 소스가 제대로 응답하지 못했습니다. 돌아온 것은 오류였습니다.",
        "ja": "{tool} ソースは正しく応答できませんでした。返ってきたのはエラーです。",
        "de": "Die Quelle {tool} hat nicht richtig geantwortet: Ihre Antwort war ein Fehler.",
        "es": "La fuente {tool} no respondió bien: su respuesta fue un error.",
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


def counted_noun(record: Mapping[str, Any], locale: str) -> str:
    """What a count counted: the tool's own records, else what its subject names."""
    tool = str(record.get("tool"))
    if tool not in NOUNS:
        subject = str(record.get("subject", ""))
        tool = next((key for key, words in SUBJECT_NOUNS if words.search(subject)), "*")
    return say(NOUNS[tool], locale)


def _count_sentence(record: Mapping[str, Any], names: Mapping[str, str], locale: str) -> str:
    slot = "{{count:" + str(record["slot"]) + "}}"
    project = names.get(str(record.get("project_id"))) or say(THE_SOURCE, locale)
    return say(COUNT, locale, slot=slot, noun=counted_noun(record, locale), project=project)


def _enumeration_sentence(record: Mapping[str, Any], locale: str) -> str:
    members = ", ".join(str(m) for m in record.get("members", []))
    table = ENUMERATED if record.get("complete") else ENUMERATED_PARTIAL
    field = str(record.get("field", ""))
    named = say(FIELD_NAMES[field], locale) if field in FIELD_NAMES else field
    return say(table, locale, field=named, members=members)


def _folded(text: str) -> str:
    return "".join(text.casefold().split())


def _names_a_project(question: str, names: Iterable[str]) -> bool:
    asked = _folded(question)
    return any(_folded(name) and _folded(name) in asked for name in names)


def narrate(
    records: Sequence[Mapping[str, Any]],
    locale: str,
    *,
    projects: Mapping[str, str] | None = None,
    question: str = "",
) -> list[str]:
    """One sentence per anchor record (the same records the answer call received)."""
    names = dict(projects or {})
    if not records:
        # "Which project?" only when the question named none: a question that named one
        # and earned no evidence is not answered by asking for the project again.
        if not names or _names_a_project(question, names.values()):
            return []
        return [say(WHICH_PROJECT, locale, projects=", ".join(names.values()))]
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
