// A player's own things (SPEC §3c, §3d, §5): leagues with friends, past Dailies to practise, and
// "Download my data" / "Delete my account" under Stats. Its views are built here, when main.js
// binds them, before any view is shown.

import { api, ok, problem } from "../api.js";
import { $, element, say } from "../dom.js";
import { monthWeeks, shiftMonth } from "../lib/calendar.js";
import { invitationLine, inviteLink, JOIN_PARAM, standing } from "../lib/leagues.js";
import { go, onShow } from "../router.js";
import { get } from "../store.js";
import { boardRows } from "./boards.js";
import { keepRun, learnSkew } from "./game.js";

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
    <div class="row month-nav">
      <button type="button" id="archive-earlier" class="ghost small">‹ Earlier</button>
      <h2 id="archive-month" class="month-title" aria-live="polite"></h2>
      <button type="button" id="archive-later" class="ghost small">Later ›</button>
    </div>
    <table class="calendar" id="archive">
      <caption class="sr-only">Past Dailies by day: a marked day has your score</caption>
      <thead><tr>${["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map((d) => `<th scope="col">${d}</th>`).join("")}</tr></thead>
      <tbody></tbody></table>
    <p class="hint"><span class="played-key">●</span> played (your score shown) · today's Daily is on the Play tab</p>
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
  const guest = !get("token");
  $("leagues-login").hidden = !guest;
  $("league-create").hidden = $("league-join").hidden = guest;
  const list = $("league-list");
  list.replaceChildren();
  const code = new URLSearchParams(location.search).get(JOIN_PARAM);
  // The join form holds the link's code at once, not after the invitation's reply: a player who
  // taps Join meanwhile joins with it.
  if (code && !guest) $("league-code").value = code;
  await showInvitation(code);
  if (guest) return;
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
  $("league-invite-join").textContent = get("token") ? `Join ${reply.body.name}` : "Log in to join";
  card.hidden = false;
}

async function acceptInvitation() {
  if (!get("token")) {
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

let archive = null; // {first, today, month, scores: Map(date -> text)}

async function loadArchive() {
  const today = get("daily") && get("daily").date;
  if (!today) return;
  const info = await api("GET", `/daily/${today}`);
  if (!ok(info)) return say($("archive-status"), problem(info), "bad");
  const scores = new Map();
  const practice = JSON.parse(localStorage.getItem("wordsqd.practice") || "{}");
  for (const [day, score] of Object.entries(practice)) scores.set(day, `${score} (practice)`);
  if (get("token")) {
    let cursor = null;
    do {
      const query = "?limit=50" + (cursor ? "&cursor=" + encodeURIComponent(cursor) : "");
      const reply = await api("GET", "/me/history" + query, undefined, { auth: true });
      if (!ok(reply)) break;
      for (const item of reply.body.items) if (item.kind === "daily") scores.set(item.date, `${item.score}`);
      cursor = reply.body.next_cursor;
    } while (cursor);
  }
  archive = { first: info.body.first_date, today, month: archive ? archive.month : today.slice(0, 7), scores };
  renderArchive();
}

/** One month of past Dailies, today's month first: each past day plays as practice. */
function renderArchive() {
  const { first, today, month, scores } = archive;
  const title = new Date(month + "-01T12:00:00Z").toLocaleDateString([], { month: "long", year: "numeric", timeZone: "UTC" });
  $("archive-month").textContent = title;
  $("archive-earlier").disabled = month <= first.slice(0, 7);
  $("archive-later").disabled = month >= today.slice(0, 7);
  const rows = monthWeeks(month, first, today).map((week) =>
    element("tr", {}, ...week.map((cell) => {
      if (!cell) return element("td", { class: "outside" });
      const day = String(Number(cell.date.slice(8)));
      const score = scores.get(cell.date);
      if (!cell.playable) {
        return element("td", { class: cell.date === today ? "today" : "unplayable" }, element("span", {}, day));
      }
      // The visible day number starts the button's name; the rest is for screen readers.
      const button = element("button", { type: "button", class: score ? "day played" : "day", "data-date": cell.date }, day);
      button.append(element("span", { class: "sr-only" }, ` ${cell.date}: play it` + (score ? `; you scored ${score}` : "")));
      if (score) button.append(element("span", { class: "day-score", "aria-hidden": "true" }, score.split(" ")[0]));
      button.addEventListener("click", () => playPast(cell.date));
      return element("td", {}, button);
    })),
  );
  $("archive").querySelector("tbody").replaceChildren(...rows);
}

function moveMonth(step) {
  if (!archive) return;
  archive.month = shiftMonth(archive.month, step);
  renderArchive();
}

async function playPast(day) {
  const guest = !get("token");
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
  if (!run || run.official || run.kind !== "daily" || !get("daily") || run.date === get("daily").date) return;
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

/** Build the leagues and past Dailies views and the data buttons, and bind them. */
export function bindPlayers() {
  build();
  document.addEventListener("wordsqd:completed", rememberPractice);
  $("league-create").addEventListener("submit", createLeague);
  $("league-join").addEventListener("submit", joinLeague);
  $("league-copy").addEventListener("click", copyLeagueLink);
  $("league-invite-join").addEventListener("click", acceptInvitation);
  $("league-rotate").addEventListener("click", rotateCode);
  $("league-leave").addEventListener("click", () => leave("me"));
  $("league-day").addEventListener("change", () => current && openLeague(current));
  $("download-data").addEventListener("click", downloadData);
  $("archive-earlier").addEventListener("click", () => moveMonth(-1));
  $("archive-later").addEventListener("click", () => moveMonth(1));
  $("delete-account").addEventListener("click", deleteAccount);
  onShow("leagues", loadLeagues);
  onShow("archive", loadArchive);
}
