"""The closed word classes a claim is made of, per locale: negation, quantifiers, results.

Phrase lists of "no results" sentences can always be paraphrased around; the
words that make a sentence deny, quantify or total cannot. Negators ("no",
"n't", "kein", "ningún", "없다", "ません"), universal quantifiers ("all",
"every", "the lot", "sämtliche", "todos", "모든", "全て"), emptiness
predicates ("empty", "leer", "vacío", "비어", "空") and the negative-polarity
items that only occur under a negation ("any", "a single", "at all") are
closed classes: a language does not grow new ones, so each table here is
complete by construction and reviewed a locale at a time. What a sentence is
*about* — the results (``RESULT_NOUNS``), the search (``SEARCH_VERBS``), the
cards on screen (``SHOWN_MARKERS``) — is the other half of a claim; the rules
that combine them live in ``beacon.adjudication.guard.claims``.

Every entry is a regex fragment matched on NFKC text, case-insensitively; a
Latin-script class is wrapped in word boundaries by ``latin``, Hangul and kana
are matched as they stand (they have no word boundary to speak of).
"""

from __future__ import annotations

from collections.abc import Mapping

from beacon.lexicon.words import RECORDS

Classes = Mapping[str, tuple[str, ...]]

# Auxiliaries and copulas: English sentential negation is one of these plus "not"
# ("did not find"), while a bare "not" before a participle modifies a noun
# ("workers not wearing hard hats") and denies nothing about the results.
EN_AUXILIARIES = (
    r"(?:do|does|did|is|are|was|were|be|been|am|have|has|had|can|could|will|would|shall"
    r"|should|may|might|must)"
)

# Negators: the words that make a clause deny. A determiner ("no", "kein", "ningún")
# denies its own noun phrase; the rest deny the clause they stand in.
NEGATORS: Classes = {
    "en": (
        rf"{EN_AUXILIARIES}\s+not",
        r"\w+n[’']t",
        r"cannot",
        r"^\W*not",
        r"not\s+(?:a|one|a single|any|even)",
        # Every locale's classes meet every sentence: "no el conjunto completo" negates a
        # noun phrase (a contrast), not the clause, in the Spanish sense of "no" too.
        r"no(?!\s+(?:the|el|la|los|las)\b)",
        r"none",
        r"nothing",
        r"never",
        r"neither",
        r"nor",
        r"nowhere",
        r"nobody",
        r"zero",
        r"unable to",
        r"fail(?:s|ed)? to",
        r"lack(?:s|ed)?",  # "lacks any photos"; "lacking" modifies a noun ("workers lacking")
    ),
    "de": (
        r"kein(?:e|en|em|er|es)?",
        r"nicht",
        r"nichts",
        r"nie(?:mals)?",
        r"niemand",
        r"nirgend(?:s|wo)",
        r"weder",
        r"null",
    ),
    "es": (
        r"no(?!\s+(?:el|la|los|las)\b)",
        r"ningun[oa]s?",
        r"ningún",
        r"nada",
        r"nadie",
        r"nunca",
        r"jamás",
        r"tampoco",
        r"ni",
        r"cero",
    ),
    # Korean and Japanese negate with a verb ending: it denies when it ends the
    # clause (없습니다, ません); as a modifier before a noun (없는 작업자, していない作業員)
    # it describes what was searched for, so a final position is part of the class.
    "ko": (
        r"없(?:습니다|어요|어|음|다|네요|었습니다|었어요|었다|군요)",
        r"없는\s*(?:것|듯|걸)",
        r"않(?:습니다|아요|았습니다|았어요|았다|는다|음)",
        r"않는\s*(?:것|듯|걸)",
        r"못(?:했습니다|했어요|했다|합니다|해요|하였습니다)",
        r"지\s*못",
        r"수\s*없",
        r"아무(?:것도|런|\s+\w+도)",
        r"하나도",
        r"한\s*(?:장|건|개)도",
        r"전혀",
        r"결코",
        r"영\s*(?:장|건|개)",
    ),
    "ja": (
        # "かもしれません" (may be) is a modal, not a denial.
        r"ません(?<!しれません)",
        r"ない(?<!しれない)(?:です|でした|よう|。|$|\s*[.。!！])",
        r"なかった",
        r"無い",
        r"なし",
        r"ゼロ",
        r"皆無",
        r"一(?:件|枚|つ|個)も",
        r"ひとつも",
        r"何も",
        r"誰も",
        r"見当たら",
        r"見つから",
    ),
}

