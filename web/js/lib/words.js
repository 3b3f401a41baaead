// What the page says, in words: pure functions of the server's replies (no DOM, no state, nothing
// run on import), checked by node --test (tests/web/words.test.mjs).

/** Why a word was refused, in words (SPEC §2 reasons and §3 `already_used`). */
export function reasonText(reason, prompt = "", forbidden = "", word = "", limits = null) {
  const letters = (prompt || "").toUpperCase().split("");
  switch (reason) {
    case "empty":
      return "Type a word first: the answer was empty.";
    case "too_long":
      return limits && limits.max_word_length
        ? `Too long: a word has at most ${limits.max_word_length} letters.`
        : "Too long for a word.";
    case "not_letters":
      return "Letters A to Z only: no spaces, hyphens, apostrophes, digits or accents.";
    case "letter_order": {
      const repeats = new Set(letters).size < letters.length;
      return `The letters ${letters.join(", ")} must appear in this order` +
        (repeats ? ", each repeated letter as its own copy." : " (other letters may come between).");
    }
    case "forbidden_letter": {
      const banned = (forbidden || "").toUpperCase().split("");
      const used = banned.filter((letter) => (word || "").toUpperCase().includes(letter));
      return used.length
        ? `It uses the forbidden letter ${used.join(" and ")}: this round bans ${banned.join(", ")}.`
        : `It uses a forbidden letter: this round bans ${banned.join(", ")}.`;
    }
    case "not_a_word":
      return "Not in the WordSQD dictionary.";
    case "already_used":
      return "Already used: each word counts once per run.";
    default:
      return reason ? `Not accepted (${reason}).` : "Not accepted.";
  }
}

/** A display-name refusal in words (SPEC §5 display names: the look-alike check included). */
export function nameErrorText(code, message = "") {
  switch (code) {
    case "display_name_taken":
      return "That name is taken, or one that looks like it: 0 and O, 1, I and l, 5 and S, " +
        "and spaces, _ and - count as the same. Try another.";
    case "display_name_not_allowed":
      return "That name is not allowed: it contains a word the game blocks, even spelt with " +
        "look-alikes (3 for E, 4 for A, 7 for T, @ for A) or with the spaces taken out.";
    case "invalid_display_name":
      return message ? `Not a valid name: ${message}.` : "Not a valid name.";
    default:
      return message || "The name was not saved.";
  }
}

/** A name GET /daily's LIMITS (SPEC §5 display names) refuse before asking the server, in words
 * (null: it may be fine, or the rules are not known yet and the server judges it). */
export function nameRuleProblem(name, limits) {
  if (!limits || !limits.display_name_pattern) return null;
  const { display_name_min_length: min, display_name_max_length: max } = limits;
  if (name.length < min || name.length > max) return `A name has ${min} to ${max} characters.`;
  if (name !== name.trim()) return "No space at the start or the end.";
  if (!new RegExp(limits.display_name_pattern).test(name)) return "Letters A to Z, digits, spaces, _ and - only.";
  return null;
}

/** Whether NAME is the default one the server shows until a player picks one (`player-xxxx`). */
export function isDefaultName(name) {
  return /^player-[0-9a-f]{4}$/.test(name || "");
}

/** What the live region says about a round: its number, letters and forbidden letters. */
export function roundAnnouncement(run) {
  const letters = (run.prompt || "").split("").join(", ");
  const banned = (run.forbidden || "").split("").join(", ");
  return `Round ${run.round} of ${run.rounds}: ${letters}, in this order.` +
    (banned ? ` Forbidden round: no ${banned}, double points.` : "");
}

/** The line the live region says at SECONDS left. */
export function timeAnnouncement(seconds) {
  return `${seconds} seconds left.`;
}

/** "rank 12 of 31" (or "rank 12" while the board's size is unknown). */
export function rankText(rank, players) {
  return players ? `rank ${rank} of ${players}` : `rank ${rank}`;
}


/** The score range a band of the distribution holds: "1900–1999". */
export function bandRange(band, bandPoints) {
  return `${band * bandPoints}–${band * bandPoints + bandPoints - 1}`;
}

/** The distribution chart's text alternative: every band that holds a player, and the caller's. */
export function distributionText(bands, bandPoints, mine) {
  const held = bands.map((count, band) => [band, count]).filter(([, count]) => count > 0);
  const parts = held.map(([band, count]) =>
    `${bandRange(band, bandPoints)}: ${count} player${count === 1 ? "" : "s"}${band === mine ? " (you)" : ""}`);
  return parts.length ? `Scores today, by band of ${bandPoints} points. ${parts.join("; ")}.` : "No ranked scores yet.";
}

const upper = (words) => words.map((word) => word.toUpperCase()).join(", ");

