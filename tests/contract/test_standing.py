"""A player's rank, "of N" and standing on the day's board (SPEC §4, §4a), through the board
service on the in-memory fake and on DynamoDB (moto) alike: numbers a player sees."""

from datetime import timedelta

import pytest

from shared.game.boards import BoardPosition, TieKey
from shared.game.scope import Scope
from shared.game.standing import histogram, percentile
from shared.services.leaderboard import Boards
from tests.contract.test_board_store import DAY, SCOPE, START, record, results, subject  # noqa: F401
from tests.fakes.fake_boards import player


def boards(subject) -> Boards:  # noqa: F811
    return Boards(
        subject.store.boards,
        subject.store.ranks,
        subject.store.names,
        subject.store.runs,
        now=lambda: START + timedelta(hours=6),
    )


@pytest.mark.parametrize("players", [1, 2, 43])
def test_my_rank_says_of_n_with_n_every_ranked_player_of_the_day(subject, players):  # noqa: F811
    written = results(subject, players)
    record(subject, "bot", 2085, 10, 12, unranked_reason="implausible_speed")  # never on the board
    record(subject, "other-day", 100, day="2026-01-14")
    subject.settle()

    service = boards(subject)
    for result in written:
        mine = service.daily_rank(DAY, result.player)
        tie = BoardPosition.of(result).tie
        assert mine.players == players
        assert mine.row.rank == 1 + sum(1 for r in written if BoardPosition.of(r).tie.outranks(tie))


def test_my_rank_counts_me_in_of_n_before_the_counters_have_caught_up(subject):  # noqa: F811
    record(subject, "ann", 300)
    subject.settle()
    record(subject, "bob", 200)  # not settled: not yet counted on DynamoDB

    mine = boards(subject).daily_rank(DAY, player("bob"))
    assert (mine.row.rank, mine.players) >= (2, 2)


def test_the_standing_counts_bands_of_100_better_and_equal(subject):  # noqa: F811
    for name, score, combo in (("a", 1999, 3), ("b", 1950, 2), ("c", 1950, 2), ("d", 1900, 0), ("e", 40, 0)):
        record(subject, name, score, combo, 6)
    subject.settle()

    bands = subject.store.ranks.standing(SCOPE, None).bands
    assert bands == {19: 4, 0: 1}
    assert histogram(bands)[19] == 4 and sum(histogram(bands)) == 5
    standing = subject.store.ranks.standing(SCOPE, TieKey(1950, 2, 6))
    assert (standing.better, standing.equal, standing.players) == (1, 2, 5)
    assert percentile(standing) == 40  # better than d and e: 2 of 5
    assert subject.store.ranks.standing(Scope.daily("2026-01-16"), None).players == 0
