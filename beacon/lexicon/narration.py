"""The fallback narrator's words in five locales, as data: what a count counted (by the
tool table's noun keys), the counters Korean and Japanese put after a number, the
count, shown-set and enumeration sentences, and the fixed sentences of each anchor.

``beacon.loop.fallback_narrator`` builds its sentences from these; every sentence it builds
passes the narration guard (a test holds it to that).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from beacon.lexicon.plurals import Forms

Copy = Mapping[str, str]
Plural = Mapping[str, Forms]  # locale → the word's forms by CLDR plural category

# What a count counted, as the noun phrase the count sentence ends in, by tool (or by
# what a query's subject names). German and Spanish agree their adjective or verb with
# the number ("1 passenden Befund", "2 fotos que coinciden"), so the phrase is the row,
# not the bare noun; Korean and Japanese take a counter after the number instead.
GENERIC = "*"  # a tool with no row (a foreign upstream's): "results", never its name
NOUNS: Mapping[str, Plural] = {
    "photos": {
        "en": {"one": "matching photo", "other": "matching photos"},
        "de": {"one": "passendes Foto", "other": "passende Fotos"},
        "es": {"one": "foto que coincide", "other": "fotos que coinciden"},
        "ko": {"other": "사진"},
        "ja": {"other": "写真"},
    },
    "findings": {
        "en": {"one": "matching finding", "other": "matching findings"},
        "de": {"one": "passenden Befund", "other": "passende Befunde"},
        "es": {"one": "hallazgo que coincide", "other": "hallazgos que coinciden"},
        "ko": {"other": "지적 사항"},
        "ja": {"other": "指摘"},
    },
    "documents": {
        "en": {"one": "matching document", "other": "matching documents"},
        "de": {"one": "passendes Dokument", "other": "passende Dokumente"},
        "es": {"one": "documento que coincide", "other": "documentos que coinciden"},
        "ko": {"other": "문서"},
        "ja": {"other": "文書"},
    },
    "panoramas": {
        "en": {"one": "matching panorama", "other": "matching panoramas"},
        "de": {"one": "passendes Panorama", "other": "passende Panoramen"},
        "es": {"one": "panorámica que coincide", "other": "panorámicas que coinciden"},
        "ko": {"other": "파노라마"},
        "ja": {"other": "パノラマ"},
    },
    GENERIC: {
        "en": {"one": "matching result", "other": "matching results"},
        "de": {"one": "passendes Ergebnis", "other": "passende Ergebnisse"},
        "es": {"one": "resultado que coincide", "other": "resultados que coinciden"},
        "ko": {"other": "결과"},
        "ja": {"other": "結果"},
    },
}
# The counter a number takes in Korean and Japanese, by the same keys ("사진 3장",
# "指摘 1件"); a locale without a row writes the bare number.
COUNTERS: Mapping[str, Mapping[str, str]] = {
    "ko": {"photos": "장", "panoramas": "개", GENERIC: "건"},
    "ja": {"photos": "枚", GENERIC: "件"},
}
# Which source failed, named by what it holds (a tool's own name is no word for a user).
SOURCES: Mapping[str, Copy] = {
    "photos": {
        "en": "photo source",
        "de": "Fotoquelle",
        "es": "fuente de fotos",
        "ko": "사진 소스",
        "ja": "写真のソース",
    },
    "findings": {
        "en": "findings source",
        "de": "Befundquelle",
        "es": "fuente de hallazgos",
        "ko": "지적 사항 소스",
        "ja": "指摘のソース",
    },
    "documents": {
        "en": "document source",
        "de": "Dokumentquelle",
        "es": "fuente de documentos",
        "ko": "문서 소스",
        "ja": "文書のソース",
    },
    "panoramas": {
        "en": "panorama source",
        "de": "Panoramaquelle",
        "es": "fuente de panorámicas",
        "ko": "파노라마 소스",
        "ja": "パノラマのソース",
    },
    GENERIC: {
        "en": "data source",
        "de": "Datenquelle",
        "es": "fuente de datos",
        "ko": "데이터 소스",
        "ja": "データソース",
    },
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
        "photos",
        re.compile(r"photo|picture|image|foto|bild|imagen|사진|写真|画像", re.IGNORECASE),
    ),
    (
        "findings",
        re.compile(
            r"finding|issue|annotation|observation|defect|befund|mängel|mangel|hallazgo"
            r"|observaci|incidencia|지적|결함|指摘|不具合",
            re.IGNORECASE,
        ),
    ),
)
COUNT: Copy = {
    "en": "{project} has {slot} {noun}.",
    "ko": "{project}에서 일치하는 {noun}: {slot}{counter}.",
    "ja": "{project}で一致する{noun}は{slot}{counter}です。",
    "de": "{project} hat {slot} {noun}.",
    "es": "{project} tiene {slot} {noun}.",
}
# The shown-set sentence, by the count's grade, said only when the cards are fewer than
# the set (an exact 3 with 3 cards needs no "these 3"). Its subject is the cards, never
# the population (SPEC §3): it names no count slot. {n} is the shown slot, {counter}
# Korean/Japanese's counter ({counter_obj}: Korean's with its object particle).
SHOWN: Mapping[str, Plural] = {
    # The set's size is known and larger: the cards are some of it.
    "EXACT": {
        "en": {
            "one": "The card below shows {n} of them.",
            "other": "The cards below show {n} of them.",
        },
        "de": {
            "one": "Die Karte unten zeigt {n} davon.",
            "other": "Die Karten unten zeigen {n} davon.",
        },
        "es": {
            "one": "Abajo se muestra {n} como tarjeta.",
            "other": "Abajo se muestran {n} como tarjetas.",
        },
        "ko": {"other": "그중 {n}{counter_obj} 아래 카드로 보여 드립니다."},
        "ja": {"other": "そのうち{n}{counter}を下のカードに表示しています。"},
    },
    # Only a floor is known: the cards are the first ones, and more exist.
    "LOWER_BOUND": {
        "en": {
            "one": "The first {n} is shown below as a card; more can be loaded.",
            "other": "The first {n} are shown below as cards; more can be loaded.",
        },
        "de": {
            "one": "Unten steht {n} als Karte; weitere lassen sich nachladen.",
            "other": "Die ersten {n} stehen unten als Karten; weitere lassen sich nachladen.",
        },
        "es": {
            "one": "Abajo aparece {n} como tarjeta; se pueden cargar más.",
            "other": "Abajo aparecen {n} como tarjetas; se pueden cargar más.",
        },
        "ko": {"other": "먼저 {n}{counter_obj} 아래 카드로 보여 드리며, 더 불러올 수 있습니다."},
        "ja": {"other": "まず{n}{counter}を下のカードに表示しています(続きを読み込めます)。"},
    },
    # No total at all: the cards are what came back, and the sentence says so.
    "SHOWN": {
        "en": {
            "one": "The source returned {n} without counting; it is shown below as a card.",
            "other": "The source returned {n} without counting them; they are shown below "
            "as cards.",
        },
        "de": {
            "one": "Die Quelle lieferte {n}, ohne zu zählen; unten als Karte.",
            "other": "Die Quelle lieferte {n}, ohne sie zu zählen; unten als Karten.",
        },
        "es": {
            "one": "La fuente devolvió {n} sin contar cuántos hay; aparece abajo como tarjeta.",
            "other": "La fuente devolvió {n} sin contar cuántos hay; aparecen abajo como tarjetas.",
        },
        "ko": {
            "other": "데이터 소스가 개수를 세지 않고 {n}{counter_obj} 보냈고, "
            "아래 카드로 표시합니다."
        },
        "ja": {
            "other": "データソースが総数を示さずに返した{n}{counter}を、"
            "下のカードに表示しています。"
        },
    },
}
# UNKNOWN: no number may be said, so the cards are pointed at without one.
SHOWN_UNCOUNTED: Copy = {
    "en": "The cards below show what the source returned.",
    "de": "Die Karten unten zeigen, was die Quelle geliefert hat.",
    "es": "Las tarjetas de abajo muestran lo que devolvió la fuente.",
    "ko": "아래 카드에 데이터 소스가 보낸 내용이 있습니다.",
    "ja": "下のカードに、データソースが返したものを表示しています。",
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
# "How many companies …": code's count of a complete set's members ({field}: FIELD_NAMES).
MEMBERS_COUNTED: Copy = {
    "en": "{field} counted over every matching record: {n}.",
    "ko": "해당하는 모든 기록에서 센 {field} 수: {n}.",
    "ja": "該当するすべての記録で数えた{field}の数: {n}。",
    "de": "{field}, über alle passenden Datensätze gezählt: {n}.",
    "es": "{field} en todos los registros que coinciden: {n}.",
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
        "en": "The {source} failed to answer: its reply was an error.",
        "ko": "{source}가 제대로 응답하지 못했습니다. 돌아온 것은 오류였습니다.",
        "ja": "{source}は正しく応答できませんでした。返ってきたのはエラーです。",
        "de": "Die {source} hat nicht richtig geantwortet: Ihre Antwort war ein Fehler.",
        "es": "La {source} no respondió bien: su respuesta fue un error.",
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
