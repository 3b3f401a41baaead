// Where a result stands, in words and numbers the page draws (SPEC §4a): plain ranks on small
// boards, the ladder's six steps with the points to the next, the distribution's bands. Pure
// functions of the server's replies (no DOM, no state, nothing run on import), checked by
// node --test (tests/web/standing.test.mjs).

/** Under this many players a standing is a plain rank ("1st of 7"), never a percentile or a
 * ladder step: on a small board one place moves the percentile by tens (docs/web-client.md). */
export const PERCENTILE_FROM_PLAYERS = 20;

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 101st... */
export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${suffix}`;
}

/** "1st of 7" (or "1st" while the board's size is unknown). */
export function placeText(rank, players) {
  return players ? `${ordinal(rank)} of ${players}` : ordinal(rank);
}

/** Whether ME (GET /leaderboard/daily/me) may be said as a percentile: a board big enough. */
export const percentileSaid = (me) => (me.players || 0) >= PERCENTILE_FROM_PLAYERS;

/** The end screen's sentence for ME on a board: a plain rank on a small board; with the
 * percentile and the ladder step from PERCENTILE_FROM_PLAYERS players on. */
export function standingSentence(me, when = "today's board so far") {
  const place = `You are ${placeText(me.rank, me.players)} on ${when}.`;
  if (!percentileSaid(me)) return place;
  return `${place} Better than ${me.percentile}% of the players: ${me.step}.`;
}

/** The score a result must pass to reach a ladder step of LEAST percent, from the distribution's
 * BANDS (players per band of BAND_POINTS) of PLAYERS: a percentile of P needs more than P% of
 * the players strictly below, so the result must beat the player at that place. The bands give
 * that player's band only, so this is its lowest score: the least to pass (a lower bound). */
export function scoreToReach(least, bands, bandPoints, players) {
  const below = Math.floor((least * players + 99) / 100); // players to be strictly above
  if (below <= 0) return 0;
  let seen = 0;
  for (let band = 0; band < bands.length; band += 1) {
    seen += bands[band];
    if (seen >= below) return band * bandPoints + 1;
  }
  return null; // more players than the bands hold: the counters trail
}

/** The ladder's steps (LADDER: [{name, percentile}], lowest first) for ME: each with whether it
 * is reached and the one ME stands on, and the next step with the points to it (a lower bound
 * read from the bands; null at the top, or on a board too small for a percentile). */
export function ladderView(ladder, me, bands, bandPoints) {
  const said = percentileSaid(me);
  const steps = ladder.map((step) => ({
    name: step.name,
    percentile: step.percentile,
    reached: said && me.percentile >= step.percentile,
    current: said && step.name === me.step,
  }));
  const index = steps.findIndex((step) => step.current);
  const next = said && index >= 0 && index + 1 < steps.length ? steps[index + 1] : null;
  let points = null;
  if (next) {
    const target = scoreToReach(next.percentile, bands, bandPoints, me.players);
    if (target !== null) points = Math.max(1, target - me.score);
  }
  return { steps, next: next && next.name, points };
}

/** The line under the ladder: where ME stands and how far the next step is. */
export function ladderText(view, me) {
  if (!percentileSaid(me)) {
    return `The ladder ranks by share of players: it starts at ${PERCENTILE_FROM_PLAYERS} players (${me.players} so far).`;
  }
  if (!view.next) return `You are on the top step: ${me.step}.`;
  return view.points === null
    ? `You are on ${me.step}; next: ${view.next}.`
    : `You are on ${me.step}: at least ${view.points} more point${view.points === 1 ? "" : "s"} to reach ${view.next}.`;
}

/** The distribution's columns worth drawing: from the lowest held band (or MINE) to the
 * highest, at least MIN_COLUMNS wide; each with its label, count and whether it is MINE. */
export function bandColumns(bands, bandPoints, mine, minColumns = 5) {
  const held = bands.map((count, band) => (count > 0 || band === mine ? band : -1)).filter((band) => band >= 0);
  if (!held.length) return [];
  let low = Math.min(...held);
  let high = Math.max(...held);
  while (high - low + 1 < minColumns && (low > 0 || high < bands.length - 1)) {
    if (high < bands.length - 1) high += 1;
    if (high - low + 1 < minColumns && low > 0) low -= 1;
  }
  const columns = [];
  for (let band = low; band <= high; band += 1) {
    columns.push({ band, from: band * bandPoints, count: bands[band] || 0, mine: band === mine });
  }
  return columns;
}
