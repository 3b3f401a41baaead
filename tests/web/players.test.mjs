// web/js/lib/leagues.js and lib/calendar.js: leagues in words, past Dailies in weeks.
import assert from "node:assert/strict";
import { test } from "node:test";

import { monthWeeks, shiftMonth } from "../../web/js/lib/calendar.js";
import { invitationLine, inviteLink, ordinal, standing } from "../../web/js/lib/leagues.js";

test("standing says the rank in words of the rows shown", () => {
  assert.deepEqual(
    [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal),
    ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"],
  );
  const board = { my_rank: 2, rows: Array(7).fill({}), name: "Office", date: "2026-01-15" };
  assert.equal(standing(board), "You are 2nd of 7 in Office");
  assert.equal(standing({ ...board, my_rank: null }), "No official result of yours on 2026-01-15 in Office yet.");
});

test("a month of past Dailies is weeks from Monday, playable from the first to yesterday", () => {
  const weeks = monthWeeks("2026-02", "2026-02-26", "2026-03-01");
  assert.equal(weeks.length, 5); // 1 February 2026 is a Sunday
  assert.ok(weeks.every((week) => week.length === 7));
  assert.deepEqual(weeks[4], [
    ...Array.from({ length: 6 }, (_, i) => ({ date: `2026-02-${23 + i}`, playable: 23 + i >= 26 })),
    null,
  ]);
  assert.deepEqual(weeks[0].slice(0, 6), Array(6).fill(null));
  assert.deepEqual(weeks[0][6], { date: "2026-02-01", playable: false });
  const playable = weeks.flat().filter((cell) => cell && cell.playable).map((cell) => cell.date);
  assert.deepEqual(playable, ["2026-02-26", "2026-02-27", "2026-02-28"]);
  const today = monthWeeks("2026-03", "2026-02-26", "2026-03-01");
  assert.ok(!today.flat().some((cell) => cell && cell.playable)); // today: the Daily itself
  assert.deepEqual([shiftMonth("2026-01", -1), shiftMonth("2026-12", 1)], ["2025-12", "2027-01"]);
});

test("an invitation says who made it, its members and today's leader", () => {
  const invitation = { creator_name: "Ann", members: 1, leader: null };
  assert.equal(invitationLine(invitation), "Made by Ann · 1 member · Nobody has played today's Daily yet");
  const led = { ...invitation, members: 3, leader: { display_name: "Bob", score: 900 } };
  assert.equal(invitationLine(led), "Made by Ann · 3 members · Today's leader: Bob, 900 points");
  assert.equal(inviteLink("https://w.example", "a b"), "https://w.example/?league=a%20b#leagues");
});
