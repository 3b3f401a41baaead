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
];

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
