"""The ranking engine's pure core (shared/game/ranking.py), stated as laws with Hypothesis: every
fixed-width number sorts as the game orders it over its whole range (and refuses −1 and anything
past its maximum), the counters add up to the domain's rank, and a fold never loses or doubles a
row, whatever order the consumers' rows arrive in. No storage here: the DynamoDB steps that call
this core are tested in tests/dynamo/test_top_protocol.py and tests/contract/test_board_store.py."""

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from shared.game import ranking
from shared.game.boards import BoardEntry, BoardPosition, TieKey, merge_top
from shared.game.constants import (
    CHALLENGE_MAX_ROUNDS,
    MAX_SCORE,
    SCORE_BAND_POINTS,
    SCORED_LENGTH_CAP,
    TIME_LIMIT_SECONDS,
)
from shared.game.ranking import BAND, COMBO, DURATION, LENGTH, SCORE, KeyField
from shared.game.standing import band_of

FIELDS = [SCORE, COMBO, LENGTH, DURATION, BAND]


def test_every_key_field_is_as_wide_as_its_largest_value_in_the_rules():
    assert SCORE.maximum == MAX_SCORE
    assert COMBO.maximum == CHALLENGE_MAX_ROUNDS
    assert LENGTH.maximum == SCORED_LENGTH_CAP
    assert DURATION.maximum == TIME_LIMIT_SECONDS * 1000
    assert BAND.maximum == MAX_SCORE // SCORE_BAND_POINTS
    for field in FIELDS:
        assert field.digits == len(str(field.maximum))
    assert SCORE.digits + COMBO.digits + LENGTH.digits == ranking.TIE_DIGITS


def spelled(field: KeyField, value: int, descending: bool) -> str | None:
    """VALUE spelled by FIELD, or None when the field refuses it."""
    try:
        return field.descending(value) if descending else field.ascending(value)
    except ValueError:
        return None


@pytest.mark.parametrize("descending", [True, False], ids=["descending", "ascending"])
@pytest.mark.parametrize("field", FIELDS, ids=lambda f: f.name)
def test_a_key_field_sorts_exactly_as_its_numbers_over_its_whole_range_and_refuses_the_rest(
    field, descending
):
    values = st.integers(-1, field.maximum + 1)

    @given(values, values)
    @example(-1, 0)
    @example(0, field.maximum)
    @example(field.maximum, field.maximum + 1)
    @example(field.maximum - 1, field.maximum)
    def sorts(a: int, b: int) -> None:
        key_a, key_b = spelled(field, a, descending), spelled(field, b, descending)
        assert (key_a is None) == (not 0 <= a <= field.maximum)
        assert (key_b is None) == (not 0 <= b <= field.maximum)
        if key_a is None or key_b is None:
            return
        assert len(key_a) == len(key_b) == field.digits
        assert (key_a < key_b) == (a > b if descending else a < b)
        assert (key_a == key_b) == (a == b)
        if descending:
            assert field.from_descending(key_a) == a

    sorts()


def test_a_field_refuses_digits_of_another_width():
    with pytest.raises(ValueError, match="score"):
        SCORE.from_descending("99999")
    with pytest.raises(ValueError, match="score"):
        SCORE.from_descending(" 999")


# Any number each field may be asked to spell, −1 and one past the maximum included.
loose_ties = st.builds(
    TieKey,
    st.integers(-1, MAX_SCORE + 1),
    st.integers(-1, CHALLENGE_MAX_ROUNDS + 1),
    st.integers(-1, SCORED_LENGTH_CAP + 1),
)
ties = st.builds(
    TieKey, st.integers(0, MAX_SCORE), st.integers(0, CHALLENGE_MAX_ROUNDS), st.integers(0, SCORED_LENGTH_CAP)
)
EXTREMES = [TieKey(0, 0, 0), TieKey(MAX_SCORE, CHALLENGE_MAX_ROUNDS, SCORED_LENGTH_CAP)]


def valid(tie: TieKey) -> bool:
    return (
        0 <= tie.score <= MAX_SCORE
        and 0 <= tie.best_combo <= CHALLENGE_MAX_ROUNDS
        and (0 <= tie.capped_longest <= SCORED_LENGTH_CAP)
    )


