// The demo hosts' own sign-in stand-in: the bearer arrives in ?token= (as the
// standalone panel's does) and the host reads its tier claim for the UI only.
// Verification is the chat server's job; this never decides anything.

import { takeToken } from "/panel/host.js";

export function signIn(win = window) {
  const token = takeToken(win);
  return { token, tiers: tiersOf(token) };
}

function tiersOf(token) {
  try {
    const payload = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const claims = JSON.parse(atob(payload.padEnd(Math.ceil(payload.length / 4) * 4, "=")));
    return Array.isArray(claims.tiers) ? claims.tiers.map(String) : [];
  } catch {
    return [];
  }
}
