// The site viewer's own address for a citation target, and its reading back.
// The server sends where a record lives (project, kind, id, level, panorama,
// the camera view onto it), never a URL: this host decides what its URL for that
// place is. The console host routes its citations here through the same function.

export const VIEWER_PATH = "/hosts/viewer/";
const VIEW_AXES = ["position", "look_at", "direction"];

/**
 * A target's camera view `{position, look_at, direction}` as fresh arrays, or null
 * unless each is three finite numbers and the direction is not all zeros (the
 * server's rule, beacon/wire/targets.py: a camera is never sent to NaN).
 */
export function cameraView(view) {
  if (!view || typeof view !== "object") return null;
  const out = {};
  for (const axis of VIEW_AXES) {
    const vector = view[axis];
    if (!Array.isArray(vector) || vector.length !== 3) return null;
    if (!vector.every((n) => typeof n === "number" && Number.isFinite(n))) return null;
    out[axis] = [...vector];
  }
  return out.direction.some((n) => n !== 0) ? out : null;
}

/** A view in the `view=` parameter: `x,y,z;x,y,z;x,y,z` (position; look_at; direction). */
export function viewParam(view) {
  return VIEW_AXES.map((axis) => view[axis].join(",")).join(";");
}

/** The view a `view=` parameter names, or null when it names none (or a malformed one). */
export function readViewParam(text) {
  if (typeof text !== "string") return null;
  const parts = text.split(";");
  if (parts.length !== VIEW_AXES.length) return null;
  const view = {};
  VIEW_AXES.forEach((axis, i) => {
    view[axis] = parts[i].split(",").map((n) => (n.trim() === "" ? Number.NaN : Number(n)));
  });
  return cameraView(view);
}

/** `/hosts/viewer/?project=…&panorama=…&level=…&focus=…&view=…` for a target, or null. */
export function viewerHref(target) {
  if (!target || typeof target.kind !== "string" || typeof target.id !== "string") return null;
  const params = new URLSearchParams();
  if (typeof target.project_id === "string") params.set("project", target.project_id);
  const panorama = target.kind === "panorama" ? target.id : target.panorama_id;
  if (typeof panorama === "string") params.set("panorama", panorama);
  if (Number.isInteger(target.level_number)) params.set("level", String(target.level_number));
  if (target.kind !== "panorama") params.set("focus", target.id);
  const view = cameraView(target.view);
  if (view) params.set("view", viewParam(view));
  return `${VIEWER_PATH}?${params}`;
}

/**
 * What a viewer address points at: `{ panorama, level, focus, view }` (each null
 * when absent). `photo=`/`annotation=` are read as the focus too: the standalone
 * panel links here by kind.
 */
export function readViewerParams(params) {
  const level = Number.parseInt(params.get("level") ?? "", 10);
  return {
    panorama: params.get("panorama"),
    level: Number.isInteger(level) ? level : null,
    focus: params.get("focus") ?? params.get("photo") ?? params.get("annotation"),
    view: readViewParam(params.get("view")),
  };
}
