"""User-facing structured copy (notices) in five locales, as data.

The model authors none of this: counter-questions, absences and disclosures
are decided by code and worded from these tables.
"""

from __future__ import annotations

from collections.abc import Mapping

from beacon.adjudication import AbsenceCause

LOCALES = ("en", "ko", "ja", "de", "es")

COUNTER_QUESTION: Mapping[str, str] = {
    "en": "That was a sample. Narrow it to one level to see the complete set:",
    "ko": "일부 결과입니다. 전체 목록을 보려면 층을 하나 고르세요:",
    "ja": "これは一部です。すべてを見るには階を一つ選んでください:",
    "de": "Das war eine Auswahl. Auf eine Ebene eingrenzen, um die vollständige Menge zu sehen:",
    "es": "Era una muestra. Limítelo a un nivel para ver el conjunto completo:",
}
LEVEL_LABEL: Mapping[str, str] = {
    "en": "Level {n}",
    "ko": "{n}층",
    "ja": "{n}階",
    "de": "Ebene {n}",
    "es": "Nivel {n}",
}
LEVEL_REPLY: Mapping[str, str] = {
    "en": "Only level {n}",
    "ko": "{n}층만",
    "ja": "{n}階だけ",
    "de": "Nur Ebene {n}",
    "es": "Solo el nivel {n}",
}
ABSENCE: Mapping[AbsenceCause, Mapping[str, str]] = {
    AbsenceCause.ZERO_FROM_START: {
        "en": "Nothing in this project matches.",
        "ko": "이 프로젝트에는 일치하는 항목이 없습니다.",
        "ja": "このプロジェクトに一致するものはありません。",
        "de": "In diesem Projekt passt nichts.",
        "es": "Nada en este proyecto coincide.",
    },
    AbsenceCause.ZERO_AFTER_NARROWING: {
        "en": "Not among the previous results. The next search covers the whole project again.",
        "ko": "이전 결과에는 없습니다. 다음 검색은 프로젝트 전체를 대상으로 합니다.",
        "ja": "前の結果にはありません。次の検索はプロジェクト全体が対象です。",
        "de": "Nicht unter den vorigen Ergebnissen. Die nächste Suche umfasst wieder das Projekt.",
        "es": "No está entre los resultados anteriores. La próxima búsqueda abarca todo el "
        "proyecto.",
    },
    AbsenceCause.AUTH_FAILURE: {
        "en": "The data source refused the sign-in. Sign in again to look.",
        "ko": "데이터 소스가 로그인을 거부했습니다. 다시 로그인하세요.",
        "ja": "データソースがサインインを拒否しました。もう一度サインインしてください。",
        "de": "Die Datenquelle hat die Anmeldung abgelehnt. Bitte erneut anmelden.",
        "es": "La fuente de datos rechazó el inicio de sesión. Vuelva a iniciar sesión.",
    },
    AbsenceCause.NO_STANDING: {
        "en": "The data source did not say whether anything matched.",
        "ko": "데이터 소스가 일치 여부를 알려주지 않았습니다.",
        "ja": "データソースは一致の有無を示しませんでした。",
        "de": "Die Datenquelle hat nicht gesagt, ob etwas passt.",
        "es": "La fuente de datos no indicó si algo coincidía.",
    },
}
FAILURE: Mapping[str, str] = {
    "en": "The {tool} source did not return a usable result.",
    "ko": "{tool} 소스가 사용할 수 있는 결과를 반환하지 않았습니다.",
    "ja": "{tool} ソースは使える結果を返しませんでした。",
    "de": "Die Quelle {tool} hat kein verwertbares Ergebnis geliefert.",
    "es": "La fuente {tool} no devolvió un resultado utilizable.",
}
BUDGET: Mapping[str, str] = {
    "en": "The answer uses what {n} rounds of searching found.",
    "ko": "답변은 {n}회의 검색 결과를 바탕으로 합니다.",
    "ja": "回答は{n}回の検索で見つかったものに基づきます。",
    "de": "Die Antwort stützt sich auf {n} Suchrunden.",
    "es": "La respuesta usa lo encontrado en {n} rondas de búsqueda.",
}
VIEW_TRUNCATED: Mapping[str, str] = {
    "en": "The list on screen may be cut short: the {n} shown may not be all.",
    "ko": "화면의 목록이 잘렸을 수 있습니다: 표시된 {n}개가 전부가 아닐 수 있습니다.",
    "ja": "画面の一覧は途中までかもしれません。表示の{n}件がすべてとは限りません。",
    "de": "Die Liste am Bildschirm ist vielleicht gekürzt: die {n} gezeigten sind nicht alle.",
    "es": "La lista en pantalla puede estar cortada: los {n} mostrados pueden no ser todos.",
}


def say(table: Mapping[str, str], locale: str, **values: object) -> str:
    return table.get(locale, table["en"]).format(**values)


NOT_RUN: Mapping[str, str] = {
    "en": "That search could not be run here.",
    "ko": "그 검색은 여기에서 실행할 수 없었습니다.",
    "ja": "その検索はここでは実行できませんでした。",
    "de": "Diese Suche konnte hier nicht ausgeführt werden.",
    "es": "Esa búsqueda no se pudo realizar aquí.",
}
