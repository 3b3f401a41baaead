// Moderation's rules as the page needs them (SPEC §3e, shared/game/moderation.py): pure functions
// (no DOM, nothing run on import), checked by node --test (tests/web/moderation.test.mjs).

const MODERATORS_GROUP = "moderators";
// The decisions the API accepts, and the kinds of case each fits (shared/game/moderation.py).
export const ACTIONS = [
  ["dismiss", "Dismiss", ["name", "run", "word"]],
  ["hide_name", "Hide name", ["name"]],
  ["void_result", "Void result", ["run"]],
  ["rank_ban", "Rank ban", ["name", "run"]],
  ["ban", "Ban", ["name", "run"]],
  ["accept_word", "Accept word", ["word"]],
  ["uphold", "Uphold", ["appeal"]],
  ["lift", "Lift", ["appeal"]],
];
// Why the find-time pass opened a case, in words (shared/game/find_time.py's reason codes).
const FIND_TIME_WHY = {
  even_pacing: "Every answer came after almost the same wait: a script's even pace, not a person's.",
  hard_rounds_too_fast: "The day's hardest rounds were answered faster than almost everyone who played them.",
};

/** Whether CLAIMS (an ID token's) name the moderators' group: a list, or API Gateway's `[a b]`. */
export function isModerator(claims) {
  const groups = claims && claims["cognito:groups"];
  if (Array.isArray(groups)) return groups.includes(MODERATORS_GROUP);
  if (typeof groups !== "string") return false;
  return groups.replace(/[[\]]/g, " ").split(/[\s,]+/).includes(MODERATORS_GROUP);
}

/** The actions that fit a case of KIND. */
export function actionsFor(kind) {
  return ACTIONS.filter(([, , kinds]) => kinds.includes(kind)).map(([action]) => action);
}

/** A run case's attempts by round, for the time line: [{round, attempts, quantile}], round order. */
export function timeline(evidence) {
  const quantiles = evidence.hard_round_quantiles_ms || {};
  const rounds = new Map();
  for (const attempt of evidence.attempts || []) {
    if (!rounds.has(attempt.round)) rounds.set(attempt.round, []);
    rounds.get(attempt.round).push(attempt);
  }
  return [...rounds.keys()].sort((a, b) => a - b).map((round) => ({
    round,
    attempts: rounds.get(round),
    quantile: quantiles[round] ?? quantiles[String(round)] ?? null,
  }));
}

/** Why a case is in the queue, in words: the find-time pass's reason (its code, after the
 * `<scope>: ` of the case's `shown`), an appeal's, or the reporters' own reasons. */
export function whyOf(item) {
  const e = item.evidence || {};
  if (item.source === "find_time") {
    const code = item.shown.slice(item.shown.lastIndexOf(":") + 1).trim();
    return FIND_TIME_WHY[code] || code;
  }
  if (item.kind === "appeal") return `The player appeals: "${e.reason || ""}"`;
  const reasons = (e.reasons || []).map((r) => r.reason).filter(Boolean);
  return reasons.length ? reasons.map((r) => `"${r}"`).join(" · ") : "No reason given.";
}

/** Whose a case is, in words: the display name then and the player's id. */
export function whoseOf(item) {
  const e = item.evidence || {};
  if (!e.subject) return "";
  const name = e.display_name || e.name;
  return name ? `${name} (player ${e.subject})` : `player ${e.subject}`;
}

/** An ISO time in the reader's own locale and time zone. */
export function localTime(iso, locale) {
  if (!iso) return "";
  return new Date(iso).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
}
