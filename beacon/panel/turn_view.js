// One turn on screen: its nodes in reading order, drawn from the reducer's view
// model (status, count line, answer, cards, notices, the admin's tool trail), and
// frozen into the conversation once it has settled. Every server-provided string
// is set with textContent: the model's words and the upstream's titles are untrusted.

import { countLine, statusLine } from "./countline.js";
import { card } from "./cards.js";
import { element as el } from "./dom.js";
import { noticeCard } from "./notices.js";
import { standingOf } from "./reducer.js";
import { proseParts } from "./shown.js";

/** One turn's nodes, in reading order: question, badge, count line, answer, cards, notices. */
export function turnNodes() {
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

/**
 * Draws `st` into the turn `t`. `view` is what the drawing needs from the panel:
 * the chrome's `copy`, the host `adapter`, `reply` (send a question), whether the
 * turn is the `live` one (only it offers "Load more") and whether a page is `loadingMore`.
 */
export function drawTurn(t, st, view) {
  const { copy, adapter } = view;
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
    t.citations.replaceChildren(...st.citations.map((c) => card(c, copy, adapter)));
  }
  if (t.drawn.notices !== st.notices) {
    t.drawn.notices = st.notices;
    t.notices.replaceChildren(...st.notices.map((n) => noticeCard(n, copy, view.reply)));
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

  const more = view.live && phase === "complete-sample" ? st.counts.find((c) => c.more === true) : undefined;
  t.loadMore.hidden = more === undefined;
  t.loadMore.disabled = view.loadingMore;
  if (more) t.loadMore.dataset.slot = String(more.slot);
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

/** A past turn the server has no frames for: the session's words only, no badge. */
export function drawTextOnly(t, messages) {
  const question = messages.find((m) => m.role === "user");
  const answer = messages.find((m) => m.role === "assistant");
  t.asked.textContent = String(question?.text ?? "");
  t.asked.hidden = !question;
  t.prose.textContent = String(answer?.text ?? "");
  t.status.hidden = true;
  t.loadMore.hidden = true;
}

/** A turn that has settled becomes part of the conversation: its test ids say so. */
export function freeze(t) {
  for (const node of t.node.querySelectorAll("[data-testid]")) {
    if (!node.dataset.testid.startsWith("past-")) node.dataset.testid = `past-${node.dataset.testid}`;
  }
  t.loadMore.remove();
  t.node.classList.add("past");
  t.node.hidden = false;
  return t.node;
}
