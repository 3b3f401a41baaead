// web/js/lib/standing.js: plain ranks on small boards, the ladder's steps and the points to the next.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  bandColumns,
  ladderText,
  ladderView,
  ordinal,
  PERCENTILE_FROM_PLAYERS,
  placeText,
  scoreToReach,
  standingSentence,
} from "../../web/js/lib/standing.js";

const LADDER = [
  { name: "Good start", percentile: 0 },
  { name: "Solid", percentile: 25 },
  { name: "Great", percentile: 50 },
  { name: "Excellent", percentile: 75 },
  { name: "Brilliant", percentile: 90 },
  { name: "Top 1%", percentile: 99 },
];

test("places are ordinal words", () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(ordinal),
    ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]);
  assert.equal(placeText(1, 7), "1st of 7");
});

test("a small board says a plain rank, never a percentile or a step", () => {
  const me = { rank: 1, players: 7, percentile: 85, step: "Excellent", score: 2085 };
  assert.equal(standingSentence(me), "You are 1st of 7 on today's board so far.");
  const view = ladderView(LADDER, me, [0, 7], 100);
  assert.ok(view.steps.every((step) => !step.current && !step.reached));
  assert.match(ladderText(view, me), new RegExp(`starts at ${PERCENTILE_FROM_PLAYERS} players \\(7 so far\\)`));
});

test("from the documented size on, the percentile and the step are said", () => {
  const me = { rank: 3, players: 40, percentile: 92, step: "Brilliant", score: 1500 };
  assert.equal(standingSentence(me), "You are 3rd of 40 on today's board so far. Better than 92% of the players: Brilliant.");
});

test("the ladder marks the step reached and the least points to the next", () => {
  // 40 players: 10 in band 5 (500-599), 20 in band 8, 10 in band 12; ME scored 850, better than 25%.
  const bands = Array(21).fill(0);
  bands[5] = 10;
  bands[8] = 20;
  bands[12] = 10;
  const me = { rank: 11, players: 40, percentile: 25, step: "Solid", score: 850 };
  const view = ladderView(LADDER, me, bands, 100);
  assert.deepEqual(view.steps.map((s) => [s.name, s.reached, s.current]), [
    ["Good start", true, false], ["Solid", true, true], ["Great", false, false],
    ["Excellent", false, false], ["Brilliant", false, false], ["Top 1%", false, false],
  ]);
  // Great (50%) needs 20 players below: the 20th lowest is in band 8, so at least 801: the
  // player is past that bound already, so at least one more point.
  assert.equal(scoreToReach(50, bands, 100, 40), 801);
  assert.equal(view.next, "Great");
  assert.equal(view.points, 1);
  // Excellent (75%) needs 30 below: the 30th lowest is in band 8 too; Brilliant (90%) 36: band 12.
  assert.equal(scoreToReach(90, bands, 100, 40), 1201);
  // Solid (25%) needs 10 below: the 10th lowest is in band 5, so at least 501.
  const low = ladderView(LADDER, { ...me, percentile: 0, step: "Good start", score: 420, rank: 31 }, bands, 100);
  assert.equal(low.next, "Solid");
  assert.equal(low.points, 81);
  assert.equal(ladderText(low, { ...me, step: "Good start" }), "You are on Good start: at least 81 more points to reach Solid.");
});

test("the top step has no next", () => {
  const me = { rank: 1, players: 200, percentile: 99, step: "Top 1%", score: 2000 };
  const view = ladderView(LADDER, me, [200], 100);
  assert.equal(view.next, null);
  assert.equal(ladderText(view, me), "You are on the top step: Top 1%.");
});

test("the chart's columns run from the lowest held band to the highest, the player's included", () => {
  const bands = Array(21).fill(0);
  bands[3] = 1;
  bands[9] = 4;
  const columns = bandColumns(bands, 100, 9);
  assert.deepEqual(columns.map((c) => [c.from, c.count, c.mine]), [
    [300, 1, false], [400, 0, false], [500, 0, false], [600, 0, false], [700, 0, false], [800, 0, false], [900, 4, true],
  ]);
  assert.equal(bandColumns(bands.map(() => 0), 100, 20).length, 5); // at least five columns
  assert.deepEqual(bandColumns(Array(21).fill(0), 100, -1), []);
});
