// Past Dailies (#archive, SPEC §3d): a month calendar, today's month first; a played day shows
// its score (official from history, practice remembered in localStorage); any past day plays as
// practice.

import { api, ok, problem } from "../api.js";
import { $, element, say } from "../dom.js";
import { monthWeeks, shiftMonth } from "../lib/calendar.js";
import { go, onShow } from "../router.js";
import { keepRun, learnSkew } from "../run.js";
import { get, set, subscribe } from "../store.js";

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
  const shown = get("archive");
  set({ archive: { first: info.body.first_date, today, month: shown ? shown.month : today.slice(0, 7), scores } });
  renderArchive();
}

/** One month of past Dailies, today's month first: each past day plays as practice. */
function renderArchive() {
  const { first, today, month, scores } = get("archive");
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
      const what = $("archive-recap-mode").checked ? "see how it went" : "play it";
      button.append(element("span", { class: "sr-only" }, ` ${cell.date}: ${what}` + (score ? `; you scored ${score}` : "")));
      if (score) button.append(element("span", { class: "day-score", "aria-hidden": "true" }, score.split(" ")[0]));
      button.addEventListener("click", () => ($("archive-recap-mode").checked ? openRecap(cell.date) : playPast(cell.date)));
      return element("td", {}, button);
    })),
  );
  $("archive").querySelector("tbody").replaceChildren(...rows);
}

function moveMonth(step) {
  const shown = get("archive");
  if (!shown) return;
  set({ archive: { ...shown, month: shiftMonth(shown.month, step) } });
  renderArchive();
}

function openRecap(day) {
  set({ recapDate: day });
  go("recap");
}

async function playPast(day) {
  const guest = !get("token");
  const sentAt = Date.now();
  const path = guest ? `/guest/daily/${day}/runs` : `/daily/${day}/runs`;
  const reply = await api("POST", path, undefined, { auth: !guest });
  if (!ok(reply)) return say($("archive-status"), "Not started: " + problem(reply), "bad");
  learnSkew(reply, sentAt);
  keepRun(reply.body, guest);
  set({ started: { text: `Practice on the Daily of ${day}: it counts on no board. Go!` } });
}

/** Remember a finished practice run's score by date (the server keeps no list of them). */
function rememberPractice() {
  const run = get("completed");
  if (!run || run.official || run.kind !== "daily" || !get("daily") || run.date === get("daily").date) return;
  if (run.rounds < get("daily").rounds) return; // a practice of some rounds (views/recap.js)
  const practice = JSON.parse(localStorage.getItem("wordsqd.practice") || "{}");
  practice[run.date] = Math.max(practice[run.date] || 0, run.score);
  localStorage.setItem("wordsqd.practice", JSON.stringify(practice));
}

export function bindArchive() {
  subscribe(["completed"], rememberPractice);
  $("archive-earlier").addEventListener("click", () => moveMonth(-1));
  $("archive-later").addEventListener("click", () => moveMonth(1));
  for (const mode of document.getElementsByName("archive-mode")) mode.addEventListener("change", () => get("archive") && renderArchive());
  onShow("archive", loadArchive);
}
