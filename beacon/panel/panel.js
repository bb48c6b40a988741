// The panel: `mountPanel(root, adapter)` draws into `root` and talks to its
// host only through the adapter (host.js). Turns go to this module's own
// origin (the chat server that served it). Every server-provided string is
// set with textContent: the model's words and the upstream's titles are
// untrusted.

import { countLine, statusLine } from "./countline.js";
import { browserLocale, copyFor } from "./copy.js";
import { capabilityHint, checkAdapter, viewContextFor } from "./host.js";
import { readEvents, toFrame } from "./sse.js";
import {
  initialState,
  moreFailed,
  moreLoaded,
  reduce,
  refusal,
  requestFailed,
  sending,
  standingOf,
  streamDropped,
  streamEnded,
} from "./reducer.js";
import { tokenProblem } from "./token.js";
import { followQuota } from "./quota.js";
import { proseParts } from "./shown.js";
import { BUSY } from "./state_table.js";
import { element as el, safeUrl } from "./dom.js";
import { LOCALES } from "./vocabulary.js";

const CHAT_ORIGIN = new URL(import.meta.url).origin;
const REATTACH_ATTEMPTS = 3;
// Each locale named in its own language, from its own copy table.
const LOCALE_NAMES = Object.fromEntries(LOCALES.map((l) => [l, copyFor(l).languageName]));

