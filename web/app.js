// The WordSQD web client: one ES module, no framework, no build, against the API of SPEC §5.
//
// How it is put together:
// - `api()` is the one place that calls the server; player routes carry the id token.
// - `state` holds what the page knows; each `render*` function paints one part of the page from it.
// - Views are sections shown one at a time, chosen by the URL hash (#home, #play, #board, #me,
//   #challenges); `?challenge=<id>` opens a shared challenge.
// - The run id is a guest run's only credential: it is kept in memory and sessionStorage (this tab)
//   and never put on screen or in a shared text.
// - Login comes from config.json: {"auth": "local"} uses `POST /local/login` (make run);
//   {"auth": "cognito", "region", "user_pool_id", "client_id", "domain"} uses the Cognito Hosted UI
//   with the authorization-code flow and PKCE (RFC 7636). Either way the page keeps the id token
//   and the refresh token, and renews the id token before it expires (on the server's clock, learnt
//   from each reply's Date) and on a 401; a renewal that fails is said on screen, never silent.
//
// The exports are pure helpers, imported by the browser tests (tests/browser/).

const $ = (id) => document.getElementById(id);

const TOKEN_KEY = "wordsqd.token";
const REFRESH_KEY = "wordsqd.refresh"; // localStorage: the refresh token that renews the id token
const NAME_SKIPPED_KEY = "wordsqd.name-skipped."; // + the player's sub: "Not now" on the name prompt
const RENEW_BEFORE_SECONDS = 300; // renew the id token this long before it expires
const TIMER_ANNOUNCEMENTS = [60, 30, 10]; // seconds left, said by the live region
const RUN_KEY = "wordsqd.run"; // sessionStorage: {run_id, guest, skewMs} of the run in play
const PKCE_KEY = "wordsqd.pkce"; // sessionStorage: {verifier, state, back} during a Cognito login
const VIEWS = ["home", "game", "end", "board", "me", "challenges", "leagues", "archive", "moderation"]; // leagues, archive: players.js; moderation: moderation.js

// ---------------------------------------------------------------------------------------------
// Pure helpers (exported for the tests)

/** Why a word was refused, in words (SPEC §2 reasons and §3 `already_used`). */
export function reasonText(reason, prompt = "", forbidden = "", word = "") {
  const letters = (prompt || "").toUpperCase().split("");
  switch (reason) {
    case "empty":
      return "Type a word first: the answer was empty.";
    case "too_long":
      return "Too long: a word has at most 45 letters.";
    case "not_letters":
      return "Letters A to Z only: no spaces, hyphens, apostrophes, digits or accents.";
    case "letter_order": {
      const repeats = new Set(letters).size < letters.length;
      return `The letters ${letters.join(", ")} must appear in this order` +
        (repeats ? ", each repeated letter as its own copy." : " (other letters may come between).");
    }
    case "forbidden_letter": {
      const banned = (forbidden || "").toUpperCase().split("");
      const used = banned.filter((letter) => (word || "").toUpperCase().includes(letter));
      return used.length
        ? `It uses the forbidden letter ${used.join(" and ")}: this round bans ${banned.join(", ")}.`
        : `It uses a forbidden letter: this round bans ${banned.join(", ")}.`;
    }
    case "not_a_word":
      return "Not in the WordSQD dictionary.";
    case "already_used":
      return "Already used: each word counts once per run.";
    default:
      return reason ? `Not accepted (${reason}).` : "Not accepted.";
  }
}

/** A display-name refusal in words (SPEC §5 display names: the look-alike check included). */
export function nameErrorText(code, message = "") {
  switch (code) {
    case "display_name_taken":
      return "That name is taken, or one that looks like it: 0 and O, 1, I and l, 5 and S, " +
        "and spaces, _ and - count as the same. Try another.";
    case "display_name_not_allowed":
      return "That name is not allowed: it contains a word the game blocks, even spelt with " +
        "look-alikes (3 for E, 4 for A, 7 for T, @ for A) or with the spaces taken out.";
    case "invalid_display_name":
      return message ? `Not a valid name: ${message}.` : "Not a valid name.";
    default:
      return message || "The name was not saved.";
  }
}

/** A name the rules of SPEC §5 refuse before asking the server, in words (null: it may be fine). */
export function nameRuleProblem(name) {
  if (name.length < 3 || name.length > 20) return "A name has 3 to 20 characters.";
  if (!/^[A-Za-z0-9 _-]+$/.test(name)) return "Letters A to Z, digits, spaces, _ and - only.";
  if (name !== name.trim()) return "No space at the start or the end.";
  return null;
}

/** Whether NAME is the default one the server shows until a player picks one (`player-xxxx`). */
export function isDefaultName(name) {
  return /^player-[0-9a-f]{4}$/.test(name || "");
}

/** The speed bonus an answer would earn after SECONDS (SPEC §3: 3 × max(0, 10 − whole seconds)),
 * by GET /daily's SCORING numbers once read. */
export function speedBonusAt(seconds, scoring) {
  const { speed_bonus_per_second: per = 3, speed_bonus_seconds: limit = 10 } = scoring || {};
  return per * Math.max(0, limit - Math.floor(Math.max(0, seconds)));
}

/** What the live region says about a round: its number, letters and forbidden letters. */
export function roundAnnouncement(run) {
  const letters = (run.prompt || "").split("").join(", ");
  const banned = (run.forbidden || "").split("").join(", ");
  return `Round ${run.round} of ${run.rounds}: ${letters}, in this order.` +
    (banned ? ` Forbidden round: no ${banned}, double points.` : "");
}

/** The line the live region says at SECONDS left. */
export function timeAnnouncement(seconds) {
  return `${seconds} seconds left.`;
}

/** "rank 12 of 31" (or "rank 12" while the board's size is unknown). */
export function rankText(rank, players) {
  return players ? `rank ${rank} of ${players}` : `rank ${rank}`;
}

/** "Better than 62% of today's players: Great." (SPEC §4a's ladder step for that percentile). */
export function standingText(percentile, step) {
  return `Better than ${percentile}% of today's players: ${step}.`;
}

/** The score range a band of the distribution holds: "1900–1999". */
export function bandRange(band, bandPoints) {
  return `${band * bandPoints}–${band * bandPoints + bandPoints - 1}`;
}

/** The distribution chart's text alternative: every band that holds a player, and the caller's. */
export function distributionText(bands, bandPoints, mine) {
  const held = bands.map((count, band) => [band, count]).filter(([, count]) => count > 0);
  const parts = held.map(([band, count]) =>
    `${bandRange(band, bandPoints)}: ${count} player${count === 1 ? "" : "s"}${band === mine ? " (you)" : ""}`);
  return parts.length ? `Scores today, by band of ${bandPoints} points. ${parts.join("; ")}.` : "No ranked scores yet.";
}

const SVG = "http://www.w3.org/2000/svg";

/** An inline SVG bar chart of VALUES (one bar each, the bar at index MARKED drawn as the
 * player's), hidden from screen readers: TEXT, in a paragraph beside it, says the same. */
function barChart(holder, values, marked, text) {
  const svg = document.createElementNS(SVG, "svg");
  const width = 10 * Math.max(values.length, 1);
  svg.setAttribute("viewBox", `0 0 ${width} 50`);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("bars");
  const top = Math.max(1, ...values);
  values.forEach((value, index) => {
    const bar = document.createElementNS(SVG, "rect");
    const height = value ? Math.max(1, (48 * value) / top) : 0;
    bar.setAttribute("x", String(index * 10 + 1));
    bar.setAttribute("width", "8");
    bar.setAttribute("y", String(50 - height));
    bar.setAttribute("height", String(height));
    if (index === marked) bar.classList.add("mine");
    svg.append(bar);
  });
  const description = document.createElement("p");
  description.className = "sr-only chart-text";
  description.textContent = text;
  holder.replaceChildren(svg, description);
}

/** The square for one round of a run, for the share text and the trail. */
export function roundSquare(round) {
  if (!round || !round.outcome) return "⬛"; // not played, or time ran out during it
  if (round.outcome === "skipped") return "⬜";
  if (round.outcome === "lost") return "🟥";
  return round.attempts.length > 1 ? "🟨" : "🟩";
}

export const SQUARE_LEGEND = "🟩 first try · 🟨 after a miss · 🟥 lost · ⬜ skipped · ⬛ not played";

const upper = (words) => words.map((word) => word.toUpperCase()).join(", ");

/** One round of a closed day's recap (GET /daily/{date}/recap), as the end screen says it. */
export function recapRoundText(round, players) {
  const letters = round.prompt + (round.forbidden ? ` (no ${round.forbidden})` : "");
  const found = `${round.answered} of ${players} found a word`;
  const missed = round.lost_or_skipped ? `, ${Math.round(round.lost_or_skipped_share * 100)}% lost or skipped it` : "";
  const top = round.top_words.length
    ? `; most played ${round.top_words.slice(0, 3).map((w) => `${w.word.toUpperCase()} (${w.players})`).join(", ")}`
    : "";
  const longest = round.longest_word ? `; longest ${round.longest_word.toUpperCase()}` : "";
  return `Round ${round.round} · ${letters}: ${found}${missed}${top}${longest}.`;
}

/** A review card's "The day" cell: how many others played the player's word (MINE, from
 * /recap/me, when known), else how the day played the round; a round without a word shows
 * words that would have fitted. */
