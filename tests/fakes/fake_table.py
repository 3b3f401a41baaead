"""The in-memory table the fakes of the ports share (tests/fakes/fake_store.py `FakePorts`), as the
adapters share one DynamoDB table: a completion's result (FakeResults) is what a board
(FakeBoards), a rank (FakeRanks) and a league (FakeLeagues) read, and a ban (FakeSanctions)
is what every admission reads. It holds state and the reads more than one port makes; each
port's rules are in its own fake.
"""

import threading
from datetime import datetime

from shared.game.boards import BoardEntry, BoardPosition
from shared.game.leagues import League
from shared.game.moderation import Case, Correction, LogEntry, Report, Sanction, ban_end
from shared.game.puzzles import Round
from shared.game.rank_moves import RankMove
from shared.game.recap import DayRecap
from shared.game.results import Challenge, OfficialResult
from shared.game.runs import Run
from shared.game.scope import Scope
from shared.game.stats import PlayerStats
from shared.services.ports import Admission


class FakeTable:
    def __init__(self) -> None:
        self.lock = threading.RLock()  # each method applies at once, as a DynamoDB request does
        self.reads: dict[str, int] = {}  # calls per method, for tests of caching
        # runs (FakeRuns, FakeClosing)
        self.puzzles: dict[Scope, list[Round]] = {}
        self.challenges: dict[str, Challenge] = {}
        self.created: dict[tuple[str, str], int] = {}  # (creator, date) -> challenges created
        self.runs: dict[str, tuple[Run, int]] = {}
        self.slots: dict[tuple[str, Scope], dict[str, str]] = {}
        self.watermark: datetime | None = None  # the expiry job's
        self.reviewed_through: datetime | None = None  # the closing job's watermark for challenges
        # results, boards, ranks, names, profiles (FakeResults, FakeBoards, FakeRanks, FakeNames)
        self.results: dict[tuple[str, Scope], OfficialResult] = {}
        self.row_names: dict[tuple[str, Scope], str | None] = {}  # the name each board row shows
        self.counted: set[tuple[str, Scope]] = set()  # results the stream consumer has counted
        self.names: dict[str, str] = {}
        self.stats: dict[str, PlayerStats] = {}
        self.stats_versions: dict[str, int] = {}  # writes of each player's stats
        self.renames: list[str] = []  # players renamed, not yet followed (`follow_renames`)
        self.erased_players: set[str] = set()  # players whose profile holds the tombstone
        # moderation (tests/fakes/fake_moderation.py, fake_sanctions.py, fake_reviews.py)
        self.cases: dict[str, Case] = {}
        self.reporters: dict[str, list[str]] = {}
        self.reasons: dict[tuple[str, str], str] = {}  # (case, reporter) -> the report's reason
        self.reports: dict[str, list[Report]] = {}
        self.report_quota: dict[tuple[str, str], int] = {}
        self.log: list[LogEntry] = []
        self.sanctions: dict[str, list[Sanction]] = {}
        self.accepted: dict[str, str] = {}
        self.passes: dict[Scope, dict[int, int]] = {}  # scope -> its find-time pass's quantiles
        self.finals: set[Scope] = set()
        self.corrections: dict[Scope, list[Correction]] = {}
        self.rank_moves: dict[Scope, set[RankMove]] = {}  # decisions that moved a board's ranks
        # leagues (FakeLeagues)
        self.leagues: dict[str, League] = {}
        self.codes: dict[str, str] = {}
        self.memberships: dict[str, set[str]] = {}
        # recaps (FakeRecaps)
        self.recaps: dict[Scope, DayRecap] = {}
        self.round_counts: dict[tuple[Scope, int], dict[str, int]] = {}

    def read(self, method: str) -> None:
        self.reads[method] = self.reads.get(method, 0) + 1

    def admission(self, player: str) -> Admission:
        """PLAYER's tombstone and latest ban end, as the profile keeps them."""
        self.read("admission")
        ends = [end for end in map(ban_end, self.sanctions.get(player, [])) if end]
        return Admission(player in self.erased_players, max(ends) if ends else None)

    def pending_runs(self, scope: Scope) -> frozenset[str]:
        """The runs of SCOPE's board with an open case: its rows' `review`."""
        return frozenset(
            c.run_id
            for c in self.cases.values()
            if c.kind == "run" and c.status == "open" and c.run_id and c.scope_id == scope.id
        )

    def entry(self, player: str, scope: Scope) -> BoardEntry:
        result = self.results[player, scope]
        return BoardEntry(player, BoardPosition.of(result), result.words, self.row_names[player, scope])

    def rename_rows(self, player: str, scopes: list[Scope], name: str) -> None:
        for scope in scopes:
            if (player, scope) in self.row_names:
                self.row_names[player, scope] = name
