// WordSQD web client: a player's own things (SPEC §3c, §3d, §5): leagues with friends, past Dailies
// to practise, and "Download my data" / "Delete my account" under Stats. Its views are built here
// and hooked into app.js's views (the `wordsqd:view` event), so app.js only lists them.

import { api, boardRows, go, keepRun, learnSkew, ok, problem, say, state } from "./app.js";

const $ = (id) => document.getElementById(id);
const JOIN_PARAM = "league"; // ?league=<invite code>#leagues: an invite link

// Pure helpers (exported for the tests) ----------------------------------------------------------

/** "1st", "2nd", "3rd", "4th", "11th", "22nd". */
export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return n + "th";
  return n + ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
}

/** "You are 2nd of 7 in Office", or what to say without a result. */
export function standing(board) {
  if (board.my_rank == null) return `No official result of yours on ${board.date} in ${board.name} yet.`;
  return `You are ${ordinal(board.my_rank)} of ${board.rows.length} in ${board.name}`;
}

/** What an invite link shows before joining: "Made by Ann · 3 members · Today's leader: Bob, 900". */
export function invitationLine(invitation) {
  const members = `${invitation.members} member${invitation.members === 1 ? "" : "s"}`;
  const leader = invitation.leader
    ? `Today's leader: ${invitation.leader.display_name}, ${invitation.leader.score} points`
    : "Nobody has played today's Daily yet";
  return `Made by ${invitation.creator_name} · ${members} · ${leader}`;
}

export function inviteLink(origin, code) {
  return `${origin}/?${JOIN_PARAM}=${encodeURIComponent(code)}#leagues`;
}

/** The Daily dates from FIRST to the day before TODAY, newest first. */
export function pastDates(first, today) {
  const dates = [];
  const day = new Date(today + "T00:00:00Z");
  const start = new Date(first + "T00:00:00Z");
  for (day.setUTCDate(day.getUTCDate() - 1); day >= start; day.setUTCDate(day.getUTCDate() - 1)) {
    dates.push(day.toISOString().slice(0, 10));
  }
  return dates;
}

// The views ------------------------------------------------------------------------------------

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

function build() {
  // The tabs for these views are in index.html: added here, they would move the page as it loads.
  const main = $("main");
  const leagues = element("section", { id: "view-leagues", class: "view", "aria-labelledby": "leagues-title" });
  leagues.hidden = true;
  leagues.innerHTML = `
  <div class="card">
    <h1 id="leagues-title">Leagues</h1>
    <p class="lede">Play the Daily against your friends: a board of your own, every day.</p>
    <div id="league-invite" class="invitation" hidden>
      <p class="eyebrow">You are invited to a league</p>
      <h2 id="league-invite-name" class="invite-title"></h2>
      <p id="league-invite-line"></p>
      <div class="actions"><button type="button" id="league-invite-join" class="primary big">Join</button></div>
    </div>
    <p id="leagues-login" class="hint" hidden>Log in to create or join a league.</p>
    <form id="league-create" class="row">
      <label for="league-name">New league</label>
      <input id="league-name" maxlength="30" placeholder="Office" required>
      <button class="primary">Create</button>
    </form>
    <form id="league-join" class="row">
      <label for="league-code">Invite code</label>
      <input id="league-code" placeholder="code or link" required>
      <button class="secondary">Join</button>
    </form>
    <p id="leagues-status" class="status" role="status" aria-live="polite"></p>
    <ul id="league-list" class="league-list"></ul>
  </div>
  <div class="card" id="league-card" hidden>
    <h2 id="league-title"></h2>
    <p id="league-standing" class="my-row"></p>
    <div class="share-link">
      <label for="league-link">Invite link</label>
      <div class="row"><input id="league-link" readonly>
        <button type="button" id="league-copy" class="secondary">Copy link</button>
        <button type="button" id="league-rotate" class="ghost" hidden>New code</button></div>
    </div>
    <div class="row controls">
      <label for="league-day">Date</label><input type="date" id="league-day">
      <button type="button" id="league-leave" class="ghost">Leave</button>
    </div>
    <div class="table-wrap"><table class="reflow board" id="league-board">
      <caption class="sr-only">League board</caption>
      <thead><tr><th scope="col" class="rank">Rank</th><th scope="col" class="player">Player</th><th scope="col" class="score">Score</th>
        <th scope="col" class="combo">Combo</th><th scope="col" class="longest">Longest</th><th scope="col" class="words-col">Words</th></tr></thead>
      <tbody></tbody></table></div>
    <h3>Members</h3>
    <ul id="league-members"></ul>
  </div>`;
  const archive = element("section", { id: "view-archive", class: "view", "aria-labelledby": "archive-title" });
  archive.hidden = true;
  archive.innerHTML = `
  <div class="card">
    <h1 id="archive-title">Past Dailies</h1>
    <p class="lede">Play any earlier Daily as practice: the same letters, never on a board.</p>
    <p id="archive-status" class="status" role="status" aria-live="polite"></p>
    <div class="table-wrap"><table class="reflow" id="archive">
      <caption class="sr-only">Past Dailies</caption>
      <thead><tr><th scope="col">Date</th><th scope="col">Your score</th><th scope="col">Play</th></tr></thead>
      <tbody></tbody></table></div>
  </div>`;
  main.append(leagues, archive);
  const data = element("div", { id: "my-data" });
  data.innerHTML = `
    <h2>Your data</h2>
    <div class="actions">
      <button type="button" id="download-data" class="secondary">Download my data</button>
      <button type="button" id="delete-account" class="ghost">Delete my account</button>
    </div>
    <p id="data-status" class="status" role="status" aria-live="polite"></p>`;
  $("me-player").append(data);
}