export function recapCellText(outcome, word, recapRound, mine) {
  if (outcome !== "accepted" || !word) {
    const fitted = [...recapRound.missed_common, ...recapRound.top_words.map((w) => w.word)].slice(0, 5);
    return fitted.length ? `Would have fitted: ${upper(fitted)}` : "Nobody found a word";
  }
  const listed = recapRound.top_words.find((w) => w.word === word);
  let company = "not among the day's ten most played";
  if (mine) company = mine.others === 0 ? "nobody else played it" : `${mine.others} other${mine.others === 1 ? "" : "s"} played it`;
  else if (listed) company = `played by ${listed.players} of the day's players`;
  const top = recapRound.top_words.slice(0, 3).map((w) => w.word);
  return `${word.toUpperCase()}: ${company}` + (top.length ? `. Most played: ${upper(top)}` : "");
}

/** The shareable result of a completed run: squares, score and date, never a word; a past Daily
 * played again (its date before TODAY) says it was a replay. */
export function shareText(run, origin, today) {
  const squares = [];
  for (let number = 1; number <= run.rounds; number += 1) {
    squares.push(roundSquare((run.history || []).find((round) => round.round === number)));
  }
  const won = (run.history || []).filter((round) => round.outcome === "accepted").length;
  const replay = run.kind === "daily" && today && run.date < today ? " (replay)" : "";
  const title = run.kind === "challenge" ? `WordSQD challenge (${run.rounds} rounds)` : `WordSQD Daily ${run.date}${replay}`;
  const time = run.ended_by === "expired" ? "time up" : `in ${elapsed(run)}`;
  const lines = [
    title,
    squares.join(""),
    `Score ${run.score} · ${won}/${run.rounds} words · best combo ${run.best_combo} · ${time}`,
  ];
  if (origin) {
    lines.push(run.kind === "challenge" && run.challenge_id ? challengeLink(origin, run.challenge_id) : origin);
  }
  return lines.join("\n");
}

