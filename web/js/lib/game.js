// The game's numbers and a run's result as the page shows them: pure functions of the server's
// replies (no DOM, no state, nothing run on import), checked by node --test (tests/web/game.test.mjs).

/** The speed bonus an answer would earn after SECONDS (SPEC §3: 3 × max(0, 10 − whole seconds)),
 * by GET /daily's SCORING numbers once read. */
export function speedBonusAt(seconds, scoring) {
  if (!scoring) return null; // not known until GET /daily has answered
  const { speed_bonus_per_second: per, speed_bonus_seconds: limit } = scoring;
  return per * Math.max(0, limit - Math.floor(Math.max(0, seconds)));
}

/** The rules card's scoring numbers, from GET /daily (the server's own constants). */
export function scoringNumbers(scoring) {
  return {
    ...scoring,
    combo_bonus_max: scoring.combo_bonus_per_step * scoring.combo_bonus_max_steps,
    speed_bonus_max: scoring.speed_bonus_per_second * scoring.speed_bonus_seconds,
  };
}

/** The square for one round of a run, for the share text and the trail. */
export function roundSquare(round) {
  if (!round || !round.outcome) return "⬛"; // not played, or time ran out during it
  if (round.outcome === "skipped") return "➖";
  if (round.outcome === "lost") return "❌";
  return round.attempts.length > 1 ? "🔶" : "✅";
}

export const SQUARE_LEGEND = "✅ first try · 🔶 after a miss · ❌ lost · ➖ skipped · ⬛ not played";

/** The shareable result of a completed run: squares, score and date, never a word; a past Daily
 * played again (its date before TODAY) says it was a replay, and a practice of some of its rounds
 * (fewer than the Daily's DAY_ROUNDS) says how many. */
export function shareText(run, origin, today, dayRounds) {
  const squares = [];
  for (let number = 1; number <= run.rounds; number += 1) {
    squares.push(roundSquare((run.history || []).find((round) => round.round === number)));
  }
  const won = (run.history || []).filter((round) => round.outcome === "accepted").length;
  const practice = run.kind === "daily" && dayRounds && run.rounds < dayRounds;
  const replay = practice
    ? ` (practice of ${run.rounds} ${run.rounds === 1 ? "round" : "rounds"})`
    : run.kind === "daily" && today && run.date < today ? " (replay)" : "";
  const title = run.kind === "challenge" ? `WordSQD challenge (${run.rounds} rounds)` : `WordSQD Daily ${run.date}${replay}`;
  const time = run.ended_by === "expired" ? "time up" : `in ${elapsed(run)}`;
  const lines = [
    title,
    squares.join(""),
    `Score ${run.score} · ${won}/${run.rounds} words · best combo ${run.best_combo} · ${time}`,
  ];
  if (origin) {
    lines.push(run.kind === "challenge" && run.challenge_id ? challengeLink(origin, run.challenge_id) : origin);
  }
  return lines.join("\n");
}

function elapsed(run) {
  if (!run.completed_at || !run.started_at) return "";
  const seconds = Math.max(0, Math.round((Date.parse(run.completed_at) - Date.parse(run.started_at)) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The link that opens a challenge in this client. */
export function challengeLink(origin, challengeId) {
  return `${origin}/?challenge=${encodeURIComponent(challengeId)}`;
}

/** A challenge id from what a player pasted: a link with ?challenge=, or the id itself. */
export function challengeIdFrom(text) {
  const value = (text || "").trim();
  try {
    const fromLink = new URL(value).searchParams.get("challenge");
    if (fromLink) return fromLink;
  } catch {
    /* not a URL: the id itself */
  }
  return /^[A-Za-z0-9_-]{8,64}$/.test(value) ? value : null;
}

/** Seconds as h:mm:ss (or m:ss under an hour). */
export function clockText(totalSeconds) {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return (h ? `${h}:` : "") + `${mm}:${String(s).padStart(2, "0")}`;
}

// A live board's first page trails a completion by a second or two (the server's stream consumer
// keeps it; docs/leaderboards.md): a player whose own row should be on it but is not yet reads it
// again, a few times.
export const BOARD_CATCH_UP_TRIES = 5;
export const BOARD_CATCH_UP_MS = 1500;

/** Whether DATE's recap is ready: its board closes a few minutes after the next date's reset
 * (the time limit, the settle margin and the closing pass), so yesterday's is asked for only
 * RECAP_AFTER_RESET_MS after today's reset (no request that would fail). DAILY is GET /daily's
 * reply, NOW_MS the server's time as the page knows it. */
export const RECAP_AFTER_RESET_MS = 6 * 60 * 1000;
export function recapReady(date, daily, nowMs) {
  const today = daily && daily.date;
  if (!today || date >= today) return false;
  const todayStarted = Date.parse(daily.resets_at) - 24 * 3600 * 1000;
  const yesterday = new Date(Date.parse(`${today}T12:00:00Z`) - 24 * 3600 * 1000).toISOString().slice(0, 10);
  return date < yesterday || nowMs - todayStarted >= RECAP_AFTER_RESET_MS;
}
