// Home: today's Daily (the store's `daily`, read by daily.js), its rules card filled with the
// server's numbers, the start and resume buttons, and the countdown to the next Daily. Drawn again
// whenever what it shows changes in the store.

import { serverNowMs } from "../auth.js";
import { resetText, tickCountdown } from "../daily.js";
import { $ } from "../dom.js";
import { scoringNumbers } from "../lib/game.js";
import { lastClosedDay } from "../lib/recap.js";
import { formatDate } from "../lib/words.js";
import { go, onShow } from "../router.js";
import { get, set, subscribe } from "../store.js";

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
function renderHome() {
  const daily = get("daily");
  if (daily) {
    renderRules(daily);
    $("daily-date").textContent = formatDate(daily.date);
    $("daily-shape").textContent = `${daily.rounds} rounds, ${daily.time_limit_seconds} seconds.`;
    $("reset-local").textContent = resetText(daily);
  }
  $("home-recap-line").hidden = !lastClosedDay(daily, serverNowMs()); // the last closed day's recap
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

export function bindHome() {
  subscribe(["daily", "run", "token", "officialDates", "loginLost"], renderHome);
  subscribe(["countdown"], () => {
    $("countdown").textContent = get("countdown");
  });
  $("home-recap").addEventListener("click", (event) => {
    event.preventDefault();
    set({ recapDate: null });
    go("recap");
  });
  onShow("home", renderHome);
}
