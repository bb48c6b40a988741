"""The loop's user-facing copy in five locales, as data: counter-questions, absences,
disclosures, scope notices, offers. The model authors none of this: code decides
each notice and words it from these tables (``say``).

Absences are keyed by the ``AbsenceCause`` value (a ``StrEnum`` in adjudication,
which this leaf may not import): ``ABSENCE[cause]`` reads the same either way.
"""

from __future__ import annotations

from collections.abc import Mapping

# Axis-neutral: the options say which axis (level, month, status, …) they narrow.
COUNTER_QUESTION: Mapping[str, str] = {
    "en": "That was a sample. Pick one to narrow it down:",
    "ko": "일부 결과입니다. 범위를 좁히려면 하나를 고르세요:",
    "ja": "これは一部です。絞り込むには一つ選んでください:",
    "de": "Das war eine Auswahl. Zum Eingrenzen eine Option wählen:",
    "es": "Era una muestra. Elija una opción para acotarla:",
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
DATE_LABEL: Mapping[str, str] = {
    "en": "{month_name} {year}",
    "ko": "{year}년 {month}월",
    "ja": "{year}年{month}月",
    "de": "{month_name} {year}",
    "es": "{month_name} de {year}",
}
DATE_REPLY: Mapping[str, str] = {
    "en": "Only {month_name} {year}",
    "ko": "{year}년 {month}월만",
    "ja": "{year}年{month}月だけ",
    "de": "Nur {month_name} {year}",
    "es": "Solo {month_name} de {year}",
}
# Values of closed vocabularies, by value then locale (an unknown value is shown as is).
STATUS_NAMES: Mapping[str, Mapping[str, str]] = {
    "open": {"en": "open", "ko": "미해결", "ja": "未対応", "de": "offen", "es": "abierto"},
    "closed": {"en": "closed", "ko": "해결됨", "ja": "対応済み", "de": "erledigt", "es": "cerrado"},
    "in_review": {
        "en": "in review",
        "ko": "검토 중",
        "ja": "確認中",
        "de": "in Prüfung",
        "es": "en revisión",
    },
}
STATUS_LABEL: Mapping[str, str] = {
    "en": "Status: {value}",
    "ko": "상태: {value}",
    "ja": "状態: {value}",
    "de": "Status: {value}",
    "es": "Estado: {value}",
}
STATUS_REPLY: Mapping[str, str] = {
    "en": "Only status {value}",
    "ko": "{value} 상태만",
    "ja": "{value}のものだけ",
    "de": "Nur Status {value}",
    "es": "Solo el estado {value}",
}
KIND_NAMES: Mapping[str, Mapping[str, str]] = {
    "safety": {"en": "safety", "ko": "안전", "ja": "安全", "de": "Sicherheit", "es": "seguridad"},
    "quality": {"en": "quality", "ko": "품질", "ja": "品質", "de": "Qualität", "es": "calidad"},
}
KIND_LABEL: Mapping[str, str] = {
    "en": "Kind: {value}",
    "ko": "유형: {value}",
    "ja": "種類: {value}",
    "de": "Art: {value}",
    "es": "Tipo: {value}",
}
KIND_REPLY: Mapping[str, str] = {
    "en": "Only {value} findings",
    "ko": "{value} 항목만",
    "ja": "{value}の指摘だけ",
    "de": "Nur Art {value}",
    "es": "Solo de {value}",
}
# Categories and companies are the upstream's own values, quoted as they came back.
CATEGORY_LABEL: Mapping[str, str] = {
    "en": "Category: {value}",
    "ko": "분류: {value}",
    "ja": "分類: {value}",
    "de": "Kategorie: {value}",
    "es": "Categoría: {value}",
}
CATEGORY_REPLY: Mapping[str, str] = {
    "en": "Only category {value}",
    "ko": "{value} 분류만",
    "ja": "{value}の分類だけ",
    "de": "Nur Kategorie {value}",
    "es": "Solo la categoría {value}",
}
COMPANY_LABEL: Mapping[str, str] = {
    "en": "Company: {value}",
    "ko": "업체: {value}",
    "ja": "会社: {value}",
    "de": "Firma: {value}",
    "es": "Empresa: {value}",
}
COMPANY_REPLY: Mapping[str, str] = {
    "en": "Only {value}",
    "ko": "{value}만",
    "ja": "{value}だけ",
    "de": "Nur {value}",
    "es": "Solo {value}",
}
# The axes by name, for saying how a sample could be narrowed (single mode).
AXIS_NAMES: Mapping[str, Mapping[str, str]] = {
    "level": {"en": "level", "ko": "층", "ja": "階", "de": "Ebene", "es": "nivel"},
    "date_range": {
        "en": "month",
        "ko": "월",
        "ja": "月",
        "de": "Monat",
        "es": "mes",
    },
    "status": {"en": "status", "ko": "상태", "ja": "状態", "de": "Status", "es": "estado"},
    "category": {
        "en": "category",
        "ko": "분류",
        "ja": "分類",
        "de": "Kategorie",
        "es": "categoría",
    },
    "company": {"en": "company", "ko": "업체", "ja": "会社", "de": "Firma", "es": "empresa"},
    "kind": {"en": "kind", "ko": "유형", "ja": "種類", "de": "Art", "es": "tipo"},
}
AXIS_OR: Mapping[str, str] = {
    "en": " or ",
    "ko": " 또는 ",
    "ja": "または",
    "de": " oder ",
    "es": " o ",
}
NARROW_HINT: Mapping[str, str] = {
    "en": "That was a sample. To narrow it down, ask again for one {axes}.",
    "ko": "일부 결과입니다. 범위를 좁히려면 {axes}을(를) 하나 지정해 다시 질문하세요.",
    "ja": "これは一部です。絞り込むには{axes}を一つ指定して聞き直してください。",
    "de": "Das war eine Auswahl. Zum Eingrenzen erneut fragen, eingeschränkt auf {axes}.",
    "es": "Era una muestra. Para acotarla, pregunte de nuevo indicando {axes}.",
}
ABSENCE: Mapping[str, Mapping[str, str]] = {
    "zero_from_start": {
        "en": "Nothing in this project matches.",
        "ko": "이 프로젝트에는 일치하는 항목이 없습니다.",
        "ja": "このプロジェクトに一致するものはありません。",
        "de": "In diesem Projekt passt nichts.",
        "es": "Nada en este proyecto coincide.",
    },
    "zero_after_narrowing": {
        "en": "Not among the previous results. The next search covers the whole project again.",
        "ko": "이전 결과에는 없습니다. 다음 검색은 프로젝트 전체를 대상으로 합니다.",
        "ja": "前の結果にはありません。次の検索はプロジェクト全体が対象です。",
        "de": "Nicht unter den vorigen Ergebnissen. Die nächste Suche umfasst wieder das Projekt.",
        "es": "No está entre los resultados anteriores. La próxima búsqueda abarca todo el "
        "proyecto.",
    },
    "auth_failure": {
        "en": "The data source refused the sign-in. Sign in again to look.",
        "ko": "데이터 소스가 로그인을 거부했습니다. 다시 로그인하세요.",
        "ja": "データソースがサインインを拒否しました。もう一度サインインしてください。",
        "de": "Die Datenquelle hat die Anmeldung abgelehnt. Bitte erneut anmelden.",
        "es": "La fuente de datos rechazó el inicio de sesión. Vuelva a iniciar sesión.",
    },
    "no_standing": {
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

# A safety filter stopped the turn (beacon/loop/filters.py), by stage: the question
# before anything ran, or the answer before any of it was shown. Code's words only:
# a filter returns a reason code, never text for the user.
BLOCKED: Mapping[str, Mapping[str, str]] = {
    "input": {
        "en": "This question was stopped by a safety filter before anything was searched. "
        "Rephrase it or ask your administrator.",
        "ko": "이 질문은 검색 전에 안전 필터에 의해 중단되었습니다. 질문을 바꾸거나 관리자에게 "
        "문의하세요.",
        "ja": "この質問は検索の前に安全フィルターで止められました。言い換えるか、管理者に"
        "お問い合わせください。",
        "de": "Diese Frage wurde vor jeder Suche von einem Sicherheitsfilter gestoppt. Bitte "
        "anders formulieren oder die Administration fragen.",
        "es": "Un filtro de seguridad detuvo esta pregunta antes de buscar nada. Reformúlela o "
        "consulte a su administrador.",
    },
    "output": {
        "en": "The answer was stopped by a safety filter, so none of it is shown. "
        "Rephrase the question or ask your administrator.",
        "ko": "답변이 안전 필터에 의해 중단되어 표시되지 않습니다. 질문을 바꾸거나 관리자에게 "
        "문의하세요.",
        "ja": "回答は安全フィルターで止められたため、表示されません。質問を言い換えるか、"
        "管理者にお問い合わせください。",
        "de": "Die Antwort wurde von einem Sicherheitsfilter gestoppt und wird nicht gezeigt. "
        "Bitte die Frage anders formulieren oder die Administration fragen.",
        "es": "Un filtro de seguridad detuvo la respuesta, así que no se muestra. Reformule la "
        "pregunta o consulte a su administrador.",
    },
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
# Load-more: a next page that broke a stitch invariant was set aside (SPEC §3).
STITCH_DISCARDED: Mapping[str, str] = {
    "en": "The next page did not match the earlier ones (the data changed while paging), so "
    "it was set aside: the cards shown come from the earlier pages only.",
    "ko": "다음 페이지가 이전 페이지와 맞지 않아(페이지를 넘기는 동안 데이터가 바뀜) 추가하지 "
    "않았습니다. 표시된 카드는 이전 페이지의 것뿐입니다.",
    "ja": "次のページが前のページと一致しなかったため(ページ送りの間にデータが変わりました)、"
    "追加しませんでした。表示中のカードは前のページのものだけです。",
    "de": "Die nächste Seite passte nicht zu den vorigen (die Daten haben sich beim Blättern "
    "geändert) und wurde nicht übernommen: die gezeigten Karten stammen nur von den vorigen "
    "Seiten.",
    "es": "La página siguiente no coincidía con las anteriores (los datos cambiaron mientras se "
    "paginaba), así que no se añadió: las tarjetas mostradas son solo de las páginas anteriores.",
}
# Load-more: the page cap is reached while the source says more exist.
PAGE_CAP: Mapping[str, str] = {
    "en": "Stopped after {n} pages: there are more, but they are not loaded here. Narrow the "
    "question to see the rest.",
    "ko": "{n}페이지에서 멈췄습니다: 더 있지만 여기서는 불러오지 않습니다. 나머지를 보려면 "
    "질문 범위를 좁히세요.",
    "ja": "{n}ページで止めました。続きはありますが、ここでは読み込みません。残りを見るには"
    "質問を絞り込んでください。",
    "de": "Nach {n} Seiten angehalten: es gibt mehr, sie werden hier aber nicht geladen. Die "
    "Frage eingrenzen, um den Rest zu sehen.",
    "es": "Se detuvo tras {n} páginas: hay más, pero no se cargan aquí. Acote la pregunta para "
    "ver el resto.",
}
# Partial entitlement: the part of a question the caller's plan covers, offered before
# anything runs ({capabilities}: the plan's missing capabilities, by their labels).
PARTIAL_OFFER: Mapping[str, str] = {
    "en": "Part of this needs {capabilities}, which your plan does not include. "
    "With your access I can do this: {scope}. Shall I proceed?",
    "ko": "일부는 {capabilities} 기능이 필요하며 현재 요금제에 포함되어 있지 않습니다. "
    "현재 권한으로 할 수 있는 것: {scope}. 진행할까요?",
    "ja": "一部には{capabilities}が必要ですが、現在のプランには含まれていません。"
    "今の権限でできること: {scope}。進めますか?",
    "de": "Ein Teil davon braucht {capabilities}, was Ihr Tarif nicht enthält. "
    "Mit Ihrem Zugang kann ich Folgendes tun: {scope}. Soll ich fortfahren?",
    "es": "Una parte necesita {capabilities}, que su plan no incluye. "
    "Con su acceso puedo hacer esto: {scope}. ¿Continúo?",
}
AND: Mapping[str, str] = {"en": " and ", "ko": " 및 ", "ja": "と", "de": " und ", "es": " y "}
FEASIBLE: Mapping[str, str] = {
    "en": "With your access I can do this: {scope}. Shall I proceed?",
    "ko": "현재 권한으로 할 수 있는 것: {scope}. 진행할까요?",
    "ja": "今の権限でできること: {scope}。進めますか?",
    "de": "Mit Ihrem Zugang kann ich Folgendes tun: {scope}. Soll ich fortfahren?",
    "es": "Con su acceso puedo hacer esto: {scope}. ¿Continúo?",
}
# The reply that runs the feasible part: a listing (its count is what the list's own
# accounting grades), never "how many" again (that needs the aggregate the plan lacks).
LIST_REPLY: Mapping[str, str] = {
    "en": "List the {what} in {project}",
    "ko": "{project}의 {what} 목록을 보여 주세요",
    "ja": "{project}の{what}を一覧表示してください",
    "de": "Liste {what} in {project} auf",
    "es": "Lista {what} en {project}",
}
LIST_REPLY_ANYWHERE: Mapping[str, str] = {
    "en": "List the {what}",
    "ko": "{what} 목록을 보여 주세요",
    "ja": "{what}を一覧表示してください",
    "de": "Liste {what} auf",
    "es": "Lista {what}",
}
# A portfolio question (no project named, several visible): which project, one
# recommended (the first the directory lists).
PORTFOLIO_QUESTION: Mapping[str, str] = {
    "en": "This could mean any of your projects. Which one should I look in?",
    "ko": "여러 프로젝트에 해당할 수 있습니다. 어느 프로젝트에서 찾을까요?",
    "ja": "どのプロジェクトにも当てはまります。どのプロジェクトで調べますか?",
    "de": "Das kann jedes Ihrer Projekte betreffen. In welchem soll ich nachsehen?",
    "es": "Puede referirse a cualquiera de sus proyectos. ¿En cuál busco?",
}
# "Compare … level 2" with no other side: which level to compare it with.
COMPARE_WITH: Mapping[str, str] = {
    "en": "Compare it with which level?",
    "ko": "어느 층과 비교할까요?",
    "ja": "どの階と比較しますか?",
    "de": "Mit welcher Ebene soll ich vergleichen?",
    "es": "¿Con qué nivel lo comparo?",
}
PROJECT_REPLY: Mapping[str, str] = {
    "en": "{question} — in {project}",
    "ko": "{project}: {question}",
    "ja": "{project}: {question}",
    "de": "{question} — im Projekt {project}",
    "es": "{question} — en {project}",
}
# Quotation marks around a phrase the question used ("„letzte Woche“", "「先週」").
QUOTES: Mapping[str, tuple[str, str]] = {
    "en": ("“", "”"),
    "ko": ("‘", "’"),
    "ja": ("「", "」"),
    "de": ("„", "“"),
    "es": ("“", "”"),
}