export function mountPanel(root, adapter, { locale = "" } = {}) {
  checkAdapter(adapter);
  const ui = build(root, locale);
  let state = initialState();
  let busyRequest = false;
  let loadingMore = false;
  let copy = copyFor(chromeLocale());
  // The locale the answer on screen was asked in (its numbers are written that
  // way); under Automatic the question's, which the chrome's stands in for.
  let answerLocale = copy.locale;
  let turn = newTurn();
  let tokenIssue = null;
  // The caller's own project names, for the example questions (GET /v1/projects).
  let projectNames = [];
  // The caller's question quota as the quota stream last said it (null: not yet).
  let quota = null;
  const kept = keptTurns();

  root.dataset.surface = String(adapter.getCurrentSurfaceId());
  root.dataset.facility = String(adapter.getFacilityKey());
  root.dataset.admin = String(Boolean(adapter.getIsAdmin()));

  function chromeLocale() {
    return ui.locale.value || browserLocale();
  }

  function setState(next) {
    if (next === state) return;
    const started = next.turnId !== null && next.turnId !== state.turnId;
    state = next;
    if (started) remember(state);
    render();
  }

  function apply(event) {
    const frame = toFrame(event);
    const why = frame ? refusal(state, frame) : "data-not-json";
    if (why !== null) {
      console.warn(`beacon panel: ignored a "${event.event}" frame (${why})`);
      return;
    }
    setState(reduce(state, frame));
  }

  /** The turn on screen joins the conversation above; a fresh one takes its place. */
  function retire() {
    if (state.phase === "idle" && !turn.asked.textContent) return;
    freeze(turn);
    turn = newTurn();
  }

  function newTurn() {
    const t = buildTurn();
    t.drawn = { citations: null, notices: null, tools: null };
    ui.transcript.append(t.node);
    return t;
  }

  async function send(text) {
    const message = String(text ?? "").trim();
    if (!message || busyRequest || BUSY.includes(state.phase)) return;
    busyRequest = true;
    retire();
    setState(sending(state));
    const mode = ui.mode.value === "chat" ? "chat" : "single";
    // Automatic sends no locale: the server answers in the question's own language.
    const body = { mode, message };
    if (ui.locale.value) body.locale = ui.locale.value;
    answerLocale = body.locale ?? copy.locale;
    if (mode === "chat" && state.sessionId) body.session_id = state.sessionId;
    const view = viewContextFor(adapter);
    if (view) body.view_context = view;
    const hint = capabilityHint(adapter);
    if (hint) body.capability_hint = hint;
    const typed = ui.question.value;
    ui.question.value = "";
    turn.asked.textContent = message;
    turn.asked.hidden = false;
    render();
    turn.node.scrollIntoView?.({ block: "start" });
    // A refused question is not lost: it goes back where the user typed it.
    const giveBack = () => {
      if (ui.question.value === "") ui.question.value = typed.trim() ? typed : message;
    };
    try {
      const token = await adapter.getAuthToken();
      let response;
      try {
        response = await fetch(new URL("/v1/turns", CHAT_ORIGIN), {
          method: "POST",
          headers: headers(token, {
            "Content-Type": "application/json",
            Accept: "text/event-stream",
          }),
          body: JSON.stringify(body),
        });
      } catch {
        giveBack();
        setState(requestFailed(state, { status: null, code: "network", text: copy.network }));
        return;
      }
      if (!response.ok) {
        giveBack();
        const failure = await describeFailure(response);
        const text = refusedText(response.status, failure, copy);
        setState(requestFailed(state, { status: response.status, code: failure.code, text }));
        return;
      }
      await follow(response);
      for (let attempt = 0; attempt < REATTACH_ATTEMPTS && stillRunning(); attempt += 1) {
        // Dropped: pick the turn up where we left it. The server keeps running
        // the turn whatever happened to our connection.
        setState(streamDropped(state));
        if (!(await reattach(token))) break;
      }
      if (stillRunning()) setState(streamEnded(state, copy.unterminated));
    } finally {
      busyRequest = false;
      render();
    }
  }

  function stillRunning() {
    return state.turnId !== null && BUSY.includes(state.phase);
  }

  async function follow(response) {
    try {
      for await (const event of readEvents(response)) apply(event);
    } catch {
      // A broken connection mid-stream: the reattach loop takes over.
    }
  }

  async function reattach(token) {
    const response = await turnEvents(token, state.turnId, state.lastSeq);
    if (!response) return false;
    await follow(response);
    return true;
  }

  async function turnEvents(token, turnId, after) {
    const url = new URL(`/v1/turns/${encodeURIComponent(turnId)}/events`, CHAT_ORIGIN);
    url.searchParams.set("after", String(after));
    try {
      const response = await fetch(url, {
        headers: headers(token, { Accept: "text/event-stream", "Last-Event-ID": String(after) }),
      });
      return response.ok ? response : null;
    } catch {
      return null;
    }
  }

  async function loadMore(slot) {
    if (loadingMore || !state.turnId) return;
    loadingMore = true;
    render();
    try {
      const token = await adapter.getAuthToken();
      const response = await fetch(
        new URL(`/v1/turns/${encodeURIComponent(state.turnId)}/more`, CHAT_ORIGIN),
        {
          method: "POST",
          headers: headers(token, { "Content-Type": "application/json" }),
          body: JSON.stringify({ slot }),
        },
      );
      if (response.status === 401) {
        // The token went bad since the answer (it expired): say so, and how to get one.
        setState(moreFailed(state, refusedText(401, await describeFailure(response), copy)));
        return;
      }
      const page = response.ok ? await response.json() : null;
      if (!page || page.slot !== slot) {
        setState(moreFailed(state, copy.moreFailed));
        return;
      }
      const written = state.locale ?? answerLocale; // the server's word, when it gave one
      setState(moreLoaded(state, page, { number: copyFor(written).number }));
    } catch {
      setState(moreFailed(state, copy.moreFailed));
    } finally {
      loadingMore = false;
      render();
    }
  }

  // ---- the conversation kept for the tab ---------------------------------------
  // Turn ids (and the chat session) live in sessionStorage beside the token, so a
  // reload or Back from a citation draws the conversation again from the server.

  function remember(st) {
    const turns = [...kept.turns.filter((id) => id !== st.turnId), st.turnId].slice(-KEPT_TURNS);
    const asked = Object.fromEntries(
      Object.entries({ ...kept.asked, [st.turnId]: turn.asked.textContent }).filter(([id]) => turns.includes(id)),
    );
    Object.assign(kept, { turns, asked, mode: st.mode ?? kept.mode, sessionId: st.sessionId ?? null });
    keepTurns(kept);
  }

  async function restore() {
    if (kept.turns.length === 0 && !kept.sessionId) return;
    if (kept.mode === "chat") ui.mode.value = "chat";
    const token = await adapter.getAuthToken();
    let ids = kept.turns;
    let texts = new Map();
    if (kept.mode === "chat" && kept.sessionId) {
      const messages = await transcript(token, kept.sessionId);
      if (messages) {
        ids = [...new Set(messages.map((m) => m.turn_id))];
        texts = new Map(ids.map((id) => [id, messages.filter((m) => m.turn_id === id)]));
        state = { ...state, sessionId: kept.sessionId };
      }
    }
    const drawnTurns = [];
    for (const id of ids) {
      const question = texts.get(id)?.find((m) => m.role === "user")?.text ?? kept.asked[id] ?? "";
      const past = (await replayed(token, id, String(question))) ?? textOnly(texts.get(id));
      if (past) drawnTurns.push(past);
    }
    for (const past of drawnTurns) ui.transcript.insertBefore(past, turn.node);
    render();
    drawnTurns.at(-1)?.scrollIntoView?.({ block: "start" });
  }

  async function transcript(token, sessionId) {
    try {
      const response = await fetch(new URL(`/v1/sessions/${encodeURIComponent(sessionId)}`, CHAT_ORIGIN), {
        headers: headers(token, { Accept: "application/json" }),
      });
      if (!response.ok) return null;
      const body = await response.json();
      return Array.isArray(body?.messages) ? body.messages : null;
    } catch {
      return null;
    }
  }

  /** An earlier turn drawn again from its own frames: question, badge, count line, cards, notices. */
  async function replayed(token, turnId, asked) {
    const response = await turnEvents(token, turnId, 0);
    if (!response) return null;
    let st = sending(initialState());
    try {
      for await (const event of readEvents(response)) {
        const frame = toFrame(event);
        if (frame && refusal(st, frame) === null) st = reduce(st, frame);
      }
    } catch {
      return null;
    }
    if (st.turnId !== turnId || BUSY.includes(st.phase)) return null;
    const t = buildTurn();
    t.drawn = { citations: null, notices: null, tools: null };
    t.asked.textContent = asked;
    t.asked.hidden = asked === "";
    drawTurn(t, st, false);
    return freeze(t);
  }

  function textOnly(messages) {
    if (!Array.isArray(messages) || messages.length === 0) return null;
    const t = buildTurn();
    const question = messages.find((m) => m.role === "user");
    const answer = messages.find((m) => m.role === "assistant");
    t.asked.textContent = String(question?.text ?? "");
    t.asked.hidden = !question;
    t.prose.textContent = String(answer?.text ?? "");
    t.status.hidden = true;
    t.loadMore.hidden = true;
    return freeze(t);
  }

  // ---- drawing -------------------------------------------------------------

  function render() {
    const phase = state.phase;
    root.dataset.phase = phase;
    root.dataset.session = state.sessionId ?? "";
    const busy = BUSY.includes(phase) || busyRequest;
    ui.send.disabled = busy;
    ui.form.setAttribute("aria-busy", String(busy));
    if (state.turnId !== null && tokenIssue !== null) showTokenIssue(null); // it worked after all
    drawTurn(turn, state, true);
    const first = ui.transcript.querySelector(".turn-item:not([hidden])") === null;
    ui.examples.hidden = !first;
  }

  // The answer as text, its shown-set sentences marked where the server said they are
  // (done.shown_spans): the sentence a span, the number in it a <mark>. Text only.
  function drawProse(node, prose, spans) {
    if (spans.length === 0) {
      if (node.textContent !== prose || node.childElementCount > 0) node.textContent = prose;
      return;
    }
    const text = (value) => document.createTextNode(value);
    node.replaceChildren(
      ...proseParts(prose, spans).map((part) => {
        if (!part.sentence) return text(part.text);
        const sentence = el("span", "shown-set");
        sentence.dataset.testid = "shown-set";
        sentence.dataset.slot = part.slot;
        for (const piece of part.sentence) {
          if (piece.slot === undefined) {
            sentence.append(text(piece.text));
            continue;
          }
          const mark = el("mark", "shown-slot", piece.text);
          mark.dataset.testid = "shown-slot";
          mark.dataset.slot = piece.slot;
          sentence.append(mark);
        }
        return sentence;
      }),
    );
  }

  function drawTurn(t, st, live) {
    const phase = st.phase;
    t.node.hidden = phase === "idle" && !t.asked.textContent;
    const standing = standingOf(st);
    t.status.textContent = standing ? copy.standing[standing] : statusLine(phase, st.counts, copy);
    t.status.dataset.phase = phase;
    if (standing) t.status.dataset.standing = standing;
    else delete t.status.dataset.standing;
    if (st.cause) t.status.dataset.cause = st.cause;
    else delete t.status.dataset.cause;

    if (t.drawn.prose !== st.prose || t.drawn.shown !== st.shown) {
      t.drawn.prose = st.prose;
      t.drawn.shown = st.shown;
      drawProse(t.prose, st.prose, st.shown ?? []);
    }

    const line = countLine(st.counts, copy);
    t.countLine.textContent = line.text;
    t.countLine.hidden = line.hidden;
    if (line.grade) t.countLine.dataset.grade = line.grade;
    else delete t.countLine.dataset.grade;

    if (t.drawn.citations !== st.citations) {
      t.drawn.citations = st.citations;
      t.citations.replaceChildren(...st.citations.map(card));
    }
    if (t.drawn.notices !== st.notices) {
      t.drawn.notices = st.notices;
      t.notices.replaceChildren(...st.notices.map(noticeCard));
    }
    if (adapter.getIsAdmin() && t.drawn.tools !== st.tools) {
      t.drawn.tools = st.tools;
      t.trail.replaceChildren(
        ...st.tools.map((tool) => {
          const item = el("li", `trail-${tool.status}`, `${tool.tool}: ${tool.status}`);
          item.dataset.tool = String(tool.tool);
          item.dataset.status = String(tool.status);
          return item;
        }),
      );
      t.trail.hidden = st.tools.length === 0;
    }

    const more = live && phase === "complete-sample" ? st.counts.find((c) => c.more === true) : undefined;
    t.loadMore.hidden = more === undefined;
    t.loadMore.disabled = loadingMore;
    if (more) t.loadMore.dataset.slot = String(more.slot);
  }

  function showTokenIssue(problem) {
    tokenIssue = problem;
    ui.tokenNote.hidden = problem === null;
    if (problem === null) return;
    ui.tokenNote.dataset.problem = problem;
    const words = { missing: copy.tokenMissing, malformed: copy.tokenMalformed, expired: copy.tokenExpired };
    ui.tokenNote.replaceChildren(
      el("span", "token-words", words[problem]),
      document.createTextNode(" "),
      el("span", "token-fix", copy.newToken),
    );
  }

  function drawChrome() {
    copy = copyFor(chromeLocale());
    root.lang = copy.locale;
    ui.modeLabel.textContent = copy.mode;
    ui.localeLabel.textContent = copy.language;
    ui.mode.options[0].textContent = copy.modeSingle;
    ui.mode.options[1].textContent = copy.modeChat;
    ui.locale.options[0].textContent = copy.automatic;
    ui.question.placeholder = copy.placeholder;
    ui.question.setAttribute("aria-label", copy.placeholder);
    ui.send.textContent = copy.send;
    turn.loadMore.textContent = copy.loadMore;
    ui.contextLabel.textContent = copy.context;
    ui.examplesTitle.textContent = copy.examplesTitle;
    ui.examplesList.replaceChildren(
      ...examplesFor(copy.examples, projectNames).map((q) => {
        const item = el("li");
        const button = el("button", "example", q);
        button.type = "button";
        button.dataset.testid = "example";
        button.addEventListener("click", () => send(q));
        item.append(button);
        return item;
      }),
    );
    if (tokenIssue !== null) showTokenIssue(tokenIssue);
    drawQuota();
    turn.drawn.notices = null; // option titles are localised
    render();
  }

  /** The quota line: hidden without a quota, else what is left today (live). */
  function drawQuota() {
    const shown = quota !== null && quota.remaining !== null;
    ui.quota.hidden = !shown;
    ui.quota.dataset.remaining = quota === null ? "" : shown ? String(quota.remaining) : "unlimited";
    if (!shown) {
      ui.quota.replaceChildren();
      delete ui.quota.dataset.exhausted;
      return;
    }
    ui.quota.dataset.exhausted = String(quota.remaining === 0);
    const limit = quota.limit === null ? null : copy.number(quota.limit);
    ui.quota.textContent = copy.quotaLeft(copy.number(quota.remaining), limit);
    const reset = quota.resetAt ? new Date(quota.resetAt) : null;
    ui.quota.title = reset && !Number.isNaN(reset.getTime())
      ? copy.quotaReset(reset.toLocaleTimeString(copy.locale, { hour: "2-digit", minute: "2-digit" }))
      : "";
  }

  function card(citation) {
    const node = el("article", "card");
    node.dataset.testid = "citation-card";
    if (citation.id) node.dataset.citationId = String(citation.id);
    if (citation.kind) node.dataset.kind = String(citation.kind);
    const title = headline(citation, copy);

    const thumb = safeUrl(citation.thumbnail, { image: true });
    const placeholder = () => {
      // A photo without a picture still looks like a photo card: a neutral box
      // with the kind's word, never an empty frame or an id.
      const box = el("div", "thumb thumb-placeholder", copy.photo);
      box.setAttribute("aria-hidden", "true");
      return box;
    };
    if (thumb) {
      const img = el("img", "thumb");
      img.alt = title;
      img.loading = "lazy";
      img.decoding = "async";
      img.src = thumb;
      img.addEventListener(
        "error",
        () => (citation.kind === "photo" ? img.replaceWith(placeholder()) : img.remove()),
        { once: true },
      );
      node.append(img);
    } else if (citation.kind === "photo") {
      node.append(placeholder());
    }

    const body = el("div", "card-body");
    // The server names where the record lives (`target`); the host says what URL that is.
    const target = citation.target && typeof citation.target === "object" ? { ...citation.target } : null;
    const href = target ? safeUrl(adapter.citationHref(target)) : null;
    const link = el(href ? "a" : "span", "card-title", title);
    if (href) {
      link.href = href;
      link.rel = "noopener noreferrer";
      link.addEventListener("click", (event) => {
        if (adapter.dispatchCitation({ ...citation })) event.preventDefault();
      });
    }
    body.append(link);

    const meta = el("p", "card-meta");
    if (citation.kind) meta.append(el("span", "badge", citation.kind));
    if (citation.level) meta.append(el("span", "card-level", citation.level));
    if (citation.date) meta.append(el("time", "card-date", citation.date));
    body.append(meta);
    node.append(body);
    return node;
  }

  function noticeCard(notice) {
    const node = el("div", `notice notice-${notice.kind}`);
    node.dataset.testid = "notice";
    node.dataset.kind = notice.kind;
    node.setAttribute("role", notice.kind === "error" ? "alert" : "status");
    if (notice.code) {
      node.dataset.code = notice.code;
      node.append(el("code", "notice-code", notice.code));
    }
    node.append(el("span", "notice-text", notice.text));
    if (notice.options.length > 0) {
      const options = el("div", "options");
      for (const option of notice.options) {
        const button = el("button", option.recommended ? "option recommended" : "option");
        button.type = "button";
        button.dataset.testid = "option";
        button.textContent = String(option.label ?? option.reply ?? "");
        if (option.recommended) {
          button.title = copy.recommended;
          button.dataset.recommended = "true";
        }
        button.addEventListener("click", () => send(String(option.reply ?? "")));
        options.append(button);
      }
      node.append(options);
    }
    return node;
  }

  function buildTurn() {
    const t = turnNodes();
    t.loadMore.textContent = copy.loadMore;
    t.loadMore.addEventListener("click", () => loadMore(t.loadMore.dataset.slot));
    return t;
  }

  // ---- input ---------------------------------------------------------------

  ui.form.addEventListener("submit", (event) => {
    event.preventDefault();
    send(ui.question.value);
  });
  ui.question.addEventListener("keydown", (event) => {
    // Enter sends, Shift+Enter breaks the line; an IME still composing (ko, ja)
    // owns its Enter.
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      send(ui.question.value);
    }
  });
  ui.mode.addEventListener("change", () => {
    if (ui.mode.value !== "chat") {
      setState({ ...state, sessionId: null });
      Object.assign(kept, { mode: "single", sessionId: null });
      keepTurns(kept);
    }
  });
  ui.locale.addEventListener("change", drawChrome);

  const showContext = (snapshot) => {
    const parts = [snapshot?.project_name, snapshot?.level, snapshot?.capture_label]
      .filter((p) => typeof p === "string" && p !== "")
      .map(String);
    ui.contextText.textContent = parts.join(" · ");
    ui.context.hidden = parts.length === 0;
  };
  if (adapter.capabilities.viewContext !== "none") {
    showContext(adapter.getViewerSnapshot());
    adapter.subscribeViewerState(showContext);
  }

  drawChrome();
  // Before the first question: a token that cannot work is said now, in words, with its fix.
  Promise.resolve(adapter.getAuthToken())
    .then((token) => {
      const problem = tokenProblem(token);
      if (problem !== null && state.turnId === null) showTokenIssue(problem);
      if (problem === null) {
        // Live: the count on connect, then a push whenever a question is spent.
        followQuota(CHAT_ORIGIN, token, (value) => {
          quota = value;
          drawQuota();
        }).catch(() => {});
        return projectsOf(token);
      }
      return null;
    })
    .then((names) => {
      if (!names || names.length === 0) return;
      projectNames = names;
      drawChrome();
    })
    .catch(() => showTokenIssue("missing"));
  restore().catch(() => {});
  return { send, get phase() { return state.phase; } };
}

