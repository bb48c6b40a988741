// The example page: follows the turn named in the fragment with turn-events.js
// and lists each frame; the status says how the stream ended, telling the
// server's `error` frame from a connection error.

import { eventsUrl, followTurn } from "/hosts/shared/turn-events.js";

const params = new URLSearchParams(location.hash.slice(1));
const status = document.querySelector("[data-testid=stream-status]");
const list = document.querySelector("[data-testid=frames]");

function say(state, text) {
  status.dataset.state = state;
  status.textContent = text;
}

function show(frame) {
  const item = document.createElement("li");
  item.dataset.testid = "frame";
  item.dataset.type = frame.type;
  item.dataset.seq = String(frame.seq);
  item.textContent = `${frame.seq} ${frame.type}`;
  list.append(item);
}

if (params.get("turn") && params.get("ticket")) {
  say("open", "following");
  followTurn(eventsUrl(location.origin, params.get("turn"), params.get("ticket")), {
    onFrame: show,
    onConnectionError: (readyState) =>
      say(readyState === EventSource.CLOSED ? "connection-closed" : "reconnecting", "connection error"),
    onEnd: (how) => {
      if (how.kind === "frame" && how.frame.type === "error") {
        say("error-frame", `the turn failed: ${how.frame.data.code}`);
      } else if (how.kind === "frame") {
        say("done", "complete");
      } else {
        say("connection-closed", "the stream could not be opened");
      }
    },
  });
}
