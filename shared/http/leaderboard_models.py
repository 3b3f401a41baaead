"""Request and reply models of the leaderboard function's routes (SPEC §4, §5): boards, the
caller's profile, stats and history, leagues and a player's data. The rest, and the bases, are in
shared/http/models.py (`ChallengeView` and these share its `BoardRow`)."""

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, StrictStr

from shared.game.constants import LADDER, SCORE_BAND_POINTS
from shared.game.moderation import LogEntry
from shared.game.standing import band_of, ladder_step
from shared.http.limits import (
    DISPLAY_NAME_MAX,
    DISPLAY_NAME_MIN,
    DISPLAY_NAME_PATTERN,
    LEAGUE_NAME_MAX,
    LEAGUE_NAME_MIN,
)
from shared.http.models import BoardRow, Model, Request, RunView, status
from shared.http.moderation_models import CASE_EVIDENCE, ReportView, SanctionView

if TYPE_CHECKING:
    from shared.game.leagues import League
    from shared.services import leagues
    from shared.services.leaderboard import Distribution, MyRow, Page
    from shared.services.player_data import Export
    from shared.services.players import Summary


class BoardPage(Model):
    date: str
    status: Literal["live", "closed", "final"] = Field(
        description="closed: no new results, but a moderator's decision may still move rows; "
        "final: never changes again (SPEC §4)"
    )
    rows: list[BoardRow]
    next_cursor: str | None
    corrections: str | None = Field(
        default=None, description="a final board's public corrections (its path); null before"
    )

    @classmethod
    def of(cls, page: "Page", next_cursor: str | None, pending: frozenset[str] = frozenset()) -> "BoardPage":
        """A page of a Daily board (its scope's id is its date); PENDING: the runs under review."""
        return cls(
            date=page.scope.id,
            status=status(page.closed),
            rows=[BoardRow.of(row, pending) for row in page.rows],
            next_cursor=next_cursor,
        )


class LadderStep(Model):
    name: str
    percentile: int = Field(description="the least percentile that reaches the step")


class MyRank(BoardRow):
    date: str
    status: Literal["live", "closed", "final"] = Field(description="the board's (SPEC §4)")
    players: int = Field(description="results counted on the board so far: the N of 'rank R of N'")
    band: int = Field(description="the row's band of the distribution: score // 100 (SPEC §4a)")
    percentile: int = Field(description="better than this many percent of the board's players, 0-99")
    step: str = Field(description="the ladder step the percentile reaches (SPEC §4a)")

    @classmethod
    def of(cls, mine: "MyRow", pending: frozenset[str] = frozenset()) -> "MyRank":  # type: ignore[override]
        """The caller's row; PENDING: the runs under review (the row says `"review": "pending"`)."""
        return cls(
            date=mine.day.isoformat(),
            status=status(mine.closed),
            players=mine.players,
            band=band_of(mine.row.score),
            percentile=mine.percentile,
            step=ladder_step(mine.percentile),
            **BoardRow.of(mine.row, pending).model_dump(),
        )


class ScoreDistribution(Model):
    """A Daily board's scores in bands of 100 points (SPEC §4a)."""

    date: str
    status: Literal["live", "closed", "final"] = Field(description="the board's (SPEC §4)")
    players: int = Field(description="ranked players counted so far")
    band_points: int = Field(description="the width of a band: band i holds scores i×100 to i×100+99")
    bands: list[int] = Field(description="ranked players per band, from band 0 to the maximum score's band")
    ladder: list[LadderStep] = Field(description="the ladder's steps, lowest first (SPEC §4a)")

    @classmethod
    def of(cls, distribution: "Distribution") -> "ScoreDistribution":
        return cls(
            date=distribution.day.isoformat(),
            status=status(distribution.closed),
            players=distribution.players,
            band_points=SCORE_BAND_POINTS,
            bands=distribution.bands,
            ladder=[LadderStep(name=name, percentile=least) for name, least in LADDER],
        )


class Profile(Model):
    display_name: str


