// Leagues in words and links: pure functions (no DOM, nothing run on import), checked by
// node --test (tests/web/players.test.mjs).

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
