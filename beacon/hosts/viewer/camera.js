// The viewer's camera: where it stands, the point it looks at and the way it
// faces (metres, project coordinates), as a citation's target gave them. A move
// is animated (smoothstep, MOVE_MS; none under prefers-reduced-motion) and ends
// exactly on the target's numbers. The state is on the page for any reader:
// `data-camera-position|look-at|direction` ("x,y,z") and `data-camera-state`
// ("still", "moving", "none") on the viewer element, and `window.viewerCamera`.

import { cameraView } from "/hosts/viewer/link.js";

export const MOVE_MS = 450;

function aim(position, lookAt) {
  const d = lookAt.map((v, i) => v - position[i]);
  const length = Math.hypot(...d);
  return length > 0 ? d.map((v) => v / length) : null;
}

/** The camera of the viewer drawn in `node`: `moveTo(view)` (null: no known view). */
export function createCamera(node, win = window) {
  let current = null;
  let goal = null;
  let frame = 0;

  function publish(view, moving) {
    current = view;
    const attrs = { cameraPosition: "position", cameraLookAt: "look_at", cameraDirection: "direction" };
    for (const [key, axis] of Object.entries(attrs)) {
      if (view) node.dataset[key] = view[axis].join(",");
      else delete node.dataset[key];
    }
    node.dataset.cameraState = view ? (moving ? "moving" : "still") : "none";
    win.viewerCamera = Object.freeze({
      position: view ? [...view.position] : null,
      look_at: view ? [...view.look_at] : null,
      direction: view ? [...view.direction] : null,
      moving,
      goal: goal ? cameraView(goal) : null,
    });
  }

  function moveTo(wanted, { animate = true } = {}) {
    const to = cameraView(wanted);
    goal = to;
    win.cancelAnimationFrame(frame);
    const still = win.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    if (!to || !current || !animate || still) {
      publish(to, false);
      return;
    }
    const from = current;
    // Moving from the moment the move begins, not from its first animation frame: until
    // that frame it would say "still" on the old view, which a reader waiting for "still"
    // takes for the new one.
    publish(from, true);
    let start = null;
    const step = (now) => {
      start ??= now;
      const t = Math.min(1, (now - start) / MOVE_MS);
      if (t >= 1) {
        publish(to, false);
        return;
      }
      const e = t * t * (3 - 2 * t);
      const lerp = (a, b) => a.map((v, i) => v + (b[i] - v) * e);
      const position = lerp(from.position, to.position);
      const lookAt = lerp(from.look_at, to.look_at);
      publish({ position, look_at: lookAt, direction: aim(position, lookAt) ?? to.direction }, true);
      frame = win.requestAnimationFrame(step);
    };
    frame = win.requestAnimationFrame(step);
  }

  publish(null, false);
  return {
    moveTo,
    get view() {
      return current;
    },
  };
}
