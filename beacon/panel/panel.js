// The panel: `mountPanel(root, adapter)` draws into `root` and talks to its
// host only through the adapter (host.js). Turns go to this module's own
// origin (the chat server that served it). Every server-provided string is
// set with textContent: the model's words and the upstream's titles are
// untrusted.

import { countLine, statusLine } from "./countline.js";
import { copyFor } from "./copy.js";
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
  streamDropped,
  streamEnded,
} from "./state.js";
import { BUSY } from "./states.js";
import { element as el, safeUrl } from "./dom.js";
import { DEFAULT_LOCALE, LOCALES } from "./vocabulary.js";

const CHAT_ORIGIN = new URL(import.meta.url).origin;
const REATTACH_ATTEMPTS = 3;
// Each locale named in its own language, from its own copy table.
const LOCALE_NAMES = Object.fromEntries(LOCALES.map((l) => [l, copyFor(l).languageName]));

export function mountPanel(root, adapter, { locale = "en" } = {}) {
  checkAdapter(adapter);
  const ui = build(root, locale);
  let state = initialState();
  let busyRequest = false;
  let loadingMore = false;
  let copy = copyFor(ui.locale.value);
  // The locale the answer on screen was asked in: its numbers are written that way.
  let answerLocale = ui.locale.value;
  const drawn = { citations: null, notices: null, tools: null };

  root.dataset.surface = String(adapter.getCurrentSurfaceId());
  root.dataset.facility = String(adapter.getFacilityKey());
  root.dataset.admin = String(Boolean(adapter.getIsAdmin()));

  function setState(next) {
    if (next === state) return;
    state = next;
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

  async function send(text) {
    const message = String(text ?? "").trim();
    if (!message || busyRequest || BUSY.includes(state.phase)) return;
    busyRequest = true;
    setState(sending(state));
    const mode = ui.mode.value === "chat" ? "chat" : "single";
    const body = { mode, message, locale: ui.locale.value };
    answerLocale = body.locale;
    if (mode === "chat" && state.sessionId) body.session_id = state.sessionId;
    const view = viewContextFor(adapter);
    if (view) body.view_context = view;
    const hint = capabilityHint(adapter);
    if (hint) body.capability_hint = hint;
    ui.question.value = "";
    ui.asked.textContent = message;
    ui.asked.hidden = false;
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
        setState(requestFailed(state, { status: null, code: "network", text: copy.network }));
        return;
      }
      if (!response.ok) {
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
    const url = new URL(`/v1/turns/${encodeURIComponent(state.turnId)}/events`, CHAT_ORIGIN);
    url.searchParams.set("after", String(state.lastSeq));
    let response;
    try {
      response = await fetch(url, {
        headers: headers(token, {
          Accept: "text/event-stream",
          "Last-Event-ID": String(state.lastSeq),
        }),
      });
    } catch {
      return false;
    }
    if (!response.ok) return false;
    await follow(response);
    return true;
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
      setState(moreLoaded(state, page, { number: copyFor(answerLocale).number }));
    } catch {
      setState(moreFailed(state, copy.moreFailed));
    } finally {
      loadingMore = false;
      render();
    }
  }

  // ---- drawing -------------------------------------------------------------

  function render() {
    const phase = state.phase;
    ui.status.textContent = statusLine(phase, state.counts, copy);
    ui.status.dataset.phase = phase;
    root.dataset.phase = phase;
    if (state.cause) ui.status.dataset.cause = state.cause;
    else delete ui.status.dataset.cause;
    root.dataset.session = state.sessionId ?? "";
    const busy = BUSY.includes(phase) || busyRequest;
    ui.send.disabled = busy;
    ui.form.setAttribute("aria-busy", String(busy));

    if (ui.prose.textContent !== state.prose) ui.prose.textContent = state.prose;

    const line = countLine(state.counts, copy);
    ui.countLine.textContent = line.text;
    ui.countLine.hidden = line.hidden;
    if (line.grade) ui.countLine.dataset.grade = line.grade;
    else delete ui.countLine.dataset.grade;

    if (drawn.citations !== state.citations) {
      drawn.citations = state.citations;
      ui.citations.replaceChildren(...state.citations.map(card));
    }
    if (drawn.notices !== state.notices) {
      drawn.notices = state.notices;
      ui.notices.replaceChildren(...state.notices.map(noticeCard));
    }
    if (adapter.getIsAdmin() && drawn.tools !== state.tools) {
      drawn.tools = state.tools;
      ui.trail.replaceChildren(
        ...state.tools.map((t) => {
          const item = el("li", `trail-${t.status}`, `${t.tool}: ${t.status}`);
          item.dataset.tool = String(t.tool);
          item.dataset.status = String(t.status);
          return item;
        }),
      );
      ui.trail.hidden = state.tools.length === 0;
    }

    const more = phase === "complete-sample" ? state.counts.find((c) => c.more === true) : undefined;
    ui.loadMore.hidden = more === undefined;
    ui.loadMore.disabled = loadingMore;
    if (more) ui.loadMore.dataset.slot = String(more.slot);
  }

  function drawChrome() {
    copy = copyFor(ui.locale.value);
    root.lang = copy.locale;
    ui.modeLabel.textContent = copy.mode;
    ui.localeLabel.textContent = copy.language;
    ui.mode.options[0].textContent = copy.modeSingle;
    ui.mode.options[1].textContent = copy.modeChat;
    ui.question.placeholder = copy.placeholder;
    ui.question.setAttribute("aria-label", copy.placeholder);
    ui.send.textContent = copy.send;
    ui.loadMore.textContent = copy.loadMore;
    ui.contextLabel.textContent = copy.context;
    drawn.notices = null; // option titles are localised
    render();
  }

  function card(citation) {
    const node = el("article", "card");
    node.dataset.testid = "citation-card";
    if (citation.id) node.dataset.citationId = String(citation.id);
    const title = String(citation.title ?? "");

    // No placeholder for a missing or broken thumbnail: an empty box says nothing.
    const thumb = safeUrl(citation.thumbnail, { image: true });
    if (thumb) {
      const img = el("img", "thumb");
      img.alt = title;
      img.loading = "lazy";
      img.decoding = "async";
      img.src = thumb;
      img.addEventListener("error", () => img.remove(), { once: true });
      node.append(img);
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
    if (ui.mode.value !== "chat") setState({ ...state, sessionId: null });
  });
  ui.locale.addEventListener("change", drawChrome);
  ui.loadMore.addEventListener("click", () => loadMore(ui.loadMore.dataset.slot));

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
  return { send, get phase() { return state.phase; } };
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
  const localeSelect = select("locale", LOCALES, LOCALE_NAMES);
  localeSelect.value = LOCALES.includes(locale) ? locale : DEFAULT_LOCALE;
  const modeLabel = el("span");
  const localeLabel = el("span");
  const modeWrap = el("label");
  modeWrap.append(modeLabel, mode);
  const localeWrap = el("label");
  localeWrap.append(localeLabel, localeSelect);
  const settings = el("div", "settings");
  settings.append(modeWrap, localeWrap);
  const bar = el("header", "bar");
  bar.append(el("h1", "brand", "Beacon"), settings);

  const context = el("p", "view-context");
  context.dataset.testid = "view-context";
  context.hidden = true;
  const contextLabel = el("span", "view-context-label");
  const contextText = el("span", "view-context-text");
  context.append(contextLabel, contextText);

  const form = el("form", "ask");
  form.autocomplete = "off";
  const question = el("textarea");
  question.rows = 2;
  question.dataset.testid = "question";
  const send = el("button", null);
  send.type = "submit";
  send.dataset.testid = "send";
  form.append(question, send);

  const status = el("p", "status");
  status.dataset.testid = "status";
  status.dataset.phase = "idle";
  status.setAttribute("aria-live", "polite");
  const notices = el("div", "notices");
  const asked = el("p", "asked");
  asked.hidden = true;
  const countLineNode = el("p", "count-line");
  countLineNode.dataset.testid = "count-line";
  countLineNode.hidden = true;
  const prose = el("div", "prose");
  prose.dataset.testid = "prose";
  const answer = el("section", "answer");
  answer.append(asked, countLineNode, prose);
  const citations = el("section", "citations");
  const loadMore = el("button", "load-more");
  loadMore.type = "button";
  loadMore.dataset.testid = "load-more";
  loadMore.hidden = true;
  const trail = el("ol", "tool-trail");
  trail.dataset.testid = "tool-trail";
  trail.hidden = true;

  const main = el("main", "turn");
  main.append(context, form, status, notices, answer, citations, loadMore, trail);
  root.classList.add("beacon-panel");
  root.replaceChildren(bar, main);
  return {
    form,
    asked,
    question,
    send,
    mode,
    modeLabel,
    locale: localeSelect,
    localeLabel,
    status,
    notices,
    countLine: countLineNode,
    prose,
    citations,
    loadMore,
    trail,
    context,
    contextLabel,
    contextText,
  };
}