# Negative-polarity items: words that only appear under a negation and widen it to
# "any at all" ("I don't see any", "not a single one", "überhaupt", "에 아무").
POLARITY: Classes = {
    "en": (r"any(?:thing|one|more)?", r"a single", r"at all", r"whatsoever", r"ever", r"yet"),
    "de": (r"irgend\w*", r"überhaupt", r"einzige\w*", r"mehr", r"weitere\w*", r"andere\w*"),
    "es": (r"alguno?s?", r"alguna?s?", r"ningún", r"otr[oa]s?", r"más", r"en absoluto"),
    "ko": (r"아무", r"하나도", r"전혀", r"더", r"다른"),
    "ja": (r"一切", r"全く", r"まったく", r"他に", r"ほかに", r"これ以上", r"もう"),
}

# Universal quantifiers: they claim the whole population of what they quantify, so
# they claim it of the results when the sentence is about the results.
UNIVERSALS: Classes = {
    "en": (
        r"all", r"every(?:one)?", r"each and every", r"entire(?:ly)?", r"whole", r"complete(?:ly)?",
        r"full", r"only", r"sole(?:ly)?", r"both",
    ),
    "de": (
        r"alle[snmr]?", r"sämtliche\w*", r"jede[snmr]?", r"gesamte?\w*", r"vollständig\w*",
        r"komplett\w*", r"ganze?\w*", r"nur", r"einzige\w*", r"beide\w*",
    ),
    "es": (
        r"tod[oa]s?", r"cada", r"complet[oa]s?", r"enter[oa]s?", r"únic[oa]s?", r"unic[oa]s?",
        r"solo", r"sólo", r"solamente", r"únicamente", r"ambos", r"ambas",
    ),
    "ko": (r"모두", r"전부", r"모든", r"전체", r"유일", r"뿐", r"밖에", r"완전한", r"둘\s*다"),
    "ja": (r"すべて", r"全て", r"全部", r"全体", r"のみ", r"だけ", r"唯一", r"完全", r"両方"),
}  # fmt: skip

# Totalisers: a universal that needs no subject, it totals whatever was said ("exactly",
# "in total", "everything", "that's the lot", "insgesamt", "eso es todo"). The adverb
# "exactly", not the adjective: "if you need an exact number, narrow it" claims none.
TOTALS: Classes = {
    "en": (
        r"exactly", r"precisely", r"altogether", r"in (?:total|all|sum)", r"totals?",
        r"totalling", r"everything", r"the (?:whole )?lot", r"that(?:['’]s| is| was) (?:all|it)",
        r"the full (?:set|list|count)", r"no (?:more|other|further)", r"nothing (?:else|more)",
    ),
    "de": (
        r"genau", r"exakt", r"insgesamt", r"alles", r"das war'?s", r"das ist alles",
        r"kein(?:e|en|em|er|es)?\s+(?:weitere|andere)\w*", r"sonst nichts", r"nicht mehr als",
    ),
    "es": (
        r"exactamente", r"en total", r"eso es todo", r"totalidad", r"total de", r"no hay más",
        r"ningún otro", r"ninguna otra", r"nada más",
    ),
    "ko": (
        r"정확히", r"총", r"합계", r"이게\s*다", r"그게\s*다", r"이것이\s*전부", r"더\s*이상",
        r"더는",
    ),
    "ja": (
        r"ちょうど", r"正確に", r"合計", r"全件", r"これで(?:全部|すべて|全て)", r"これ以上",
        r"他には",
    ),
}  # fmt: skip