/** A turn that has settled becomes part of the conversation: its test ids say so. */
function freeze(t) {
  for (const node of t.node.querySelectorAll("[data-testid]")) {
    if (!node.dataset.testid.startsWith("past-")) node.dataset.testid = `past-${node.dataset.testid}`;
  }
  t.loadMore.remove();
  t.node.classList.add("past");
  t.node.hidden = false;
  return t.node;
}

// How many turn ids the tab keeps to draw again after a reload or Back.
const KEPT_TURNS = 10;
const TURNS_KEY = "beacon.turns";

function keptTurns() {
  try {
    const raw = JSON.parse(window.sessionStorage.getItem(TURNS_KEY) ?? "null");
    if (raw && Array.isArray(raw.turns)) {
      return {
        turns: raw.turns.filter((id) => typeof id === "string").slice(-KEPT_TURNS),
        asked: raw.asked && typeof raw.asked === "object" ? raw.asked : {},
        mode: raw.mode === "chat" ? "chat" : "single",
        sessionId: typeof raw.sessionId === "string" ? raw.sessionId : null,
      };
    }
  } catch {
    // storage refused or unreadable: the page starts empty
  }
  return { turns: [], asked: {}, mode: "single", sessionId: null };
}

function keepTurns(kept) {
  try {
    window.sessionStorage.setItem(TURNS_KEY, JSON.stringify(kept));
  } catch {
    // not kept: a reload starts with an empty page
  }
}

