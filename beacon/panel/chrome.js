// Everything around the turns: the page's frame (bar, settings, view context,
// token note, examples, transcript, question form) and the words, quota line,
// token problem and example questions drawn into it in the chrome's locale.

import { copyFor } from "./copy.js";
import { element as el } from "./dom.js";
import { LOCALES } from "./vocabulary.js";

// Each locale named in its own language, from its own copy table.
const LOCALE_NAMES = Object.fromEntries(LOCALES.map((l) => [l, copyFor(l).languageName]));

/** The panel's frame in `root`; returns its nodes by name. */
export function build(root, locale) {
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

/** The chrome's fixed words in `copy`'s locale. */
export function drawWords(ui, copy) {
  ui.modeLabel.textContent = copy.mode;
  ui.localeLabel.textContent = copy.language;
  ui.mode.options[0].textContent = copy.modeSingle;
  ui.mode.options[1].textContent = copy.modeChat;
  ui.locale.options[0].textContent = copy.automatic;
  ui.question.placeholder = copy.placeholder;
  ui.question.setAttribute("aria-label", copy.placeholder);
  ui.send.textContent = copy.send;
  ui.contextLabel.textContent = copy.context;
  ui.examplesTitle.textContent = copy.examplesTitle;
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

/** The example questions as buttons; a click asks it. */
export function drawExamples(list, questions, ask) {
  list.replaceChildren(
    ...questions.map((q) => {
      const item = el("li");
      const button = el("button", "example", q);
      button.type = "button";
      button.dataset.testid = "example";
      button.addEventListener("click", () => ask(q));
      item.append(button);
      return item;
    }),
  );
}

/** The quota line: hidden without a quota, else what is left today (live). */
export function drawQuota(node, quota, copy) {
  const shown = quota !== null && quota.remaining !== null;
  node.hidden = !shown;
  node.dataset.remaining = quota === null ? "" : shown ? String(quota.remaining) : "unlimited";
  if (!shown) {
    node.replaceChildren();
    delete node.dataset.exhausted;
    return;
  }
  node.dataset.exhausted = String(quota.remaining === 0);
  const limit = quota.limit === null ? null : copy.number(quota.limit);
  node.textContent = copy.quotaLeft(copy.number(quota.remaining), limit);
  const reset = quota.resetAt ? new Date(quota.resetAt) : null;
  node.title = reset && !Number.isNaN(reset.getTime())
    ? copy.quotaReset(reset.toLocaleTimeString(copy.locale, { hour: "2-digit", minute: "2-digit" }))
    : "";
}

/** A token that cannot work, said in words with its fix; `null` hides the note. */
export function drawTokenIssue(node, problem, copy) {
  node.hidden = problem === null;
  if (problem === null) return;
  node.dataset.problem = problem;
  const words = { missing: copy.tokenMissing, malformed: copy.tokenMalformed, expired: copy.tokenExpired };
  node.replaceChildren(
    el("span", "token-words", words[problem]),
    document.createTextNode(" "),
    el("span", "token-fix", copy.newToken),
  );
}

/** Where the host's viewer stands (project · level · capture); hidden when it says nothing. */
export function drawViewContext(ui, snapshot) {
  const parts = [snapshot?.project_name, snapshot?.level, snapshot?.capture_label]
    .filter((p) => typeof p === "string" && p !== "")
    .map(String);
  ui.contextText.textContent = parts.join(" · ");
  ui.context.hidden = parts.length === 0;
}
