"""A player's Daily stats (SPEC §5 `GET /me`): games played, streaks, best score, last played.

Daily official results only. A streak is a run of consecutive Daily dates with an official
result; the current one still counts until the date after the last played date ends. The stats
are one small record updated by each official Daily completion, never computed from history.

Completions can arrive out of date order: a run started at 23:59:50 on date D may complete
(at its deadline) after the same player's run of D+1 has. So the record keeps the latest few
streaks as (first date, last date) and merges a date into them wherever it falls; a result
can only ever be a day late, so a few streaks are plenty.

Streak freezes: a player earns one for every 10 consecutive Dailies played and holds at most 2.
Missed dates are covered when the next official result arrives, one freeze each, if the player
holds enough for all of them (one missed date: one freeze; two: two; three: never, as at most
2 are held); a covered date joins the streak as if played (it counts in its length, not in
`played`). Until that next result, the current streak still counts while the freezes held
could cover the dates missed so far. A late result for a covered date gives its freeze back.
"""

from datetime import date, timedelta

from pydantic import BaseModel

KEPT_STREAKS = 3
FREEZE_EVERY = 10  # consecutive Dailies played earn one freeze
MAX_FREEZES = 2
KEPT_COVERED = 10  # the latest dates freezes covered, shown in GET /me


class PlayerStats(BaseModel):
    played: int = 0
    best_score: int | None = None
    max_streak: int = 0
    streaks: list[tuple[str, str]] = []  # the latest streaks, (first date, last date), oldest first
    freezes: int = 0  # held, 0-2
    covered: list[str] = []  # the latest dates a freeze covered, oldest first
    earned_in_streak: int = 0  # freezes the current streak has earned so far (held or not)

    @property
    def last_played(self) -> str | None:
        return self.streaks[-1][1] if self.streaks else None

    def current_streak(self, today: date) -> int:
        """The streak ending on the last played date, while that date or the next is today."""
        if not self.streaks:
            return 0
        first, last = (date.fromisoformat(d) for d in self.streaks[-1])
        alive = missed_dates(last, today) <= self.freezes
        return (last - first).days + 1 if alive else 0


def missed_dates(last: date, day: date) -> int:
    """The dates between LAST played and DAY (neither included)."""
    return max(0, (day - last).days - 1)


def freezes_cover_a_gap(freezes: int, missed: int) -> bool:
    """A missed date is covered by one freeze, spent automatically, and the streak goes on: the
    dates missed since the last result are covered when the freezes held cover them all."""
    return 0 < missed <= freezes


def freezes_earned(played_in_streak: int) -> int:
    """A player earns a freeze for every 10 consecutive Dailies played (and holds at most 2)."""
    return played_in_streak // FREEZE_EVERY


def with_daily_result(stats: PlayerStats | None, day: date, score: int) -> PlayerStats:
    """STATS after an official Daily result of SCORE on DAY (at most one per date)."""
    stats = stats or PlayerStats()
    freezes, covered = stats.freezes, list(stats.covered)
    if day.isoformat() in covered:  # a late result for a date a freeze covered: it comes back
        covered.remove(day.isoformat())
        freezes = min(MAX_FREEZES, freezes + 1)
    old = [(date.fromisoformat(a), date.fromisoformat(b)) for a, b in stats.streaks]
    newly_covered: list[date] = []
    if old and day > old[-1][1]:
        missed = missed_dates(old[-1][1], day)
        if freezes_cover_a_gap(freezes, missed):
            freezes -= missed
            newly_covered = [old[-1][1] + timedelta(days=i) for i in range(1, missed + 1)]
    covered += [d.isoformat() for d in newly_covered]
    spans = sorted(old + [(d, d) for d in newly_covered] + [(day, day)])
    merged: list[tuple[date, date]] = []
    for first, last in spans:
        if merged and first <= merged[-1][1] + timedelta(days=1):
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    longest = max((last - first).days + 1 for first, last in merged)
    # Freezes come from the Dailies played (not covered) in the current streak, whatever the
    # order their results arrived in.
    first, last = merged[-1]
    in_streak = [d for d in covered if first.isoformat() <= d <= last.isoformat()]
    earned = freezes_earned((last - first).days + 1 - len(in_streak))
    continued = bool(old) and first <= old[-1][0] <= last
    new = earned - stats.earned_in_streak if continued else earned
    freezes = min(MAX_FREEZES, freezes + max(0, new))
    return PlayerStats(
        played=stats.played + 1,
        best_score=score if stats.best_score is None else max(stats.best_score, score),
        max_streak=max(stats.max_streak, longest),
        streaks=[(a.isoformat(), b.isoformat()) for a, b in merged[-KEPT_STREAKS:]],
        freezes=freezes,
        covered=sorted(covered)[-KEPT_COVERED:],
        earned_in_streak=earned,
    )
