// The end of a run: the score, squares and share text, the rank, the day's distribution and the
// streak of an official Daily (their room kept until the replies come), and a closed day's recap.

import { api } from "../api.js";
import { resetText, tickCountdown } from "../daily.js";
import { $, element, say, tableRow } from "../dom.js";
import { BOARD_CATCH_UP_MS, recapReady, roundSquare, shareText, SQUARE_LEGEND } from "../lib/game.js";
import { PENDING_TEXT } from "../lib/sanctions.js";
import { standingSentence } from "../lib/standing.js";
import {
  formatDate,
  freezesText,
  OUTCOME_WORDS,
  recapCellText,
  recapRoundText,
  shortReason,
  unrankedText,
} from "../lib/words.js";
import { drawStanding } from "../parts/standing.js";
import { loadProfile } from "../player.js";
import { go, onShow } from "../router.js";
import { get, set, subscribe } from "../store.js";

/** The end screen of RUN (completed); SCREEN is what only this screen keeps (bindEnd makes it):
 * the timer of the rank's second read, stopped when the screen is left. */
function renderEnd(screen, run) {
  const won = (run.history || []).filter((round) => round.outcome === "accepted").length;
  $("end-kind").textContent = run.kind === "challenge" ? "Challenge" : `Daily · ${formatDate(run.date)}`;
  $("end-title").textContent = run.ended_by === "expired"
    ? "Time's up!"
    : won === run.rounds ? "Perfect run!" : won >= Math.ceil(run.rounds * 0.7) ? "Great run!" : "Run complete";
  $("final-score").textContent = run.score;
  $("end-squares").textContent = Array.from({ length: run.rounds }, (_, i) =>
    roundSquare((run.history || []).find((round) => round.round === i + 1)),
  ).join("");
  $("end-legend").textContent = SQUARE_LEGEND;
  $("end-won").textContent = `${won}/${run.rounds}`;
  $("end-combo").textContent = run.best_combo;
  $("end-longest").textContent = run.longest_word_length ? `${run.longest_word_length} letters` : "–";
  // A result a moderator voided after the run ended: the run says it ranks, history knows better.
  const reason = (run.ranked === false && run.unranked_reason) || (run.kind === "daily" && get("unrankedDates").get(run.date));
  const unranked = run.official && !run.guest && !!reason;
  const rounds = get("daily") ? get("daily").rounds : run.rounds;
  const practice = run.kind === "daily" && run.rounds < rounds; // views/recap.js: a practice of some rounds of a past Daily
  $("end-note").textContent = practice
    ? "Practice of a past Daily's rounds: never ranked, never in your stats or streak."
    : run.guest
    ? "Guest runs are not ranked. Log in to get on the board and keep a streak."
    : unranked
      ? unrankedText(reason)
      : run.official
        ? run.kind === "challenge" ? "This is your result for the challenge." : "This is your official score for the day."
        : "Practice run: your official result was already in, so this one stays off the board.";
  $("share-text").value = shareText(run, location.origin, get("daily") && get("daily").date, rounds);
  $("copy-share").textContent = navigator.share ? "Share result" : "Copy result";
  say($("copy-status"), "");
  $("end-rank").hidden = true;
  $("end-distribution").hidden = true;
  $("end-streak-item").hidden = true;
  $("end-freezes-item").hidden = true;
  $("end-recap").hidden = true;
  // A replay's words are its own: the player's official ones are in the day's recap (#recap).
  $("review").closest("details").querySelector("summary").textContent =
    run.official || run.guest ? "Your words, round by round" : "This run's words, round by round";
  renderReview(run);
  renderRefusedWords(run);
  showRecapOnEnd(run, rounds);
  tickCountdown();
  if (run.official && !run.guest && run.kind === "daily") {
    // Their room is kept (invisible) until the replies come, so nothing below them moves.
    if (!unranked) {
      reserve($("end-rank"), "");
      reserve($("end-distribution"));
      showMyRankOnEnd(screen, run);
    }
    reserve($("end-streak-item"));
    showStreakOnEnd(run);
  }
}

/** Shows ELEMENT's room but not ELEMENT (style.css: .pending) until revealed(ELEMENT). */
function reserve(element, text) {
  if (text !== undefined) element.textContent = text;
  element.hidden = false;
  element.classList.add("pending");
}
const revealed = (element) => element.classList.remove("pending");