class ProfileRequest(Request):
    display_name: StrictStr = Field(
        min_length=DISPLAY_NAME_MIN,
        max_length=DISPLAY_NAME_MAX,
        pattern=DISPLAY_NAME_PATTERN,
        description="3-20 ASCII letters, digits, spaces, _ or -, at least one letter or digit; no "
        "leading or trailing space; "
        "names that look alike are the same name, and some are reserved or not allowed (400)",
    )


# Player stats and the caller's profile (SPEC §5 `GET /me`) --------------------------------------


class StatsView(Model):
    played: int = Field(description="Daily dates with an official result")
    current_streak: int = Field(
        description="consecutive Daily dates played up to the last one; counts until the date after it ends"
    )
    max_streak: int
    best_score: int | None = Field(description="null until the first official Daily result")
    last_played: str | None = Field(description="the last Daily date played (YYYY-MM-DD)")
    freezes: int = Field(
        description="streak freezes held (0-2): one earned per 10 consecutive Dailies played; each covers "
        "one missed date, spent at the next official result"
    )
    covered_dates: list[str] = Field(
        description="the latest dates a freeze covered (YYYY-MM-DD), oldest first"
    )


class Me(Model):
    display_name: str
    stats: StatsView
    sanctions: list[SanctionView] = Field(
        default=[], description="every sanction a moderator's decision left on the caller (SPEC §3e)"
    )

    @classmethod
    def of(cls, summary: "Summary") -> "Me":
        stats = summary.stats
        return cls(
            display_name=summary.display_name,
            stats=StatsView(
                played=stats.played,
                current_streak=summary.current_streak,
                max_streak=stats.max_streak,
                best_score=stats.best_score,
                last_played=stats.last_played,
                freezes=stats.freezes,
                covered_dates=stats.covered,
            ),
        )


# Leagues (SPEC §3c) -------------------------------------------------------------------------------

LEAGUE_NAME_PATTERN = r"^[A-Za-z0-9_-]([A-Za-z0-9_ -]{1,28}[A-Za-z0-9_-])?$"
INVITE_CODE_PATTERN = r"^[A-Za-z0-9_-]{8,64}$"


class LeagueRequest(Request):
    name: StrictStr = Field(
        min_length=LEAGUE_NAME_MIN,
        max_length=LEAGUE_NAME_MAX,
        pattern=LEAGUE_NAME_PATTERN,
        description="3-30 letters, digits, spaces, _ or -, at least one letter or digit; checked like a "
        "display name",
    )


class JoinRequest(Request):
    code: StrictStr = Field(pattern=INVITE_CODE_PATTERN, description="the league's invite code")


class LeagueView(Model):
    league_id: str
    name: str
    code: str = Field(description="the invite code: share it (or the web client's link with it)")
    members: int = Field(description="how many members the league has")
    creator: bool = Field(description="whether the caller created (holds) the league")
    joined_at: str

    @classmethod
    def of(cls, league: "League", player: str) -> "LeagueView":
        """LEAGUE as PLAYER sees it."""
        return cls(
            league_id=league.league_id,
            name=league.name,
            code=league.code,
            members=len(league.members),
            creator=league.creator == player,
            joined_at=league.members.get(player, league.created_at),
        )


class InvitationLeader(Model):
    display_name: str
    score: int


class InvitationView(Model):
    """`GET /leagues/invitations/{code}`: what an invite link shows anyone (SPEC §4a)."""

    name: str
    creator_name: str
    members: int
    date: str = Field(description="today's Daily date, whose leader is shown")
    leader: InvitationLeader | None = Field(description="today's best member; null before any has played")

    @classmethod
    def of(cls, invitation: "leagues.Invitation") -> "InvitationView":
        leader = invitation.leader
        return cls(
            name=invitation.name,
            creator_name=invitation.creator_name,
            members=invitation.members,
            date=invitation.day.isoformat(),
            leader=InvitationLeader(display_name=leader.display_name, score=leader.score) if leader else None,
        )


class MyLeagues(Model):
    items: list[LeagueView]


class LeagueMember(Model):
    member_id: str = Field(description="the member's id in this league (for removing them)")
    display_name: str
    creator: bool
    you: bool