# Negative pronouns and quantifiers: a denial with no noun to wait for ("none",
# "nothing", "nichts", "nada", "아무것도", "何も").
NEGATIVE_PRONOUNS: Classes = {
    "en": (r"none", r"zero", r"nil", r"not (?:a single|one)(?: one)?"),
    "de": (r"null", r"kein einzige\w*", r"keine?s?\s+mehr"),
    # "ninguna" stands alone or before "de"; before a noun ("ninguna cifra") it is a
    # determiner, a negator of that noun.
    "es": (
        r"cero",
        r"ningun[oa](?=\s+de\b|\s*[^\w\s]|\s*$)",
        r"ni uno",
        r"ni una",
    ),
    "ko": (r"하나도", r"한\s*(?:장|건|개)도", r"영\s*(?:장|건|개)"),
    "ja": (r"一(?:件|枚|つ|個)も", r"ひとつも", r"ゼロ", r"皆無"),
}

# Negative indefinites: "nothing", "nobody" deny whatever their clause is about, so
# they claim an absence of results only in a sentence about the results or the search
# ("nothing matched", "ich habe nichts gefunden"); "nothing was called on your behalf"
# denies a call, not that there is data.
NEGATIVE_INDEFINITES: Classes = {
    "en": (r"nothing", r"nobody", r"no one"),
    "de": (r"nichts", r"niemand"),
    "es": (r"nada", r"nadie"),
    "ko": (r"아무것도", r"아무도"),
    "ja": (r"何も", r"誰も"),
}

# Verbs and prepositions of coverage: a universal they govern is the search's reach,
# not a claim about its results ("the next search covers everything", "umfasst wieder
# alles", "vuelve a abarcarlo todo", "전체를 대상으로", "全体が対象").
COVERAGE: Classes = {
    "en": (r"cover(?:s|ed|ing)?", r"span(?:s|ned|ning)?", r"across", r"throughout"),
    "de": (r"umfass\w*", r"abdeck\w*", r"deck(?:t|en)", r"durchsuch\w*"),
    "es": (r"abarc\w*", r"cubr\w*", r"cubre", r"a lo largo de"),
    "ko": (r"대상",),
    "ja": (r"対象",),
}

# Pronouns that stand for the results already talked about ("all of them", "sie alle").
PRONOUNS: Classes = {
    "en": (r"them", r"these", r"those", r"they", r"it"),
    "de": (r"sie", r"diese"),
    "es": (r"ellos", r"ellas", r"estos", r"estas", r"esos", r"esas"),
    "ko": (r"이것", r"그것", r"이들", r"그들"),
    "ja": (r"これら", r"それら", r"これ", r"それ"),
}

# Proportions: a share of the population ("most of the photos", "mostly") is a
# population claim as much as "all" is, when all code saw is a sample.
PROPORTIONS: Classes = {
    "en": (r"most of", r"mostly", r"majority", r"typically", r"predominantly", r"generally"),
    "de": (r"meiste\w*", r"überwiegend", r"größtenteils", r"mehrheit\w*", r"hauptsächlich"),
    "es": (r"la mayoría", r"mayoritariamente", r"principalmente", r"en su mayoría"),
    "ko": (r"대부분", r"대다수", r"주로"),
    "ja": (r"ほとんど", r"大半", r"大部分", r"主に"),
}

# Emptiness predicates: "came back empty", "leer", "vacío", "비어", "空".
EMPTY: Classes = {
    # "without results", "ohne Treffer", "sin coincidencias": a search's empty hands.
    "en": (
        r"empty",
        r"blank",
        r"came back with nothing",
        r"turned up nothing",
        r"nil",
        r"without (?:any )?(?:results?|matches|hits)",
    ),
    "de": (r"leer\w*", r"ergebnislos", r"ohne (?:jedes |ein )?(?:ergebnis\w*|treffer)"),
    "es": (
        r"vací[oa]s?",
        r"en blanco",
        r"sin (?:ningún |ninguna )?(?:resultados?|coincidencias?|aciertos?)",
    ),
    "ko": (r"비어\s*있", r"빈\s*결과", r"결과\s*없"),
    "ja": (r"空(?:です|でした|っぽ|の結果)", r"該当なし", r"ヒットなし", r"0件"),
}

