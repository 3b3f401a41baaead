// The logged-in player, read into the store: who the token says (logging in and out), GET /me
// (name, stats, sanctions), their official results (GET /me/history) a page at a time, and a new
// display name (PUT /me). The views show what changed by their subscriptions.

import { api, problem } from "./api.js";
import { forgetTokens, keepTokens } from "./auth.js";
import { jwtClaims } from "./lib/pkce.js";
import { nameErrorText, nameRuleProblem } from "./lib/words.js";
import { forgetPlayer, get, set } from "./store.js";

/** Log in with TOKEN (and REFRESH_TOKEN), or out with null: a new identity starts afresh. */
export async function setToken(token, refreshToken = null) {
  if (token) keepTokens(token, refreshToken);
  else forgetTokens();
  forgetPlayer();
  await loadIdentity();
}

/** Who the token says the player is; then their profile. */
export async function loadIdentity() {
  const claims = get("token") ? jwtClaims(get("token")) : {};
  set({ username: claims["cognito:username"] || claims.email || claims.username || "" });
  if (!get("token")) return;
  await loadProfile();
}

/** The player's profile (name, stats, sanctions) and history, read together. */
export async function loadProfile() {
  const [me] = await Promise.all([api("GET", "/me", undefined, { auth: true }), loadHistory(true)]);
  if (me.status === 200) {
    set({ displayName: me.body.display_name, stats: me.body.stats || null, sanctions: me.body.sanctions || [] });
  }
}

/** PUT /me with NAME; returns null when saved, else the reason in words. */
export async function putName(name) {
  const rule = nameRuleProblem(name, get("daily") && get("daily").limits);
  if (rule) return rule;
  const reply = await api("PUT", "/me", { display_name: name }, { auth: true });
  if (reply.status !== 200) {
    const error = (reply.body && reply.body.error) || {};
    return reply.status === 0 || reply.status === 429 ? problem(reply) : nameErrorText(error.code, error.message);
  }
  set({ displayName: reply.body.display_name });
  return null;
}

/** The player's official results (GET /me/history), a page at a time: FRESH starts again. */
export async function loadHistory(fresh) {
  if (!get("token")) return;
  const query = new URLSearchParams({ limit: "50" });
  if (!fresh && get("historyCursor")) query.set("cursor", get("historyCursor"));
  const reply = await api("GET", "/me/history?" + query, undefined, { auth: true });
  if (reply.status !== 200) return;
  const items = [...(fresh ? [] : get("historyItems")), ...reply.body.items];
  const officialDates = new Set(fresh ? [] : get("officialDates"));
  const unrankedDates = new Map(fresh ? [] : get("unrankedDates"));
  for (const item of reply.body.items) {
    if (item.kind !== "daily") continue;
    officialDates.add(item.date);
    if (item.unranked_reason) unrankedDates.set(item.date, item.unranked_reason);
  }
  set({ historyItems: items, officialDates, unrankedDates, historyCursor: reply.body.next_cursor, historyLoaded: true });
}
