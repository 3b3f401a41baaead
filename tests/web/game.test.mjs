// web/js/lib/game.js: the game's numbers and a run's result, as the page shows them.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  challengeIdFrom,
  challengeLink,
  clockText,
  recapReady,
  roundSquare,
  scoringNumbers,
  shareText,
  speedBonusAt,
} from "../../web/js/lib/game.js";
import { scoring } from "./server_numbers.mjs";

test("the speed bonus counts whole seconds, by the server's numbers", () => {
  const { speed_bonus_per_second: per, speed_bonus_seconds: limit } = scoring;
  const seconds = [0, 3, limit - 0.01, limit, limit * 4];
  assert.deepEqual(
    seconds.map((s) => speedBonusAt(s, scoring)),
    [per * limit, per * (limit - 3), per, 0, 0],
  );
  assert.equal(speedBonusAt(-1, scoring), per * limit); // a clock a little behind counts as 0 s
  assert.equal(speedBonusAt(3, null), null); // nothing is guessed before GET /daily answers
});

test("the rules card's maxima are derived from the scoring numbers", () => {
  const numbers = scoringNumbers(scoring);
  assert.equal(numbers.combo_bonus_max, scoring.combo_bonus_per_step * scoring.combo_bonus_max_steps);
  assert.equal(numbers.speed_bonus_max, scoring.speed_bonus_per_second * scoring.speed_bonus_seconds);
  assert.equal(numbers.max_score, scoring.max_score);
});

const accepted = { accepted: true, reason: null };
const RUN = {
  kind: "daily",
  date: "2026-11-30",
  rounds: 4,
  score: 321,
  best_combo: 2,
  ended_by: "expired",
  started_at: "2026-11-30T12:00:00.000Z",
  completed_at: "2026-11-30T12:03:00.000Z",
  history: [
    { round: 1, forbidden: "", outcome: "accepted", attempts: [{ ...accepted, word: "timer" }] },
    {
      round: 2,
      forbidden: "",
      outcome: "lost",
      attempts: ["abc", "abd", "abe"].map((word) => ({ word, accepted: false, reason: "not_a_word" })),
    },
    { round: 3, forbidden: "XYZ", outcome: "skipped", attempts: [] },
  ],
};

test("the share text has squares, score and date but no word", () => {
  const text = shareText(RUN, "https://wordsqd.example");
  assert.deepEqual(text.split("\n"), [
    "WordSQD Daily 2026-11-30",
    "✅❌➖⬛",
    "Score 321 · 1/4 words · best combo 2 · time up",
    "https://wordsqd.example",
  ]);
  for (const word of ["timer", "abc", "abd", "abe"]) assert.ok(!text.toLowerCase().includes(word), word);
  assert.equal(shareText(RUN, "https://wordsqd.example", "2026-12-03").split("\n")[0], "WordSQD Daily 2026-11-30 (replay)");
  assert.equal(shareText(RUN, "https://wordsqd.example", "2026-11-30").split("\n")[0], "WordSQD Daily 2026-11-30");
  // A practice of some of a past Daily's rounds (views/recap.js) is no replay of the whole Daily.
  const practice = { ...RUN, rounds: 1, history: RUN.history.slice(0, 1) };
  assert.equal(shareText(practice, "", "2026-12-03", 10).split("\n")[0], "WordSQD Daily 2026-11-30 (practice of 1 round)");
  assert.equal(shareText(RUN, "", "2026-12-03", 10).split("\n")[0], "WordSQD Daily 2026-11-30 (practice of 4 rounds)");
  assert.equal(shareText(RUN, "", "2026-12-03", 4).split("\n")[0], "WordSQD Daily 2026-11-30 (replay)");
  const finished = { ...RUN, ended_by: "completed", completed_at: "2026-11-30T12:01:05.000Z" };
  assert.equal(shareText(finished, "").split("\n")[2], "Score 321 · 1/4 words · best combo 2 · in 1:05");
  const challenge = { ...RUN, kind: "challenge", challenge_id: "abc_DEF-123" };
  assert.deepEqual(shareText(challenge, "https://w.example").split("\n").slice(0, 1), ["WordSQD challenge (4 rounds)"]);
  assert.equal(shareText(challenge, "https://w.example").split("\n")[3], "https://w.example/?challenge=abc_DEF-123");
});

test("a round's square says how it went", () => {
  assert.equal(roundSquare(undefined), "⬛");
  assert.equal(roundSquare({ outcome: "accepted", attempts: [{}, {}] }), "🔶");
});

test("a challenge id comes from its link or is the id itself", () => {
  assert.equal(challengeIdFrom(challengeLink("https://w.example", "abcDEF12_-")), "abcDEF12_-");
  assert.equal(challengeIdFrom("  abcdefgh  "), "abcdefgh");
  assert.equal(challengeIdFrom("short"), null);
  assert.equal(challengeIdFrom("https://w.example/?x=1"), null);
});

test("the clock shows m:ss, and h:mm:ss from an hour", () => {
  assert.deepEqual([0, 59.9, 61, 3600, 3661, -5].map(clockText), ["0:00", "0:59", "1:01", "1:00:00", "1:01:01", "0:00"]);
});

test("yesterday's recap is asked for only once its closing pass has written it", () => {
  const daily = { date: "2026-12-03", resets_at: "2026-12-04T06:00:00.000Z" };
  const reset = Date.parse("2026-12-03T06:00:00.000Z");
  assert.equal(recapReady("2026-12-02", daily, reset + 5 * 60 * 1000), false);
  assert.equal(recapReady("2026-12-02", daily, reset + 6 * 60 * 1000), true);
  assert.equal(recapReady("2026-12-01", daily, reset), true); // older days closed long ago
  assert.equal(recapReady("2026-12-03", daily, reset + 3600 * 1000), false); // today is live
  assert.equal(recapReady("2026-12-02", null, reset), false);
});