@given(loose_ties, loose_ties)
@example(TieKey(-1, 0, 0), EXTREMES[0])
@example(*EXTREMES)
@example(TieKey(MAX_SCORE + 1, 0, 0), EXTREMES[1])
def test_tie_digits_sort_as_the_ties_rank_and_a_tie_outside_the_rules_has_none(a, b):
    if not valid(a):
        with pytest.raises(ValueError):
            ranking.tie_digits(a)
        return
    if not valid(b):
        return
    assert len(ranking.tie_digits(a)) == ranking.TIE_DIGITS
    assert (ranking.tie_digits(a) < ranking.tie_digits(b)) == a.outranks(b)
    assert (ranking.tie_digits(a) == ranking.tie_digits(b)) == (a == b)
    assert ranking.tie_of_digits(ranking.tie_digits(a)) == a


@given(st.integers(-1, MAX_SCORE + 1))
@example(-1)
@example(MAX_SCORE)
def test_a_score_counts_in_the_band_the_histogram_shows_it_in(score):
    if not 0 <= score <= MAX_SCORE:
        with pytest.raises(ValueError):
            ranking.counter_band(score)
        return
    band, _, _ = ranking.counter_prefixes(TieKey(score, 0, 0))
    assert ranking.counter_band(score) == ranking.band_of_prefix(band) == band_of(score)


def counters_read(counted: list[TieKey], asked: TieKey) -> list[tuple[ranking.Level, str, int]]:
    """The counters a rank of ASKED reads, as the storage keeps them: every band counter, the
    score counters of ASKED's band and the tie counters of ASKED's score."""
    asked_band, asked_score, _ = ranking.counter_prefixes(asked)
    read: list[tuple[ranking.Level, str, int]] = []
    for tie in counted:
        band, score, own = ranking.counter_prefixes(tie)
        read.append(("band", band, 1))
        if band == asked_band:
            read.append(("score", score, 1))
        if score == asked_score:
            read.append(("tie", own, 1))
    return read


@given(st.lists(ties, max_size=40), ties)
@example(EXTREMES * 3, EXTREMES[0])
@example(EXTREMES * 3, EXTREMES[1])
def test_the_counters_read_for_a_tie_say_how_many_outrank_it_share_it_and_the_bands(counted, asked):
    standing = ranking.tally(counters_read(counted, asked), asked)
    assert standing.better == sum(1 for t in counted if t.outranks(asked))
    assert standing.equal == sum(1 for t in counted if t == asked)
    assert standing.players == len(counted)
    for band, players in standing.bands.items():
        assert players == sum(1 for t in counted if band_of(t.score) == band)


@given(st.lists(ties, max_size=20))
def test_the_bands_alone_give_the_boards_size_and_histogram(counted):
    bands: list[tuple[ranking.Level, str, int]] = [
        ("band", ranking.counter_prefixes(t)[0], 1) for t in counted
    ]
    standing = ranking.tally(bands, None)
    assert (standing.players, standing.better, standing.equal) == (len(counted), 0, 0)


# The fold ---------------------------------------------------------------------------------------


@st.composite
def rows(draw, players: list[str]) -> list[BoardEntry]:
    """One row for each of PLAYERS, at distinct positions."""
    return [
        BoardEntry(
            player,
            BoardPosition(
                draw(st.integers(0, 40)),
                draw(st.integers(0, 2)),
                5,
                draw(st.integers(0, 3)),
                "t",
                f"run-{player}",
            ),
            [],
            None,
        )
        for player in players
    ]


def board_order(entries: list[BoardEntry]) -> list[BoardEntry]:
    return sorted(entries, key=lambda e: e.position.order())


@st.composite
def boards(draw):
    """A top of SIZE rows at most, and two consumers' arrivals, of players not in it."""
    players = [f"p{n}" for n in range(draw(st.integers(0, 24)))]
    cut = sorted(draw(st.lists(st.integers(0, len(players)), min_size=2, max_size=2)))
    size = draw(st.integers(1, 8))
    everyone = draw(rows(players))
    top = board_order(everyone[: cut[0]])[:size]
    return size, top, everyone[cut[0] : cut[1]], everyone[cut[1] :]


