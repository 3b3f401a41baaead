// A closed day's recap (#recap, SPEC §4a): each round's letters, the player's official words (from
// GET /daily/{date}/recap/me, never a replay's) beside the crowd's, and the words that would have
// fitted. One tap from home (the last closed day), the calendar and a closed day's board.
// The view is built here when main.js binds it, before any view is shown.

import { api, problem } from "../api.js";
import { serverNowMs } from "../auth.js";
import { $, element, say } from "../dom.js";
import { lastClosedDay, missedRounds, recapRoundView } from "../lib/recap.js";
import { formatDate } from "../lib/words.js";
import { go, onShow } from "../router.js";
import { get } from "../store.js";
import { loadHistory } from "./account.js";

let shownDate = null; // the day the view shows (null: the last closed day)
let drawn = null; // {date, recap, mine} on screen
let loads = 0; // each read of a recap; a reply to an older one is dropped

function buildView() {
  const view = element("section", { id: "view-recap", class: "view", "aria-labelledby": "recap-title" });
  view.hidden = true;
  view.innerHTML = `
  <div class="card recap-view">
    <p class="eyebrow">How the day went</p>
    <h1 id="recap-title" tabindex="-1">Recap <span class="date" id="recap-date"></span>
      <span class="badge" id="recap-status"></span></h1>
    <p id="recap-state" class="status" role="status" aria-live="polite"></p>
    <p id="recap-players"></p>
    <p id="recap-whose" class="hint"></p>
    <div class="actions" id="recap-actions"></div>
    <ol id="recap-list" class="recap-list"></ol>
    <div class="actions">
      <button type="button" id="recap-board" class="secondary">See that day's board</button>
    </div>
  </div>`;
  $("main").append(view);
}

/** Show DAY's recap (a closed Daily date). */
export function openRecap(day) {
  shownDate = day;
  if (location.hash === "#recap") loadRecap();
  else go("recap");
}

async function loadRecap() {
  const daily = get("daily");
  const ticket = (loads += 1);
  const day = shownDate || lastClosedDay(daily, serverNowMs());
  drawn = null;
  $("recap-list").replaceChildren();
  $("recap-actions").replaceChildren();
  $("recap-players").textContent = "";
  $("recap-whose").textContent = "";
  $("recap-status").textContent = "";
  $("recap-date").textContent = day ? formatDate(day) : "";
  if (!day) return say($("recap-state"), "No day has closed yet: the first recap comes tomorrow.");
  say($("recap-state"), "Reading the day…");
  const path = `/daily/${encodeURIComponent(day)}/recap`;
  // The player's own words only where history says there is an official result (else 404).
  const official = await hasOfficialResult(day);
  const [reply, own] = await Promise.all([
    api("GET", path),
    official ? api("GET", `${path}/me`, undefined, { auth: true }) : null,
  ]);
  if (ticket !== loads) return; // another day was asked for meanwhile
  if (reply.status !== 200) return say($("recap-state"), "This day's recap is not available: " + problem(reply), "bad");
  const recap = reply.body;
  const mine = own && own.status === 200 ? own.body : null;
  drawn = { date: day, recap, mine };
  say($("recap-state"), "");
  $("recap-status").textContent = recap.status;
  $("recap-players").textContent = `${recap.players} ranked player${recap.players === 1 ? "" : "s"} played this day.`;
  $("recap-whose").textContent = mine
    ? "Your words are your official run's: a replay never replaces them."
    : get("token")
      ? "You have no official result for this day."
      : "Log in to see your own words beside the day's.";
  $("recap-list").replaceChildren(...recap.rounds.map((round) => {
    const own = mine && mine.rounds.find((r) => r.round === round.round);
    const view = recapRoundView(round, recap.players, own || null);
    const title = element("h2", {}, view.title);
    if (view.missed) title.append(" ", element("span", { class: "mark" }, "✕ missed")); // a shape and a word
    return element("li", { class: "recap-round", "data-round": String(round.round) },
      title, ...view.lines.map((line) => element("p", {}, line)));
  }));
  // views/practice.js adds the practice buttons
  const missed = mine ? missedRounds(mine.rounds) : [];
  document.dispatchEvent(new CustomEvent("wordsqd:recap", { detail: { ...drawn, missed } }));
}

/** Whether history lists an official Daily result of DAY (reading older pages while they may). */
async function hasOfficialResult(day) {
  if (!get("token")) return false;
  if (!get("historyLoaded")) await loadHistory(true);
  for (let pages = 0; pages < 20 && !get("officialDates").has(day) && get("historyCursor"); pages += 1) {
    const items = get("historyItems");
    if (items.length && items[items.length - 1].date < day) break; // newest first: DAY is not further on
    await loadHistory(false);
  }
  return get("officialDates").has(day);
}

/** The home card's link: the last closed day, if any. */
function renderHomeLink() {
  const day = lastClosedDay(get("daily"), serverNowMs());
  $("home-recap-line").hidden = !day;
}

/** A closed or final past board offers its day's recap. */
function offerFromBoard(event) {
  if (event.detail.table !== $("board")) return;
  const day = get("boardDate");
  const closed = ["closed", "final"].includes($("board-status").textContent);
  $("board-recap").hidden = !(closed && get("daily") && day < get("daily").date);
}

export function bindRecap() {
  buildView();
  $("home-recap").addEventListener("click", (event) => {
    event.preventDefault();
    openRecap(null);
  });
  $("board-recap").addEventListener("click", () => openRecap(get("boardDate")));
  $("end-recap-open").addEventListener("click", () => get("run") && openRecap(get("run").date));
  $("recap-board").addEventListener("click", () => {
    $("board-day").value = drawn ? drawn.date : "";
    go("board");
  });
  document.addEventListener("wordsqd:rows", offerFromBoard);
  document.addEventListener("wordsqd:view", (event) => {
    if (event.detail === "home") renderHomeLink();
  });
  onShow("recap", loadRecap);
}