// Leagues --------------------------------------------------------------------------------------

let current = null; // the league on screen

async function loadLeagues() {
  const guest = !state.token;
  $("leagues-login").hidden = !guest;
  $("league-create").hidden = $("league-join").hidden = guest;
  const list = $("league-list");
  list.replaceChildren();
  const code = new URLSearchParams(location.search).get(JOIN_PARAM);
  await showInvitation(code);
  if (guest) return;
  if (code) $("league-code").value = code;
  const reply = await api("GET", "/me/leagues", undefined, { auth: true });
  if (!ok(reply)) return say($("leagues-status"), problem(reply), "bad");
  for (const league of reply.body.items) {
    const button = element("button", { type: "button", class: "ghost" }, `${league.name} (${league.members})`);
    button.addEventListener("click", () => openLeague(league));
    list.append(element("li", {}, button));
  }
  if (current) await openLeague(current);
}

/** An invite link's league, shown to anyone: its name, creator, members and today's leader; a
 * guest is asked to log in, a player joins with one tap. */
async function showInvitation(code) {
  const card = $("league-invite");
  if (!code) {
    card.hidden = true;
    return;
  }
  const reply = await api("GET", `/leagues/invitations/${encodeURIComponent(code)}`);
  if (!ok(reply)) {
    card.hidden = true;
    return say($("leagues-status"), "That invite link no longer works: ask for a new one.", "bad");
  }
  $("league-invite-name").textContent = reply.body.name;
  $("league-invite-line").textContent = invitationLine(reply.body);
  $("league-invite-join").textContent = state.token ? `Join ${reply.body.name}` : "Log in to join";
  card.hidden = false;
}

async function acceptInvitation() {
  if (!state.token) {
    $("login-open").click();
    return;
  }
  $("league-code").value = new URLSearchParams(location.search).get(JOIN_PARAM) || "";
  await joinLeague();
}

async function copyLeagueLink() {
  try {
    await navigator.clipboard.writeText($("league-link").value);
    say($("leagues-status"), "Link copied: send it to your friends.", "good");
  } catch {
    $("league-link").select();
    say($("leagues-status"), "Select the link and copy it.", "bad");
  }
}

async function openLeague(league) {
  current = league;
  $("league-card").hidden = false;
  $("league-title").textContent = league.name;
  $("league-link").value = inviteLink(location.origin, league.code);
  $("league-rotate").hidden = !league.creator;
  const day = $("league-day").value;
  const query = day ? `?date=${encodeURIComponent(day)}` : "";
  const reply = await api("GET", `/leagues/${encodeURIComponent(league.league_id)}/board${query}`, undefined, {
    auth: true,
  });
  if (!ok(reply)) return say($("leagues-status"), problem(reply), "bad");
  const board = reply.body;
  $("league-standing").textContent = standing(board);
  boardRows($("league-board"), board.rows, board.status === "closed", false);
  const members = $("league-members");
  members.replaceChildren(
    ...board.members.map((member) => {
      const item = element("li", {}, member.display_name + (member.creator ? " (creator)" : "") + (member.you ? " (you)" : ""));
      if (league.creator && !member.you) {
        const remove = element("button", { type: "button", class: "ghost" }, "Remove");
        remove.addEventListener("click", () => leave(member.member_id));
        item.append(" ", remove);
      }
      return item;
    }),
  );
}

async function leave(member) {
  const reply = await api("DELETE", `/leagues/${encodeURIComponent(current.league_id)}/members/${member}`, undefined, {
    auth: true,
  });
  if (!ok(reply)) return say($("leagues-status"), problem(reply), "bad");
  if (member === "me") {
    current = null;
    $("league-card").hidden = true;
  }
  loadLeagues();
}

async function createLeague(event) {
  event.preventDefault();
  const reply = await api("POST", "/leagues", { name: $("league-name").value }, { auth: true });
  if (!ok(reply)) return say($("leagues-status"), problem(reply), "bad");
  say($("leagues-status"), `${reply.body.name} is ready: share its invite link.`, "good");
  current = reply.body;
  loadLeagues();
}