/** The headline a card shows: its title without a level the meta line repeats; never a bare id. */
export function headline(citation, copy) {
  let title = String(citation.title ?? "").trim();
  const level = String(citation.level ?? "").trim();
  if (level && title.toLowerCase().startsWith(`${level.toLowerCase()}:`)) {
    title = title.slice(level.length + 1).trim();
  }
  if (title === "" || title === String(citation.id ?? "")) {
    const kind = citation.kind === "photo" ? copy.photo : String(citation.kind ?? "");
    return [kind, level, citation.date].filter((p) => p).join(" · ");
  }
  return title;
}

/**
 * What a refused request says. A 401 is the token's fault (503 would be the key
 * set's): say whether it expired or was not accepted, and how to get a new one.
 */
export function refusedText(status, failure, copy) {
  const head = copy.refused(status);
  if (status === 401) {
    // The server's reason (the signature, the audience, …) helps with a token that
    // was refused; an expired one needs no more than the word.
    const why =
      failure.code === "auth_expired"
        ? copy.authExpired
        : `${copy.authRejected}${failure.message ? ` (${failure.message})` : ""}`;
    return `${head}: ${why} ${copy.newToken}`;
  }
  return `${head}${failure.message ? `: ${failure.message}` : ""}`;
}

/** The names of the projects the caller's token sees; [] when they cannot be had. */
async function projectsOf(token) {
  try {
    const response = await fetch(new URL("/v1/projects", CHAT_ORIGIN), {
      headers: headers(token, { Accept: "application/json" }),
    });
    if (!response.ok) return [];
    const body = await response.json();
    const projects = Array.isArray(body?.projects) ? body.projects : [];
    return projects.map((p) => p?.name).filter((n) => typeof n === "string" && n.length > 0);
  } catch {
    return [];
  }
}

