// UI copy as data, one table per locale. The server localises what it says
// (notices, narration); this is only the panel's own chrome. The locales, the
// count phrases each grade permits and the thousands mark come from the
// generated vocabulary (the server's own tables), so the count line words a
// count exactly as the server's count slot does: "3,000" in en, "3.000" in de.

import { DEFAULT_LOCALE, GRADE_PHRASES, LOCALES, NUMBER_GROUPING } from "./vocabulary.js";

const COPY = {
  en: {
    language: "Language",
    languageName: "English",
    mode: "Mode",
    modeSingle: "Single question",
    modeChat: "Chat",
    placeholder: "Ask about your projects…",
    send: "Send",
    loadMore: "Load more",
    recommended: "Recommended",
    context: "Asking about",
    phase: {
      idle: "",
      sending: "Sending…",
      planning: "Planning…",
      gathering: "Gathering evidence…",
      streaming: "Answering…",
      complete: "Complete",
      "complete-sample": "Answered — part of the results is shown",
      "empty-with-standing": "Complete — nothing matched",
      unknown: "Complete — the source gave no count",
      denied: "Not available on your plan",
      failed: "Failed",
    },
    // complete-sample, worded by the primary count's grade: a part is on screen,
    // and only EXACT and LOWER_BOUND say anything about the rest.
    sample: {
      EXACT: "Answered — part of a counted set is shown",
      LOWER_BOUND: "Answered — there may be more than shown",
      SHOWN: "Answered — only what is shown was counted",
    },
    showing: (m) => ` — showing ${m}`,
    none: "no results",
    authExpired: "Your sign-in has expired (a token lasts one hour).",
    authRejected: "Your token was not accepted.",
    newToken:
      "Mint a new one with `beacon token --mcp <the mcp: URL of beacon up>`, then open this page again with ?token=<the new token>.",
    unterminated: "The answer stream ended before the turn finished.",
    network: "The chat server could not be reached.",
    moreFailed: "More results could not be loaded.",
    refused: (status) => `HTTP ${status}`,
  },
  ko: {
    language: "언어",
    languageName: "한국어",
    mode: "모드",
    modeSingle: "단일 질문",
    modeChat: "대화",
    placeholder: "프로젝트에 대해 질문하세요…",
    send: "보내기",
    loadMore: "더 보기",
    recommended: "추천",
    context: "질문 대상",
    phase: {
      idle: "",
      sending: "보내는 중…",
      planning: "계획 중…",
      gathering: "근거 수집 중…",
      streaming: "답변 중…",
      complete: "완료",
      "complete-sample": "답변 완료 — 결과의 일부를 표시",
      "empty-with-standing": "완료 — 일치하는 항목 없음",
      unknown: "완료 — 출처가 개수를 알려주지 않음",
      denied: "현재 요금제에서 사용할 수 없음",
      failed: "실패",
    },
    sample: {
      EXACT: "답변 완료 — 집계된 항목 중 일부만 표시",
      LOWER_BOUND: "답변 완료 — 표시된 것보다 더 있을 수 있음",
      SHOWN: "답변 완료 — 표시된 항목만 집계됨",
    },
    showing: (m) => ` — ${m}건 표시`,
    none: "결과 없음",
    authExpired: "로그인이 만료되었습니다(토큰은 한 시간 동안 유효합니다).",
    authRejected: "토큰이 받아들여지지 않았습니다.",
    newToken:
      "`beacon token --mcp <beacon up의 mcp: URL>`로 새 토큰을 발급한 뒤 ?token=<새 토큰>을 붙여 이 페이지를 다시 여세요.",
    unterminated: "턴이 끝나기 전에 답변 스트림이 끊겼습니다.",
    network: "채팅 서버에 연결할 수 없습니다.",
    moreFailed: "결과를 더 불러오지 못했습니다.",
    refused: (status) => `HTTP ${status}`,
  },
  ja: {
    language: "言語",
    languageName: "日本語",
    mode: "モード",
    modeSingle: "単発の質問",
    modeChat: "チャット",
    placeholder: "プロジェクトについて質問してください…",
    send: "送信",
    loadMore: "さらに表示",
    recommended: "おすすめ",
    context: "対象",
    phase: {
      idle: "",
      sending: "送信中…",
      planning: "計画中…",
      gathering: "根拠を収集中…",
      streaming: "回答中…",
      complete: "完了",
      "complete-sample": "回答済み — 結果の一部を表示",
      "empty-with-standing": "完了 — 該当なし",
      unknown: "完了 — 件数は不明",
      denied: "現在のプランでは利用できません",
      failed: "失敗",
    },
    sample: {
      EXACT: "回答済み — 数えた件数の一部を表示",
      LOWER_BOUND: "回答済み — 表示分より多い可能性あり",
      SHOWN: "回答済み — 表示分のみを数えています",
    },
    showing: (m) => ` — ${m}件を表示`,
    none: "該当なし",
    authExpired: "ログインの有効期限が切れました(トークンの有効期間は1時間です)。",
    authRejected: "トークンが受け付けられませんでした。",
    newToken:
      "`beacon token --mcp <beacon up の mcp: URL>` で新しいトークンを発行し、?token=<新しいトークン> を付けてこのページを開き直してください。",
    unterminated: "ターンが終わる前に回答ストリームが途切れました。",
    network: "チャットサーバーに接続できません。",
    moreFailed: "続きを読み込めませんでした。",
    refused: (status) => `HTTP ${status}`,
  },
  de: {
    language: "Sprache",
    languageName: "Deutsch",
    mode: "Modus",
    modeSingle: "Einzelne Frage",
    modeChat: "Chat",
    placeholder: "Fragen Sie zu Ihren Projekten…",
    send: "Senden",
    loadMore: "Mehr laden",
    recommended: "Empfohlen",
    context: "Bezogen auf",
    phase: {
      idle: "",
      sending: "Wird gesendet…",
      planning: "Planung…",
      gathering: "Belege werden gesammelt…",
      streaming: "Antwort läuft…",
      complete: "Fertig",
      "complete-sample": "Beantwortet — ein Teil der Ergebnisse wird angezeigt",
      "empty-with-standing": "Fertig — keine Treffer",
      unknown: "Fertig — die Quelle nannte keine Anzahl",
      denied: "In Ihrem Tarif nicht verfügbar",
      failed: "Fehlgeschlagen",
    },
    sample: {
      EXACT: "Beantwortet — ein Teil der gezählten Menge wird angezeigt",
      LOWER_BOUND: "Beantwortet — es kann mehr geben als angezeigt",
      SHOWN: "Beantwortet — nur das Angezeigte wurde gezählt",
    },
    showing: (m) => ` — ${m} angezeigt`,
    none: "keine Treffer",
    authExpired: "Ihre Anmeldung ist abgelaufen (ein Token gilt eine Stunde).",
    authRejected: "Ihr Token wurde nicht angenommen.",
    newToken:
      "Erzeugen Sie ein neues mit `beacon token --mcp <mcp:-URL von beacon up>` und öffnen Sie diese Seite erneut mit ?token=<neues Token>.",
    unterminated: "Der Antwortstrom endete, bevor der Zug abgeschlossen war.",
    network: "Der Chat-Server ist nicht erreichbar.",
    moreFailed: "Weitere Ergebnisse konnten nicht geladen werden.",
    refused: (status) => `HTTP ${status}`,
  },
  es: {
    language: "Idioma",
    languageName: "Español",
    mode: "Modo",
    modeSingle: "Pregunta única",
    modeChat: "Chat",
    placeholder: "Pregunte por sus proyectos…",
    send: "Enviar",
    loadMore: "Cargar más",
    recommended: "Recomendada",
    context: "Sobre",
    phase: {
      idle: "",
      sending: "Enviando…",
      planning: "Planificando…",
      gathering: "Reuniendo pruebas…",
      streaming: "Respondiendo…",
      complete: "Completo",
      "complete-sample": "Respondido — se muestra parte de los resultados",
      "empty-with-standing": "Completo — sin coincidencias",
      unknown: "Completo — la fuente no dio un recuento",
      denied: "No disponible en su plan",
      failed: "Error",
    },
    sample: {
      EXACT: "Respondido — se muestra parte del conjunto contado",
      LOWER_BOUND: "Respondido — puede haber más de lo mostrado",
      SHOWN: "Respondido — solo se contó lo mostrado",
    },
    showing: (m) => ` — se muestran ${m}`,
    none: "sin resultados",
    authExpired: "Su sesión ha caducado (un token dura una hora).",
    authRejected: "Su token no fue aceptado.",
    newToken:
      "Genere uno nuevo con `beacon token --mcp <URL mcp: de beacon up>` y vuelva a abrir esta página con ?token=<el token nuevo>.",
    unterminated: "El flujo de respuesta terminó antes de acabar el turno.",
    network: "No se puede conectar con el servidor de chat.",
    moreFailed: "No se pudieron cargar más resultados.",
    refused: (status) => `HTTP ${status}`,
  },
};