/** One round of a closed day's recap (GET /daily/{date}/recap), as the end screen says it. */
export function recapRoundText(round, players) {
  const letters = round.prompt + (round.forbidden ? ` (no ${round.forbidden})` : "");
  const found = `${round.answered} of ${players} found a word`;
  const missed = round.lost_or_skipped ? `, ${Math.round(round.lost_or_skipped_share * 100)}% lost or skipped it` : "";
  const top = round.top_words.length
    ? `; most played ${round.top_words.slice(0, 3).map((w) => `${w.word.toUpperCase()} (${w.players})`).join(", ")}`
    : "";
  const longest = round.longest_word ? `; longest ${round.longest_word.toUpperCase()}` : "";
  return `Round ${round.round} · ${letters}: ${found}${missed}${top}${longest}.`;
}

/** A review card's "The day" cell: how many others played the player's word (MINE, from
 * /recap/me, when known), else how the day played the round; a round without a word shows
 * words that would have fitted. */
export function recapCellText(outcome, word, recapRound, mine) {
  if (outcome !== "accepted" || !word) {
    const fitted = [...recapRound.missed_common, ...recapRound.top_words.map((w) => w.word)].slice(0, 5);
    return fitted.length ? `Would have fitted: ${upper(fitted)}` : "Nobody found a word";
  }
  const listed = recapRound.top_words.find((w) => w.word === word);
  let company = "not among the day's ten most played";
  if (mine) company = mine.others === 0 ? "nobody else played it" : `${mine.others} other${mine.others === 1 ? "" : "s"} played it`;
  else if (listed) company = `played by ${listed.players} of the day's players`;
  const top = recapRound.top_words.slice(0, 3).map((w) => w.word);
  return `${word.toUpperCase()}: ${company}` + (top.length ? `. Most played: ${upper(top)}` : "");
}

/** Why a result is on no board, by its unranked_reason (SPEC §3b, §3e); WHAT names it ("Your
 * result for this date"), or the sentence starts "Not ranked". */
export function unrankedText(reason, what = "") {
  const why = reason === "voided"
    ? "a moderator reviewed it and took it off the board"
    : reason === "rank_banned"
      ? "a moderator's decision keeps your results off the boards for a while"
      : "some answers came faster than a person can read a prompt and type a word, so it stays off the board";
  return `${what ? what + " is not ranked" : "Not ranked"}: ${why}. It still counts in your stats.`;
}

/** The heading of a challenge: an invitation ("Ann challenged you: beat 1,010") unless it is yours. */
export function invitationText(challenge, myName) {
  const name = challenge.creator_name;
  if (!name) return `Challenge ${challenge.challenge_id.slice(0, 8)}`;
  if (myName && name === myName) {
    return typeof challenge.creator_score === "number"
      ? `Your challenge: your score to beat is ${challenge.creator_score.toLocaleString("en-US")}`
      : "Your challenge: share the link, then play it yourself";
  }
  return typeof challenge.creator_score === "number"
    ? `${name} challenged you: beat ${challenge.creator_score.toLocaleString("en-US")}`
    : `${name} challenged you`;
}

const SHORT_REASONS = {
  empty: "empty",
  too_long: "too long",
  not_letters: "letters only",
  letter_order: "letter order",
  forbidden_letter: "forbidden letter",
  not_a_word: "not a word",
  already_used: "already used",
};
export const shortReason = (reason) => SHORT_REASONS[reason] || reason;

export const OUTCOME_WORDS = { accepted: "word found", lost: "lost", skipped: "skipped" };

export function formatDate(day) {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y, m - 1, d).toLocaleDateString([], { weekday: "short", month: "short", day: "numeric", year: "numeric" });
}

// Streak freezes held (0-2) and the latest date one covered (SPEC §5, docs/players.md).
export function freezesText(stats) {
  const held = stats.freezes || 0;
  const covered = stats.covered_dates || [];
  const last = covered.length ? ` (last used ${formatDate(covered[covered.length - 1])})` : "";
  return `${held} held` + last;
}

const DAY_MS = 24 * 3600 * 1000;

/** How STATS add up: the current streak's days played and the missed days a freeze covered, each
 * named ("Your streak of 12 days: 11 played, and Thu, Dec 3 kept by a streak freeze."). */
export function streakText(stats) {
  const days = stats.current_streak || 0;
  if (!days || !stats.last_played) return "";
  const first = new Date(Date.parse(`${stats.last_played}T12:00:00Z`) - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  const covered = (stats.covered_dates || []).filter((day) => day >= first && day <= stats.last_played);
  if (!covered.length) return `Your streak of ${days} day${days === 1 ? "" : "s"}: every day played.`;
  const kept = covered.map(formatDate).join(", ");
  return `Your streak of ${days} days: ${days - covered.length} played, and ${kept} kept by a streak freeze.`;
}

/** The average of the official Daily SCORES listed, in words ("812 over your last 11 Dailies"). */
export function averageText(scores, all) {
  if (!scores.length) return "–";
  const average = Math.round(scores.reduce((sum, score) => sum + score, 0) / scores.length);
  const n = scores.length;
  return `${average} over ${all ? (n === 1 ? "your 1 Daily" : `all ${n} Dailies`) : `your last ${n} Dailies`}`;
}