def left(arrivals: list[BoardEntry]) -> dict[str, list[BoardEntry]]:
    return {e.player: [e] for e in arrivals}


@given(boards())
def test_two_consumers_rows_folded_in_either_order_or_together_give_the_same_top(board):
    size, top, first, second = board
    together = ranking.plan_fold(top, left(first + second), size).rows
    one_then_other = ranking.plan_fold(
        ranking.plan_fold(top, left(first), size).rows, left(second), size
    ).rows
    other_then_one = ranking.plan_fold(
        ranking.plan_fold(top, left(second), size).rows, left(first), size
    ).rows
    assert together == one_then_other == other_then_one
    assert together == board_order(merge_top(top, first + second, size))


@given(boards())
def test_a_fold_delivered_again_changes_nothing_and_enters_only_what_it_says(board):
    size, top, first, second = board
    fold = ranking.plan_fold(top, left(first + second), size)
    again = ranking.plan_fold(fold.rows, left(first + second), size)
    assert again.entering == {} and again.rows == fold.rows
    assert set(again.settled) == {e.player for e in fold.rows} & {e.player for e in first + second}
    assert fold.settled == []
    assert set(fold.entering) == {e.player for e in fold.rows} - {e.player for e in top}
    assert len(fold.rows) <= size and len({e.player for e in fold.rows}) == len(fold.rows)
    assert [e.player for e in ranking.entering(top, first + second, size)] == list(fold.entering)


@given(boards())
def test_a_row_that_is_not_the_stored_result_is_ruled_out_and_the_stored_one_enters(board):
    """A player left twice (a record of a cancelled write): only the row that is stored enters."""
    size, top, first, _ = board
    if not first:
        return
    ghost = first[0]._replace(position=first[0].position._replace(score=MAX_SCORE, run_id="ghost"))
    candidates = left(first)
    candidates[ghost.player] = [ghost, first[0]]
    stored = {e.player: e for e in first}
    fold = ranking.plan_fold(top, candidates, size)
    assert ranking.not_stored(fold, stored) == [ghost.player]
    kept = ranking.ruled_out(candidates, [ghost.player], stored)
    again = ranking.plan_fold(top, kept, size)
    assert ranking.not_stored(again, stored) == []
    assert again.rows == ranking.plan_fold(top, left(first), size).rows


def test_an_entering_row_takes_the_name_its_stored_result_shows_and_a_later_rename_is_seen():
    row = BoardEntry("ann", BoardPosition(100, 0, 5, 0, "t", "r"), ["timer"], None)
    fold = ranking.plan_fold([], {"ann": [row]}, 3)
    written = ranking.with_stored(fold, {"ann": row._replace(display_name="Annie")})
    assert [e.display_name for e in written] == ["Annie"]
    assert ranking.renamed_since(written, {"ann": row._replace(display_name="Annie")}) == {}
    assert ranking.renamed_since(written, {"ann": row._replace(display_name="Ann B")}) == {"ann": "Ann B"}
    assert ranking.with_names(written, {"ann": "Annie"}) is None
    assert [e.display_name for e in ranking.with_names(written, {"ann": None}) or []] == [None]


@given(boards())
def test_a_voided_row_leaves_the_top_and_the_next_best_row_takes_its_place(board):
    size, top, first, _ = board
    if not top:
        return
    gone = top[0].player
    below = board_order(first + top)  # the board index, which may still hold the voided row
    refilled = ranking.refilled(top, below, gone, size)
    assert gone not in {e.player for e in refilled}
    assert refilled == board_order([e for e in merge_top(top, first, size + 1) if e.player != gone])[:size]


# The lease ----------------------------------------------------------------------------------------

instants = st.floats(0, 1e6, allow_nan=False)


@given(instants, instants, st.floats(0.001, 10))
def test_a_lease_is_waited_for_only_while_held_for_at_most_one_interval_from_now(now, until, interval):
    wait = ranking.lease_wait(now, until, interval, 0.01)
    if until <= now:
        assert wait is None, "expired: free"
    elif until > now + interval:
        assert wait is None, "taken by a clock far ahead: free, never waited on past a timeout"
    else:
        assert wait == pytest.approx(until - now + 0.01)
        assert 0 < wait <= interval + 0.01
