"""The in-memory PlayerDataStore (shared/services/player_data.py), over the shared FakeTable
(tests/fakes/fake_table.py): an export gathers what the other fakes keep of a player, an erasure takes
it away as shared/dynamo/player_data.py does (docs/players.md, "Export and erasure")."""

from shared.game.boards import PlayerProfile
from shared.game.erasure import Carried, ErasurePlan, ErasureRead
from shared.game.names import DELETED_PLAYER_NAME, name_skeleton
from shared.game.results import OfficialResult
from shared.services.player_data import Holdings, PlayerDataStore, SlotRecord
from tests.fakes.fake_table import FakeTable


class FakePlayerData:
    def __init__(self, table: FakeTable) -> None:
        self.table = table

    def holdings(self, player: str) -> Holdings:
        table = self.table
        with table.lock:
            name = table.names.get(player)
            shown = DELETED_PLAYER_NAME if player in table.erased_players else name
            leagues = [
                table.leagues[i] for i in sorted(table.memberships.get(player, ())) if i in table.leagues
            ]
            return Holdings(
                profile=PlayerProfile(shown, table.stats.get(player)),
                name_claim=name_skeleton(name) if name else None,
                slots=[
                    SlotRecord(scope, slot.get("run_id"), slot.get("official_run_id"))
                    for (holder, scope), slot in table.slots.items()
                    if holder == player
                ],
                challenge_quotas={day: n for (creator, day), n in table.created.items() if creator == player},
                official_results=[r for (holder, _), r in table.results.items() if holder == player],
                runs=sorted(
                    (run.model_copy(deep=True) for run, _ in table.runs.values() if run.player == player),
                    key=lambda run: run.started_at,
                ),
                challenges=[
                    c.model_copy(deep=True) for c in table.challenges.values() if c.creator == player
                ],
                leagues=[league.model_copy(deep=True) for league in leagues],
                rename=None,  # renames are followed at once here (tests/fakes/fake_boards.py follow_renames)
                other=[],
                admission=table.admission(player),
                sanctions=list(table.sanctions.get(player, [])),
                reports=sorted(
                    table.reports.get(player, []), key=lambda r: (r.reported_at, r.case_id), reverse=True
                ),
                moderation_log=sorted(
                    (e for e in table.log if e.moderator == player),
                    key=lambda e: (e.decided_at, e.case_id),
                    reverse=True,
                ),
            )

    def official_results(self, player: str) -> list[OfficialResult]:
        with self.table.lock:
            return [result for (holder, _), result in self.table.results.items() if holder == player]

    def stop_answers(self, player: str, at: str) -> None:
        """Nothing to do: an answer here reads the player's admission."""

    def begin_erasure(self, player: str, at: str) -> None:
        with self.table.lock:
            self.table.erased_players.add(player)

    def erasure_read(self, player: str) -> ErasureRead:
        table = self.table
        with table.lock:
            name = table.names.get(player)
            scopes = [scope for (holder, scope) in table.results if holder == player]
            return ErasureRead(
                player=player,
                claims=[name_skeleton(name)] if name else [],
                rows=[(scope, table.row_names.get((player, scope)) or "") for scope in scopes],
                leagues=[
                    table.leagues[i].model_copy(deep=True)
                    for i in sorted(table.memberships.get(player, set()))
                    if i in table.leagues
                ],
                challenges=[
                    c.model_copy(deep=True) for c in table.challenges.values() if c.creator == player
                ],
            )

    def carry_out_erasure(self, read: ErasureRead, plan: ErasurePlan) -> Carried:
        """The plan, unless the player's leagues or challenges changed since READ: the name
        released and shown as DELETED_PLAYER_NAME on every row, the leagues left (to their heir),
        the challenges made kept with no creator; then the runs, slots, stats and reports
        deleted; the official results stay."""
        table, player = self.table, read.player
        with table.lock:
            if self._changed(player, plan):
                return Carried(False)
            if plan.release:
                table.names.pop(player, None)
            table.rename_rows(player, plan.rename, DELETED_PLAYER_NAME)
            for departure in plan.leave:
                league = table.leagues[departure.league.league_id]
                if departure.heir is None:
                    del table.leagues[league.league_id]
                    table.codes.pop(league.code, None)
                else:
                    del league.members[player]
                    league.creator = departure.heir
            table.memberships.pop(player, None)
            for challenge_id in plan.disown:
                table.challenges[challenge_id].creator = ""
            for made in [made for made in table.created if made[0] == player]:
                del table.created[made]
            for run_id in [run_id for run_id, (run, _) in table.runs.items() if run.player == player]:
                del table.runs[run_id]
            for key in [key for key in table.slots if key[0] == player]:
                del table.slots[key]
            table.stats.pop(player, None)
            table.reports.pop(player, None)
            return Carried(True)

    def _changed(self, player: str, plan: ErasurePlan) -> bool:
        """Whether the player's leagues or challenges are no longer those PLAN read."""
        table = self.table
        leagues = {
            i
            for i in table.memberships.get(player, set())
            if player in getattr(table.leagues.get(i), "members", {})
        }
        made = {c.challenge_id for c in table.challenges.values() if c.creator == player}
        return leagues != {d.league.league_id for d in plan.leave} or made != set(plan.disown)


_player_data: PlayerDataStore = FakePlayerData(table=FakeTable())
