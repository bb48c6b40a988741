"""What ``beacon-rules`` writes, in the five locales: its own wording, as data.

The model answers in the user's language as a hosted one would; only the slots are
left for the server to write. Values the upstream owns (company names, categories,
search words) are quoted as they came back.
"""

from __future__ import annotations

from collections.abc import Mapping

Copy = Mapping[str, str]

# What was counted, by entity: (noun, Korean counter, Japanese counter).
NOUNS: Mapping[str, Copy] = {
    "panoramas": {"en": "panoramas", "de": "Panoramen", "es": "panorámicas", "ko": "파노라마",
                  "ja": "パノラマ"},
    "photos": {"en": "photos", "de": "Fotos", "es": "fotos", "ko": "사진", "ja": "写真"},
    "findings": {"en": "findings", "de": "Befunde", "es": "hallazgos", "ko": "지적 사항",
                 "ja": "指摘"},
    "trades": {"en": "trades", "de": "Gewerke", "es": "oficios", "ko": "공종", "ja": "工種"},
    "levels": {"en": "levels", "de": "Ebenen", "es": "niveles", "ko": "층", "ja": "階"},
    "documents": {"en": "documents", "de": "Dokumente", "es": "documentos", "ko": "문서",
                  "ja": "文書"},
    "clashes": {"en": "clashes", "de": "Kollisionen", "es": "colisiones", "ko": "간섭",
                "ja": "干渉"},
    "records": {"en": "records", "de": "Datensätze", "es": "registros", "ko": "항목",
                "ja": "記録"},
}  # fmt: skip
# The singular where a locale has one (CLDR category "one": en/de/es; ko and ja count
# with a counter instead), for a count whose anchor says its number is one.
NOUNS_ONE: Mapping[str, Copy] = {
    entity: {**forms, **{"en": en, "de": de, "es": es}}
    for entity, forms, (en, de, es) in (
        (e, NOUNS[e], singular)
        for e, singular in (
            ("panoramas", ("panorama", "Panorama", "panorámica")),
            ("photos", ("photo", "Foto", "foto")),
            ("findings", ("finding", "Befund", "hallazgo")),
            ("trades", ("trade", "Gewerk", "oficio")),
            ("levels", ("level", "Ebene", "nivel")),
            ("documents", ("document", "Dokument", "documento")),
            ("clashes", ("clash", "Kollision", "colisión")),
            ("records", ("record", "Datensatz", "registro")),
        )
    )
}
COUNTERS: Mapping[str, Copy] = {
    "ko": {"photos": "장", "findings": "건", "*": "개"},
    "ja": {"photos": "枚", "*": "件"},
}
STATUS_WORDS: Mapping[str, Copy] = {
    "open": {"en": "open", "de": "offen", "es": "abiertos", "ko": "미해결", "ja": "未対応"},
    "closed": {"en": "closed", "de": "erledigt", "es": "cerrados", "ko": "해결된",
               "ja": "対応済み"},
    "in_review": {"en": "in review", "de": "in Prüfung", "es": "en revisión", "ko": "검토 중",
                  "ja": "確認中"},
}  # fmt: skip
# Status words beside one finding: the Spanish adjective agrees with it.
STATUS_ONE: Mapping[str, Copy] = {
    **STATUS_WORDS,
    "open": {**STATUS_WORDS["open"], "es": "abierto"},
    "closed": {**STATUS_WORDS["closed"], "es": "cerrado"},
}
KIND_WORDS: Mapping[str, Copy] = {
    "safety": {"en": "safety", "de": "Sicherheit", "es": "de seguridad", "ko": "안전",
               "ja": "安全"},
    "quality": {"en": "quality", "de": "Qualität", "es": "de calidad", "ko": "품질",
                "ja": "品質"},
}  # fmt: skip
LEVEL: Copy = {
    "en": " on level {n}",
    "de": " auf Ebene {n}",
    "es": " en el nivel {n}",
    "ko": "{n}층 ",
    "ja": "{n}階の",
}
# A month as its first and last day: the dates the filter sent, in the forms the
# narration guard knows as dates (a bare "March 2026" would read as a count of 2026).
MONTH: Copy = {
    "en": " from {name} 1, {year} to {name} {last}, {year}",
    "de": " vom 1. {name} {year} bis {last}. {name} {year}",
    "es": " del 1 de {name} de {year} al {last} de {name} de {year}",
    "ko": "{year}년 {month}월 1일부터 {year}년 {month}월 {last}일까지 ",
    "ja": "{year}年{month}月1日から{year}年{month}月{last}日までの",
}
COMPANY: Copy = {
    "en": " of {company}",
    "de": " von {company}",
    "es": " de {company}",
    "ko": "{company} ",
    "ja": "{company}の",
}
INSPECTOR: Copy = {
    "en": " raised by {inspector}",
    "de": " erfasst von {inspector}",
    "es": " registrados por {inspector}",
    "ko": "{inspector} 작성 ",
    "ja": "{inspector}が作成した",
}
AGGREGATE: Copy = {
    "en": "{project} has {slot} {what}.",
    "de": "{project} hat {slot} {what}.",
    "es": "{project} tiene {slot} {what}.",
    "ko": "{project}의 {what}: {slot}{counter}.",
    "ja": "{project}の{what}は{slot}{counter}です。",
}
ROW_CAP: Copy = {
    "en": "The data source stops counting at its row cap, so there may be more.",
    "de": "Die Datenquelle zählt nur bis zu ihrer Zeilengrenze, es kann also mehr geben.",
    "es": "La fuente de datos deja de contar en su límite de filas, así que puede haber más.",
    "ko": "데이터 소스는 행 제한까지만 세므로 더 있을 수 있습니다.",
    "ja": "データソースは行数の上限で数えるのをやめるため、さらにある可能性があります。",
}
PHOTO_SEARCH: Copy = {
    "en": '{project} has {slot} photos matching "{subject}".',
    "de": "{project} hat {slot} Fotos zur Suche „{subject}“.",
    "es": "{project} tiene {slot} fotos que coinciden con «{subject}».",
    "ko": "{project}에서 “{subject}” 검색과 일치하는 사진: {slot}장.",
    "ja": "{project}で「{subject}」に一致する写真は{slot}枚です。",
}
PHOTO_SEARCH_ONE: Copy = {
    "en": '{project} has {slot} photo matching "{subject}".',
    "de": "{project} hat {slot} Foto zur Suche „{subject}“.",
    "es": "{project} tiene {slot} foto que coincide con «{subject}».",
    "ko": PHOTO_SEARCH["ko"],
    "ja": PHOTO_SEARCH["ja"],
}
# The search phrase is quoted only in the user's own words: a phrase the planner
# rephrased (in English, for the upstream) is not what the user asked in Japanese.
PHOTO_MATCHES: Copy = {
    "en": "{project} has {slot} matching photos.",
    "de": "{project} hat {slot} passende Fotos.",
    "es": "{project} tiene {slot} fotos que coinciden.",
    "ko": "{project}에서 검색과 일치하는 사진: {slot}장.",
    "ja": "{project}で検索に一致する写真は{slot}枚です。",
}
PHOTO_MATCHES_ONE: Copy = {
    "en": "{project} has {slot} matching photo.",
    "de": "{project} hat {slot} passendes Foto.",
    "es": "{project} tiene {slot} foto que coincide.",
    "ko": PHOTO_MATCHES["ko"],
    "ja": PHOTO_MATCHES["ja"],
}
SHOWN_ONE: Copy = {
    "en": "{slot} of them is shown as a card.",
    "de": "{slot} davon wird als Karte gezeigt.",
    "es": "{slot} de ellos se muestra como tarjeta.",
    "ko": "이 {slot}개가 카드로 표시됩니다.",
    "ja": "これら{slot}件をカードに表示しています。",
}
SHOWN: Copy = {
    "en": "These {slot} are shown as cards.",
    "de": "Diese {slot} werden als Karten gezeigt.",
    "es": "Estos {slot} se muestran como tarjetas.",
    "ko": "이 {slot}개가 카드로 표시됩니다.",
    "ja": "これら{slot}件をカードに表示しています。",
}
FIELD_NOUNS: Mapping[str, Copy] = {
    "company": {"en": "companies", "de": "Firmen", "es": "empresas", "ko": "업체", "ja": "会社"},
    "inspector": {"en": "inspectors", "de": "Prüfer", "es": "inspectores", "ko": "점검자",
                  "ja": "検査員"},
    "category": {"en": "categories", "de": "Kategorien", "es": "categorías", "ko": "분류",
                 "ja": "分類"},
    "status": {"en": "statuses", "de": "Status", "es": "estados", "ko": "상태", "ja": "状態"},
    "level_number": {"en": "levels", "de": "Ebenen", "es": "niveles", "ko": "층", "ja": "階"},
    "discipline": {"en": "disciplines", "de": "Fachbereiche", "es": "disciplinas",
                   "ko": "공종", "ja": "分野"},
    "kind": {"en": "kinds", "de": "Arten", "es": "tipos", "ko": "유형", "ja": "種類"},
    "trade": {"en": "trades", "de": "Gewerke", "es": "oficios", "ko": "공종", "ja": "工種"},
}  # fmt: skip
WHERE: Mapping[str, Copy] = {
    "appears_in_findings": {"en": "in these findings", "de": "in diesen Befunden",
                            "es": "en estos hallazgos", "ko": "이 지적 사항에",
                            "ja": "これらの指摘に"},
    "appears_in_clashes": {"en": "in these clashes", "de": "in diesen Kollisionen",
                           "es": "en estas colisiones", "ko": "이 간섭 목록에",
                           "ja": "これらの干渉に"},
    "named_in_documents": {"en": "in these documents", "de": "in diesen Dokumenten",
                           "es": "en estos documentos", "ko": "이 문서에",
                           "ja": "これらの文書に"},
    "*": {"en": "in these records", "de": "in diesen Datensätzen", "es": "en estos registros",
          "ko": "이 기록에", "ja": "これらの記録に"},
}  # fmt: skip
AND: Copy = {"en": " and ", "de": " und ", "es": " y ", "ko": ", ", "ja": "、"}
ENUMERATED: Copy = {
    "en": "The {noun} that appear {where}: {listed}.",
    "de": "Diese {noun} kommen {where} vor: {listed}.",
    "es": "{Noun} que aparecen {where}: {listed}.",
    "ko": "{where} 나타나는 {noun}: {listed}.",
    "ja": "{where}現れる{noun}: {listed}。",
}
ENUMERATED_PARTIAL: Copy = {
    "en": "Among the records returned (not all of them), these {noun} appear: {listed}.",
    "de": "In den gelieferten Datensätzen, einem Teil der Treffer, kommen diese {noun} vor: "
    "{listed}.",
    "es": "En los registros devueltos, una parte de los resultados, aparecen estos {noun}: "
    "{listed}.",
    "ko": "반환된 일부 기록에 나타나는 {noun}: {listed}.",
    "ja": "返された一部の記録に現れる{noun}: {listed}。",
}
ENUMERATED_NONE: Copy = {
    "en": "No {noun} are recorded {where}.",
    "de": "{where} sind keine {noun} erfasst.",
    "es": "No hay {noun} registrados {where}.",
    "ko": "{where} 기록된 {noun}이(가) 없습니다.",
    "ja": "{where}記録された{noun}はありません。",
}
# "Who raised the most …": code's leaders from every record (a tie names them all).
MOST: Copy = {
    "en": "Counted over every matching record, the most frequent {noun}: {listed}.",
    "de": "Über alle passenden Datensätze gezählt, am häufigsten ({noun}): {listed}.",
    "es": "Contados todos los registros, los {noun} más frecuentes: {listed}.",
    "ko": "해당 기록 전체를 센 결과 가장 많은 {noun}: {listed}.",
    "ja": "該当する全記録を数えた結果、最も多い{noun}: {listed}。",
}
MOST_TIED: Copy = {
    "en": "Counted over every matching record, tied for the most ({noun}): {listed}.",
    "de": "Über alle passenden Datensätze gezählt, gleichauf vorn ({noun}): {listed}.",
    "es": "Contados todos los registros, empatan en el primer puesto ({noun}): {listed}.",
    "ko": "해당 기록 전체를 센 결과 다음 {noun}이(가) 공동 1위입니다: {listed}.",
    "ja": "該当する全記録を数えた結果、次の{noun}が同数で最多です: {listed}。",
}
LATEST: Copy = {
    "en": "The latest date among every matching record: {listed}.",
    "de": "Das späteste Datum aller passenden Datensätze: {listed}.",
    "es": "La fecha más reciente de todos los registros: {listed}.",
    "ko": "해당 기록 전체 중 가장 최근 날짜: {listed}.",
    "ja": "該当する全記録のうち最も新しい日付: {listed}。",
}
EARLIEST: Copy = {
    "en": "The earliest date among every matching record: {listed}.",
    "de": "Das früheste Datum aller passenden Datensätze: {listed}.",
    "es": "La fecha más antigua de todos los registros: {listed}.",
    "ko": "해당 기록 전체 중 가장 이른 날짜: {listed}.",
    "ja": "該当する全記録のうち最も古い日付: {listed}。",
}
LOCATED: Copy = {
    "en": "{project} is in {listed}.",
    "de": "{project} liegt in {listed}.",
    "es": "{project} está en {listed}.",
    "ko": "{project}은(는) {listed}에 있습니다.",
    "ja": "{project}は{listed}にあります。",
}
HOURS: Copy = {
    "en": " between {first} and {last}",
    "de": " zwischen {first} und {last} Uhr",
    "es": " entre las {first} y las {last}",
    "ko": " {first}~{last} 사이",
    "ja": "{first}〜{last}の",
}
BEHIND: Copy = {
    "en": "Read from every progress row, the trades behind plan: {listed}.",
    "de": "Aus allen Fortschrittszeilen gelesen, hinter dem Plan: {listed}.",
    "es": "Leído de todas las filas de avance, los oficios por detrás del plan: {listed}.",
    "ko": "모든 진척 기록에서 읽은 계획 대비 지연 공종: {listed}.",
    "ja": "全進捗記録から読んだ、計画より遅れている工種: {listed}。",
}
ON_PLAN: Copy = {
    "en": "Read from every progress row, no trade is behind plan.",
    "de": "Aus allen Fortschrittszeilen gelesen, liegt kein Gewerk hinter dem Plan.",
    "es": "Leído de todas las filas de avance, ningún oficio va por detrás del plan.",
    "ko": "모든 진척 기록에서 읽은 결과 계획보다 지연된 공종은 없습니다.",
    "ja": "全進捗記録から読んだ結果、計画より遅れている工種はありません。",
}
UNSETTLED: Copy = {
    "en": "The records returned are only part of the set, so they do not settle this.",
    "de": "Die gelieferten Datensätze sind nur ein Teil der Treffer und entscheiden das nicht.",
    "es": "Los registros devueltos son solo una parte y no lo deciden.",
    "ko": "반환된 기록은 일부일 뿐이라 이를 판단할 수 없습니다.",
    "ja": "返された記録は一部のみのため、これは判断できません。",
}
FIXED: Mapping[str, Copy] = {
    "unknown_count": {
        "en": "The data source answered without saying how many results there are, so I "
        "can't give a count.",
        "de": "Die Datenquelle hat geantwortet, ohne die Anzahl der Treffer zu nennen, daher "
        "kann ich keine Zahl angeben.",
        "es": "La fuente de datos respondió sin decir cuántos resultados hay, así que no puedo "
        "dar una cifra.",
        "ko": "데이터 소스가 결과 개수를 알려주지 않아 개수를 말씀드릴 수 없습니다.",
        "ja": "データソースが件数を示さずに答えたため、件数はお伝えできません。",
    },
    "empty_with_standing": {
        "en": "The data source found none.",
        "de": "Die Datenquelle hat keine gefunden.",
        "es": "La fuente de datos no encontró ninguno.",
        "ko": "데이터 소스에서 찾은 항목이 없습니다.",
        "ja": "データソースでは見つかりませんでした。",
    },
    "absence_permission_denied": {
        "en": "That search could not be run here, so I have nothing to show for it.",
        "de": "Diese Suche konnte hier nicht ausgeführt werden, daher kann ich nichts zeigen.",
        "es": "Esa búsqueda no se pudo realizar aquí, así que no tengo nada que mostrar.",
        "ko": "그 검색은 여기에서 실행할 수 없어 보여 드릴 것이 없습니다.",
        "ja": "その検索はここでは実行できなかったため、お見せできるものはありません。",
    },
    "absence_auth_failure": {
        "en": "The data source refused the sign-in, so I could not look.",
        "de": "Die Datenquelle hat die Anmeldung abgelehnt, daher konnte ich nicht nachsehen.",
        "es": "La fuente de datos rechazó el inicio de sesión, así que no pude mirar.",
        "ko": "데이터 소스가 로그인을 거부해 확인할 수 없었습니다.",
        "ja": "データソースがサインインを拒否したため、確認できませんでした。",
    },
    "absence_zero_after_narrowing": {
        "en": "That is not among the previous results. Shall I search the whole project?",
        "de": "Das ist nicht unter den vorigen Ergebnissen. Soll ich das ganze Projekt "
        "durchsuchen?",
        "es": "No está entre los resultados anteriores. ¿Busco en todo el proyecto?",
        "ko": "이전 결과에는 없습니다. 프로젝트 전체를 검색할까요?",
        "ja": "前の結果には含まれていません。プロジェクト全体を検索しましょうか。",
    },
    "absence_zero_from_start": {
        "en": "The project has no such data.",
        "de": "Das Projekt enthält keine solchen Daten.",
        "es": "El proyecto no tiene esos datos.",
        "ko": "이 프로젝트에는 그런 데이터가 없습니다.",
        "ja": "このプロジェクトにはそのようなデータはありません。",
    },
    "in_band_failure": {
        "en": "The {tool} source failed to answer: its reply was an error, so I can say "
        "nothing about the data.",
        "de": "Die Quelle {tool} hat nicht richtig geantwortet: Ihre Antwort war ein Fehler, "
        "daher kann ich zu den Daten nichts sagen.",
        "es": "La fuente {tool} no respondió bien: su respuesta fue un error, así que no puedo "
        "decir nada de los datos.",
        "ko": "{tool} 소스가 제대로 응답하지 못해 데이터에 대해 말씀드릴 수 없습니다.",
        "ja": "{tool} ソースが正しく応答しなかったため、この件についてはお答えできません。",
    },
    "narrowing_released": {
        "en": "The next search will cover everything again.",
        "de": "Die nächste Suche umfasst wieder alles.",
        "es": "La próxima búsqueda vuelve a abarcarlo todo.",
        "ko": "다음 검색은 다시 전체를 대상으로 합니다.",
        "ja": "次の検索は再び全体が対象です。",
    },
    "stitch_discarded": {
        "en": "Later pages disagreed with the first, so I am answering from the first page only.",
        "de": "Spätere Seiten widersprachen der ersten, daher antworte ich nur mit der ersten "
        "Seite.",
        "es": "Las páginas posteriores no coincidían con la primera, así que respondo solo con "
        "la primera.",
        "ko": "이후 페이지가 첫 페이지와 달라 첫 페이지로만 답합니다.",
        "ja": "後のページが最初のページと食い違ったため、最初のページだけで答えます。",
    },
}
WHICH_PROJECT: Copy = {
    "en": "Which project do you mean? I can see: {listed}.",
    "de": "Welches Projekt meinen Sie? Ich sehe: {listed}.",
    "es": "¿Qué proyecto quiere decir? Veo: {listed}.",
    "ko": "어느 프로젝트를 말씀하시나요? 볼 수 있는 프로젝트: {listed}.",
    "ja": "どのプロジェクトですか。表示できるもの: {listed}。",
}
# A project was named, but nothing the tools answer was asked about it.
WHAT_I_CAN_DO: Copy = {
    "en": "I can count, list and search the photos, findings and panoramas of {project}: "
    "ask me, for example, how many open findings it has.",
    "de": "Ich kann die Fotos, Befunde und Panoramen von {project} zählen, auflisten und "
    "durchsuchen: fragen Sie mich zum Beispiel, wie viele offene Befunde es gibt.",
    "es": "Puedo contar, listar y buscar las fotos, hallazgos y panorámicas de {project}: "
    "pregúnteme, por ejemplo, cuántos hallazgos abiertos tiene.",
    "ko": "{project}의 사진, 지적 사항, 파노라마를 세고, 나열하고, 검색할 수 있습니다. "
    "예를 들어 미해결 지적 사항이 몇 건인지 물어보세요.",
    "ja": "{project}の写真、指摘、パノラマを数えたり、一覧にしたり、検索したりできます。"
    "たとえば未対応の指摘が何件あるか聞いてください。",
}
THE_PROJECT: Copy = {
    "en": "The project",
    "de": "Das Projekt",
    "es": "El proyecto",
    "ko": "이 프로젝트",
    "ja": "このプロジェクト",
}
NO_EVIDENCE: Copy = {
    "en": "I could not gather any evidence for that, so I cannot answer it.",
    "de": "Dazu konnte ich keine Belege sammeln, daher kann ich es nicht beantworten.",
    "es": "No pude reunir ninguna evidencia para eso, así que no puedo responder.",
    "ko": "그에 대한 근거를 모으지 못해 답변할 수 없습니다.",
    "ja": "その根拠を集められなかったため、お答えできません。",
}


def say(table: Copy, locale: str, **values: object) -> str:
    return table.get(locale, table["en"]).format(**values)


def say_counted(many: Copy, one: Copy, locale: str, plural: object, **values: object) -> str:
    """``one``'s sentence where the anchor's plural category is "one" (never in ko or ja:
    their counters carry the number, and CLDR gives them "other" only), else ``many``'s."""
    table = one if plural == "one" else many
    return table.get(locale, many["en"]).format(**values)
