// Past Dailies by month: pure functions (no DOM, nothing run on import), checked by node --test
// (tests/web/players.test.mjs).

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