/**
 * Example questions from the locale's templates: `{project}` becomes one of the
 * caller's projects (the first for the first template, the next for the next, …);
 * a template that needs a project is left out while none is known. At most four.
 */
export function examplesFor(templates, projects) {
  let next = 0;
  const out = [];
  for (const template of templates) {
    if (!template.includes("{project}")) {
      out.push(template);
    } else if (projects.length > 0) {
      out.push(template.replaceAll("{project}", projects[next % projects.length]));
      next += 1;
    }
  }
  return out.slice(0, 4);
}

function headers(token, extra) {
  return { ...extra, Authorization: `Bearer ${token}` };
}

// FastAPI validation: {"detail": [{loc, msg}]}; ours: {"error": {code, message}}.
async function describeFailure(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  const fallback = { code: `http_${response.status}`, message: response.statusText || "" };
  if (!body || typeof body !== "object") return fallback;
  if (body.error && typeof body.error === "object") {
    return {
      code: String(body.error.code ?? fallback.code),
      message: String(body.error.message ?? fallback.message),
    };
  }
  if (Array.isArray(body.detail)) {
    const parts = body.detail.map((d) => {
      const where = Array.isArray(d?.loc) ? d.loc.join(".") : "";
      return where ? `${where}: ${d?.msg ?? ""}` : String(d?.msg ?? "");
    });
    return { code: "invalid_request", message: parts.join("; ") };
  }
  if (typeof body.detail === "string") return { code: fallback.code, message: body.detail };
  return fallback;
}

