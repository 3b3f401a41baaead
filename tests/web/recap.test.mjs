// web/js/lib/recap.js: the last closed day, and a recap round in words (never an empty phrase).
import assert from "node:assert/strict";
import { test } from "node:test";

import { RECAP_AFTER_RESET_MS } from "../../web/js/lib/game.js";
import { lastClosedDay, missedRounds, recapRoundView } from "../../web/js/lib/recap.js";

const daily = { date: "2026-12-06", resets_at: "2026-12-07T06:00:00.000Z" };
const todayStarted = Date.parse("2026-12-06T06:00:00.000Z");

test("the last closed day is yesterday once its recap is written, the day before until then", () => {
  assert.equal(lastClosedDay(daily, todayStarted + RECAP_AFTER_RESET_MS), "2026-12-05");
  assert.equal(lastClosedDay(daily, todayStarted + RECAP_AFTER_RESET_MS - 1), "2026-12-04");
  assert.equal(lastClosedDay(daily, todayStarted + 1e8, "2026-12-06"), null);
  assert.equal(lastClosedDay(null, 0), null);
});

const round = {
  round: 2, prompt: "TMR", forbidden: "", answered: 1, lost_or_skipped: 2, lost_or_skipped_share: 0.667,
  top_words: [{ word: "timer", players: 1 }], longest_word: "timer", missed_common: ["tumor", "tamer"],
};

test("a round says the player's official word beside the crowd's, and what would have fitted", () => {
  const view = recapRoundView(round, 3, { round: 2, word: "timer", others: 0 });
  assert.equal(view.title, "Round 2 · TMR");
  assert.deepEqual(view.lines, [
    "Your word: TIMER, nobody else played it.",
    "1 of 3 found a word; 67% lost or skipped it.",
    "Most played: TIMER (1).",
    "Longest: TIMER.",
    "Nobody played: TUMOR, TAMER.",
  ]);
  assert.equal(view.missed, false);
});

test("no line ends in an empty phrase: a round nobody played says so and lists nothing empty", () => {
  const empty = { ...round, prompt: "BRD", forbidden: "AEO", answered: 0, top_words: [], longest_word: null, missed_common: [] };
  const view = recapRoundView(empty, 3, { round: 2, word: null, others: null });
  assert.equal(view.title, "Round 2 · BRD (no AEO)");
  assert.deepEqual(view.lines, ["You found no word in this round.", "0 of 3 found a word; 67% lost or skipped it."]);
  assert.equal(view.missed, true);
  for (const line of recapRoundView(empty, 3, null).lines) assert.doesNotMatch(line, /:\s*\.?$/);
  assert.equal(recapRoundView(round, 3, { round: 2, word: "timer", others: 2 }).lines[0], "Your word: TIMER, 2 players also played it.");
});

test("the rounds missed are those without a word", () => {
  assert.deepEqual(missedRounds([{ round: 1, word: "a" }, { round: 2, word: null }, { round: 3, word: null }]), [2, 3]);
});

test("stats add up: the streak names the days a freeze kept, and an average says over what", async () => {
  const { averageText, streakText } = await import("../../web/js/lib/words.js");
  const stats = { current_streak: 12, last_played: "2026-12-12", covered_dates: ["2026-11-20", "2026-12-03"], played: 11 };
  const text = streakText(stats);
  assert.match(text, /^Your streak of 12 days: 11 played, and .* kept by a streak freeze\.$/);
  assert.ok(!text.includes("Nov"), text); // a freeze before this streak is not part of it
  assert.equal(streakText({ ...stats, covered_dates: [] }), "Your streak of 12 days: every day played.");
  assert.equal(averageText([800, 900, 1000], true), "900 over all 3 Dailies");
  assert.equal(averageText([800, 901], false), "851 over your last 2 Dailies");
  assert.equal(averageText([], true), "–");
});
