// A notice under the answer ("That was a sample…", a denial, a failure) and, for
// a narrowing or counter-question, its options: each a button that sends its
// reply as the next question, the server's recommended one marked.

import { element as el } from "./dom.js";

export function noticeCard(notice, copy, reply) {
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
      button.addEventListener("click", () => reply(String(option.reply ?? "")));
      options.append(button);
    }
    node.append(options);
  }
  return node;
}
