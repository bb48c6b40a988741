// The panel: `mountPanel(root, adapter)` draws into `root` and talks to its
// host only through the adapter (host.js). This module holds the panel's state
// and its turn flow (send, follow the stream, reattach), and wires the chrome
// (chrome.js), the turns on screen (turn_view.js), "Load more" (more.js) and
// the conversation kept for the tab (kept.js) to it.

import { build, drawExamples, drawQuota, drawTokenIssue, drawViewContext, drawWords, examplesFor } from "./chrome.js";
import { browserLocale, copyFor } from "./copy.js";
import { capabilityHint, checkAdapter, viewContextFor } from "./host.js";
import { forgetSession, keptTurns, pastTurns, remember, replayedState } from "./kept.js";
import { moreLoader } from "./more.js";
import { followQuota } from "./quota.js";
import { initialState, reduce, refusal, requestFailed, sending, streamDropped, streamEnded } from "./reducer.js";
import { CHAT_ORIGIN, describeFailure, postTurn, projectsOf, refusedText, turnEvents } from "./requests.js";
import { readEvents, toFrame } from "./sse.js";
import { BUSY } from "./state_table.js";
import { tokenProblem } from "./token.js";
import { drawTextOnly, drawTurn, freeze, turnNodes } from "./turn_view.js";

const REATTACH_ATTEMPTS = 3;

export function mountPanel(root, adapter, { locale = "" } = {}) {
  checkAdapter(adapter);
  const ui = build(root, locale);
  let state = initialState();
  let busyRequest = false;
  let copy = copyFor(chromeLocale());
  // The locale the answer on screen was asked in (its numbers are written that
  // way); under Automatic the question's, which the chrome's stands in for.
  let answerLocale = copy.locale;
  const more = moreLoader({
    state: () => state,
    setState,
    render,
    token: () => adapter.getAuthToken(),
    copy: () => copy,
    answerLocale: () => answerLocale,
  });
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
    if (started) remember(kept, state, turn.asked.textContent);
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
    ui.transcript.append(t.node);
    return t;
  }

  function buildTurn() {
    const t = turnNodes();
    t.drawn = { citations: null, notices: null, tools: null }; // what drawTurn last drew
    t.loadMore.textContent = copy.loadMore;
    t.loadMore.addEventListener("click", () => more.load(t.loadMore.dataset.slot));
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
        response = await postTurn(token, body);
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

  // ---- the conversation kept for the tab, drawn again -----------------------

  async function restore() {
    if (kept.turns.length === 0 && !kept.sessionId) return;
    if (kept.mode === "chat") ui.mode.value = "chat";
    const token = await adapter.getAuthToken();
    const past = await pastTurns(token, kept);
    if (past.sessionId !== null) state = { ...state, sessionId: past.sessionId };
    const drawnTurns = [];
    for (const { id, question, messages } of past.turns) {
      const node = (await replayed(token, id, question)) ?? textOnly(messages);
      if (node) drawnTurns.push(node);
    }
    for (const node of drawnTurns) ui.transcript.insertBefore(node, turn.node);
    render();
    drawnTurns.at(-1)?.scrollIntoView?.({ block: "start" });
  }

  /** An earlier turn drawn again from its own frames: question, badge, count line, cards, notices. */
  async function replayed(token, turnId, asked) {
    const st = await replayedState(token, turnId);
    if (st === null) return null;
    const t = buildTurn();
    t.asked.textContent = asked;
    t.asked.hidden = asked === "";
    drawTurn(t, st, drawing(false));
    return freeze(t);
  }

  function textOnly(messages) {
    if (!Array.isArray(messages) || messages.length === 0) return null;
    const t = buildTurn();
    drawTextOnly(t, messages);
    return freeze(t);
  }

  // ---- drawing -------------------------------------------------------------

  function drawing(live) {
    return { copy, adapter, reply: send, live, loadingMore: more.loading };
  }

  function render() {
    const phase = state.phase;
    root.dataset.phase = phase;
    root.dataset.session = state.sessionId ?? "";
    const busy = BUSY.includes(phase) || busyRequest;
    ui.send.disabled = busy;
    ui.form.setAttribute("aria-busy", String(busy));
    if (state.turnId !== null && tokenIssue !== null) showTokenIssue(null); // it worked after all
    drawTurn(turn, state, drawing(true));
    const first = ui.transcript.querySelector(".turn-item:not([hidden])") === null;
    ui.examples.hidden = !first;
  }

  function showTokenIssue(problem) {
    tokenIssue = problem;
    drawTokenIssue(ui.tokenNote, problem, copy);
  }

  function drawChrome() {
    copy = copyFor(chromeLocale());
    root.lang = copy.locale;
    drawWords(ui, copy);
    turn.loadMore.textContent = copy.loadMore;
    drawExamples(ui.examplesList, examplesFor(copy.examples, projectNames), send);
    if (tokenIssue !== null) showTokenIssue(tokenIssue);
    drawQuota(ui.quota, quota, copy);
    turn.drawn.notices = null; // option titles are localised
    render();
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
      forgetSession(kept);
    }
  });
  ui.locale.addEventListener("change", drawChrome);

  if (adapter.capabilities.viewContext !== "none") {
    const showContext = (snapshot) => drawViewContext(ui, snapshot);
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
          drawQuota(ui.quota, quota, copy);
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