function elapsed(run) {
  if (!run.completed_at || !run.started_at) return "";
  const seconds = Math.max(0, Math.round((Date.parse(run.completed_at) - Date.parse(run.started_at)) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The link that opens a challenge in this client. */
export function challengeLink(origin, challengeId) {
  return `${origin}/?challenge=${encodeURIComponent(challengeId)}`;
}

/** A challenge id from what a player pasted: a link with ?challenge=, or the id itself. */
export function challengeIdFrom(text) {
  const value = (text || "").trim();
  try {
    const fromLink = new URL(value).searchParams.get("challenge");
    if (fromLink) return fromLink;
  } catch {
    /* not a URL: the id itself */
  }
  return /^[A-Za-z0-9_-]{8,64}$/.test(value) ? value : null;
}

/** Seconds as h:mm:ss (or m:ss under an hour). */
export function clockText(totalSeconds) {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return (h ? `${h}:` : "") + `${mm}:${String(s).padStart(2, "0")}`;
}

/** Base64url without padding (RFC 4648 §5), as PKCE and JWTs use it. */
export function base64url(bytes) {
  let binary = "";
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A PKCE code verifier: 32 random bytes, 43 characters (RFC 7636 §4.1). */
export function randomVerifier() {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The S256 code challenge of a verifier: base64url(SHA-256(verifier)) (RFC 7636 §4.2). */
export async function pkceChallenge(verifier) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url(digest);
}

/** The claims of a JWT (not verified: the API verifies it; the page only shows the name). */
export function jwtClaims(token) {
  try {
    const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const json = decodeURIComponent(
      atob(part).split("").map((c) => "%" + c.charCodeAt(0).toString(16).padStart(2, "0")).join(""),
    );
    return JSON.parse(json);
  } catch {
    return {};
  }
}

// ---------------------------------------------------------------------------------------------
// State and the API

const state = {
  config: { auth: "local" },
  token: null,
  refreshToken: null,
  serverOffsetMs: 0, // the server's clock minus this browser's, from the last reply's Date header
  renewTimer: 0,
  renewing: null, // the renewal on its way (one at a time)
  loginLost: false, // a renewal failed: the page says so until the player logs in again
  roundShownAt: 0, // when the round on screen was shown (browser clock), for the speed bonus
  roundKey: "", // run id and round of the round on screen
  speedScoring: false, // the server's replies carry speed_bonus (SPEC §3)
  announced: new Set(), // timer announcements made for the run in play
  username: "",
  displayName: null,
  stats: undefined, // GET /me's stats; undefined until read, null when the server has none
  daily: null, // GET /daily
  run: null, // the run in play or just finished, with `guest`
  skewMs: 0, // the server's clock minus this browser's, learnt from a run's started_at
  busy: false, // an answer or skip is on its way: one at a time, so each names the right slot
  refetching: false,
  dailyRefetchAt: 0,
  officialDates: new Set(), // Daily dates with an official result of this player (from history)
  unrankedDates: new Map(), // those of them whose result is on no board: date -> unranked_reason (SPEC §3b, §3e)
  historyItems: [],
  historyCursor: null,
  historyLoaded: false,
  boardCursor: null,
  boardDate: null,
  challenge: null, // the challenge on screen (GET /challenges/{id})
  myChallenges: [], // the challenges this player made (GET /me/challenges)
  view: "home",
};

/** One call to the API: resolves to {status, body, date}. `auth` adds the player's token, renewed
 * first when it is about to expire; a 401 renews it and tries once more. */
async function api(method, path, body, { auth = false } = {}) {
  if (auth && state.token) await ensureFreshToken();
  let reply = await request(method, path, body, auth);
  if (reply.status === 401 && auth && state.token) {
    if (await renewToken()) reply = await request(method, path, body, auth);
  }
  return reply;
}

async function request(method, path, body, auth) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (auth && state.token) headers.Authorization = "Bearer " + state.token;
  // no-cache: a board or a run read must show what this player just did (boards are cacheable).
  const init = { method, headers, cache: "no-cache" };
  if (body !== undefined) init.body = JSON.stringify(body);
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    return { status: 0, body: null, date: null };
  }
  learnServerTime(response.headers.get("Date"));
  let data = null;
  try {
    data = await response.json();
  } catch {
    /* an empty or non-JSON body */
  }
  return { status: response.status, body: data, date: response.headers.get("Date") };
}

// ---------------------------------------------------------------------------------------------
// Sessions that last: the id token is renewed with the refresh token before it expires

/** Each reply's Date tells the server's time (to the second): tokens expire on that clock. */
function learnServerTime(date) {
  const at = Date.parse(date || "");
  if (Number.isNaN(at)) return;
  const offset = at + 500 - Date.now();
  if (Math.abs(offset - state.serverOffsetMs) < 2000) return; // the same clock, within the header's second
  state.serverOffsetMs = offset;
  scheduleRenewal();
}

/** Seconds the id token has left on the server's clock (0 without one). */
function tokenSecondsLeft() {
  const expires = state.token ? Number(jwtClaims(state.token).exp) || 0 : 0;
  return expires - (Date.now() + state.serverOffsetMs) / 1000;
}

function scheduleRenewal() {
  clearTimeout(state.renewTimer);
  if (!state.token || !state.refreshToken) return;
  const wait = Math.max(0, (tokenSecondsLeft() - RENEW_BEFORE_SECONDS) * 1000);
  // Timers of a sleeping tab are late: visibilitychange checks again when it wakes.
  state.renewTimer = setTimeout(() => ensureFreshToken(), Math.min(wait, 2 ** 31 - 1));
}

/** True when the player's id token is good for a while (renewed first if it is about to expire). */
async function ensureFreshToken() {
  if (!state.token) return false;
  if (tokenSecondsLeft() > RENEW_BEFORE_SECONDS) return true;
  return renewToken();
}

/** Trade the refresh token for a new id token; on failure the page says so (never silently a guest). */
function renewToken() {
  if (!state.renewing) {
    state.renewing = requestRenewal()
      .then((tokens) => {
        if (!tokens || !tokens.id_token) {
          loginLost();
          return false;
        }
        keepTokens(tokens.id_token, tokens.refresh_token || state.refreshToken);
        return true;
      })
      .finally(() => {
        state.renewing = null;
      });
  }
  return state.renewing;
}

/** {id_token, refresh_token?} from Cognito's token endpoint or the local stand-in, or null. */
async function requestRenewal() {
  if (!state.refreshToken) return null;
  try {
    let response;
    if (state.config.auth === "cognito") {
      response = await fetch(`${hostedUi(state.config.domain)}/oauth2/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          client_id: state.config.client_id,
          refresh_token: state.refreshToken,
        }),
      });
    } else {
      response = await fetch("/local/refresh", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ refresh_token: state.refreshToken }),
      });
      learnServerTime(response.headers.get("Date"));
    }
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

/** Keep a renewed id token (and refresh token): the same player, so nothing else changes. */
function keepTokens(idToken, refreshToken) {
  state.token = idToken;
  state.refreshToken = refreshToken || null;
  state.loginLost = false;
  localStorage.setItem(TOKEN_KEY, idToken);
  if (refreshToken) localStorage.setItem(REFRESH_KEY, refreshToken);
  else localStorage.removeItem(REFRESH_KEY);
  scheduleRenewal();
}

/** The login could not be renewed: forget it, and say so where the player will see it. */
function loginLost() {
  clearTimeout(state.renewTimer);
  const wasPlayer = !!state.token;
  state.token = null;
  state.refreshToken = null;
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(REFRESH_KEY);
  if (!wasPlayer) return;
  state.loginLost = true;
  notice("Your login has expired and could not be renewed. Log in again to keep your streak and get on the board: until then any run you start is a guest run, not ranked.");
  renderAccount();
}

const ok = (reply) => reply.status === 200 || reply.status === 201;

function problem(reply) {
  if (reply.status === 0) return "The server cannot be reached. Check your connection and try again.";
  const error = reply.body && reply.body.error;
  if (reply.status === 429) return "Too many requests right now: wait a moment and try again.";
  return error ? error.message : `The server answered ${reply.status}.`;
}

function notice(text, kind) {
  const box = $("notice");
  box.textContent = text || "";
  box.className = "notice" + (kind ? " " + kind : "");
  box.hidden = !text;
}

function say(element, text, kind) {
  element.textContent = text || "";
  element.className = "status" + (kind ? " " + kind : "");
}

// ---------------------------------------------------------------------------------------------
// Views

function showView(name) {
  if (!VIEWS.includes(name)) name = "home";
  state.view = name;
  for (const view of VIEWS) $("view-" + view).hidden = view !== name;
  const tab = name === "game" || name === "end" ? "home" : name;
  for (const link of document.querySelectorAll("[data-view-link]")) {
    if (link.dataset.viewLink === tab) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (name === "board") loadBoard(true);
  if (name === "me") loadMe();
  if (name === "challenges") {
    renderChallengeForm();
    loadMyChallenges();
  }
  if (name === "home") renderHome();
  document.dispatchEvent(new CustomEvent("wordsqd:view", { detail: name })); // players.js's views
  // The end of a run replaces the game under the player's focus: move it to the result.
  if (name === "end") $("end-title").focus();
}

function route() {
  const hash = location.hash.replace(/^#/, "") || "home";
  if (hash === "play") {
    if (!state.run) return showView("home");
    return showView(state.run.status === "active" ? "game" : "end");
  }
  showView(hash);
}

/** Show a view now and put it in the address (pushState fires no hashchange; Back does). */
function go(hash) {
  if (location.hash !== "#" + hash) history.pushState(null, "", location.pathname + location.search + "#" + hash);
  route();
}

// ---------------------------------------------------------------------------------------------
// Who is playing

async function setToken(token, refreshToken = null) {
  if (token) keepTokens(token, refreshToken);
  else {
    clearTimeout(state.renewTimer);
    state.token = null;
    state.refreshToken = null;
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(REFRESH_KEY);
  }
  state.loginLost = false;
  // A run belongs to whoever started it: a new identity starts afresh.
  sessionStorage.removeItem(RUN_KEY);
  state.run = null;
  state.displayName = null;
  state.stats = undefined;
  state.officialDates = new Set();
  state.historyItems = [];
  state.historyCursor = null;
  state.historyLoaded = false;
  await loadIdentity();
}

/** The player's profile (name, stats) and history, read together; then the account line. */
async function loadProfile() {
  const [me] = await Promise.all([api("GET", "/me", undefined, { auth: true }), loadHistory(true)]);
  if (me.status === 200) {
    state.displayName = me.body.display_name;
    state.stats = me.body.stats || null;
  }
  renderAccount();
  offerName();
}

// A name from the start: a player still showing `player-xxxx` is asked once (until "Not now").
function nameSkipKey() {
  return NAME_SKIPPED_KEY + (jwtClaims(state.token || "").sub || "");
}

function offerName() {
  const ask = !!state.token && isDefaultName(state.displayName) && !localStorage.getItem(nameSkipKey());
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
async function putName(name) {
  const rule = nameRuleProblem(name);
  if (rule) return rule;
  const reply = await api("PUT", "/me", { display_name: name }, { auth: true });
  if (reply.status !== 200) {
    const error = (reply.body && reply.body.error) || {};
    return reply.status === 0 || reply.status === 429 ? problem(reply) : nameErrorText(error.code, error.message);
  }
  state.displayName = reply.body.display_name;
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
  notice(`Welcome, ${state.displayName}: the boards will show you by that name.`, "ok");
}

function skipNamePrompt() {
  localStorage.setItem(nameSkipKey(), "1");
  $("name-panel").hidden = true;
  notice(`The boards will show you as ${state.displayName || "player-…"} for now: change it any time under Stats.`, "ok");
}

async function loadIdentity() {
  const claims = state.token ? jwtClaims(state.token) : {};
  state.username = claims["cognito:username"] || claims.email || claims.username || "";
  renderAccount();
  if (!state.token) return;
  await loadProfile();
}

function renderAccount() {
  const player = !!state.token;
  $("who").textContent = player ? state.displayName || state.username || "Player" : "Guest";
  if (!player) $("name-panel").hidden = true;
  $("login-open").hidden = player;
  $("logout").hidden = !player;
  if (player) $("login-panel").hidden = true;
  renderHome();
  document.dispatchEvent(new CustomEvent("wordsqd:account")); // moderation.js: the moderators' tab
}

function openLogin() {
  if (state.config.auth === "cognito") {
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
  if (state.config.auth === "cognito") {
    const { domain, client_id: clientId } = state.config;
    const back = location.origin + "/";
    location.assign(`${hostedUi(domain)}/logout?client_id=${encodeURIComponent(clientId)}&logout_uri=${encodeURIComponent(back)}`);
    return;
  }
  go("home");
}

// Cognito Hosted UI: authorization code with PKCE. The verifier stays in this tab's sessionStorage.
function hostedUi(domain) {
  const base = /^https?:\/\//.test(domain) ? domain : "https://" + domain;
  return base.replace(/\/+$/, "");
}

function redirectUri() {
  return location.origin + "/";
}

async function beginCognitoLogin() {
  const { domain, client_id: clientId } = state.config;
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

/** Back from the Hosted UI with ?code=&state=: exchange the code for tokens, keep the id token. */
async function finishCognitoLogin(params) {
  const saved = JSON.parse(sessionStorage.getItem(PKCE_KEY) || "null");
  sessionStorage.removeItem(PKCE_KEY);
  const back = saved && saved.back ? saved.back : "";
  history.replaceState(null, "", location.pathname + back);
  if (params.get("error")) {
    notice("Login was cancelled or refused: " + (params.get("error_description") || params.get("error")));
    return;
  }
  if (!saved || saved.state !== params.get("state")) {
    notice("Login failed: the reply did not match this tab's request. Try again.");
    return;
  }
  const { domain, client_id: clientId } = state.config;
  let response;
  try {
    response = await fetch(`${hostedUi(domain)}/oauth2/token`, {
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
  } catch {
    notice("Login failed: the sign-in service cannot be reached.");
    return;
  }
  const tokens = await response.json().catch(() => ({}));
  if (!response.ok || !tokens.id_token) {
    notice("Login failed: " + (tokens.error || `the sign-in service answered ${response.status}`));
    return;
  }
  await setToken(tokens.id_token, tokens.refresh_token);
}

// ---------------------------------------------------------------------------------------------
// Today's Daily and the countdown

async function loadDaily() {
  const reply = await api("GET", "/daily");
  if (reply.status !== 200) {
    notice("Today's Daily is unavailable: " + problem(reply));
    return;
  }
  state.daily = reply.body;
  $("board-day").max = state.daily.date;
  renderHome();
}

/** The rules card's scoring numbers, from GET /daily (the server's own constants). */
export function scoringNumbers(scoring) {
  return {
    ...scoring,
    combo_bonus_max: scoring.combo_bonus_per_step * scoring.combo_bonus_max_steps,
    speed_bonus_max: scoring.speed_bonus_per_second * scoring.speed_bonus_seconds,
  };
}

function renderScoring(scoring) {
  const numbers = scoringNumbers(scoring);
  for (const span of document.querySelectorAll("[data-scoring]")) {
    const value = numbers[span.dataset.scoring];
    if (typeof value === "number") span.textContent = String(value);
  }
}

function renderHome() {
  const daily = state.daily;
  if (daily) {
    if (daily.scoring) renderScoring(daily.scoring);
    $("daily-date").textContent = formatDate(daily.date);
    $("daily-shape").textContent = `${daily.rounds} rounds, ${daily.time_limit_seconds} seconds.`;
    const at = new Date(daily.resets_at);
    $("reset-local").textContent = `(at ${at.toLocaleTimeString([], { hour: "numeric", minute: "2-digit" })} your time)`;
    $("end-reset-local").textContent = $("reset-local").textContent;
  }
  // A Daily in play is resumed, not restarted; a challenge in play leaves the Daily free to start.
  const active = state.run && state.run.status === "active";
  $("resume-run").hidden = !active;
  $("resume-run").textContent = active && state.run.kind === "challenge" ? "Resume your challenge" : "Resume your run";
  $("start-daily").hidden = !!active && state.run.kind === "daily";
  const playedToday = !!(daily && state.token && state.officialDates.has(daily.date));
  $("start-daily").textContent = playedToday ? "Play again (practice)" : state.loginLost ? "Start as a guest" : "Start the Daily";
  $("daily-who").textContent = state.loginLost
    ? "Your login has expired and could not be renewed: log in again to play for the board. A run started now is a guest run."
    : !state.token
    ? "Playing as a guest: your score is not ranked. Log in to get on the board and keep a streak."
    : playedToday
      ? "Your official score for today is in. More runs are practice and stay off the board."
      : "Your first finished run today is your official score.";
  tickCountdown();
}

function tickCountdown() {
  const daily = state.daily;
  if (!daily) return;
  const left = (Date.parse(daily.resets_at) - (Date.now() + state.skewMs)) / 1000;
  $("countdown").textContent = clockText(left);
  $("end-countdown").textContent = clockText(left);
  if (left <= 0 && Date.now() > state.dailyRefetchAt) {
    // A new Daily: read it (at most every 30 s, should the clocks disagree).
    state.dailyRefetchAt = Date.now() + 30000;
    loadDaily().then(() => {
      if (state.view === "board" && !$("board-day").value) loadBoard(true);
    });
  }
}

function formatDate(day) {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y, m - 1, d).toLocaleDateString([], { weekday: "short", month: "short", day: "numeric", year: "numeric" });
}

// ---------------------------------------------------------------------------------------------
// Playing a run

function runPath(run) {
  return (run.guest ? "/guest/runs/" : "/runs/") + encodeURIComponent(run.run_id);
}

function keepRun(run, guest) {
  state.run = Object.assign(run, { guest });
  sessionStorage.setItem(RUN_KEY, JSON.stringify({ run_id: run.run_id, guest, skewMs: state.skewMs }));
  if (run.status === "completed") onCompleted(run);
  renderRun();
}

/** A new run started on the server's clock just now: its timer counts on that clock. */
function learnSkew(reply, sentAt) {
  const receivedAt = Date.now();
  if (reply.status === 201) {
    state.skewMs = Date.parse(reply.body.started_at) - (sentAt + receivedAt) / 2;
    return;
  }
  const saved = JSON.parse(sessionStorage.getItem(RUN_KEY) || "null");
  if (saved && saved.run_id === reply.body.run_id) state.skewMs = saved.skewMs || 0;
  else if (reply.date) state.skewMs = Date.parse(reply.date) + 500 - (sentAt + receivedAt) / 2;
}

async function startDaily() {
  // A player whose login cannot be renewed hears it here, before the run (never a silent guest run).
  if (state.token && !(await ensureFreshToken())) return;
  const guest = !state.token;
  notice(""); // at the tap: the page moves now, not when the reply comes
  const sentAt = Date.now();
  const reply = await api("POST", guest ? "/guest/daily/runs" : "/daily/runs", undefined, { auth: !guest });
  if (!ok(reply)) {
    notice("The Daily could not start: " + problem(reply));
    return;
  }
  if (reply.body.kind !== "daily") {
    notice("The server answered with a run that is not a Daily: not started.");
    return;
  }
  learnSkew(reply, sentAt);
  keepRun(reply.body, guest);
  if (state.daily && reply.body.date !== state.daily.date) loadDaily(); // a new day began
  const run = reply.body;
  say(
    $("status"),
    reply.status === 200
      ? "Welcome back: your run goes on where you left it."
      : guest
        ? "Guest run: go!"
        : run.official
          ? "Official run: this one counts for today. Go!"
          : "Practice run: your official score is already in. Go!",
  );
  go("play");
  $("word").focus();
}

async function startChallenge() {
  const challenge = state.challenge;
  if (!challenge) return;
  if (state.token && !(await ensureFreshToken())) return;
  if (!state.token) {
    openLogin();
    return;
  }
  const sentAt = Date.now();
  const reply = await api("POST", `/challenges/${encodeURIComponent(challenge.challenge_id)}/runs`, undefined, {
    auth: true,
  });
  if (!ok(reply)) {
    say($("challenge-status"), "The challenge could not start: " + problem(reply), "bad");
    return;
  }
  if (reply.body.kind !== "challenge" || reply.body.challenge_id !== challenge.challenge_id) {
    say($("challenge-status"), "The server answered with another run: not started.", "bad");
    return;
  }
  learnSkew(reply, sentAt);
  keepRun(reply.body, false);
  say($("status"), reply.status === 200 ? "Welcome back: your run goes on." : reply.body.official ? "Challenge on: your first finished run is your result. Go!" : "Practice run: go!");
  go("play");
  $("word").focus();
}

async function resumeSavedRun() {
  const saved = JSON.parse(sessionStorage.getItem(RUN_KEY) || "null");
  if (!saved || (!saved.guest && !state.token)) return;
  const reply = await api("GET", (saved.guest ? "/guest/runs/" : "/runs/") + encodeURIComponent(saved.run_id), undefined, {
    auth: !saved.guest,
  });
  if (reply.status !== 200) {
    sessionStorage.removeItem(RUN_KEY);
    return;
  }
  state.skewMs = saved.skewMs || 0;
  state.run = Object.assign(reply.body, { guest: saved.guest });
  renderRun();
  renderHome();
}

async function send(suffix, body) {
  state.busy = true;
  renderButtons();
  try {
    return await api("POST", runPath(state.run) + suffix, body, { auth: !state.run.guest });
  } finally {
    state.busy = false;
    renderButtons();
  }
}

async function submitWord(event) {
  event.preventDefault();
  const run = state.run;
  if (!run || run.status !== "active" || state.busy) return;
  // The server judges the exact text and does not trim: a stray space should not cost an attempt.
  const word = $("word").value.trim();
  if (secondsLeft(run) === 0) {
    // Past the deadline the server would refuse it (409): read the run, which completes it.
    say($("status"), "Time is up.", "bad");
    tick();
    return;
  }
  if (!word) {
    say($("status"), "Type a word first.", "bad");
    $("word").focus();
    return;
  }
  const reply = await send("/answers", { round: run.round, attempt: run.attempt, word });
  let rejected = false;
  if (reply.status === 200) {
    const result = reply.body;
    const next = result.run;
    const shown = word.toUpperCase();
    if ("speed_bonus" in result) state.speedScoring = true;
    if (result.accepted) {
      const combo = next.combo > 1 ? `, combo ×${next.combo}` : "";
      const speed = result.speed_bonus ? ` (${result.speed_bonus} for speed)` : "";
      say($("status"), `Accepted: ${shown}, +${result.points} points${speed}${combo}.`, "ok");
      if (run.attempt === 1) markPerfect();
      if ($("word").value.trim() === word) $("word").value = ""; // keep what was typed meanwhile
    } else {
      const why = reasonText(result.reason, run.prompt, run.forbidden, word);
      const goesOn = next.status === "active" && next.round === run.round;
      const after = goesOn ? `${next.attempts_left} attempt${next.attempts_left === 1 ? "" : "s"} left.` : `Round ${run.round} lost.`;
      say($("status"), `Rejected: ${shown}. ${why} ${after}`, "bad");
      rejected = goesOn; // the word stays in the box, selected, to fix or retype
      if (!goesOn && $("word").value.trim() === word) $("word").value = "";
      shake();
    }
  }
  afterReply(reply, run);
  if (rejected && state.view === "game") $("word").select();
}

/** A short shake of the word box on a rejection (none under prefers-reduced-motion: see style.css). */
function shake() {
  const box = $("word");
  box.classList.remove("shake");
  void box.offsetWidth; // restart the animation
  box.classList.add("shake");
}

/** A mark beside the prompt for a word found at the first try. */
function markPerfect() {
  const mark = $("perfect-mark");
  mark.hidden = false;
  mark.classList.remove("pop");
  void mark.offsetWidth;
  mark.classList.add("pop");
  clearTimeout(state.markTimer);
  state.markTimer = setTimeout(() => {
    mark.hidden = true;
  }, 1500);
}

async function skipRound() {
  const run = state.run;
  if (!run || run.status !== "active" || state.busy) return;
  if (secondsLeft(run) === 0) {
    tick();
    return;
  }
  const reply = await send("/skip", { round: run.round });
  if (reply.status === 200) say($("status"), `Round ${run.round} skipped: combo reset.`);
  afterReply(reply, run);
}

/** Every reply to an answer or skip carries the run: show it, so the page follows the server. */
function afterReply(reply, sentFor) {
  if (!state.run || state.run.run_id !== sentFor.run_id) return; // logged out, or another run, meanwhile
  if (reply.body && reply.body.run) keepRun(reply.body.run, sentFor.guest);
  const run = state.run;
  if (reply.status === 409) {
    say(
      $("status"),
      run.status === "completed"
        ? run.ended_by === "expired" ? "Time is up: that was not counted." : "This run is over: that was not counted."
        : "Not counted: the run had already moved on (played in another tab?). Here is where it is now.",
      "bad",
    );
  } else if (reply.status !== 200) {
    say($("status"), problem(reply), "bad");
  }
  if (run.status === "completed") go("play");
  else {
    $("word").focus();
    keepAnswerInView(); // the verdict may have grown: keep it and the box above the keyboard
  }
}

function onCompleted(run) {
  document.dispatchEvent(new CustomEvent("wordsqd:completed", { detail: run })); // players.js
  if (run.official && !run.guest && run.kind === "daily" && !state.officialDates.has(run.date)) {
    state.officialDates.add(run.date);
    if (run.ranked === false) state.unrankedDates.set(run.date, run.unranked_reason);
    state.historyLoaded = false; // a new official result: history and stats have changed
    state.stats = undefined;
  }
}

function renderButtons() {
  $("submit-word").disabled = state.busy;
  $("skip").disabled = state.busy;
}

function renderRun() {
  const run = state.run;
  if (!run) return;
  if (run.status === "completed") {
    renderEnd(run);
    if (state.view === "game") go("play");
    return;
  }
  $("run-label").textContent = run.kind === "challenge"
    ? run.official ? "Challenge" : "Challenge · practice"
    : run.guest ? "Daily · guest" : run.official ? "Daily · official" : "Daily · practice";
  $("round").textContent = run.round;
  $("rounds").textContent = run.rounds;
  $("score").textContent = run.score;
  $("combo").textContent = run.combo > 1 ? `×${run.combo}` : run.combo;
  const letters = (run.prompt || "").split("");
  const tiles = $("prompt-tiles");
  if (tiles.dataset.prompt !== `${run.round}:${run.prompt}`) {
    tiles.dataset.prompt = `${run.round}:${run.prompt}`;
    tiles.replaceChildren(...letters.map(tile));
  }
  const roundKey = `${run.run_id}:${run.round}`;
  if (state.roundKey !== roundKey) {
    // A new round: its speed bonus counts from now (round 1 from the run's start, on the server's
    // clock), and the live region says its letters.
    state.roundKey = roundKey;
    state.roundShownAt = run.round === 1 ? Date.parse(run.started_at) - state.skewMs : Date.now();
    $("announce").textContent = roundAnnouncement(run);
  }
  if ((run.history || []).some((round) => "speed_bonus" in round)) state.speedScoring = true;
  $("prompt-text").textContent = letters.join(", ");
  $("forbidden-banner").hidden = !run.forbidden;
  $("prompt-label").hidden = !!run.forbidden; // the banner takes the label's place (style.css: .round-note)
  $("forbidden-tiles").replaceChildren(...(run.forbidden || "").split("").map(tile));
  $("forbidden-tiles").setAttribute("aria-label", "Forbidden letters: " + (run.forbidden || "").split("").join(", "));
  $("attempts-left").textContent = run.attempts_left;
  const dots = [];
  for (let i = 0; i < 3; i += 1) {
    const dot = document.createElement("span");
    dot.className = "dot" + (i < 3 - run.attempts_left ? " used" : "");
    dots.push(dot);
  }
  $("attempt-dots").replaceChildren(...dots);
  renderTrail(run);
  renderButtons();
  tick();
}

function tile(letter) {
  const span = document.createElement("span");
  span.textContent = letter;
  return span;
}

const OUTCOME_WORDS = { accepted: "word found", lost: "lost", skipped: "skipped" };

function renderTrail(run) {
  const items = [];
  for (const round of run.history || []) {
    if (!round.outcome) continue;
    const li = document.createElement("li");
    const square = document.createElement("span");
    square.textContent = roundSquare(round);
    square.setAttribute("role", "img");
    square.setAttribute("aria-label", `Round ${round.round}: ${OUTCOME_WORDS[round.outcome]}, ${round.points} points`);
    li.append(square);
    items.push(li);
  }
  $("trail").replaceChildren(...items);
}

/** Seconds until the run's deadline, on the server's clock as this page knows it. */
function secondsLeft(run) {
  return Math.max(0, (Date.parse(run.deadline) - (Date.now() + state.skewMs)) / 1000);
}

/** The timer counts to the server's deadline; once it passes, one read lets the server complete the run. */
function tick() {
  tickCountdown();
  const run = state.run;
  if (!run || run.status !== "active") return;
  const total = (Date.parse(run.deadline) - Date.parse(run.started_at)) / 1000 || 180;
  const left = secondsLeft(run);
  $("time-left").textContent = clockText(Math.ceil(left));
  for (const mark of TIMER_ANNOUNCEMENTS) {
    const key = `${run.run_id}:${mark}`;
    if (left <= mark && left > mark - 5 && !state.announced.has(key)) {
      state.announced.add(key);
      $("announce").textContent = timeAnnouncement(mark);
    } else if (left <= mark - 5) {
      state.announced.add(key); // a run resumed later says nothing about times gone by
    }
  }
  if ($("speed").hidden === state.speedScoring) {
    $("speed").hidden = !state.speedScoring;
    keepAnswerInView(); // the attempts line may have grown: keep the box above the keyboard
  }
  if (state.speedScoring) $("speed-now").textContent = `+${speedBonusAt((Date.now() - state.roundShownAt) / 1000, state.daily && state.daily.scoring)}`;
  $("time-left").parentElement.classList.toggle("low", left <= 15);
  $("timebar-fill").parentElement.classList.toggle("low", left <= 15);
  $("timebar-fill").style.width = `${Math.min(100, (left / total) * 100)}%`;
  if (left === 0 && !state.refetching) {
    state.refetching = true;
    api("GET", runPath(run), undefined, { auth: !run.guest }).then((reply) => {
      // keepRun shows the end screen if the player is on the game screen; elsewhere it waits.
      if (reply.status === 200 && state.run && state.run.run_id === run.run_id) keepRun(reply.body, run.guest);
      setTimeout(() => {
        state.refetching = false;
      }, 2000);
    });
  }
}

// ---------------------------------------------------------------------------------------------
// The end screen

function renderEnd(run) {
  const won = (run.history || []).filter((round) => round.outcome === "accepted").length;
  $("end-kind").textContent = run.kind === "challenge" ? "Challenge" : `Daily · ${formatDate(run.date)}`;
  $("end-title").textContent = run.ended_by === "expired"
    ? "Time's up!"
    : won === run.rounds ? "Perfect run!" : won >= Math.ceil(run.rounds * 0.7) ? "Great run!" : "Run complete";
  $("final-score").textContent = run.score;
  $("end-squares").textContent = Array.from({ length: run.rounds }, (_, i) =>
    roundSquare((run.history || []).find((round) => round.round === i + 1)),
  ).join("");
  $("end-legend").textContent = SQUARE_LEGEND;
  $("end-won").textContent = `${won}/${run.rounds}`;
  $("end-combo").textContent = run.best_combo;
  $("end-longest").textContent = run.longest_word_length ? `${run.longest_word_length} letters` : "–";
  // A result a moderator voided after the run ended: the run says it ranks, history knows better.
  const reason = (run.ranked === false && run.unranked_reason) || (run.kind === "daily" && state.unrankedDates.get(run.date));
  const unranked = run.official && !run.guest && !!reason;
  $("end-note").textContent = run.guest
    ? "Guest runs are not ranked. Log in to get on the board and keep a streak."
    : unranked
      ? unrankedText(reason)
      : run.official
        ? run.kind === "challenge" ? "This is your result for the challenge." : "This is your official score for the day."
        : "Practice run: your official result was already in, so this one stays off the board.";
  $("share-text").value = shareText(run, location.origin, state.daily && state.daily.date);
  $("copy-share").textContent = navigator.share ? "Share result" : "Copy result";
  say($("copy-status"), "");
  $("end-rank").hidden = true;
  $("end-distribution").hidden = true;
  $("end-streak-item").hidden = true;
  $("end-freezes-item").hidden = true;
  $("end-recap").hidden = true;
  renderReview(run);
  showRecapOnEnd(run);
  tickCountdown();
  if (run.official && !run.guest && run.kind === "daily") {
    // Their room is kept (invisible) until the replies come, so nothing below them moves.
    if (!unranked) {
      reserve($("end-rank"), "");
      reserve($("end-distribution"));
      showMyRankOnEnd(run);
    }
    reserve($("end-streak-item"));
    showStreakOnEnd(run);
  }
}

/** Shows ELEMENT's room but not ELEMENT (style.css: .pending) until revealed(ELEMENT). */
function reserve(element, text) {
  if (text !== undefined) element.textContent = text;
  element.hidden = false;
  element.classList.add("pending");
}
const revealed = (element) => element.classList.remove("pending");

/** "Rank R of N" once the result has landed on the board (its counters trail by a second or two:
 * read again once after BOARD_CATCH_UP_MS, so the number settles). */
async function showMyRankOnEnd(run, attempt = 0) {
  const reply = await api("GET", `/leaderboard/daily/me?date=${encodeURIComponent(run.date)}`, undefined, { auth: true });
  if (reply.status !== 200 || !state.run || state.run.run_id !== run.run_id) return;
  const box = $("end-rank");
  const me = reply.body;
  const standing = me.players > 1 ? ` ${standingText(me.percentile, me.step)}` : "";
  box.textContent = `You are ${rankText(me.rank, me.players)} on today's board so far.${standing}`;
  box.hidden = false;
  revealed(box);
  document.dispatchEvent(new CustomEvent("wordsqd:my-rank", { detail: { me, box } })); // moderation.js: under review
  showDistribution(run.date, me);
  if (attempt < 1) setTimeout(() => state.view === "end" && showMyRankOnEnd(run, attempt + 1), BOARD_CATCH_UP_MS);
}

/** The day's score distribution under the rank, the caller's band (of ME, their rank) marked. */
async function showDistribution(date, me) {
  const reply = await api("GET", `/leaderboard/daily/${encodeURIComponent(date)}/distribution`);
  if (reply.status !== 200 || state.view !== "end") return;
  const { bands, band_points: bandPoints } = reply.body;
  const counted = bands.reduce((sum, count) => sum + count, 0);
  // The counters (and the edge's copy) may not hold the caller's result yet: their rank does.
  if (counted < me.players) bands[me.band] += 1;
  barChart($("end-chart"), bands, me.band, distributionText(bands, bandPoints, me.band));
  $("end-distribution").hidden = false;
  revealed($("end-distribution"));
}

/** The streak this result made (GET /me's stats, read again after the completion). */
async function showStreakOnEnd(run) {
  await loadProfile();
  const stats = state.stats;
  if (!stats || !state.run || state.run.run_id !== run.run_id) return;
  const days = stats.current_streak;
  $("end-streak").textContent = `${days} day${days === 1 ? "" : "s"}` + (stats.max_streak > days ? ` (best ${stats.max_streak})` : "");
  $("end-streak-item").hidden = false;
  revealed($("end-streak-item"));
  $("end-freezes").textContent = freezesText(stats);
  $("end-freezes-item").hidden = stats.freezes === undefined;
}

/** Whether DATE's recap is ready: its board closes a few minutes after the next date's reset
 * (the time limit, the settle margin and the closing pass), so yesterday's is asked for only
 * RECAP_AFTER_RESET_MS after today's reset (no request that would fail). */
const RECAP_AFTER_RESET_MS = 6 * 60 * 1000;
function recapReady(date) {
  const today = state.daily && state.daily.date;
  if (!today || date >= today) return false;
  const todayStarted = Date.parse(state.daily.resets_at) - 24 * 3600 * 1000;
  const yesterday = new Date(Date.parse(`${today}T12:00:00Z`) - 24 * 3600 * 1000).toISOString().slice(0, 10);
  return date < yesterday || Date.now() + state.skewMs - todayStarted >= RECAP_AFTER_RESET_MS;
}

/** A closed day's recap on the end screen and in the review cards; an official run adds the
 * player's own words' company (GET /daily/{date}/recap/me). */
async function showRecapOnEnd(run) {
  if (run.kind !== "daily" || !recapReady(run.date)) return;
  const path = `/daily/${encodeURIComponent(run.date)}/recap`;
  const reply = await api("GET", path);
  if (reply.status !== 200 || !state.run || state.run.run_id !== run.run_id) return;
  const own = run.official && !run.guest ? await api("GET", `${path}/me`, undefined, { auth: true }) : null;
  if (!state.run || state.run.run_id !== run.run_id || state.view !== "end") return;
  const recap = reply.body;
  $("end-recap-players").textContent = `${recap.players} ranked player${recap.players === 1 ? "" : "s"} played this day.`;
  $("end-recap-rounds").replaceChildren(...recap.rounds.map((round) => {
    const li = document.createElement("li");
    li.textContent = recapRoundText(round, recap.players);
    return li;
  }));
  $("end-recap").hidden = false;
  renderReview(run, recap, own && own.status === 200 ? own.body : null);
}

function renderReview(run, recap = null, mine = null) {
  $("review").classList.toggle("with-recap", Boolean(recap));
  const body = $("review").tBodies[0];
  const rows = (run.history || []).map((round) => {
    const words = document.createElement("span");
    for (const attempt of round.attempts) {
      const span = document.createElement("span");
      span.className = attempt.accepted ? "ok" : "bad";
      const time = typeof attempt.elapsed_ms === "number" ? `, ${(attempt.elapsed_ms / 1000).toFixed(1)} s` : "";
      span.textContent = attempt.accepted
        ? `${attempt.word.toUpperCase()}${time ? ` (${time.slice(2)})` : ""} `
        : `${(attempt.word || "(empty)").toUpperCase()} (${shortReason(attempt.reason)}${time}) `;
      words.append(span);
    }
    const outcome = round.outcome ? OUTCOME_WORDS[round.outcome] : "time up";
    const letters = round.prompt + (round.forbidden ? ` (no ${round.forbidden})` : "");
    const points = round.speed_bonus ? `${round.points} (${round.speed_bonus} speed)` : round.points;
    const cells = [["Round", round.round], ["Letters", letters], ["Your words", words], ["Result", outcome], ["Points", points]];
    const day = recap && recap.rounds.find((r) => r.round === round.round);
    if (day) {
      const accepted = round.attempts.find((attempt) => attempt.accepted);
      const own = mine && mine.rounds.find((r) => r.round === round.round && r.word);
      cells.push(["The day", recapCellText(round.outcome, accepted && accepted.word, day, own), "day"]);
    }
    return tableRow(...cells);
  });
  if (recap) { // rounds the run never reached: words that would have fitted
    for (const day of recap.rounds.filter((r) => !(run.history || []).some((round) => round.round === r.round))) {
      const letters = day.prompt + (day.forbidden ? ` (no ${day.forbidden})` : "");
      rows.push(tableRow(["Round", day.round], ["Letters", letters], ["Your words", "–"], ["Result", "not played"], ["Points", 0],
        ["The day", recapCellText(null, null, day, null), "day"]));
    }
  }
  body.replaceChildren(...rows);
}

const SHORT_REASONS = {
  empty: "empty",
  too_long: "too long",
  not_letters: "letters only",
  letter_order: "letter order",
  forbidden_letter: "forbidden letter",
  not_a_word: "not a word",
  already_used: "already used",
};
const shortReason = (reason) => SHORT_REASONS[reason] || reason;

/** A table row whose cells carry their column name, for the narrow-screen card layout. */
function tableRow(...cells) {
  const tr = document.createElement("tr");
  for (const [label, value, className] of cells) {
    const td = document.createElement("td");
    td.dataset.label = label;
    if (className) td.className = className;
    if (value instanceof Node) td.append(value);
    else td.textContent = value ?? "";
    tr.append(td);
  }
  return tr;
}

function emptyRow(table, text) {
  const tr = document.createElement("tr");
  const td = document.createElement("td");
  td.colSpan = table.tHead.rows[0].cells.length;
  td.className = "empty";
  td.textContent = text;
  tr.append(td);
  return tr;
}

/** The system share sheet where the browser has one; the clipboard otherwise. */
async function copyShare() {
  const text = $("share-text").value;
  if (navigator.share) {
    try {
      await navigator.share({ text });
      say($("copy-status"), "Shared.", "ok");
      return;
    } catch (error) {
      if (error && error.name === "AbortError") return; // the player closed the sheet
    }
  }
  try {
    await navigator.clipboard.writeText(text);
    say($("copy-status"), "Copied: paste it anywhere.", "ok");
  } catch {
    $("share-text").select();
    say($("copy-status"), "Select the text above and copy it.", "");
  }
}

// ---------------------------------------------------------------------------------------------
// Boards

function boardRows(table, rows, closed, append) {
  const body = table.tBodies[0];
  if (!append) body.replaceChildren();
  table.classList.toggle("closed", closed);
  const drawn = [];
  for (const row of rows) {
    const tr = tableRow(
      ["Rank", row.rank, "num rank"],
      ["Player", row.display_name, "player"],
      ["Score", row.score, "num score"],
      ["Combo", row.best_combo, "num combo"],
      ["Longest", row.longest_word_length, "num longest"],
      ["Words", (row.words || []).join(", ").toUpperCase(), "words"],
    );
    tr.cells[1].title = row.display_name; // shown whole on hover when a narrow row cuts it short
    tr.cells[5].title = tr.cells[5].textContent;
    if (state.token && row.display_name === state.displayName) {
      tr.className = "mine";
      tr.tabIndex = -1; // "Jump to my row" moves focus here
      tr.setAttribute("aria-label", `Your row: rank ${row.rank}, ${row.score} points`);
    }
    body.append(tr);
    drawn.push([row, tr]);
  }
  if (!body.rows.length) body.append(emptyRow(table, "No official results yet: be the first!"));
  // moderation.js: the rows under review, and the Report action
  document.dispatchEvent(new CustomEvent("wordsqd:rows", { detail: { table, rows: drawn, append } }));
}

// A live board's first page trails a completion by a second or two (the server's stream consumer
// keeps it; docs/leaderboards.md): a player whose own row should be on it but is not yet reads it
// again, a few times.
const BOARD_CATCH_UP_TRIES = 5;
const BOARD_CATCH_UP_MS = 1500;

async function loadBoard(fresh, attempt = 0) {
  const day = $("board-day").value; // YYYY-MM-DD, or "" for today's board
  const query = new URLSearchParams({ limit: "50" });
  if (!fresh && state.boardCursor) query.set("cursor", state.boardCursor);
  const reply = await api("GET", "/leaderboard/daily" + (day ? "/" + day : "") + "?" + query);
  if (reply.status !== 200) {
    $("board-status").textContent = "";
    boardRows($("board"), [], false, false);
    $("board").tBodies[0].replaceChildren(emptyRow($("board"), "This board is unavailable: " + problem(reply)));
    $("board-more").hidden = true;
    return;
  }
  const page = reply.body;
  state.boardDate = page.date;
  $("board-date").textContent = formatDate(page.date);
  $("board-status").textContent = page.status;
  boardRows($("board"), page.rows, page.status !== "live", !fresh);
  state.boardCursor = page.next_cursor;
  $("board-more").hidden = !page.next_cursor;
  if (fresh) showMyRow(page.date);
  const mineDue = fresh && page.status === "live" && !page.next_cursor && state.token && state.officialDates.has(page.date);
  if (mineDue && !showsMine(page.rows)) {
    catchUp(attempt, () => state.view === "board" && state.boardDate === page.date, () => loadBoard(true, attempt + 1));
  }
}

function showsMine(rows) {
  return rows.some((row) => row.display_name === state.displayName);
}

/** Read a board again shortly (attempt ATTEMPT of BOARD_CATCH_UP_TRIES) if STILL_WANTED then. */
function catchUp(attempt, stillWanted, readAgain) {
  if (attempt >= BOARD_CATCH_UP_TRIES) return;
  setTimeout(() => {
    if (stillWanted()) readAgain();
  }, BOARD_CATCH_UP_MS);
}

/** The player's own row and rank. Asked only when history says there is an official result for
 * that date: otherwise the server's answer is 404 not_ranked, which browsers log as an error. */
async function showMyRow(date) {
  const box = $("my-row");
  const bar = $("my-row-bar");
  bar.hidden = true;
  $("jump-mine").hidden = true;
  if (!state.token) return;
  if (!state.historyLoaded) await loadHistory(true);
  if (!state.officialDates.has(date)) {
    box.textContent = state.daily && date === state.daily.date
      ? "You are not on today's board yet: finish the Daily while logged in."
      : "You have no official result for this date.";
    bar.hidden = false;
    return;
  }
  if (state.unrankedDates.has(date)) {
    box.textContent = unrankedText(state.unrankedDates.get(date), "Your result for this date");
    bar.hidden = false;
    return;
  }
  const reply = await api("GET", `/leaderboard/daily/me?date=${encodeURIComponent(date)}`, undefined, { auth: true });
  if (reply.status === 200 && state.boardDate === date) {
    const me = reply.body;
    box.textContent = `You: ${rankText(me.rank, me.players)}, ${me.score} points, best combo ${me.best_combo}, longest word ${me.longest_word_length} letters.`;
    bar.hidden = false;
    $("jump-mine").hidden = false;
    document.dispatchEvent(new CustomEvent("wordsqd:my-rank", { detail: { me, box } }));
  }
}

/** Why a result is on no board, by its unranked_reason (SPEC §3b, §3e); WHAT names it ("Your
 * result for this date"), or the sentence starts "Not ranked". */
export function unrankedText(reason, what = "") {
  const why = reason === "voided"
    ? "a moderator reviewed it and took it off the board"
    : reason === "rank_banned"
      ? "a moderator's decision keeps your results off the boards for a while"
      : "some answers came faster than a person can read a prompt and type a word, so it stays off the board";
  return `${what ? what + " is not ranked" : "Not ranked"}: ${why}. It still counts in your stats.`;
}

/** Scroll to the player's own row (reading more pages until it is there), and focus it. */
async function jumpToMine() {
  for (let pages = 0; !$("board").querySelector("tr.mine") && state.boardCursor && pages < 20; pages += 1) {
    await loadBoard(false);
  }
  const mine = $("board").querySelector("tr.mine");
  if (!mine) return;
  mine.scrollIntoView({ block: "center" });
  mine.focus({ preventScroll: true });
}

// ---------------------------------------------------------------------------------------------
// Stats and history

async function loadHistory(fresh) {
  if (!state.token) return;
  const query = new URLSearchParams({ limit: "50" });
  if (!fresh && state.historyCursor) query.set("cursor", state.historyCursor);
  const reply = await api("GET", "/me/history?" + query, undefined, { auth: true });
  if (reply.status !== 200) return;
  if (fresh) {
    state.historyItems = [];
    state.officialDates = new Set();
    state.unrankedDates = new Map();
  }
  state.historyItems.push(...reply.body.items);
  for (const item of reply.body.items) {
    if (item.kind !== "daily") continue;
    state.officialDates.add(item.date);
    if (item.unranked_reason) state.unrankedDates.set(item.date, item.unranked_reason);
  }
  state.historyCursor = reply.body.next_cursor;
  state.historyLoaded = true;
  renderHome();
}

async function loadMe() {
  $("me-guest").hidden = !!state.token;
  $("me-player").hidden = !state.token;
  if (!state.token) return;
  await loadProfile();
  renderMe();
}

// Streak freezes held (0-2) and the latest date one covered (SPEC §5, docs/players.md).
function freezesText(stats) {
  const held = stats.freezes || 0;
  const covered = stats.covered_dates || [];
  const last = covered.length ? ` (last used ${formatDate(covered[covered.length - 1])})` : "";
  return `${held} held` + last;
}

function renderMe() {
  $("display-name").textContent = state.displayName || "";
  const stats = state.stats;
  $("stats-missing").hidden = !!stats;
  const value = (v) => (v === null || v === undefined ? "–" : v);
  $("stat-played").textContent = value(stats && stats.played);
  $("stat-current").textContent = value(stats && stats.current_streak);
  $("stat-max").textContent = value(stats && stats.max_streak);
  $("stat-best").textContent = value(stats && stats.best_score);
  $("stat-last").textContent = stats && stats.last_played ? formatDate(stats.last_played) : "–";
  $("stat-last").className = "small";
  $("stat-freezes").textContent = stats ? freezesText(stats) : "–";
  const table = $("history");
  const rows = state.historyItems.map((item) => {
    let played;
    if (item.kind === "challenge") {
      played = document.createElement("a");
      played.href = challengeLink(location.origin, item.challenge_id);
      played.textContent = `Challenge, ${formatDate(item.date)}`;
    } else {
      played = `Daily, ${formatDate(item.date)}`;
    }
    return tableRow(
      ["Played", played],
      ["Score", item.score, "num"],
      ["Best combo", item.best_combo, "num"],
      ["Longest", item.longest_word_length, "num"],
      ["Rank", item.unranked_reason === "voided" ? "voided" : item.unranked_reason ? "not ranked" : item.rank ?? "live", "num"],
    );
  });
  table.tBodies[0].replaceChildren(...rows);
  // moderation.js: why a result is unranked or under review
  document.dispatchEvent(new CustomEvent("wordsqd:history", { detail: { items: state.historyItems, rows } }));
  // A live Daily's rank, as it stands (history gives the final rank only once the board closes).
  state.historyItems.forEach((item, index) => {
    if (item.kind === "daily" && item.rank === null && !item.unranked_reason) showLiveRank(item.date, rows[index].cells[4]);
  });
  if (!rows.length) table.tBodies[0].append(emptyRow(table, "No official results yet: play today's Daily!"));
  renderScoreChart();
  $("history-more").hidden = !state.historyCursor;
}

/** The player's last 30 official Daily scores, oldest first (history is newest first). */
function renderScoreChart() {
  const dailies = state.historyItems.filter((item) => item.kind === "daily").slice(0, 30).reverse();
  $("score-chart-card").hidden = dailies.length === 0;
  if (!dailies.length) return;
  const text = "Your last " + dailies.length + " official Daily scores, oldest first: " +
    dailies.map((item) => `${formatDate(item.date)}: ${item.score}`).join("; ") + ".";
  barChart($("score-chart"), dailies.map((item) => item.score), -1, text);
}

async function showLiveRank(date, cell) {
  const reply = await api("GET", `/leaderboard/daily/me?date=${encodeURIComponent(date)}`, undefined, { auth: true });
  if (reply.status === 200 && cell.isConnected) {
    cell.textContent = `${reply.body.rank}${reply.body.players ? ` of ${reply.body.players}` : ""} so far`;
  }
}

async function saveName(event) {
  event.preventDefault();
  const why = await putName($("new-name").value);
  if (why) {
    say($("name-status"), "Name not saved: " + why, "bad");
    return;
  }
  $("new-name").value = "";
  say($("name-status"), `Saved: boards now show you as ${state.displayName}.`, "ok");
  renderMe();
}

// ---------------------------------------------------------------------------------------------
// Challenges

function renderChallengeForm() {
  const player = !!state.token;
  $("challenge-form").hidden = !player;
  $("challenge-login-hint").hidden = player;
  renderChallenge();
}

function fillSelect(select, from, to, selected) {
  if (select.options.length) return;
  for (let n = from; n <= to; n += 1) select.add(new Option(String(n), String(n), n === selected, n === selected));
}

async function createChallenge(event) {
  event.preventDefault();
  const body = {
    rounds: Number($("challenge-rounds").value),
    forbidden_rounds: Number($("challenge-forbidden").value),
  };
  const reply = await api("POST", "/challenges", body, { auth: true });
  if (reply.status !== 201) {
    say($("challenge-status"), "No challenge created: " + problem(reply), "bad");
    return;
  }
  state.challenge = reply.body;
  loadMyChallenges();
  history.replaceState(null, "", `?challenge=${encodeURIComponent(reply.body.challenge_id)}#challenges`);
  say($("challenge-status"), "Challenge created: share the link, then play it yourself.", "ok");
  renderChallenge();
}

async function openChallenge(id, attempt = 0) {
  const reply = await api("GET", `/challenges/${encodeURIComponent(id)}`);
  if (reply.status !== 200) {
    state.challenge = null;
    say($("challenge-status"), reply.status === 404 ? "There is no challenge with that code." : problem(reply), "bad");
    renderChallenge();
    return;
  }
  state.challenge = reply.body;
  say($("challenge-status"), "");
  renderChallenge();
  // The player's own result, just in, may not be on the board yet (see BOARD_CATCH_UP_MS).
  const run = state.run;
  const justFinished = run && run.kind === "challenge" && run.challenge_id === id && run.official && run.status === "completed";
  if (justFinished && reply.body.status === "live" && reply.body.rows.length < 50 && !showsMine(reply.body.rows)) {
    const stillWanted = () => state.view === "challenges" && state.challenge && state.challenge.challenge_id === id;
    catchUp(attempt, stillWanted, () => openChallenge(id, attempt + 1));
  }
}

/** The heading of a challenge: an invitation ("Ann challenged you: beat 1,010") unless it is yours. */
export function invitationText(challenge, myName) {
  const name = challenge.creator_name;
  if (!name) return `Challenge ${challenge.challenge_id.slice(0, 8)}`;
  if (myName && name === myName) {
    return typeof challenge.creator_score === "number"
      ? `Your challenge: your score to beat is ${challenge.creator_score.toLocaleString("en-US")}`
      : "Your challenge: share the link, then play it yourself";
  }
  return typeof challenge.creator_score === "number"
    ? `${name} challenged you: beat ${challenge.creator_score.toLocaleString("en-US")}`
    : `${name} challenged you`;
}

/** The challenges this player made (GET /me/challenges), newest first, for the list. */
async function loadMyChallenges() {
  state.myChallenges = [];
  if (state.token) {
    const reply = await api("GET", "/me/challenges", undefined, { auth: true });
    if (reply.status === 200) state.myChallenges = reply.body.items;
  }
  renderMyChallenges();
}

function renderMyChallenges() {
  const items = state.token ? state.myChallenges : [];
  $("my-challenges-card").hidden = !items.length;
  $("my-challenges").replaceChildren(...items.map((item) => {
    const li = document.createElement("li");
    const open = document.createElement("a");
    open.href = challengeLink(location.origin, item.challenge_id);
    const made = new Date(item.created_at).toLocaleDateString([], { month: "short", day: "numeric" });
    open.textContent = `${item.rounds} rounds, made ${made}`;
    open.addEventListener("click", (event) => {
      event.preventDefault();
      history.replaceState(null, "", `?challenge=${encodeURIComponent(item.challenge_id)}#challenges`);
      openChallenge(item.challenge_id).then(() => $("challenge-card").scrollIntoView({ block: "start" }));
    });
    const when = document.createElement("span");
    when.className = "hint";
    when.textContent = item.open ? " · open, see its board" : " · closed, see its final board";
    li.append(open, when);
    if (state.challenge && state.challenge.challenge_id === item.challenge_id) li.className = "current";
    return li;
  }));
}

function renderChallenge() {
  const challenge = state.challenge;
  $("challenge-card").hidden = !challenge;
  renderMyChallenges();
  if (!challenge) return;
  const forbidden = challenge.forbidden_rounds;
  $("challenge-title").textContent = invitationText(challenge, state.token ? state.displayName : null);
  $("challenge-kicker").textContent = challenge.open ? "Challenge · open" : "Challenge · closed";
  const closes = new Date(challenge.closes_at).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  $("challenge-shape").textContent =
    `${challenge.rounds} rounds (${forbidden ? `the last ${forbidden} forbidden` : "no forbidden rounds"}), ` +
    `${challenge.time_limit_seconds} seconds. ` + (challenge.open ? `Open until ${closes}.` : "Closed.");
  $("challenge-link").value = challengeLink(location.origin, challenge.challenge_id);
  const play = $("challenge-play");
  play.disabled = !challenge.open;
  play.textContent = !challenge.open ? "This challenge has closed" : state.token ? "Play this challenge" : "Log in to play";
  if (challenge.creator_name && typeof challenge.creator_score !== "number" && challenge.creator_name !== state.displayName) {
    $("challenge-shape").textContent += ` ${challenge.creator_name} has not played it yet: set the score to beat.`;
  }
  $("challenge-board-status").textContent = challenge.status;
  boardRows($("challenge-board"), challenge.rows, challenge.status === "closed", false);
}

async function copyChallengeLink() {
  try {
    await navigator.clipboard.writeText($("challenge-link").value);
    say($("challenge-status"), "Link copied: send it to your friends.", "ok");
  } catch {
    $("challenge-link").select();
    say($("challenge-status"), "Select the link and copy it.", "");
  }
}

// ---------------------------------------------------------------------------------------------
// Start-up

function bind() {
  $("login-open").addEventListener("click", openLogin);
  $("login-cancel").addEventListener("click", () => {
    $("login-panel").hidden = true;
  });
  $("login-form").addEventListener("submit", localLogin);
  $("logout").addEventListener("click", logout);
  $("start-daily").addEventListener("click", startDaily);
  $("resume-run").addEventListener("click", () => {
    go("play");
    $("word").focus();
  });
  $("answer-form").addEventListener("submit", submitWord);
  $("skip").addEventListener("click", skipRound);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && state.view === "game" && state.run && state.run.status === "active") {
      event.preventDefault();
      skipRound();
    }
  });
  $("copy-share").addEventListener("click", copyShare);
  $("end-board").addEventListener("click", () => {
    if (state.run && state.run.kind === "challenge") {
      openChallenge(state.run.challenge_id);
      go("challenges");
    } else {
      $("board-day").value = state.run && state.daily && state.run.date !== state.daily.date ? state.run.date : "";
      go("board");
    }
  });
  $("end-home").addEventListener("click", () => go("home"));
  $("board-day").addEventListener("change", () => loadBoard(true));
  $("board-today").addEventListener("click", () => {
    $("board-day").value = "";
    loadBoard(true);
  });
  $("board-refresh").addEventListener("click", () => loadBoard(true));
  $("board-more").addEventListener("click", () => loadBoard(false));
  $("history-more").addEventListener("click", async () => {
    await loadHistory(false);
    renderMe();
  });
  $("name-form").addEventListener("submit", saveName);
  $("name-prompt-form").addEventListener("submit", saveNamePrompt);
  $("name-prompt-skip").addEventListener("click", skipNamePrompt);
  $("jump-mine").addEventListener("click", jumpToMine);
  // On a phone the keyboard takes the lower half: keep the word box, and the verdict and attempts
  // above it, in what is left of the screen.
  $("word").addEventListener("focus", keepAnswerInView);
  if (window.visualViewport) window.visualViewport.addEventListener("resize", keepAnswerInView);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && state.token) ensureFreshToken();
  });
  fillSelect($("challenge-rounds"), 5, 10, 10);
  fillSelect($("challenge-forbidden"), 0, 3, 3);
  $("challenge-form").addEventListener("submit", createChallenge);
  $("challenge-open-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const id = challengeIdFrom($("challenge-open").value);
    if (!id) {
      say($("challenge-status"), "That is not a challenge link or code.", "bad");
      return;
    }
    history.replaceState(null, "", `?challenge=${encodeURIComponent(id)}#challenges`);
    openChallenge(id);
  });
  $("challenge-play").addEventListener("click", startChallenge);
  $("challenge-copy").addEventListener("click", copyChallengeLink);
  window.addEventListener("hashchange", route);
  setInterval(tick, 250);
}

