// The site-viewer host: levels and panoramas of Harbor Tower, with the panel
// beside them. It gives the panel its full view (project, level, panorama,
// the pins on that panorama trimmed to the wire's cap) and moves its own view
// when a citation is clicked: its level, panorama and focus, and its camera to the
// target's view, in place (a history entry, never a reload). All of it through the
// nine adapter methods; a citation's link is this host's own URL, built from the
// target the server sent, the view included, so a fresh open lands at that view.

import { VIEW_ANNOTATIONS_CAP } from "/panel/host.js";
import { mountPanel } from "/panel/panel.js";
import { signIn } from "/hosts/shared/token.js";
import { createCamera } from "/hosts/viewer/camera.js";
import { cameraView, readViewerParams, viewParam, viewerHref } from "/hosts/viewer/link.js";
import { LEVELS, PANORAMAS, PROJECT, annotationsOf } from "/hosts/viewer/site.js";

const $ = (id) => document.getElementById(id);
const session = signIn(window);
const listeners = new Set();
const camera = createCamera(document.querySelector('[data-testid="viewer"]'));

// The view is this host's app state; the DOM below is drawn from it.
let view = initialView(new URL(window.location.href).searchParams);

function initialView(params) {
  const wanted = readViewerParams(params);
  return { ...placeOf(wanted), camera: wanted.view };
}

function placeOf(wanted) {
  const start = { level: 3, panoramaId: "cap-000003", focus: null };
  const panorama = PANORAMAS.find((p) => p.id === wanted.panorama);
  if (panorama) return { level: panorama.level, panoramaId: panorama.id, focus: wanted.focus ?? panorama.id };
  // A panorama this demo site does not list, on a level it does: open it there.
  if (wanted.panorama && LEVELS.some((l) => l.number === wanted.level)) {
    return { level: wanted.level, panoramaId: wanted.panorama, focus: wanted.focus ?? wanted.panorama };
  }
  const first = PANORAMAS.find((p) => p.level === wanted.level);
  if (first) return { level: first.level, panoramaId: first.id, focus: wanted.focus };
  return wanted.focus ? { ...start, focus: wanted.focus } : start;
}

function panoramaOf(v) {
  return (
    PANORAMAS.find((p) => p.id === v.panoramaId) ?? {
      level: v.level,
      id: v.panoramaId,
      label: v.panoramaLabel ?? v.panoramaId,
      time: v.panoramaTime ?? null,
    }
  );
}

function snapshot() {
  const pano = panoramaOf(view);
  const pins = annotationsOf(pano.id);
  return {
    project_id: PROJECT.id,
    project_name: PROJECT.name,
    team_name: "Northline Builders",
    level: `Level ${view.level}`,
    level_number: view.level,
    panorama_id: pano.id,
    capture_label: pano.label,
    capture_time: pano.time ?? undefined,
    selected_annotation_id: pins[0]?.id,
    // The host trims to the wire's cap; the server discloses a list at its cap.
    annotations: pins.slice(0, VIEW_ANNOTATIONS_CAP),
  };
}

// A citation's move is a history entry (pushState: Back returns to where the user
// was); the viewer's own buttons replace the address; popstate only redraws.
function moveTo(next, history = "replace") {
  view = next;
  const url = new URL(window.location.href);
  for (const key of ["panorama", "level", "focus", "photo", "annotation", "view"]) url.searchParams.delete(key);
  url.searchParams.set("project", PROJECT.id);
  url.searchParams.set("panorama", view.panoramaId);
  url.searchParams.set("level", String(view.level));
  if (view.focus && view.focus !== view.panoramaId) url.searchParams.set("focus", view.focus);
  if (view.camera) url.searchParams.set("view", viewParam(view.camera));
  if (history === "push") window.history.pushState(null, "", url.pathname + url.search);
  else if (history === "replace") window.history.replaceState(window.history.state, "", url.pathname + url.search);
  camera.moveTo(view.camera ?? null);
  draw();
  const snap = snapshot();
  for (const listener of listeners) listener(snap);
}

// The record kinds this viewer can show in place; other citations navigate.
const SHOWN_HERE = new Set(["panorama", "photo", "annotation"]);

