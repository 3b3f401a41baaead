"""A player's Daily stats (SPEC §5 `GET /me`): games played, streaks, best score, last played.

Daily official results only. A streak is a run of consecutive Daily dates with an official
result; the current one still counts until the date after the last played date ends. The stats
are one small record updated by each official Daily completion, never computed from history.

Completions can arrive out of date order: a run started at 23:59:50 on date D may complete
(at its deadline) after the same player's run of D+1 has. So the record keeps the latest few
streaks as (first date, last date) and merges a date into them wherever it falls; a result
can only ever be a day late, so a few streaks are plenty.
"""

from datetime import date, timedelta

from pydantic import BaseModel

KEPT_STREAKS = 3


class PlayerStats(BaseModel):
    played: int = 0
    best_score: int | None = None
    max_streak: int = 0
    streaks: list[tuple[str, str]] = []  # the latest streaks, (first date, last date), oldest first

    @property
    def last_played(self) -> str | None:
        return self.streaks[-1][1] if self.streaks else None

    def current_streak(self, today: date) -> int:
        """The streak ending on the last played date, while that date or the next is today."""
        if not self.streaks:
            return 0
        first, last = (date.fromisoformat(d) for d in self.streaks[-1])
        return (last - first).days + 1 if today <= last + timedelta(days=1) else 0


def with_daily_result(stats: PlayerStats | None, day: date, score: int) -> PlayerStats:
    """STATS after an official Daily result of SCORE on DAY (at most one per date)."""
    stats = stats or PlayerStats()
    spans = sorted([(date.fromisoformat(a), date.fromisoformat(b)) for a, b in stats.streaks] + [(day, day)])
    merged: list[tuple[date, date]] = []
    for first, last in spans:
        if merged and first <= merged[-1][1] + timedelta(days=1):
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    longest = max((last - first).days + 1 for first, last in merged)
    return PlayerStats(
        played=stats.played + 1,
        best_score=score if stats.best_score is None else max(stats.best_score, score),
        max_streak=max(stats.max_streak, longest),
        streaks=[(a.isoformat(), b.isoformat()) for a, b in merged[-KEPT_STREAKS:]],
    )