function keepAnswerInView() {
  if (state.view !== "game" || document.activeElement !== $("word")) return;
  const height = window.visualViewport ? window.visualViewport.height : window.innerHeight;
  const form = $("answer-form").getBoundingClientRect();
  if (form.bottom > height || $("status").getBoundingClientRect().top < 0) {
    $("answer-form").scrollIntoView({ block: "end" });
  }
}

async function loadConfig() {
  try {
    const response = await fetch("config.json", { cache: "no-cache" });
    if (response.ok) state.config = await response.json();
  } catch {
    /* keep the local default */
  }
}

async function main() {
  bind();
  // players.js builds the leagues and past Dailies views that showView hides and shows: its module
  // script can run after this one's first replies (a slow fetch), so nothing is shown before it has.
  await Promise.all([loadConfig(), import("./players.js"), import("./moderation.js")]);
  const params = new URLSearchParams(location.search);
  if (state.config.auth === "cognito" && (params.get("code") || params.get("error"))) {
    await finishCognitoLogin(params);
  } else {
    state.token = localStorage.getItem(TOKEN_KEY);
    state.refreshToken = localStorage.getItem(REFRESH_KEY);
  }
  $("login-form").hidden = state.config.auth !== "local";
  // GET /daily first: its Date says the server's time, so a token that expired while the page was
  // closed is renewed before it is used (it would only earn a 401), or the page says it cannot be.
  await loadDaily();
  if (state.token) await ensureFreshToken();
  await loadIdentity();
  await resumeSavedRun();
  const shared = new URLSearchParams(location.search).get("challenge");
  if (shared) {
    await openChallenge(shared);
    // A shared link opens the challenge; a reload in the middle of a game stays in the game.
    if (!["#play", "#board", "#me"].includes(location.hash)) {
      history.replaceState(null, "", location.pathname + location.search + "#challenges");
    }
  }
  route();
  document.documentElement.dataset.ready = "true"; // the page has loaded what it shows (for tests)
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("sw.js").catch(() => {}); // the offline page
}

main();

// What web/players.js (leagues, past Dailies, your data) and web/moderation.js use of this module.
export { api, boardRows, go, keepRun, learnSkew, ok, problem, say, state };