/** "Rank R of N" once the result has landed on the board (its counters trail by a second or two:
 * read again once after BOARD_CATCH_UP_MS, so the number settles). */
async function showMyRankOnEnd(screen, run, attempt = 0) {
  const reply = await api("GET", `/leaderboard/daily/me?date=${encodeURIComponent(run.date)}`, undefined, { auth: true });
  if (reply.status !== 200 || !get("run") || get("run").run_id !== run.run_id) return;
  const box = $("end-rank");
  const me = reply.body;
  box.textContent = standingSentence(me, run.date === (get("daily") && get("daily").date) ? "today's board so far" : "the day's board");
  box.hidden = false;
  if (me.review === "pending") box.textContent += " " + PENDING_TEXT;
  revealed(box);
  showDistribution(run.date, me);
  // Only while the end screen has not been left (bindEnd stops the timer): a result voided
  // meanwhile has no rank (the read would be 404).
  if (attempt < 1 && get("view") === "end") {
    clearTimeout(screen.rankTimer);
    screen.rankTimer = setTimeout(() => showMyRankOnEnd(screen, run, attempt + 1), BOARD_CATCH_UP_MS);
  }
}

/** The day's score distribution under the rank, the caller's band (of ME, their rank) marked. */
async function showDistribution(date, me) {
  const reply = await api("GET", `/leaderboard/daily/${encodeURIComponent(date)}/distribution`);
  if (reply.status !== 200 || get("view") !== "end") return;
  const { bands } = reply.body;
  const counted = bands.reduce((sum, count) => sum + count, 0);
  // The counters (and the edge's copy) may not hold the caller's result yet: their rank does.
  if (counted < me.players) bands[me.band] += 1;
  drawStanding(me, reply.body, { chart: $("end-chart"), ladder: $("end-ladder"), text: $("end-ladder-text") });
  $("end-distribution").hidden = false;
  revealed($("end-distribution"));
}

/** The streak this result made (GET /me's stats, read again after the completion). */
async function showStreakOnEnd(run) {
  await loadProfile();
  const stats = get("stats");
  if (!stats || !get("run") || get("run").run_id !== run.run_id) return;
  const days = stats.current_streak;
  $("end-streak").textContent = `${days} day${days === 1 ? "" : "s"}` + (stats.max_streak > days ? ` (best ${stats.max_streak})` : "");
  $("end-streak-item").hidden = false;
  revealed($("end-streak-item"));
  $("end-freezes").textContent = freezesText(stats);
  $("end-freezes-item").hidden = stats.freezes === undefined;
}

/** A closed day's recap on the end screen and in the review cards; an official run adds the
 * player's own words' company (GET /daily/{date}/recap/me). */
async function showRecapOnEnd(run, rounds) {
  if (run.kind !== "daily" || run.rounds < rounds || !recapReady(run.date, get("daily"), Date.now() + get("skewMs"))) return;
  const path = `/daily/${encodeURIComponent(run.date)}/recap`;
  const reply = await api("GET", path);
  if (reply.status !== 200 || !get("run") || get("run").run_id !== run.run_id) return;
  const own = run.official && !run.guest ? await api("GET", `${path}/me`, undefined, { auth: true }) : null;
  if (!get("run") || get("run").run_id !== run.run_id || get("view") !== "end") return;
  const recap = reply.body;
  $("end-recap-players").textContent = `${recap.players} ranked player${recap.players === 1 ? "" : "s"} played this day.`;
  $("end-recap-rounds").replaceChildren(...recap.rounds.map((round) => {
    const li = document.createElement("li");
    li.textContent = recapRoundText(round, recap.players);
    return li;
  }));
  $("end-recap").hidden = false;
  renderReview(run, recap, own && own.status === 200 ? own.body : null);
}

