// A closed day's recap (#recap, SPEC §4a): each round's letters, the player's official words (from
// GET /daily/{date}/recap/me, never a replay's) beside the crowd's, and the words that would have
// fitted. One tap from home (the last closed day), the calendar and a closed day's board: each
// sets the store's `recapDate` (null: the last closed day) and shows #recap.
// Practise what you missed (SPEC §4a): "Try this round" starts an unranked run of that round's
// prompt and forbidden letters, and "Practise the rounds you missed" one of the rounds the
// player's official run lost, skipped or never reached (POST /daily/{date}/practice {"round"}, or
// {} for the missed rounds, which the server reads from the official run; a guest: POST
// /guest/daily/{date}/practice {"round"}). Such a run is played on the guest run routes (its id is
// its credential): never official, never on a board, in stats or in a streak.

import { api, ok, problem } from "../api.js";
import { serverNowMs } from "../auth.js";
import { $, element, say } from "../dom.js";
import { lastClosedDay, missedRounds, recapRoundView } from "../lib/recap.js";
import { formatDate } from "../lib/words.js";
import { loadHistory } from "../player.js";
import { go, onShow } from "../router.js";
import { keepRun, learnSkew } from "../run.js";
import { get, set } from "../store.js";

/** Read and draw the recap of the store's `recapDate`. READS counts this view's reads (bindRecap
 * keeps it): a reply to an older one is dropped. */
async function loadRecap(reads) {
  const daily = get("daily");
  const ticket = (reads.count += 1);
  const day = get("recapDate") || lastClosedDay(daily, serverNowMs());
  set({ recap: null });
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
  if (ticket !== reads.count) return; // another day was asked for meanwhile
  if (reply.status !== 200) return say($("recap-state"), "This day's recap is not available: " + problem(reply), "bad");
  const recap = reply.body;
  const mine = own && own.status === 200 ? own.body : null;
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
    const practice = element("button", { type: "button", class: "ghost small" }, "Try this round",
      element("span", { class: "sr-only" }, ` (round ${round.round}, as practice)`));
    practice.addEventListener("click", () => practise(day, round.round, `round ${round.round}`));
    return element("li", { class: "recap-round", "data-round": String(round.round) },
      title, ...view.lines.map((line) => element("p", {}, line)), practice);
  }));
  const missed = mine ? missedRounds(mine.rounds) : [];
  if (missed.length) {
    const all = element("button", { type: "button", class: "secondary", id: "practise-missed" },
      `Practise the ${missed.length} round${missed.length === 1 ? "" : "s"} you missed`);
    all.addEventListener("click", () => practise(day, null, `the rounds you missed (${missed.join(", ")})`));
    $("recap-actions").replaceChildren(all);
  }
  set({ recap: { date: day, recap, mine, missed } });
}

/** Practise DAY's round NUMBER, or (null, a player only) the rounds their official run missed. */
async function practise(day, number, what) {
  const sentAt = Date.now();
  const player = !!get("token");
  const path = `${player ? "" : "/guest"}/daily/${encodeURIComponent(day)}/practice`;
  const reply = await api("POST", path, number === null ? {} : { round: number }, { auth: player });
  if (!ok(reply)) return say($("recap-state"), "Practice not started: " + problem(reply), "bad");
  learnSkew(reply, sentAt);
  keepRun(reply.body, true);
  set({ started: { text: `Practice of ${what}: never ranked, never in your stats. Go!` } });
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

export function bindRecap() {
  const reads = { count: 0 };
  $("recap-board").addEventListener("click", () => {
    set({ boardDay: get("recap") ? get("recap").date : "" });
    go("board");
  });
  onShow("recap", () => loadRecap(reads));
}