function build(root, locale) {
  const select = (testid, values, names) => {
    const node = el("select");
    node.dataset.testid = testid;
    for (const value of values) {
      const option = el("option", null, names[value]);
      option.value = value;
      node.append(option);
    }
    return node;
  };
  const mode = select("mode", ["single", "chat"], { single: "Single question", chat: "Chat" });
  // "" is Automatic: no locale is sent, the question's language answers.
  const localeSelect = select("locale", ["", ...LOCALES], { "": "Automatic", ...LOCALE_NAMES });
  localeSelect.value = LOCALES.includes(locale) ? locale : "";
  const modeLabel = el("span");
  const localeLabel = el("span");
  const modeWrap = el("label");
  modeWrap.append(modeLabel, mode);
  const localeWrap = el("label");
  localeWrap.append(localeLabel, localeSelect);
  const settings = el("div", "settings");
  settings.append(modeWrap, localeWrap);
  const bar = el("header", "bar");
  const quota = el("span", "quota");
  quota.dataset.testid = "quota";
  quota.setAttribute("aria-live", "polite");
  quota.hidden = true;
  bar.append(el("h1", "brand", "Beacon"), quota, settings);

  const context = el("p", "view-context");
  context.dataset.testid = "view-context";
  context.hidden = true;
  const contextLabel = el("span", "view-context-label");
  const contextText = el("span", "view-context-text");
  context.append(contextLabel, contextText);

  const tokenNote = el("p", "token-problem");
  tokenNote.dataset.testid = "token-problem";
  tokenNote.setAttribute("role", "alert");
  tokenNote.hidden = true;

  const examples = el("section", "examples");
  examples.dataset.testid = "examples";
  const examplesTitle = el("h2", "examples-title");
  const examplesList = el("ul", "examples-list");
  examples.append(examplesTitle, examplesList);

  const transcript = el("ol", "transcript");
  transcript.dataset.testid = "transcript";

  const form = el("form", "ask");
  form.autocomplete = "off";
  const question = el("textarea");
  question.rows = 2;
  question.dataset.testid = "question";
  const send = el("button", null);
  send.type = "submit";
  send.dataset.testid = "send";
  form.append(question, send);

  const main = el("main", "turn");
  main.append(context, tokenNote, examples, transcript, form);
  root.classList.add("beacon-panel");
  root.replaceChildren(bar, main);
  return {
    form,
    question,
    send,
    mode,
    modeLabel,
    locale: localeSelect,
    localeLabel,
    context,
    contextLabel,
    contextText,
    tokenNote,
    quota,
    examples,
    examplesTitle,
    examplesList,
    transcript,
  };
}