function renderReview(run, recap = null, mine = null) {
  $("review").classList.toggle("with-recap", Boolean(recap));
  const body = $("review").tBodies[0];
  const rows = (run.history || []).map((round) => {
    const words = document.createElement("span");
    for (const attempt of round.attempts) {
      const span = document.createElement("span");
      span.className = attempt.accepted ? "ok" : "bad";
      const time = typeof attempt.elapsed_ms === "number" ? `, ${(attempt.elapsed_ms / 1000).toFixed(1)} s` : "";
      span.textContent = attempt.accepted
        ? `${attempt.word.toUpperCase()}${time ? ` (${time.slice(2)})` : ""} `
        : `${(attempt.word || "(empty)").toUpperCase()} (${shortReason(attempt.reason)}${time}) `;
      words.append(span);
    }
    const outcome = round.outcome ? OUTCOME_WORDS[round.outcome] : "time up";
    const letters = round.prompt + (round.forbidden ? ` (no ${round.forbidden})` : "");
    const points = round.speed_bonus ? `${round.points} (${round.speed_bonus} speed)` : round.points;
    const cells = [["Round", round.round], ["Letters", letters], ["Your words", words], ["Result", outcome], ["Points", points]];
    const day = recap && recap.rounds.find((r) => r.round === round.round);
    if (day) {
      const accepted = round.attempts.find((attempt) => attempt.accepted);
      const own = mine && mine.rounds.find((r) => r.round === round.round && r.word);
      cells.push(["The day", recapCellText(round.outcome, accepted && accepted.word, day, own), "day"]);
    }
    return tableRow(...cells);
  });
  if (recap) { // rounds the run never reached: words that would have fitted
    for (const day of recap.rounds.filter((r) => !(run.history || []).some((round) => round.round === r.round))) {
      const letters = day.prompt + (day.forbidden ? ` (no ${day.forbidden})` : "");
      rows.push(tableRow(["Round", day.round], ["Letters", letters], ["Your words", "–"], ["Result", "not played"], ["Points", 0],
        ["The day", recapCellText(null, null, day, null), "day"]));
    }
  }
  body.replaceChildren(...rows);
}

/** Each word refused as not a word gets a Report button (its report: views/reports.js). */
function renderRefusedWords(run) {
  const refused = new Set();
  for (const round of run.history || []) {
    for (const attempt of round.attempts) if (!attempt.accepted && attempt.reason === "not_a_word") refused.add(attempt.word.toLowerCase());
  }
  const canReport = run.guest || get("token");
  $("refused-list").replaceChildren(...[...refused].filter(() => canReport).map((word) => {
    const button = element("button", { type: "button", class: "ghost small", "aria-label": `Report: this is a word (${word.toUpperCase()})` }, "Report: this is a word");
    const sent = () => {
      button.disabled = true;
      button.textContent = "Reported";
    };
    button.addEventListener("click", () => set({ report: { kind: "word", word, guestRun: run.guest ? run.run_id : null, sent } }));
    return element("li", {}, element("b", {}, word.toUpperCase()), " ", button);
  }));
  $("refused-words").hidden = $("refused-list").children.length === 0;
}

/** The system share sheet where the browser has one; the clipboard otherwise. */
async function copyShare() {
  const text = $("share-text").value;
  if (navigator.share) {
    try {
      await navigator.share({ text });
      say($("copy-status"), "Shared.", "ok");
      return;
    } catch (error) {
      if (error && error.name === "AbortError") return; // the player closed the sheet
    }
  }
  try {
    await navigator.clipboard.writeText(text);
    say($("copy-status"), "Copied: paste it anywhere.", "ok");
  } catch {
    $("share-text").select();
    say($("copy-status"), "Select the text above and copy it.", "");
  }
}

/** The run's board: its challenge's, or its day's. */
function showBoard() {
  const run = get("run");
  if (run && run.kind === "challenge") {
    set({ challengeAsked: run.challenge_id });
    go("challenges");
  } else {
    const daily = get("daily");
    set({ boardDay: run && daily && run.date !== daily.date ? run.date : "" });
    go("board");
  }
}

/** The end screen follows the store: a completed run is drawn, the countdown ticks. (Bound before
 * views/game.js, so a run that completes is drawn here before the game shows this screen.) */
export function bindEnd() {
  const screen = { rankTimer: 0 };
  subscribe(["view"], () => {
    if (get("view") !== "end") clearTimeout(screen.rankTimer);
  });
  subscribe(["run"], () => {
    const run = get("run");
    if (run && run.status === "completed") renderEnd(screen, run);
  });
  subscribe(["countdown"], () => {
    $("end-countdown").textContent = get("countdown");
  });
  subscribe(["daily"], () => {
    $("end-reset-local").textContent = resetText(get("daily"));
  });
  $("copy-share").addEventListener("click", copyShare);
  $("end-home").addEventListener("click", () => go("home"));
  $("end-board").addEventListener("click", showBoard);
  $("end-recap-open").addEventListener("click", () => {
    set({ recapDate: get("run").date });
    go("recap");
  });
  // The end of a run replaces the game under the player's focus: move it to the result.
  onShow("end", () => $("end-title").focus());
}
