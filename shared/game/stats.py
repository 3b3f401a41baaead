"""A player's Daily stats (SPEC §5 `GET /me`): games played, streaks, best score, last played.

Daily official results only. A streak is a run of consecutive Daily dates with an official
result; the current one still counts until the date after the last played date ends. The stats
are one small record updated by each official Daily completion, never read back from history.

Completions can arrive out of date order: a run started at 23:59:50 on date D may complete (at
its deadline) after the same player's run of D+1 has. So the streaks are always those of the
played dates taken in date order, whatever the order their results arrived in: the record keeps
the dates played in the last SETTLE_AFTER days (`pending`) and the streaks folded over every
date before them (`settled`), and derives the shown fields by folding the pending dates, sorted,
onto the settled ones. A date leaves `pending` once a date SETTLE_AFTER days later is played; a
result is at most a day late, so no result can still arrive for it. (A result dated on or before
the settled dates, which never happens, would count in `played` and `best_score` only.)

Streak freezes: a player earns one for every 10 consecutive Dailies played and holds at most 2.
Missed dates are covered when the next played date comes, one freeze each, if the player holds
enough for all of them (one missed date: one freeze; two: two; three: never, as at most 2 are
held); a covered date joins the streak as if played (it counts in its length, not in `played`).
Until that next result, the current streak still counts while the freezes held could cover the
dates missed so far. A date played after all (its result arrived late) is no longer covered.
"""

from datetime import date, timedelta

from pydantic import BaseModel

KEPT_STREAKS = 3
FREEZE_EVERY = 10  # consecutive Dailies played earn one freeze
MAX_FREEZES = 2
KEPT_COVERED = 10  # the latest dates freezes covered, shown in GET /me
SETTLE_AFTER = 31  # days: a played date is folded into `settled` once one this much later is played


class Streaks(BaseModel):
    """The streak fields after a player's played dates, taken in date order."""

    max_streak: int = 0
    streaks: list[tuple[str, str]] = []  # the latest streaks, (first date, last date), oldest first
    freezes: int = 0  # held, 0-2
    covered: list[str] = []  # the latest dates a freeze covered, oldest first
    earned_in_streak: int = 0  # freezes the current streak has earned so far (held or not)
    played_in_streak: int = 0  # dates played (not covered) in the current streak

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

    def after(self, day: date) -> "Streaks":
        """These streaks once DAY is played, DAY being later than every date in them."""
        spans = [(date.fromisoformat(a), date.fromisoformat(b)) for a, b in self.streaks]
        freezes, covered = self.freezes, list(self.covered)
        earned, played_in_streak = self.earned_in_streak, self.played_in_streak
        missed = missed_dates(spans[-1][1], day) if spans else None
        if missed == 0:
            spans[-1] = (spans[-1][0], day)
        elif missed is not None and freezes_cover_a_gap(freezes, missed):
            freezes -= missed
            covered += [(spans[-1][1] + timedelta(days=i)).isoformat() for i in range(1, missed + 1)]
            spans[-1] = (spans[-1][0], day)
        else:
            spans.append((day, day))
            earned = played_in_streak = 0
        played_in_streak += 1
        now_earned = freezes_earned(played_in_streak)
        first, last = spans[-1]
        return Streaks(
            max_streak=max(self.max_streak, (last - first).days + 1),
            streaks=[(a.isoformat(), b.isoformat()) for a, b in spans[-KEPT_STREAKS:]],
            freezes=min(MAX_FREEZES, freezes + now_earned - earned),
            covered=covered[-KEPT_COVERED:],
            earned_in_streak=now_earned,
            played_in_streak=played_in_streak,
        )


class PlayerStats(Streaks):
    """The shown stats (the streak fields are those of every played date, in date order), and
    what they are derived from."""

    played: int = 0
    best_score: int | None = None
    settled: Streaks | None = None  # the streaks after every played date up to settled_through
    settled_through: str | None = None
    pending: list[str] = []  # the dates played after settled_through, sorted


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


def settled_part(stats: PlayerStats) -> tuple[Streaks, str | None]:
    """The settled streaks and their last date. A record written before `settled` existed is
    settled through its last played date, its streak's played dates counted from its fields."""
    if stats.settled is not None or not stats.streaks:
        return stats.settled or Streaks(), stats.settled_through
    first, last = stats.streaks[-1]
    length = (date.fromisoformat(last) - date.fromisoformat(first)).days + 1
    in_streak = sum(first <= d <= last for d in stats.covered)
    fields = stats.model_dump(include=set(Streaks.model_fields) - {"played_in_streak"})
    return Streaks(**fields, played_in_streak=length - in_streak), last


def with_daily_result(stats: PlayerStats | None, day: date, score: int) -> PlayerStats:
    """STATS after an official Daily result of SCORE on DAY (at most one per date)."""
    stats = stats or PlayerStats()
    settled, through = settled_part(stats)
    pending = set(stats.pending)
    if through is None or day.isoformat() > through:
        pending.add(day.isoformat())
    cutoff = (date.fromisoformat(max(pending)) - timedelta(days=SETTLE_AFTER)).isoformat() if pending else ""
    for played in sorted(d for d in pending if d <= cutoff):
        settled, through = settled.after(date.fromisoformat(played)), played
    kept = sorted(d for d in pending if d > cutoff)
    shown = settled
    for played in kept:
        shown = shown.after(date.fromisoformat(played))
    return PlayerStats(
        **shown.model_dump(),
        played=stats.played + 1,
        best_score=score if stats.best_score is None else max(stats.best_score, score),
        settled=settled,
        settled_through=through,
        pending=kept,
    )
