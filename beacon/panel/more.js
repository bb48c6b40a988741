// "Load more": the next page of a slot's cards, one request at a time. A page for
// another slot, a refusal or no answer is a failure the turn says, never cards;
// an expired token is said as such, with how to get a new one.

import { copyFor } from "./copy.js";
import { moreFailed, moreLoaded } from "./reducer.js";
import { describeFailure, postMore, refusedText } from "./requests.js";

/**
 * The load-more flow of a mounted panel. `panel` gives what the flow reads and
 * changes: `state()`, `setState(next)`, `render()`, `token()`, `copy()` (the
 * chrome's words) and `answerLocale()` (the locale the answer was asked in).
 */
export function moreLoader(panel) {
  let loading = false;

  async function load(slot) {
    if (loading || !panel.state().turnId) return;
    loading = true;
    panel.render();
    try {
      const token = await panel.token();
      const response = await postMore(token, panel.state().turnId, slot);
      if (response.status === 401) {
        // The token went bad since the answer (it expired): say so, and how to get one.
        const text = refusedText(401, await describeFailure(response), panel.copy());
        panel.setState(moreFailed(panel.state(), text));
        return;
      }
      const page = response.ok ? await response.json() : null;
      if (!page || page.slot !== slot) {
        panel.setState(moreFailed(panel.state(), panel.copy().moreFailed));
        return;
      }
      const written = panel.state().locale ?? panel.answerLocale(); // the server's word, when it gave one
      panel.setState(moreLoaded(panel.state(), page, { number: copyFor(written).number }));
    } catch {
      panel.setState(moreFailed(panel.state(), panel.copy().moreFailed));
    } finally {
      loading = false;
      panel.render();
    }
  }

  return {
    load,
    get loading() {
      return loading;
    },
  };
}