// The first hour's words (issue 29): the Automatic language, a standing that is
// neither complete nor failed, a token that cannot work, and what can be asked.
const FIRST_HOUR = {
  en: {
    automatic: "Automatic",
    standing: {
      "needs-choice": "Needs your choice",
      uncounted: "Answered — nothing was counted",
    },
    tokenMissing: "This page has no token, so no question can be answered yet.",
    tokenMalformed: "The token in this page's address is not a token (it is cut short or mistyped).",
    tokenExpired: "Your token has expired (a token lasts one hour).",
    examplesTitle: "Try asking",
    // {project}: one of the caller's own projects (GET /v1/projects); an example that
    // needs one is left out while none is known.
    examples: [
      "How many open safety findings are on level 3 of {project}?",
      "Photos of missing hard hats in {project}",
      "List all panoramas in {project}",
      "How many open findings are there?",
    ],
    photo: "Photo",
  },
  ko: {
    automatic: "자동",
    standing: { "needs-choice": "선택이 필요합니다", uncounted: "답변 완료 — 집계된 항목 없음" },
    tokenMissing: "이 페이지에 토큰이 없어 아직 질문에 답할 수 없습니다.",
    tokenMalformed: "이 페이지 주소의 토큰이 올바르지 않습니다(잘렸거나 잘못 입력됨).",
    tokenExpired: "토큰이 만료되었습니다(토큰은 한 시간 동안 유효합니다).",
    examplesTitle: "이렇게 물어보세요",
    examples: [
      "{project} 3층에 미해결 안전 지적 사항이 몇 건 있나요?",
      "{project}에서 안전모 미착용 사진",
      "{project}의 모든 파노라마 목록",
      "미해결 지적 사항은 몇 건인가요?",
    ],
    photo: "사진",
  },
  ja: {
    automatic: "自動",
    standing: { "needs-choice": "選択してください", uncounted: "回答済み — 件数なし" },
    tokenMissing: "このページにはトークンがないため、まだ質問に答えられません。",
    tokenMalformed: "このページのアドレスのトークンが正しくありません(途中で切れているか入力ミスです)。",
    tokenExpired: "トークンの有効期限が切れました(トークンの有効期間は1時間です)。",
    examplesTitle: "質問の例",
    examples: [
      "{project} の3階に未解決の安全指摘は何件ありますか?",
      "{project} のヘルメット未着用の写真",
      "{project} のパノラマをすべて表示",
      "未解決の指摘は何件ありますか?",
    ],
    photo: "写真",
  },
  de: {
    automatic: "Automatisch",
    standing: { "needs-choice": "Ihre Auswahl ist nötig", uncounted: "Beantwortet — nichts wurde gezählt" },
    tokenMissing: "Diese Seite hat kein Token, daher kann noch keine Frage beantwortet werden.",
    tokenMalformed: "Das Token in der Adresse dieser Seite ist kein Token (abgeschnitten oder vertippt).",
    tokenExpired: "Ihr Token ist abgelaufen (ein Token gilt eine Stunde).",
    examplesTitle: "Fragen Sie zum Beispiel",
    examples: [
      "Wie viele offene Sicherheitsmängel gibt es auf Ebene 3 von {project}?",
      "Fotos von fehlenden Schutzhelmen in {project}",
      "Alle Panoramen in {project} auflisten",
      "Wie viele offene Befunde gibt es?",
    ],
    photo: "Foto",
  },
  es: {
    automatic: "Automático",
    standing: { "needs-choice": "Necesita su elección", uncounted: "Respondido — no se contó nada" },
    tokenMissing: "Esta página no tiene token, así que aún no se puede responder ninguna pregunta.",
    tokenMalformed: "El token de la dirección de esta página no es válido (está cortado o mal escrito).",
    tokenExpired: "Su token ha caducado (un token dura una hora).",
    examplesTitle: "Pruebe a preguntar",
    examples: [
      "¿Cuántos hallazgos de seguridad abiertos hay en el nivel 3 de {project}?",
      "Fotos de cascos ausentes en {project}",
      "Lista de todos los panoramas de {project}",
      "¿Cuántos hallazgos abiertos hay?",
    ],
    photo: "Foto",
  },
};

