// Who is playing: the login panel (make run's name box; Cognito's Hosted UI through auth.js),
// the account line, the player's profile and history, and the name prompt of a new player.

import { api, problem } from "../api.js";
import { beginCognitoLogin, forgetTokens, hostedUi, keepTokens, whenLoginLost } from "../auth.js";
import { $, notice, say } from "../dom.js";
import { jwtClaims } from "../lib/pkce.js";
import { isDefaultName, nameErrorText, nameRuleProblem } from "../lib/words.js";
import { go, route } from "../router.js";
import { forgetPlayer, get, set } from "../store.js";
import { renderHome } from "./home.js";

const NAME_SKIPPED_KEY = "wordsqd.name-skipped."; // + the player's sub: "Not now" on the name prompt

/** Log in with TOKEN (and REFRESH_TOKEN), or out with null: a new identity starts afresh. */
export async function setToken(token, refreshToken = null) {
  if (token) keepTokens(token, refreshToken);
  else forgetTokens();
  forgetPlayer();
  await loadIdentity();
}

/** The player's profile (name, stats) and history, read together; then the account line. */
export async function loadProfile() {
  const [me] = await Promise.all([api("GET", "/me", undefined, { auth: true }), loadHistory(true)]);
  if (me.status === 200) {
    set({ displayName: me.body.display_name, stats: me.body.stats || null, sanctions: me.body.sanctions || [] });
  }
  renderAccount();
  offerName();
}

// A name from the start: a player still showing `player-xxxx` is asked once (until "Not now").
function nameSkipKey() {
  return NAME_SKIPPED_KEY + (jwtClaims(get("token") || "").sub || "");
}

function offerName() {
  const ask = !!get("token") && isDefaultName(get("displayName")) && !localStorage.getItem(nameSkipKey());
  const panel = $("name-panel");
  if (ask && panel.hidden) {
    panel.hidden = false;
    say($("name-prompt-status"), "");
    $("name-prompt").focus();
  } else if (!ask) {
    panel.hidden = true;
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
  renderAccount();
  return null;
}

async function saveNamePrompt(event) {
  event.preventDefault();
  const why = await putName($("name-prompt").value);
  if (why) {
    say($("name-prompt-status"), "Name not saved: " + why, "bad");
    $("name-prompt").focus();
    return;
  }
  $("name-panel").hidden = true;
  notice(`Welcome, ${get("displayName")}: the boards will show you by that name.`, "ok");
}

function skipNamePrompt() {
  localStorage.setItem(nameSkipKey(), "1");
  $("name-panel").hidden = true;
  notice(`The boards will show you as ${get("displayName") || "player-…"} for now: change it any time under Stats.`, "ok");
}

/** Who the token says the player is; then their profile. */
export async function loadIdentity() {
  const claims = get("token") ? jwtClaims(get("token")) : {};
  set({ username: claims["cognito:username"] || claims.email || claims.username || "" });
  renderAccount();
  if (!get("token")) return;
  await loadProfile();
}

export function renderAccount() {
  const player = !!get("token");
  $("who").textContent = player ? get("displayName") || get("username") || "Player" : "Guest";
  if (!player) $("name-panel").hidden = true;
  $("login-open").hidden = player;
  $("logout").hidden = !player;
  if (player) $("login-panel").hidden = true;
  renderHome();
  document.dispatchEvent(new CustomEvent("wordsqd:account")); // views/moderation.js and views/reports.js: what a player may see
}

export function openLogin() {
  if (get("config").auth === "cognito") {
    beginCognitoLogin();
    return;
  }
  $("login-panel").hidden = false;
  $("username").focus();
}

async function localLogin(event) {
  event.preventDefault();
  const reply = await api("POST", "/local/login", { username: $("username").value.trim() });
  if (reply.status !== 200) {
    notice("Login failed: " + problem(reply));
    return;
  }
  notice("");
  $("login-panel").hidden = true;
  await setToken(reply.body.id_token, reply.body.refresh_token);
  route();
}

async function logout() {
  await setToken(null);
  if (get("config").auth === "cognito") {
    const { domain, client_id: clientId } = get("config");
    const back = location.origin + "/";
    location.assign(`${hostedUi(domain)}/logout?client_id=${encodeURIComponent(clientId)}&logout_uri=${encodeURIComponent(back)}`);
    return;
  }
  go("home");
}

/** The player's official results (GET /me/history), a page at a time: FRESH starts again. */
export async function loadHistory(fresh) {
  if (!get("token")) return;
  const query = new URLSearchParams({ limit: "50" });
  if (!fresh && get("historyCursor")) query.set("cursor", get("historyCursor"));
  const reply = await api("GET", "/me/history?" + query, undefined, { auth: true });
  if (reply.status !== 200) return;
  if (fresh) {
    set({ historyItems: [], officialDates: new Set(), unrankedDates: new Map() });
  }
  get("historyItems").push(...reply.body.items);
  for (const item of reply.body.items) {
    if (item.kind !== "daily") continue;
    get("officialDates").add(item.date);
    if (item.unranked_reason) get("unrankedDates").set(item.date, item.unranked_reason);
  }
  set({ historyCursor: reply.body.next_cursor, historyLoaded: true });
  renderHome();
}

/** The login panel, the log-out button and the name prompt. */
export function bindAccount() {
  $("login-open").addEventListener("click", openLogin);
  $("login-cancel").addEventListener("click", () => {
    $("login-panel").hidden = true;
  });
  $("login-form").addEventListener("submit", localLogin);
  $("logout").addEventListener("click", logout);
  $("name-prompt-form").addEventListener("submit", saveNamePrompt);
  $("name-prompt-skip").addEventListener("click", skipNamePrompt);
  whenLoginLost(renderAccount);
}
