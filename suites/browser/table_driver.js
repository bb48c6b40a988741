// Drives every row of the panel state table through the real reducer, from a
// state in the row's `from` phase, and reports what happened. One async
// function expression: Playwright evaluates it in the page, node evals it.
async (base) => {
  const table = await import(`${base}state_table.js`);
  const st = await import(`${base}reducer.js`);
  const T = "t_table";
  const frame = (type, data = {}) => ({ type, data: { turn_id: T, seq: 100, ...data } });
  const count = (grade, total, displayed, extra = {}) => ({
    source: "s", slot: "c1", grade, total, displayed, has_more: grade === "LOWER_BOUND",
    total_is_lower_bound: grade === "LOWER_BOUND", more: false,
    // As the server says it (counts[].complete): an exact count with nothing beyond it.
    complete: grade === "EXACT" && total !== null, ...extra,
  });
  // What the frames so far must hold for `done` to mean each done-event.
  const DONE_SETUP = {
    "done-complete": {},
    "done-sample": { counts: [count("LOWER_BOUND", 40, 10)] },
    "done-empty": { counts: [count("EXACT", 0, 0)] },
    "done-unknown": { counts: [count("UNKNOWN", null, 0)] },
    "done-denied": { counts: [count("UNKNOWN", null, 0)], notices: [{ kind: "denied", text: "d", code: null, options: [] }] },
    "done-failure": { counts: [count("UNKNOWN", null, 0)], notices: [{ kind: "failure", text: "f", code: null, options: [] }] },
  };
  const FRAMES = {
    start: frame("start", { seq: 1, session_id: null, mode: "single" }),
    plan: frame("plan", { round: 1, purpose: "gather", calls: [] }),
    tool_call: frame("tool_call", { call_id: "k", tool: "x", arguments: {} }),
    tool_result: frame("tool_result", { call_id: "k", tool: "x", status: "ok", grade: "EXACT" }),
    references: frame("references", { citations: [], counts: [], complete: true }),
    delta: frame("delta", { text: "x" }),
    notice: frame("notice", { kind: "disclosure", text: "n", options: [] }),
    heartbeat: frame("heartbeat"),
    error: frame("error", { code: "internal", message: "m" }),
  };
  const inPhase = (phase, extra = {}) => ({
    ...st.initialState(),
    phase,
    turnId: phase === "idle" || phase === "sending" ? null : T,
    lastSeq: phase === "idle" || phase === "sending" ? 0 : 5,
    ...extra,
  });
  const act = (row) => {
    if (row.event === "send") { const s = inPhase(row.from); return [s, st.sending(s)]; }
    if (row.event === "refused") { const s = inPhase(row.from); return [s, st.requestFailed(s, { status: 401, code: "auth_expired", text: "x" })]; }
    if (row.event === "dropped") { const s = inPhase(row.from); return [s, st.streamDropped(s)]; }
    if (row.event === "unterminated") { const s = inPhase(row.from); return [s, st.streamEnded(s, "x")]; }
    if (row.event === "more-sample" || row.event === "more-complete") {
      const s = inPhase(row.from, { counts: [count("EXACT", 30, 10, { more: true })] });
      const displayed = row.event === "more-sample" ? 20 : 30;
      return [s, st.moreLoaded(s, { slot: "c1", citations: [], count: count("EXACT", 30, displayed) })];
    }
    if (row.event.startsWith("done-")) {
      const s = inPhase(row.from, DONE_SETUP[row.event]);
      return [s, st.reduce(s, frame("done", { finish_reason: "stop", answer: "" }))];
    }
    const s = inPhase(row.from);
    return [s, st.reduce(s, FRAMES[row.event])];
  };
  return table.ROWS.map((row) => {
    const [before, after] = act(row);
    const stepped = table.step(row.from, row.event);
    return {
      id: row.id, legal: row.legal, expectedTo: row.to, reason: row.reason,
      stepLegal: stepped.legal, stepTo: stepped.to, stepReason: stepped.reason,
      reachedPhase: after.phase, untouched: after === before,
    };
  });
}