async function joinLeague(event) {
  if (event) event.preventDefault();
  const text = $("league-code").value.trim();
  const code = text.includes(JOIN_PARAM + "=") ? new URL(text, location.origin).searchParams.get(JOIN_PARAM) : text;
  const reply = await api("POST", "/leagues/join", { code }, { auth: true });
  if (!ok(reply)) return say($("leagues-status"), problem(reply), "bad");
  say($("leagues-status"), `You are in ${reply.body.name}.`, "good");
  history.replaceState(null, "", location.pathname + "#leagues");
  $("league-invite").hidden = true;
  current = reply.body;
  loadLeagues();
}

async function rotateCode() {
  const reply = await api("POST", `/leagues/${encodeURIComponent(current.league_id)}/code`, undefined, { auth: true });
  if (!ok(reply)) return say($("leagues-status"), problem(reply), "bad");
  say($("leagues-status"), "A new invite code: the old link no longer lets anyone in.", "good");
  openLeague(reply.body);
}

// Past Dailies ---------------------------------------------------------------------------------

async function loadArchive() {
  const today = state.daily && state.daily.date;
  if (!today) return;
  const info = await api("GET", `/daily/${today}`);
  if (!ok(info)) return say($("archive-status"), problem(info), "bad");
  const scores = new Map();
  if (state.token) {
    let cursor = null;
    do {
      const query = "?limit=50" + (cursor ? "&cursor=" + encodeURIComponent(cursor) : "");
      const reply = await api("GET", "/me/history" + query, undefined, { auth: true });
      if (!ok(reply)) break;
      for (const item of reply.body.items) if (item.kind === "daily") scores.set(item.date, item.score);
      cursor = reply.body.next_cursor;
    } while (cursor);
  }
  const practice = JSON.parse(localStorage.getItem("wordsqd.practice") || "{}");
  const body = $("archive").querySelector("tbody");
  body.replaceChildren(
    ...pastDates(info.body.first_date, today).map((day) => {
      const play = element("button", { type: "button", class: "secondary" }, "Play");
      play.addEventListener("click", () => playPast(day));
      const score = scores.has(day) ? `${scores.get(day)} (official)` : day in practice ? `${practice[day]} (practice)` : "–";
      return element("tr", {}, element("td", {}, day), element("td", {}, score), element("td", {}, play));
    }),
  );
}

async function playPast(day) {
  const guest = !state.token;
  const sentAt = Date.now();
  const path = guest ? `/guest/daily/${day}/runs` : `/daily/${day}/runs`;
  const reply = await api("POST", path, undefined, { auth: !guest });
  if (!ok(reply)) return say($("archive-status"), "Not started: " + problem(reply), "bad");
  learnSkew(reply, sentAt);
  keepRun(reply.body, guest);
  say($("status"), `Practice on the Daily of ${day}: it counts on no board. Go!`);
  go("play");
  $("word").focus();
}

/** Remember a finished practice run's score by date (the server keeps no list of them). */
function rememberPractice(event) {
  const run = event.detail;
  if (!run || run.official || run.kind !== "daily" || !state.daily || run.date === state.daily.date) return;
  const practice = JSON.parse(localStorage.getItem("wordsqd.practice") || "{}");
  practice[run.date] = Math.max(practice[run.date] || 0, run.score);
  localStorage.setItem("wordsqd.practice", JSON.stringify(practice));
}

// Your data ------------------------------------------------------------------------------------

async function downloadData() {
  const reply = await api("GET", "/me/export", undefined, { auth: true });
  if (!ok(reply)) return say($("data-status"), problem(reply), "bad");
  const blob = new Blob([JSON.stringify(reply.body, null, 2)], { type: "application/json" });
  const link = element("a", { href: URL.createObjectURL(blob), download: "wordsqd-my-data.json" });
  link.click();
  URL.revokeObjectURL(link.href);
  say($("data-status"), "Your data is downloading.", "good");
}

async function deleteAccount() {
  const sure = window.confirm(
    "Delete your account? Your profile, name, runs, stats and leagues are erased for good; your " +
      "results stay on the boards as \"deleted player\". This cannot be undone.",
  );
  if (!sure) return;
  const reply = await api("DELETE", "/me", undefined, { auth: true });
  if (!ok(reply)) return say($("data-status"), problem(reply), "bad");
  localStorage.clear();
  sessionStorage.clear();
  location.replace(location.pathname + "#home");
  location.reload();
}

function onView(event) {
  if (event.detail === "leagues") loadLeagues();
  if (event.detail === "archive") loadArchive();
}

build();
document.addEventListener("wordsqd:view", onView);
document.addEventListener("wordsqd:completed", rememberPractice);
$("league-create").addEventListener("submit", createLeague);
$("league-join").addEventListener("submit", joinLeague);
$("league-copy").addEventListener("click", copyLeagueLink);
$("league-invite-join").addEventListener("click", acceptInvitation);
$("league-rotate").addEventListener("click", rotateCode);
$("league-leave").addEventListener("click", () => leave("me"));
$("league-day").addEventListener("change", () => current && openLeague(current));
$("download-data").addEventListener("click", downloadData);
$("delete-account").addEventListener("click", deleteAccount);
