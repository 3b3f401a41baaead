// Home: today's Daily (GET /daily), its rules card filled with the server's numbers, the start
// and resume buttons, and the countdown to the next Daily.

import { api, problem } from "../api.js";
import { serverNowMs } from "../auth.js";
import { $, notice } from "../dom.js";
import { clockText, scoringNumbers } from "../lib/game.js";
import { formatDate } from "../lib/words.js";
import { onShow } from "../router.js";
import { get, set } from "../store.js";

let dailyRefetchAt = 0; // a new Daily is read at most this often, should the clocks disagree

/** Read today's Daily: its date, shape and the game's numbers (`scoring`, `limits`). */
export async function loadDaily() {
  const reply = await api("GET", "/daily");
  if (reply.status !== 200) {
    notice("Today's Daily is unavailable: " + problem(reply));
    return;
  }
  set({ daily: reply.body });
  $("board-day").max = get("daily").date;
  renderHome();
}

/** Each element marked data-ATTRIBUTE="name" says NUMBERS[name] (the page's own text holds the
 * same numbers until GET /daily answers: tests/http/test_rules_card.py). */
function fill(attribute, numbers) {
  for (const span of document.querySelectorAll(`[data-${attribute}]`)) {
    const value = numbers[span.dataset[attribute]];
    if (typeof value === "number") span.textContent = String(value);
  }
}

/** The rules card and the text boxes' lengths (data-maxlength="name") with GET /daily's numbers. */
function renderRules(daily) {
  if (daily.scoring) fill("scoring", scoringNumbers(daily.scoring));
  const limits = { ...daily.limits, time_limit_seconds: daily.time_limit_seconds };
  fill("limit", limits);
  for (const box of document.querySelectorAll("[data-maxlength]")) {
    const length = limits[box.dataset.maxlength];
    if (typeof length === "number") box.maxLength = length;
  }
}

/** The home card: today's Daily, and what starting it will do for this player. */
export function renderHome() {
  const daily = get("daily");
  if (daily) {
    renderRules(daily);
    $("daily-date").textContent = formatDate(daily.date);
    $("daily-shape").textContent = `${daily.rounds} rounds, ${daily.time_limit_seconds} seconds.`;
    const at = new Date(daily.resets_at);
    $("reset-local").textContent = `(at ${at.toLocaleTimeString([], { hour: "numeric", minute: "2-digit" })} your time)`;
    $("end-reset-local").textContent = $("reset-local").textContent;
  }
  // A Daily in play is resumed, not restarted; a challenge in play leaves the Daily free to start.
  const active = get("run") && get("run").status === "active";
  $("resume-run").hidden = !active;
  $("resume-run").textContent = active && get("run").kind === "challenge" ? "Resume your challenge" : "Resume your run";
  $("start-daily").hidden = !!active && get("run").kind === "daily";
  const playedToday = !!(daily && get("token") && get("officialDates").has(daily.date));
  $("start-daily").textContent = playedToday ? "Play again (practice)" : get("loginLost") ? "Start as a guest" : "Start the Daily";
  $("daily-who").textContent = get("loginLost")
    ? "Your login has expired and could not be renewed: log in again to play for the board. A run started now is a guest run."
    : !get("token")
    ? "Playing as a guest: your score is not ranked. Log in to get on the board and keep a streak."
    : playedToday
      ? "Your official score for today is in. More runs are practice and stay off the board."
      : "Your first finished run today is your official score.";
  tickCountdown();
}

/** The countdown to the next Daily (read once it begins). */
export function tickCountdown() {
  const daily = get("daily");
  if (!daily) return;
  // The server's clock: a run's (to the game timer's precision) once one has started, else its replies' Date.
  const now = get("skewMs") ? Date.now() + get("skewMs") : serverNowMs();
  const left = (Date.parse(daily.resets_at) - now) / 1000;
  $("countdown").textContent = clockText(left);
  $("end-countdown").textContent = clockText(left);
  if (left <= 0 && Date.now() > dailyRefetchAt) {
    // A new Daily: read it (at most every 30 s, should the clocks disagree).
    dailyRefetchAt = Date.now() + 30000;
    loadDaily().then(() => document.dispatchEvent(new CustomEvent("wordsqd:new-daily"))); // views/boards.js
  }
}

export function bindHome() {
  onShow("home", renderHome);
}
