// Today's Daily (GET /daily: its date, shape and the game's numbers, `scoring` and `limits`) and
// the countdown to the next one, kept in the store (`daily`, `countdown`) for the views to show.

import { api, problem } from "./api.js";
import { serverNowMs } from "./auth.js";
import { notice } from "./dom.js";
import { clockText } from "./lib/game.js";
import { get, set } from "./store.js";

// When GET /daily may be read again once the countdown is over (at most every 30 s, should the
// clocks disagree): the page's one Daily, not a view's.
let refetchAt = 0;

/** Read today's Daily into the store. */
export async function loadDaily() {
  const reply = await api("GET", "/daily");
  if (reply.status !== 200) {
    notice("Today's Daily is unavailable: " + problem(reply));
    return;
  }
  set({ daily: reply.body });
}

/** The countdown to the next Daily (read once it begins) into the store's `countdown`. */
export function tickCountdown() {
  const daily = get("daily");
  if (!daily) return;
  // The server's clock: a run's (to the game timer's precision) once one has started, else its replies' Date.
  const now = get("skewMs") ? Date.now() + get("skewMs") : serverNowMs();
  const left = (Date.parse(daily.resets_at) - now) / 1000;
  set({ countdown: clockText(left) });
  if (left <= 0 && Date.now() > refetchAt) {
    // A new Daily: read it (at most every 30 s, should the clocks disagree).
    refetchAt = Date.now() + 30000;
    loadDaily();
  }
}

/** "(at 12:00 AM your time)": when the next Daily starts, on this browser's clock. */
export function resetText(daily) {
  const at = new Date(daily.resets_at);
  return `(at ${at.toLocaleTimeString([], { hour: "numeric", minute: "2-digit" })} your time)`;
}
