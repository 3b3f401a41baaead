// Home: today's Daily (the store's `daily`, read by daily.js), its rules card with the server's
// numbers (parts/numbers.js), the start and resume buttons, and the countdown to the next Daily.
// Drawn again whenever what it shows changes in the store.

import { api, ok, problem } from "../api.js";
import { ensureFreshToken, serverNowMs } from "../auth.js";
import { loadDaily, resetText, tickCountdown } from "../daily.js";
import { $, notice } from "../dom.js";
import { lastClosedDay } from "../lib/recap.js";
import { banned } from "../lib/sanctions.js";
import { formatDate } from "../lib/words.js";
import { mountNumbers } from "../parts/numbers.js";
import { mountSanctionNotice } from "../parts/sanction_notice.js";
import { go, onShow } from "../router.js";
import { keepRun, learnSkew } from "../run.js";
import { get, set, subscribe } from "../store.js";

/** Start today's Daily (a guest's, or the player's official run or practice). */
async function startDaily() {
  // A player whose login cannot be renewed hears it here, before the run (never a silent guest run).
  if (get("token") && !(await ensureFreshToken())) return;
  const guest = !get("token");
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
  if (get("daily") && reply.body.date !== get("daily").date) loadDaily(); // a new day began
  const run = reply.body;
  const text =
    reply.status === 200
      ? "Welcome back: your run goes on where you left it."
      : guest
        ? "Guest run: go!"
        : run.official
          ? "Official run: this one counts for today. Go!"
          : "Practice run: your official score is already in. Go!";
  set({ started: { text } });
}


/** The home card: today's Daily, and what starting it will do for this player. */
function renderHome() {
  const daily = get("daily");
  if (daily) {
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
  $("start-daily").disabled = !!get("token") && banned(get("sanctions"), Date.now()); // SPEC §3e
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
  $("start-daily").addEventListener("click", startDaily);
  $("resume-run").addEventListener("click", () => set({ started: {} }));
  mountNumbers($("view-home")); // the rules card
  mountSanctionNotice($("sanction-home"));
  subscribe(["daily", "run", "token", "officialDates", "loginLost", "sanctions"], renderHome);
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
