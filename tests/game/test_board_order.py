"""SPEC §4 board order, defined once (shared/game/boards.py), and the rank keys that spell it for
DynamoDB (shared/dynamo/keys.py): properties over every position the game can make."""

import string
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.dynamo.keys import band_from_counter, counter_keys, position_of, rank_key
from shared.game.boards import BoardPosition, TieKey, assign_ranks
from shared.game.clock import iso
from shared.game.constants import (
    CHALLENGE_MAX_ROUNDS,
    MAX_SCORE,
    MAX_WORD_LENGTH,
    SCORE_BAND_POINTS,
    TIME_LIMIT_SECONDS,
)
from shared.game.ranking import (
    counter_prefixes,
    counts_better,
    tie_digits,
)
from shared.game.scope import Scope
from shared.game.standing import band_of

START = datetime(2026, 1, 15, 6, tzinfo=UTC)
RUN_ID = string.ascii_letters + string.digits + "-_"  # secrets.token_urlsafe's alphabet

instants = st.integers(0, 2 * 24 * 3600 * 1000).map(lambda ms: iso(START + timedelta(milliseconds=ms)))
ties = st.builds(TieKey, st.integers(0, MAX_SCORE), st.integers(0, CHALLENGE_MAX_ROUNDS), st.integers(0, 12))


run_ids = st.text(RUN_ID, min_size=1, max_size=24)


@st.composite
def positions(draw):
    return BoardPosition(
        draw(st.integers(0, MAX_SCORE)),
        draw(st.integers(0, CHALLENGE_MAX_ROUNDS)),
        draw(st.integers(0, MAX_WORD_LENGTH)),
        draw(st.integers(0, TIME_LIMIT_SECONDS * 1000)),
        draw(instants),
        draw(run_ids),
    )


# A run id names one run, so one position: boards never hold two positions of one run id.
boards = st.lists(positions(), max_size=30, unique_by=lambda p: p.run_id)


@given(positions())
def test_a_rank_key_gives_back_its_position(position):
    assert position_of(rank_key(position)) == position


@given(boards)
def test_sorting_by_rank_key_is_sorting_in_board_order(board):
    assert sorted(board, key=rank_key) == sorted(board, key=BoardPosition.order)


@given(ties, ties)
def test_tie_keys_sort_as_their_ties_rank(a, b):
    assert (tie_digits(a) < tie_digits(b)) == a.outranks(b)
    assert (tie_digits(a) == tie_digits(b)) == (a == b)


@given(ties, ties)
def test_a_counter_counts_a_tie_as_better_exactly_when_it_outranks(counted, asked):
    """Rank counters add a result to three counters named by prefixes of its tie's key (its band,
    its score, its tie); a rank sums the counters that count rows better than the tie asked about,
    from the three items it reads. A result outranks exactly when exactly one of its counters in
    those items says so."""
    band, score, own = counter_prefixes(counted)
    asked_band, asked_score, _ = counter_prefixes(asked)
    read = [band] + ([score] if band == asked_band else []) + ([own] if score == asked_score else [])
    assert sum(counts_better(counter, asked) for counter in read) == int(counted.outranks(asked))


def test_the_rank_key_digits_hold_the_largest_values_the_game_makes():
    largest = BoardPosition(
        MAX_SCORE, CHALLENGE_MAX_ROUNDS, MAX_WORD_LENGTH, TIME_LIMIT_SECONDS * 1000, iso(START), "r"
    )
    assert position_of(rank_key(largest)) == largest
    assert rank_key(largest) < rank_key(BoardPosition(0, 0, 0, 0, iso(START), "r"))


def position(score, combo=0, longest=5, seconds=60, completed=100, run_id="run"):
    return BoardPosition(
        score, combo, longest, seconds * 1000, iso(START + timedelta(seconds=completed)), run_id
    )


def test_board_order_longest_word_counts_only_up_to_12_letters():
    novelty = position(500, 3, longest=34, seconds=90, run_id="a")
    good = position(500, 3, longest=12, seconds=80, run_id="b")
    assert novelty.tie == good.tie  # 34 letters rank as 12: the faster run is first
    assert sorted([novelty, good], key=BoardPosition.order) == [good, novelty]
    assert position(500, 3, longest=11).tie.order() > good.tie.order()  # 11 letters rank below 12
    assert position_of(rank_key(novelty)).longest_word_length == 34  # the row shows the true length


def test_board_order_is_score_then_best_combo_then_longest_word():
    rows = [position(400, 9, 12), position(500, 0, 3), position(500, 2, 3), position(500, 2, 7)]
    assert sorted(rows, key=BoardPosition.order) == [rows[3], rows[2], rows[1], rows[0]]


def test_board_order_among_equal_ties_the_faster_run_comes_first():
    slow = position(500, 3, seconds=120, completed=10, run_id="a")
    fast = position(500, 3, seconds=95, completed=3600, run_id="b")
    assert sorted([slow, fast], key=BoardPosition.order) == [fast, slow]


def test_board_order_among_equally_fast_runs_the_earlier_completion_comes_first():
    late = position(500, 3, seconds=95, completed=3600, run_id="a")
    early = position(500, 3, seconds=95, completed=60, run_id="b")
    assert sorted([late, early], key=BoardPosition.order) == [early, late]


def test_shared_ranks_rows_equal_on_the_three_share_a_rank_whatever_their_speed():
    rows = sorted(
        [
            position(600),
            position(500, seconds=50, run_id="b"),
            position(500, seconds=70, run_id="c"),
            position(400),
        ],
        key=BoardPosition.order,
    )
    assert assign_ranks([r.tie for r in rows], 0, None, 0) == [1, 2, 2, 4]


# Every number in a key has a fixed width (each field over its whole range: tests/game/test_ranking.py)


def test_a_tie_below_every_score_has_no_key():
    """The board's size was once asked as the results better than a score of -1, which spelled a
    five-digit score in a four-digit field and so counted nothing on DynamoDB."""
    with pytest.raises(ValueError):
        tie_digits(TieKey(-1, 0, 0))


@given(st.integers(0, MAX_SCORE))
def test_a_score_is_counted_in_the_band_the_histogram_shows_it_in(score):
    (bands, attribute), *_ = counter_keys(Scope.daily("2026-01-15"), TieKey(score, 0, 0))
    assert band_from_counter(attribute) == band_of(score) == score // SCORE_BAND_POINTS