/** One turn's nodes, in reading order: question, badge, count line, answer, cards, notices. */
function turnNodes() {
  const node = el("li", "turn-item");
  node.dataset.testid = "turn";
  const asked = el("p", "asked");
  asked.dataset.testid = "asked";
  asked.hidden = true;
  const status = el("p", "status");
  status.dataset.testid = "status";
  status.dataset.phase = "idle";
  status.setAttribute("aria-live", "polite");
  const countLineNode = el("p", "count-line");
  countLineNode.dataset.testid = "count-line";
  countLineNode.hidden = true;
  const prose = el("div", "prose");
  prose.dataset.testid = "prose";
  const answer = el("section", "answer");
  answer.append(countLineNode, prose);
  const citations = el("section", "citations");
  const loadMore = el("button", "load-more");
  loadMore.type = "button";
  loadMore.dataset.testid = "load-more";
  loadMore.hidden = true;
  // Notices come after the answer they speak of ("That was a sample…").
  const notices = el("div", "notices");
  const trail = el("ol", "tool-trail");
  trail.dataset.testid = "tool-trail";
  trail.hidden = true;
  node.append(asked, status, answer, citations, loadMore, notices, trail);
  return { node, asked, status, countLine: countLineNode, prose, citations, loadMore, notices, trail };
}
