"""Words of a question's form that never narrow the set it asks about.

The constraint reader reads what it knows (a project, a date, a level, a status …);
a word left over is one it cannot read, and "overdue", "high severity", "my" or
"reopened" narrow the set as surely as "last week" does. So every word left once the
axes are read is taken for an unread constraint (adjudication/leftover.py) —
unless it is one of these: how a question is asked ("how many", "show me"), how it
counts ("total", "exactly"), the verbs of making a record ("raised", "taken"), and
the nouns a "which …" question groups by ("companies", "inspectors"). Only words that
leave the set as it is belong here: "recent", "active", "done" or "remaining" narrow
it, and are left out on purpose (a false "unread" costs a disclosure; a missing one,
a count of the wrong set stated as the answer). A chat's follow-up words ("them",
"davon") are here: the set they name is the earlier question's, which the planner
carries.

Latin-script words are whole words (``FORM_WORDS`` below plus ``words.FUNCTION_WORDS``).
Korean and Japanese join particles and endings to their words, and Japanese writes no
spaces: their form is pieces (``FORM_PIECES``), found anywhere in what is left, and
particles (``PARTICLES``: Japanese anywhere, Korean at a word's end); whatever Hangul,
kana or kanji remain is the leftover.
"""

from __future__ import annotations

from collections.abc import Mapping


def _words(text: str) -> tuple[str, ...]:
    """A word list written as running text."""
    return tuple(text.split())


FORM_WORDS: Mapping[str, tuple[str, ...]] = {
    "en": _words(
        """
        count counts counted number numbers total totals overall altogether exactly
        currently current now still so far yet here exist exists existing
        raise raises raising record records recorded logged log reported documented noted
        found create creates creating take takes took taking capture captures shot
        be been being get gets got see tell us let know need want like we they it its them
        these those combined together
        kindly just only also too then as well per each every both group
        grouped broken down breakdown split whole entire project projects site building
        levels floors companies company inspectors inspector categories category trades
        trade kinds types type statuses status people person persons working work does
        doing anything everything some more many much have having give display return
        fetch pull up out about regarding concerning related into inside across among
        than if whether will should may might must am i'd i'm vs versus compare compared
        against items item entries things ones located situated based lie lies location
        address city right going on happening overview summary most least common frequent
        anyone anybody someone clash clashes report reports progress behind plan schedule
        assigned
        """
    ),
    "de": _words(
        """
        anzahl zahl gesamt insgesamt genau derzeit aktuell momentan jetzt noch bisher
        gibt existieren existiert vorhanden erfasst erfasste erfassten erstellt erstellte
        erstellten angelegt angelegte aufgenommen aufgenommene aufgenommenen gemeldet
        dokumentiert gefunden habe hast ist sind sein werden wird worden bitte mal nur
        auch pro je jede jeder jedes jeweils firmen firma gewerke gewerk kategorien
        kategorie prüfer inspektoren personen leute arten typen typ projekt gebäude ebenen
        stockwerke etagen liste listen auflisten zeigen anzeigen gib geben sag sagen uns
        ich wir es sie ein eine einer eines einen einem dieser diese dieses diesem diesen
        hier bei für über zum zur beim aus an als wieviele wieviel viel arbeiten tätig
        kein keine keinen keiner gegenüber verglichen vergleiche vergleich
        einträge einträgen elemente dinge liegt liegen befindet befinden sich ort adresse
        stadt meisten häufigste häufigsten übersicht zusammenfassung los davon zusammen
        kollision kollisionen bericht berichte fortschritt plan zeitplan zugewiesen zugeordnet
        """
    ),
    "es": _words(
        """
        número total totales cantidad exactamente actualmente ahora todavía aún existen
        existe registró registraron registrados registradas registrado registrada creó
        crearon creados creadas creado creada se tomó tomaron hizo hicieron es son está
        están por favor solo sólo también cada todas todos toda todo empresas empresa
        inspectores inspector categorías categoría oficios gremios personas tipos tipo
        proyecto edificio niveles plantas pisos lista listar mostrar muestra muéstrame
        enséñame dime me nos yo un una unos unas lo le les al sobre para trabajan
        trabajando ningún ninguno ninguna frente comparado comparar contra
        elementos registros cosas entradas ubicado ubicada encuentra encuentran queda
        ubicación dirección ciudad puedes puede podrías decir decirme saber más común
        comunes frecuente resumen ellos ellas estos estas esos esas juntos colisión
        colisiones informe informes avance progreso plan asignados asignadas asignado
        asignada tal tomadas tomados
        """
    ),
}
FORM_PIECES: Mapping[str, tuple[str, ...]] = {
    "ja": _words(
        """
        何件ですか 何件ありますか 何枚ですか 何個ですか 何件 何枚 何個 いくつ ありますか
        あります ありません ですか です すべて 全て 全部 見せてください 見せて
        教えてください 教えて ください 作成された 作成した 作成 撮った 撮影された
        撮影した 撮影 登録された 登録 記録された 誰ですか 誰 どの 会社 業者 ある
        関する 現在 合計 件数 一覧 それら そのうち うち どこ 場所 総数 数 進捗 干渉 レポート
        何社 何人
        """
    ),
    "ko": _words(
        """
        몇 건 개 장 건인가요 건입니까 건이에요 개인가요 개입니까 장인가요 장입니까 인가요
        입니까 있나요 있습니까 있어요 모두 전체 보여 주세요 알려 생성된 생성한 작성한
        작성된 작성했나요 찍은 촬영된 촬영한 누가 있는 업체 어떤 업체인가요 관련 현재 총
        사항 어디 어디에 합계 수 중 그중 그 회사 진척 공정률 간섭 보고서 은요 는요 곳 명
        """
    ),
}
PARTICLES: Mapping[str, tuple[str, ...]] = {
    "ja": _words("の は が を に で と も や か へ"),
    "ko": _words("에서 으로 까지 부터 은 는 이 가 을 를 에 의 와 과 도 로 만"),
}