const adapter = {
  capabilities: Object.freeze({ viewContext: "full", citations: "dispatch", viewerEvents: true }),
  getFacilityKey: () => "northline-harbor-tower",
  getAuthToken: async () => session.token,
  getLicenseTierSet: () => session.tiers,
  getCurrentSurfaceId: () => "viewer",
  getViewerSnapshot: snapshot,
  dispatchCitation(citation) {
    const target = citation.target;
    if (!target || !SHOWN_HERE.has(target.kind) || typeof target.id !== "string") return false;
    // The camera goes where the target says, or to no known view: never kept from
    // the last record, as if this one were seen from there.
    const cameraTo = cameraView(target.view);
    const levelMatch = /(\d+)/.exec(String(citation.level ?? ""));
    const level = Number.isInteger(target.level_number)
      ? target.level_number
      : levelMatch
        ? Number(levelMatch[1])
        : view.level;
    if (target.kind === "panorama") {
      const known = PANORAMAS.find((p) => p.id === target.id);
      moveTo({
        level: known?.level ?? level,
        panoramaId: target.id,
        panoramaLabel: known?.label ?? String(citation.title ?? target.id),
        panoramaTime: known?.time ?? citation.date ?? null,
        focus: target.id,
        camera: cameraTo,
      }, "push");
    } else if (typeof target.panorama_id === "string") {
      // A photo or a pin on a known capture: open that panorama, focused on it.
      const known = PANORAMAS.find((p) => p.id === target.panorama_id);
      moveTo({
        level: known?.level ?? level,
        panoramaId: target.panorama_id,
        panoramaLabel: known?.label ?? target.panorama_id,
        panoramaTime: known?.time ?? null,
        focus: target.id,
        camera: cameraTo,
      }, "push");
    } else {
      // No capture named: go to its level's first panorama and focus on it.
      const pano = PANORAMAS.find((p) => p.level === level) ?? panoramaOf(view);
      moveTo({ level, panoramaId: pano.id, focus: target.id, camera: cameraTo }, "push");
    }
    return true;
  },
  subscribeViewerState(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  citationHref: viewerHref,
  getIsAdmin: () => false,
};

function draw() {
  const pano = panoramaOf(view);
  const pins = annotationsOf(pano.id);
  $("levels").replaceChildren(
    ...LEVELS.map((level) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = String(level.number);
      button.title = level.name;
      button.dataset.testid = "viewer-level-button";
      button.setAttribute("aria-pressed", String(level.number === view.level));
      button.addEventListener("click", () => {
        const first = PANORAMAS.find((p) => p.level === level.number);
        moveTo({ level: level.number, panoramaId: first.id, focus: null });
      });
      return button;
    }),
  );
  $("panos").replaceChildren(
    ...PANORAMAS.filter((p) => p.level === view.level).map((p) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = p.label;
      button.setAttribute("aria-current", String(p.id === pano.id));
      button.addEventListener("click", () => moveTo({ level: p.level, panoramaId: p.id, focus: null }));
      item.append(button);
      return item;
    }),
  );
  const dots = pins.slice(0, 80).map((pin, i) => {
    const dot = document.createElement("span");
    dot.className = i === 0 ? "pin selected" : "pin";
    dot.style.left = `${(i * 37) % 96 + 2}%`;
    dot.style.top = `${(i * 53) % 80 + 8}%`;
    dot.title = pin.title;
    return dot;
  });
  const label = document.createElement("span");
  label.className = "pano-label";
  label.textContent = pano.label;
  $("pano").replaceChildren(...dots, label);
  $("level").textContent = `Level ${view.level}`;
  $("panorama").textContent = pano.label;
  $("panorama").dataset.id = pano.id;
  $("captured").textContent = pano.time ? pano.time.slice(0, 10) : "—";
  $("focus").textContent = view.focus ?? "—";
  $("pins").textContent = `${pins.length}`;
  $("camera").textContent = view.camera
    ? `${view.camera.position.map((n) => n.toFixed(2)).join(", ")} → ${view.camera.look_at.map((n) => n.toFixed(2)).join(", ")}`
    : "—";
  document.querySelector('[data-testid="viewer"]').dataset.level = String(view.level);
}

document.querySelector('[data-testid="viewer-project"]').textContent = PROJECT.name;
window.addEventListener("popstate", () => {
  moveTo(initialView(new URL(window.location.href).searchParams), "none");
});
camera.moveTo(view.camera, { animate: false });
draw();
mountPanel($("beacon-panel"), adapter);