class LeagueBoard(Model):
    league_id: str
    name: str
    date: str
    status: Literal["live", "closed", "final"] = Field(description="the date's Daily board's (SPEC §4)")
    rows: list[BoardRow] = Field(description="members' official results of the date, in board order")
    my_rank: int | None = Field(description="the caller's rank among the rows; null without a result")
    members: list[LeagueMember]

    @classmethod
    def of(cls, board: "leagues.LeagueBoard") -> "LeagueBoard":
        return cls(
            league_id=board.league.league_id,
            name=board.league.name,
            date=board.day.isoformat(),
            status=status(board.closed),
            rows=[BoardRow.of(row) for row in board.rows],
            my_rank=board.my_rank,
            members=[LeagueMember(**member._asdict()) for member in board.members],
        )


class LeftLeague(Model):
    league_id: str
    member_id: str


# A player's data (SPEC §5 `GET /me/export`, `DELETE /me`) ---------------------------------------


class PlayerExport(Model):
    """Everything held about the caller: what `GET /me/export` answers."""

    player_id: str
    exported_at: str
    profile: dict[str, Any] = Field(description="display_name (null: the default) and Daily stats")
    name_claim: str | None = Field(description="the look-alike key of the name the caller holds")
    official_results: list[dict[str, Any]] = Field(description="every official result, with its words")
    runs: list[dict[str, Any]] = Field(description="every run, as GET /runs/{run_id} shows it, with timings")
    challenges_created: list[dict[str, Any]]
    challenge_quotas: list[dict[str, Any]] = Field(description="challenges created per Daily date")
    leagues: list[dict[str, Any]]
    slots: list[dict[str, Any]] = Field(description="the caller's latest and official run of each scope")
    rename: str | None = Field(
        description="the name the caller's board rows are being moved to (their last rename)"
    )
    other: list[str] = Field(description="anything else held, by kind")
    reports: list[ReportView] = Field(default=[], description="the caller's reports (SPEC §3e)")
    sanctions: list[SanctionView] = Field(default=[], description="sanctions on the caller")
    moderation_log: list[LogEntry] = Field(
        default=[], description="a moderator's own decisions, as the audit log keeps them"
    )
    case_evidence: str = Field(default=CASE_EVIDENCE, description="what a case about the caller keeps")
    reminder: dict[str, Any] | None = Field(
        default=None,
        description="the caller's reminder: its push subscription, hour and last send (SPEC §4a)",
    )

    @classmethod
    def of(cls, export: "Export") -> "PlayerExport":
        held, player = export.held, export.player
        return cls.model_validate(
            {
                "player_id": player,
                "exported_at": export.exported_at,
                "profile": {
                    "display_name": held.profile.display_name,
                    "stats": held.profile.stats.model_dump(mode="json") if held.profile.stats else None,
                },
                "name_claim": held.name_claim,
                "official_results": [r.model_dump(mode="json") for r in held.official_results],
                "runs": [
                    {**RunView.from_run(run).model_dump(mode="json"), "archive": run.archive}
                    for run in held.runs
                ],
                "challenges_created": [
                    {
                        "challenge_id": c.challenge_id,
                        "rounds": len(c.puzzle),
                        "created_at": c.created_at,
                        "closes_at": c.closes_at,
                    }
                    for c in held.challenges
                ],
                "challenge_quotas": [
                    {"date": day, "created": n} for day, n in sorted(held.challenge_quotas.items())
                ],
                "leagues": [
                    {
                        "league_id": league.league_id,
                        "name": league.name,
                        "creator": league.creator == player,
                        "joined_at": league.members.get(player),
                        "members": len(league.members),
                    }
                    for league in held.leagues
                ],
                "slots": [
                    {
                        "kind": s.scope.kind,
                        "id": s.scope.id,
                        "run_id": s.run_id,
                        "official_run_id": s.official_run_id,
                    }
                    for s in held.slots
                ],
                "rename": held.rename,
                "other": held.other,
            }
        )


class Erased(Model):
    erased: bool
