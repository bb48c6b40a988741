// The site viewer's own address for a citation target, and its reading back.
// The server sends where a record lives (project, kind, id, level, panorama),
// never a URL: this host decides what its URL for that place is. The console
// host routes its citations here through the same function.

export const VIEWER_PATH = "/hosts/viewer/";

/** `/hosts/viewer/?project=…&panorama=…&level=…&focus=…` for a target, or null. */
export function viewerHref(target) {
  if (!target || typeof target.kind !== "string" || typeof target.id !== "string") return null;
  const params = new URLSearchParams();
  if (typeof target.project_id === "string") params.set("project", target.project_id);
  const panorama = target.kind === "panorama" ? target.id : target.panorama_id;
  if (typeof panorama === "string") params.set("panorama", panorama);
  if (Number.isInteger(target.level_number)) params.set("level", String(target.level_number));
  if (target.kind !== "panorama") params.set("focus", target.id);
  return `${VIEWER_PATH}?${params}`;
}

/**
 * What a viewer address points at: `{ panorama, level, focus }` (each null when
 * absent). `photo=`/`annotation=` are read as the focus too: the standalone
 * panel links here by kind.
 */
export function readViewerParams(params) {
  const level = Number.parseInt(params.get("level") ?? "", 10);
  return {
    panorama: params.get("panorama"),
    level: Number.isInteger(level) ? level : null,
    focus: params.get("focus") ?? params.get("photo") ?? params.get("annotation"),
  };
}
