// A player's sanctions as the page tells them (SPEC §3e: what, why, until when, how to appeal),
// from GET /me's `sanctions`: pure functions, checked by node --test (tests/web/sanctions.test.mjs).

/** The sanctions that still hold at NOW (ms): not lifted, and not ended (a voided result holds
 * until lifted). */
export function holding(sanctions, now) {
  return (sanctions || []).filter((s) => !s.lifted_at && (!s.until || Date.parse(s.until) > now));
}

/** Whether a ban holds among SANCTIONS at NOW: the Daily cannot be started. */
export function banned(sanctions, now) {
  return holding(sanctions, now).some((s) => s.action === "ban");
}

/** One sanction in words: [what, why, until, appeal]. */
export function sanctionText(s, locale) {
  const until = s.until
    ? `Until ${new Date(s.until).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" })}.`
    : s.action === "void_result" ? "For that result." : "For good.";
  const appeal = {
    none: "You may appeal it once: another moderator decides.",
    open: "Your appeal is with a moderator.",
    upheld: "Your appeal was heard: the decision stands.",
    lifted: "Your appeal was upheld: the sanction is lifted.",
  }[s.appeal || "none"];
  return [`${s.what}.`, `Why: ${s.reason}`, until, appeal];
}

/** A history item whose rank a moderator's decision moved after its board closed (SPEC §3e):
 * "rank 3 → 2, corrected"; null when no decision moved it. */
export function correctedRank(item) {
  const before = item.rank_before_correction;
  if (before === null || before === undefined || item.rank === null || item.rank === undefined) return null;
  return `rank ${before} → ${item.rank}, corrected`;
}

/** What a result under review says, wherever it is shown (a board row, the player's own rank). */
export const PENDING_TEXT = "Under review: a moderator is looking at this result, and its rank may still change.";
