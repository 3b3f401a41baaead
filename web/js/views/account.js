// Who is playing: the login panel (make run's name box; Cognito's Hosted UI through auth.js),
// the account line, and the name prompt of a new player (player.js logs in and out and reads their
// profile). The login opens on each ask (the store's `loginAsked`).

import { api, problem } from "../api.js";
import { beginCognitoLogin, hostedUi } from "../auth.js";
import { $, notice, say } from "../dom.js";
import { jwtClaims } from "../lib/pkce.js";
import { isDefaultName } from "../lib/words.js";
import { mountNumbers } from "../parts/numbers.js";
import { putName, setToken } from "../player.js";
import { go, route } from "../router.js";
import { get, subscribe } from "../store.js";

const NAME_SKIPPED_KEY = "wordsqd.name-skipped."; // + the player's sub: "Not now" on the name prompt

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

function renderAccount() {
  const player = !!get("token");
  $("who").textContent = player ? get("displayName") || get("username") || "Player" : "Guest";
  if (!player) $("name-panel").hidden = true;
  $("login-open").hidden = player;
  $("logout").hidden = !player;
  if (player) $("login-panel").hidden = true;
}

function openLogin() {
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

/** The login panel, the log-out button and the name prompt. */
export function bindAccount() {
  subscribe(["config"], () => {
    $("login-form").hidden = get("config").auth !== "local"; // else the Hosted UI asks
  });
  mountNumbers($("name-panel"));
  $("login-open").addEventListener("click", openLogin);
  $("login-cancel").addEventListener("click", () => {
    $("login-panel").hidden = true;
  });
  $("login-form").addEventListener("submit", localLogin);
  $("logout").addEventListener("click", logout);
  $("name-prompt-form").addEventListener("submit", saveNamePrompt);
  $("name-prompt-skip").addEventListener("click", skipNamePrompt);
  subscribe(["token", "displayName", "username"], renderAccount);
  renderAccount();
  subscribe(["displayName"], offerName);
  subscribe(["loginAsked"], openLogin);
}
