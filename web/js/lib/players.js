// Leagues and past Dailies in words and weeks: pure functions (no DOM, nothing run on import),
// checked by node --test (tests/web/players.test.mjs).

export const JOIN_PARAM = "league"; // ?league=<invite code>#leagues: an invite link


/** "1st", "2nd", "3rd", "4th", "11th", "22nd". */
export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return n + "th";
  return n + ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
}

/** "You are 2nd of 7 in Office", or what to say without a result. */
export function standing(board) {
  if (board.my_rank == null) return `No official result of yours on ${board.date} in ${board.name} yet.`;
  return `You are ${ordinal(board.my_rank)} of ${board.rows.length} in ${board.name}`;
}

/** What an invite link shows before joining: "Made by Ann · 3 members · Today's leader: Bob, 900". */
export function invitationLine(invitation) {
  const members = `${invitation.members} member${invitation.members === 1 ? "" : "s"}`;
  const leader = invitation.leader
    ? `Today's leader: ${invitation.leader.display_name}, ${invitation.leader.score} points`
    : "Nobody has played today's Daily yet";
  return `Made by ${invitation.creator_name} · ${members} · ${leader}`;
}

export function inviteLink(origin, code) {
  return `${origin}/?${JOIN_PARAM}=${encodeURIComponent(code)}#leagues`;
}

/** The weeks (Monday first) of MONTH ("YYYY-MM"), each a list of 7 cells: null outside the
 * month, else {date, playable} where a playable date is a past Daily from FIRST to the day before
 * TODAY (today's is played only as the ordinary Daily). */
export function monthWeeks(month, first, today) {
  const [year, number] = month.split("-").map(Number);
  const days = new Date(Date.UTC(year, number, 0)).getUTCDate();
  const lead = (new Date(Date.UTC(year, number - 1, 1)).getUTCDay() + 6) % 7;
  const cells = Array.from({ length: lead }, () => null);
  for (let day = 1; day <= days; day += 1) {
    const date = `${month}-${String(day).padStart(2, "0")}`;
    cells.push({ date, playable: date >= first && date < today });
  }
  while (cells.length % 7) cells.push(null);
  const weeks = [];
  for (let start = 0; start < cells.length; start += 7) weeks.push(cells.slice(start, start + 7));
  return weeks;
}

/** The month "YYYY-MM" STEP months after MONTH. */
export function shiftMonth(month, step) {
  const [year, number] = month.split("-").map(Number);
  const moved = new Date(Date.UTC(year, number - 1 + step, 1));
  return moved.toISOString().slice(0, 7);
}