/** A whole number with the locale's thousands mark, as the server writes it. */
function formatNumber(n, mark) {
  if (!Number.isInteger(n)) return String(n);
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, mark);
  return n < 0 ? `-${digits}` : digits;
}

/** The copy for a locale; an unknown locale falls back to the default (English). */
// The question quota (issue 30): what is left today, and when the count resets.
const QUOTA = {
  en: {
    quotaLeft: (n, limit) => (limit === null ? `${n} questions left today` : `${n} of ${limit} questions left today`),
    quotaReset: (time) => `The count resets at ${time}`,
  },
  ko: {
    quotaLeft: (n, limit) => (limit === null ? `오늘 남은 질문 ${n}개` : `오늘 남은 질문 ${n}/${limit}`),
    quotaReset: (time) => `${time}에 다시 채워집니다`,
  },
  ja: {
    quotaLeft: (n, limit) => (limit === null ? `本日の残り質問数 ${n}` : `本日の残り質問数 ${n}/${limit}`),
    quotaReset: (time) => `${time}にリセットされます`,
  },
  de: {
    quotaLeft: (n, limit) => (limit === null ? `Heute noch ${n} Fragen` : `Heute noch ${n} von ${limit} Fragen`),
    quotaReset: (time) => `Zurückgesetzt um ${time}`,
  },
  es: {
    quotaLeft: (n, limit) => (limit === null ? `Quedan ${n} preguntas hoy` : `Quedan ${n} de ${limit} preguntas hoy`),
    quotaReset: (time) => `Se restablece a las ${time}`,
  },
};

export function copyFor(locale) {
  const chosen = LOCALES.includes(locale) ? locale : DEFAULT_LOCALE;
  const phrases = GRADE_PHRASES[chosen];
  // The phrase is filled with a number already formatted (copy.number).
  const phrase = (grade) => (n) => phrases[grade].replace("{n}", () => n);
  return {
    ...COPY[chosen],
    ...FIRST_HOUR[chosen],
    ...QUOTA[chosen],
    locale: chosen,
    number: (n) => formatNumber(n, NUMBER_GROUPING[chosen]),
    exactly: phrase("EXACT"),
    atLeast: phrase("LOWER_BOUND"),
    these: phrase("SHOWN"),
  };
}

/** The chrome's locale under "Automatic": the browser's first language the panel speaks. */
export function browserLocale(languages = globalThis.navigator?.languages ?? []) {
  for (const tag of languages) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LOCALES.includes(base)) return base;
  }
  return DEFAULT_LOCALE;
}
