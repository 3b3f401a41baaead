// The login and its tokens (docs/web-client.md "Login"): the id token renewed with the refresh
// token before it expires (on the server's clock, learnt from each reply's Date), after a 401, and
// never silently lost; the Cognito Hosted UI's code flow with PKCE. Requests here go through
// lib/http.js's exchange (the same timeout as the API's).

import { notice } from "./dom.js";
import { exchange, pageFetch } from "./lib/http.js";
import { jwtClaims, pkceChallenge, randomVerifier } from "./lib/pkce.js";
import { get, set } from "./store.js";

const TOKEN_KEY = "wordsqd.token"; // localStorage: the id token
const REFRESH_KEY = "wordsqd.refresh"; // localStorage: the refresh token that renews the id token
const RENEW_BEFORE_SECONDS = 300; // renew the id token this long before it expires
const PKCE_KEY = "wordsqd.pkce"; // sessionStorage: {verifier, state, back} during a Cognito login

// The page has one login, so one renewal: its timer, and the renewal on its way that every
// caller waits on (one at a time). The server's clock is the store's `serverOffsetMs`.
let renewTimer = 0;
let renewing = null;

/** The tokens kept from an earlier visit, if any. */
export function restoreTokens() {
  set({ token: localStorage.getItem(TOKEN_KEY), refreshToken: localStorage.getItem(REFRESH_KEY) });
}

/** Forget the tokens (logging out). */
export function forgetTokens() {
  clearTimeout(renewTimer);
  set({ token: null, refreshToken: null });
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(REFRESH_KEY);
}

/** Each reply's Date tells the server's time (to the second): tokens expire on that clock. */
export function learnServerTime(date) {
  const at = Date.parse(date || "");
  if (Number.isNaN(at)) return;
  const offset = at + 500 - Date.now();
  if (Math.abs(offset - get("serverOffsetMs")) < 2000) return; // the same clock, within the header's second
  set({ serverOffsetMs: offset });
  scheduleRenewal();
}

/** The server's time now, as its last reply's Date says (to the second). */
export const serverNowMs = () => Date.now() + get("serverOffsetMs");

/** Seconds the id token has left on the server's clock (0 without one). */
function tokenSecondsLeft() {
  const expires = get("token") ? Number(jwtClaims(get("token")).exp) || 0 : 0;
  return expires - serverNowMs() / 1000;
}

function scheduleRenewal() {
  clearTimeout(renewTimer);
  if (!get("token") || !get("refreshToken")) return;
  const wait = Math.max(0, (tokenSecondsLeft() - RENEW_BEFORE_SECONDS) * 1000);
  // Timers of a sleeping tab are late: visibilitychange checks again when it wakes.
  renewTimer = setTimeout(() => ensureFreshToken(), Math.min(wait, 2 ** 31 - 1));
}

/** True when the player's id token is good for a while (renewed first if it is about to expire). */
export async function ensureFreshToken() {
  if (!get("token")) return false;
  if (tokenSecondsLeft() > RENEW_BEFORE_SECONDS) return true;
  return renewToken();
}

/** Trade the refresh token for a new id token; on failure the page says so (never silently a guest). */
export function renewToken() {
  if (!renewing) {
    renewing = requestRenewal()
      .then((tokens) => {
        if (!tokens || !tokens.id_token) {
          loginLost();
          return false;
        }
        keepTokens(tokens.id_token, tokens.refresh_token || get("refreshToken"));
        return true;
      })
      .finally(() => {
        renewing = null;
      });
  }
  return renewing;
}

/** {id_token, refresh_token?} from Cognito's token endpoint or the local stand-in, or null. */
async function requestRenewal() {
  if (!get("refreshToken")) return null;
  const config = get("config");
  let reply;
  if (config.auth === "cognito") {
    reply = await exchange(pageFetch, `${hostedUi(config.domain)}/oauth2/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        client_id: config.client_id,
        refresh_token: get("refreshToken"),
      }),
    });
  } else {
    reply = await exchange(pageFetch, "/local/refresh", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ refresh_token: get("refreshToken") }),
    });
    learnServerTime(reply.date);
  }
  return reply.status === 200 ? reply.body : null;
}

/** Keep a renewed id token (and refresh token): the same player, so nothing else changes. */
export function keepTokens(idToken, refreshToken) {
  set({ token: idToken, refreshToken: refreshToken || null, loginLost: false });
  localStorage.setItem(TOKEN_KEY, idToken);
  if (refreshToken) localStorage.setItem(REFRESH_KEY, refreshToken);
  else localStorage.removeItem(REFRESH_KEY);
  scheduleRenewal();
}

/** The login could not be renewed: forget it, and say so where the player will see it (the views
 * follow the store's `token` and `loginLost`). */
function loginLost() {
  const wasPlayer = !!get("token");
  forgetTokens();
  if (!wasPlayer) return;
  set({ loginLost: true });
  notice("Your login has expired and could not be renewed. Log in again to keep your streak and get on the board: until then any run you start is a guest run, not ranked.");
}

// Cognito Hosted UI: authorization code with PKCE. The verifier stays in this tab's sessionStorage.
export function hostedUi(domain) {
  const base = /^https?:\/\//.test(domain) ? domain : "https://" + domain;
  return base.replace(/\/+$/, "");
}

function redirectUri() {
  return location.origin + "/";
}

export async function beginCognitoLogin() {
  const { domain, client_id: clientId } = get("config");
  const verifier = randomVerifier();
  const nonce = randomVerifier();
  sessionStorage.setItem(PKCE_KEY, JSON.stringify({ verifier, state: nonce, back: location.search + location.hash }));
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri(),
    scope: "openid profile email",
    state: nonce,
    code_challenge_method: "S256",
    code_challenge: await pkceChallenge(verifier),
  });
  location.assign(`${hostedUi(domain)}/oauth2/authorize?${query}`);
}

/** Back from the Hosted UI with ?code=&state=: exchange the code for tokens; resolves to
 * {id_token, refresh_token} (null when the login failed: the page says why). */
export async function finishCognitoLogin(params) {
  const saved = JSON.parse(sessionStorage.getItem(PKCE_KEY) || "null");
  sessionStorage.removeItem(PKCE_KEY);
  const back = saved && saved.back ? saved.back : "";
  history.replaceState(null, "", location.pathname + back);
  if (params.get("error")) {
    notice("Login was cancelled or refused: " + (params.get("error_description") || params.get("error")));
    return null;
  }
  if (!saved || saved.state !== params.get("state")) {
    notice("Login failed: the reply did not match this tab's request. Try again.");
    return null;
  }
  const { domain, client_id: clientId } = get("config");
  const reply = await exchange(pageFetch, `${hostedUi(domain)}/oauth2/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: clientId,
      code: params.get("code"),
      redirect_uri: redirectUri(),
      code_verifier: saved.verifier,
    }),
  });
  if (reply.status === 0) {
    notice("Login failed: the sign-in service cannot be reached.");
    return null;
  }
  const tokens = reply.body || {};
  if (reply.status !== 200 || !tokens.id_token) {
    notice("Login failed: " + (tokens.error || `the sign-in service answered ${reply.status}`));
    return null;
  }
  return tokens;
}
