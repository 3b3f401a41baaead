// The WordSQD web client's entry point, the only module that runs anything on load: it binds each
// view's controls, reads config.json and the login, today's Daily, the player and a run in play,
// then shows the view the address names. Every other module only declares (docs/web-client.md has
// the module map). It calls each view's bind function and nothing else of a view: it asks them
// through the store, as they ask each other.

import { ensureFreshToken, finishCognitoLogin, restoreTokens } from "./auth.js";
import { loadDaily } from "./daily.js";
import { exchange, pageFetch } from "./lib/http.js";
import { route } from "./router.js";
import { resumeSavedRun } from "./run.js";
import { loadIdentity, setToken } from "./player.js";
import { get, set, subscribe } from "./store.js";
import { bindAccount } from "./views/account.js";
import { bindArchive } from "./views/archive.js";
import { bindBoards } from "./views/boards.js";
import { bindChallenges } from "./views/challenges.js";
import { bindEnd } from "./views/end.js";
import { bindGame } from "./views/game.js";
import { bindHome } from "./views/home.js";
import { bindLeagues } from "./views/leagues.js";
import { bindModeration } from "./views/moderation.js";
import { bindPlayers } from "./views/players.js";
import { bindRecap } from "./views/recap.js";
import { bindReminder } from "./views/reminder.js";
import { bindReports } from "./views/reports.js";
import { bindStats } from "./views/stats.js";
import { bindTheme } from "./views/theme.js";

function bind() {
  bindAccount();
  bindHome();
  bindEnd(); // before the game: a run that completes is drawn before the game shows its end
  bindGame();
  bindBoards();
  bindStats();
  bindChallenges();
  bindLeagues();
  bindArchive();
  bindPlayers();
  bindReports();
  bindModeration();
  bindRecap();
  bindReminder();
  bindTheme();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && get("token")) ensureFreshToken();
  });
  window.addEventListener("hashchange", route);
}

async function loadConfig() {
  const reply = await exchange(pageFetch, "config.json", { cache: "no-cache" });
  if (reply.status === 200 && reply.body) set({ config: reply.body }); // else the local default
}

/** Resolves once READY() holds: now, or after a set() of one of NAMES. */
function until(names, ready) {
  return new Promise((resolve) => {
    if (ready()) return resolve();
    const stop = subscribe(names, () => {
      if (!ready()) return;
      stop();
      resolve();
    });
  });
}

async function main() {
  bind();
  await loadConfig();
  const params = new URLSearchParams(location.search);
  if (get("config").auth === "cognito" && (params.get("code") || params.get("error"))) {
    const tokens = await finishCognitoLogin(params);
    if (tokens) await setToken(tokens.id_token, tokens.refresh_token);
  } else {
    restoreTokens();
  }
  // GET /daily first: its Date says the server's time, so a token that expired while the page was
  // closed is renewed before it is used (it would only earn a 401), or the page says it cannot be.
  await loadDaily();
  if (get("token")) await ensureFreshToken();
  await loadIdentity();
  await resumeSavedRun();
  const shared = new URLSearchParams(location.search).get("challenge");
  if (shared) {
    // A shared link opens the challenge (#challenges reads it when shown); a reload in the middle
    // of a game stays in the game.
    set({ challengeAsked: shared });
    if (!["#play", "#board", "#me"].includes(location.hash)) {
      history.replaceState(null, "", location.pathname + location.search + "#challenges");
    }
  }
  route();
  // The challenge asked for is read once #challenges shows it (challengeAsked back to null).
  await until(["challengeAsked", "view"], () => get("challengeAsked") === null || get("view") !== "challenges");
  document.documentElement.dataset.ready = "true"; // the page has loaded what it shows (for tests)
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("sw.js").catch(() => {}); // the offline page
}

main();