# Words for a search's results in general; each record kind's own words come from
# ``RECORDS`` (photos, findings, panoramas, documents and their names in five locales).
GENERIC_RESULTS: Classes = {
    "en": (
        r"results?", r"match(?:es)?", r"hits?", r"items?", r"entr(?:y|ies)", r"records?",
        r"files?", r"rows?", r"others?", r"shots?", r"list", r"set", r"data(?!\s+sources?)",
    ),
    "de": (
        r"\w*ergebnis(?:se|sen)?", r"\w*treffer(?:n)?", r"einträge?n?", r"eintrag",
        r"datensätze?n?", r"\w*dateien", r"datei", r"elemente?n?", r"zeilen?", r"funde?",
        r"\w*listen?", r"daten",
    ),
    "es": (
        r"resultados?", r"coincidencias?", r"registros?", r"elementos?", r"archivos?",
        r"entradas?", r"filas?", r"aciertos?", r"lista", r"conjunto", r"(?<!fuente de )datos",
    ),
    # The data source is not the data: "data source", "fuente de datos", "데이터 소스".
    "ko": (r"결과", r"항목", r"기록", r"파일", r"데이터(?!\s*소스)", r"일치", r"목록", r"이미지"),
    "ja": (
        r"結果", r"項目", r"記録", r"ファイル", r"データ(?!ソース)", r"ヒット", r"該当", r"一覧",
        r"リスト",
    ),
}  # fmt: skip


def _result_nouns() -> tuple[str, ...]:
    kinds = tuple(p for patterns in RECORDS.values() for p in patterns)
    return (*(p for words in GENERIC_RESULTS.values() for p in words), *kinds)


# Every locale's result words in one class: a model does not always answer in the
# locale it was asked in, and no two scripts share a word.
RESULT_NOUNS: tuple[str, ...] = _result_nouns()

# The verbs of searching and of existing: a negation over them denies the results
# ("I couldn't find", "wurde nicht gefunden", "no encontré", "찾지 못했", "見つかりません").
SEARCH_VERBS: Classes = {
    "en": (
        r"find(?:s|ing)?", r"found", r"locate[ds]?", r"see[ns]?", r"saw", r"spot(?:ted)?",
        r"match(?:ed|es|ing)?", r"return(?:s|ed)?", r"turn(?:s|ed)? up", r"show(?:s|ed)? up",
        r"c[oa]me (?:up|back)", r"exists?", r"existed", r"there(?:'s| is| are| were| was)",
        r"yield(?:s|ed)?", r"contain(?:s|ed)?", r"left", r"appear(?:s|ed)?", r"available",
        r"present", r"on file", r"recorded",
    ),
    "de": (
        r"gefunden", r"finde[nt]?", r"fand(?:en)?", r"entdeckt", r"gesehen", r"sehe[n]?",
        r"gibt", r"gab", r"vorhanden", r"existier\w*", r"ergab(?:en)?", r"ergeben",
        r"liefer\w*", r"zurückgegeben", r"enthält", r"enthalten", r"aufgetaucht",
        r"passt", r"passen", r"übrig", r"verfügbar", r"erschein\w*", r"erschien\w*",
    ),
    "es": (
        r"hay", r"había", r"hubo", r"existen?", r"encontr\w*", r"hall\w*", r"veo", r"vi",
        r"ver", r"devolv\w*", r"devuel\w*", r"coincid\w*", r"aparec\w*", r"apareci\w*",
        r"tiene", r"contiene", r"arroj\w*", r"quedan?", r"disponibles?",
    ),
    "ko": (
        r"찾", r"발견", r"확인되", r"보이", r"일치", r"나오", r"나왔", r"반환",
        r"존재", r"있", r"남",
    ),
    "ja": (
        r"見つか", r"見当たら", r"ヒット", r"該当", r"一致", r"返", r"存在",
        r"あり(?<!ではあり)", r"ある(?<!である)", r"残",
    ),
}  # fmt: skip

# The search itself as a noun: what an emptiness predicate is said of ("the search
# came back empty"). Not a verb of finding: "Maple Clinic was not searched" says what
# the search covered, not that it found nothing.
SEARCH_NOUNS: Classes = {
    "en": (r"search(?:es)?", r"quer(?:y|ies)", r"lookup"),
    "de": (r"suche", r"abfrage"),
    "es": (r"búsqueda", r"consulta"),
    "ko": (r"검색", r"조회"),
    "ja": (r"検索", r"照会"),
}

