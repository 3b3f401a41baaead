// A closed day's recap in words (SPEC §4a): which day is the last closed one, and what each round
// says: the player's official word beside the crowd's, the words that would have fitted. Pure
// functions of the server's replies (no DOM, no state, nothing run on import), checked by
// node --test (tests/web/recap.test.mjs).

import { RECAP_AFTER_RESET_MS } from "./game.js";

const DAY_MS = 24 * 3600 * 1000;
const shift = (day, days) => new Date(Date.parse(`${day}T12:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The last day whose recap is ready: yesterday from RECAP_AFTER_RESET_MS after today's reset
 * (when the closing pass has written it), the day before until then; null before FIRST_DATE.
 * DAILY is GET /daily's reply, NOW_MS the server's time as the page knows it. */
export function lastClosedDay(daily, nowMs, firstDate = null) {
  if (!daily || !daily.date) return null;
  const todayStarted = Date.parse(daily.resets_at) - DAY_MS;
  const day = shift(daily.date, nowMs - todayStarted >= RECAP_AFTER_RESET_MS ? -1 : -2);
  return firstDate && day < firstDate ? null : day;
}

const upper = (words) => words.map((word) => word.toUpperCase()).join(", ");
const letters = (round) => round.prompt + (round.forbidden ? ` (no ${round.forbidden})` : "");
const people = (n) => `${n} player${n === 1 ? "" : "s"}`;

/** What the recap view says of one ROUND (GET /daily/{date}/recap) with MINE, the player's own
 * round from /recap/me (null for a guest or a player without an official result): a title and
 * lines, none of them an empty phrase. */
export function recapRoundView(round, players, mine) {
  const lines = [];
  if (mine) {
    lines.push(mine.word
      ? `Your word: ${mine.word.toUpperCase()}, ${mine.others === 0 ? "nobody else played it" : `${people(mine.others)} also played it`}.`
      : "You found no word in this round.");
  }
  const found = `${round.answered} of ${players} found a word`;
  const missed = round.lost_or_skipped ? `; ${Math.round(round.lost_or_skipped_share * 100)}% lost or skipped it` : "";
  lines.push(`${found}${missed}.`);
  const top = round.top_words.slice(0, 5);
  if (top.length) lines.push(`Most played: ${top.map((w) => `${w.word.toUpperCase()} (${w.players})`).join(", ")}.`);
  if (round.longest_word) lines.push(`Longest: ${round.longest_word.toUpperCase()}.`);
  if (round.missed_common.length) lines.push(`Nobody played: ${upper(round.missed_common)}.`);
  return { title: `Round ${round.round} · ${letters(round)}`, lines, missed: !!mine && !mine.word };
}

/** The rounds a player lost, skipped or never reached, from /recap/me's ROUNDS. */
export const missedRounds = (rounds) => rounds.filter((round) => !round.word).map((round) => round.round);
