// Practise what you missed (SPEC §4a): from a recap (#recap), "Try this round" starts an unranked
// run of that round's prompt and forbidden letters, and "Practise the rounds you missed" one of
// the rounds the player's official run lost, skipped or never reached (POST
// /daily/{date}/practice {"round"}, or {} for the missed rounds, which the server reads from the
// official run; a guest: POST /guest/daily/{date}/practice {"round"}). Such a run is played on the
// guest run routes (its id is its credential): never official, never on a board, in stats or in
// a streak.

import { api, ok, problem } from "../api.js";
import { $, element, say } from "../dom.js";
import { go } from "../router.js";
import { get } from "../store.js";
import { keepRun, learnSkew } from "./game.js";

/** Practise DAY's round NUMBER, or (null, a player only) the rounds their official run missed. */
async function practise(day, number, what) {
  const sentAt = Date.now();
  const player = !!get("token");
  const path = `${player ? "" : "/guest"}/daily/${encodeURIComponent(day)}/practice`;
  const reply = await api("POST", path, number === null ? {} : { round: number }, { auth: player });
  if (!ok(reply)) return say($("recap-state"), "Practice not started: " + problem(reply), "bad");
  learnSkew(reply, sentAt);
  keepRun(reply.body, true);
  say($("status"), `Practice of ${what}: never ranked, never in your stats. Go!`);
  go("play");
  $("word").focus();
}

/** The recap on screen (views/recap.js sends it) gets its practice buttons. */
function offerPractice(event) {
  const { date, missed } = event.detail;
  for (const item of $("recap-list").querySelectorAll("li[data-round]")) {
    const number = Number(item.dataset.round);
    const button = element("button", { type: "button", class: "ghost small" }, "Try this round",
      element("span", { class: "sr-only" }, ` (round ${number}, as practice)`));
    button.addEventListener("click", () => practise(date, number, `round ${number}`));
    item.append(button);
  }
  if (missed.length) {
    const all = element("button", { type: "button", class: "secondary", id: "practise-missed" },
      `Practise the ${missed.length} round${missed.length === 1 ? "" : "s"} you missed`);
    all.addEventListener("click", () => practise(date, null, `the rounds you missed (${missed.join(", ")})`));
    $("recap-actions").replaceChildren(all);
  }
}

export function bindPractice() {
  document.addEventListener("wordsqd:recap", offerPractice);
}