# What points at the cards on screen rather than at the population: "the cards below",
# "die unten angezeigten", "las tarjetas de abajo", "아래 카드", "下のカード".
SHOWN_MARKERS: Classes = {
    "en": (r"below", r"above", r"shown", r"displayed", r"listed (?:here|below|above)", r"cards?"),
    "de": (r"unten", r"oben", r"angezeigt\w*", r"gezeigt\w*", r"aufgeführt\w*", r"karten?"),
    "es": (r"abajo", r"arriba", r"mostrad[oa]s", r"listad[oa]s", r"tarjetas?"),
    # A singular demonstrative names one card: "이 사진은", "この写真は", "this photo".
    "ko": (r"아래", r"위의", r"표시된", r"보여\s*드린", r"카드", r"(?<!\S)(?:이|그|해당)(?=\s)"),
    "ja": (r"以下の", r"下記", r"下の", r"表示(?:され|した|中)", r"カード", r"この", r"その"),
}

# Demonstratives and locatives that point at what the reader sees ("these are all of
# them", "here is every match", "das sind alle", "estos son todos", "여기", "これらが全て"):
# a whole-set claim made of them is said of the cards on screen.
DEICTICS: Classes = {
    "en": (r"these", r"those", r"here(?:['’]s)?", r"that(?:['’]s| is| was)"),
    "de": (r"diese[nmrs]?", r"dies", r"hier", r"das (?:sind|ist|war)"),
    "es": (r"estos", r"estas", r"esos", r"esas", r"éstos", r"éstas", r"eso", r"aquí"),
    "ko": (r"이것들", r"이것이", r"이게", r"이들", r"여기", r"이상이"),
    "ja": (r"これら", r"これで", r"これが", r"ここ", r"こちら", r"以上が"),
}

# Additives: under a negation they say nothing lies beyond what was said ("no more",
# "nothing else", "weitere … gibt es nicht", "no encontré más", "더 없습니다", "他にありません"):
# that the set is whole, a completeness claim, not that it is empty.
ADDITIVES: Classes = {
    "en": (r"more", r"other", r"others", r"further", r"else", r"another", r"additional"),
    "de": (r"mehr", r"weitere\w*", r"andere\w*", r"sonst", r"zusätzliche\w*"),
    "es": (r"más", r"otr[oa]s?", r"demás", r"adicional(?:es)?"),
    "ko": (r"더", r"다른", r"그\s*(?:외|밖)", r"이외", r"추가"),
    "ja": (r"他に", r"ほかに", r"他の", r"ほかの", r"以外", r"これ以上", r"もう", r"追加"),
}

# Determiners and particles that make a noun phrase the definite subject of its
# clause: "the photos …", "die Fotos …", "las fotos …", "사진은 …", "写真は …".
DEFINITE: Classes = {
    "en": (r"the", r"these", r"those", r"all the", r"all of the", r"all these"),
    "de": (r"die", r"diese", r"alle", r"jene"),
    "es": (r"los", r"las", r"estos", r"estas", r"esos", r"esas", r"todos los", r"todas las"),
    "ko": (r"은", r"는", r"이", r"가", r"들은", r"들이"),
    "ja": (r"は", r"が", r"はすべて", r"は全て"),
}

# Where a Latin-script clause ends or begins: a negation reaches no further than its
# clause ("did not say how many there are" denies the saying), and a subject starts a
# clause. Korean and Japanese mark these with particles and endings, matched in claims.py.
CLAUSE_BREAKERS: Classes = {
    "en": ("how", "whether", "if", "why", "what", "which", "because", "but", "so", "although"),
    "de": ("wie", "ob", "warum", "weil", "aber", "sondern"),
    "es": ("cómo", "cuántos", "cuántas", "si", "porque", "pero", "aunque"),
}
CONJUNCTIONS: Classes = {"en": ("and", "but"), "de": ("und", "aber"), "es": ("y", "pero", "sino")}
# Prepositions: "the photos in level 3" is about where they are, not a claim on the set.
PREPOSITIONS: Classes = {
    "en": ("among", "in", "on", "at", "from", "with", "within", "between", "into", "inside"),
    "de": ("unter", "zwischen", "innerhalb"),
    "es": ("entre", "dentro"),
}
