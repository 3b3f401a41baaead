"""SPEC §3: the run engine and scoring, pure (no storage): rounds, attempts, combo, expiry, replays."""

from datetime import UTC, datetime, timedelta

import pytest

from shared.game.errors import Conflict
from shared.game.puzzles import Round
from shared.game.runs import answer, expire_if_due, new_run, skip
from shared.game.scoring import combo_bonus, points_for, word_points
from shared.http.models import RunView

START = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
WORDS = frozenset({"timer", "tamer", "tumor", "alley", "dogs", "braid", "timers", "bird", "board"})
PUZZLE = [Round("TMR", "")] * 7 + [Round("BRD", "AEO"), Round("DGS", "AEI"), Round("TMR", "ABC")]


def fresh(**kwargs):
    return new_run("run-1", "daily", "2026-11-29", PUZZLE, START, **kwargs)


def at(seconds):
    return START + timedelta(seconds=seconds)


def test_scoring_word_points_are_10_per_letter_and_20_in_forbidden_mode_up_to_12_letters():
    assert word_points(5, False) == 50
    assert word_points(5, True) == 100
    assert word_points(12, False) == 120 and word_points(13, False) == 120


def test_scoring_combo_bonus_is_5_times_min_c_minus_1_and_10():
    assert [combo_bonus(c) for c in (1, 2, 3, 11, 12, 50)] == [0, 5, 10, 50, 50, 50]


def test_scoring_combo_bonus_is_never_doubled_in_forbidden_mode():
    assert points_for(4, True, 3, 10_000) == 80 + 10


def test_accepted_answer_scores_and_moves_to_the_next_round():
    run = fresh()
    result = answer(run, 1, 1, "TIMER", at(1), WORDS)
    assert (result.accepted, result.reason, result.points, result.speed_bonus) == (True, None, 77, 27)
    view = public_view(run)
    assert (view["round"], view["attempt"], view["score"], view["combo"]) == (2, 1, 77, 1)
    assert view["history"][0] == {
        "round": 1,
        "prompt": "TMR",
        "forbidden": "",
        "attempts": [{"word": "timer", "accepted": True, "reason": None, "elapsed_ms": 1000}],
        "outcome": "accepted",
        "points": 77,  # 50 for the word, 27 for answering within 1 s
        "speed_bonus": 27,
    }


def test_combo_counts_consecutive_accepted_answers_and_best_combo_keeps_the_largest():
    run = fresh()
    points = [
        answer(run, r, 1, word, at(r), WORDS).points for r, word in ((1, "timer"), (2, "tamer"), (3, "tumor"))
    ]
    assert points == [50 + 27, 55 + 27, 60 + 27]  # each answered 1 s after its round was shown
    answer(run, 4, 1, "meter", at(5), WORDS)  # rejected: the combo breaks
    assert run.combo == 0 and run.best_combo == 3
    assert answer(run, 4, 2, "timers", at(13), WORDS).points == 60  # c = 1 again, 6 letters, 10 s


def test_third_rejection_in_a_round_loses_it_for_0_points_and_moves_on():
    run = fresh()
    for attempt in (1, 2, 3):
        result = answer(run, 1, attempt, "meter", at(attempt), WORDS)
        assert not result.accepted and result.reason == "letter_order"
    assert run.history[0].outcome == "lost" and run.history[0].points == 0
    assert public_view(run)["round"] == 2 and public_view(run)["attempts_left"] == 3


def test_rejection_keeps_the_round_and_counts_attempts_left():
    run = fresh()
    answer(run, 1, 1, "xyz", at(1), WORDS)
    view = public_view(run)
    assert (view["round"], view["attempt"], view["attempts_left"]) == (1, 2, 2)
    assert view["history"][0]["outcome"] is None


def test_skip_breaks_the_combo_and_moves_on():
    run = fresh()
    answer(run, 1, 1, "timer", at(1), WORDS)
    assert skip(run, 2, at(2))
    assert run.combo == 0 and run.history[1].outcome == "skipped" and public_view(run)["round"] == 3


def test_forbidden_rounds_use_forbidden_letters_and_double_points():
    run = fresh()
    for r in range(1, 8):
        skip(run, r, at(r))
    view = public_view(run)
    assert (view["round"], view["prompt"], view["forbidden"]) == (8, "BRD", "AEO")
    assert answer(run, 8, 1, "braid", at(9), WORDS).reason == "forbidden_letter"
    assert answer(run, 8, 2, "bird", at(17), WORDS).points == 80  # 10 s after round 8 was shown


def test_run_completes_when_its_last_round_ends():
    run = fresh()
    for r in range(1, 10):
        skip(run, r, at(r))
    answer(run, 10, 1, "timer", at(20), frozenset({"timer"}))  # TMR forbidding ABC
    view = public_view(run)
    assert view["status"] == "completed" and view["ended_by"] == "finished"
    assert view["round"] is None and view["prompt"] is None and view["forbidden"] is None
    assert view["attempt"] is None and view["attempts_left"] == 0
    assert view["completed_at"] == "2026-11-29T18:00:20.000Z"


def test_time_limit_180_s_an_expired_run_completes_at_its_deadline_with_what_it_had():
    run = fresh()
    answer(run, 1, 1, "timer", at(10), WORDS)
    assert not expire_if_due(run, at(179.999))
    assert expire_if_due(run, at(500))
    assert run.completed_at == "2026-11-29T18:03:00.000Z" and run.ended_by == "expired" and run.score == 50


def test_an_answer_after_the_deadline_completes_the_run_and_is_409():
    run = fresh()
    with pytest.raises(Conflict) as caught:
        answer(run, 1, 1, "timer", at(181), WORDS)
    assert caught.value.code == "run_completed" and caught.value.run.ended_by == "expired"


def test_retries_a_repeat_with_the_same_word_in_any_case_replays_the_first_reply():
    run = fresh()
    first = answer(run, 1, 1, "timer", at(1), WORDS)
    again = answer(run, 1, 1, "TIMER", at(2), WORDS)
    assert (again.accepted, again.reason, again.replayed) == (True, None, True)
    assert first.points == again.points == 77 and again.speed_bonus == 27
    assert run.score == 77 and len(run.history) == 1


def test_retries_a_repeat_replays_even_after_the_run_completed():
    run = fresh()
    for r in range(1, 10):
        skip(run, r, at(r))
    answer(run, 10, 1, "timer", at(20), frozenset({"timer"}))
    assert answer(run, 10, 1, "timer", at(21), WORDS).replayed
    assert not skip(run, 9, at(22))  # a repeated skip of a round closed by that skip replays


@pytest.mark.parametrize(
    ("round_number", "attempt", "word", "code"),
    [
        (1, 1, "alley", "slot_used"),  # a different word for a used slot
        (1, 2, "timer", "not_next_slot"),  # an attempt of a closed round
        (3, 1, "timer", "not_next_slot"),  # a round ahead
        (2, 2, "timer", "not_next_slot"),  # an attempt ahead
    ],
)
def test_retries_any_slot_that_is_not_the_next_one_is_409_with_the_run(round_number, attempt, word, code):
    run = fresh()
    answer(run, 1, 1, "timer", at(1), WORDS)
    with pytest.raises(Conflict) as caught:
        answer(run, round_number, attempt, word, at(2), WORDS)
    assert caught.value.code == code and RunView.from_run(caught.value.run).round == 2


def test_anything_sent_to_a_completed_run_is_409():
    run = fresh()
    expire_if_due(run, at(200))
    for attempt_call in (lambda: answer(run, 1, 1, "timer", at(201), WORDS), lambda: skip(run, 1, at(201))):
        with pytest.raises(Conflict) as caught:
            attempt_call()
        assert caught.value.code == "run_completed"


def test_longest_word_is_the_length_of_the_longest_accepted_word():
    run = fresh()
    answer(run, 1, 1, "timers", at(1), WORDS)
    answer(run, 2, 1, "timer", at(2), WORDS)
    answer(run, 3, 1, "tmrtmrtmrtmr", at(3), WORDS)  # rejected: never counts
    assert run.longest_word_length == 6


def public_view(run):
    """The run as the API shows it (shared.http.models.RunView), as JSON."""
    return RunView.from_run(run).model_dump(mode="json")


LONGEST = "pneumonoultramicroscopicsilicovolcanoconiosis"  # 45 letters, in the dictionary


def test_already_used_a_word_accepted_once_in_a_run_is_rejected_again():
    run = fresh()
    assert answer(run, 1, 1, "timer", at(1), WORDS).accepted
    again = answer(run, 2, 1, "TIMER", at(2), WORDS)
    assert (again.accepted, again.reason, again.points) == (False, "already_used", 0)
    assert public_view(run)["history"][1]["attempts"] == [
        {"word": "timer", "accepted": False, "reason": "already_used", "elapsed_ms": 1000}
    ]


def test_already_used_counts_as_a_rejection_the_combo_breaks_and_the_attempt_is_used():
    run = fresh()
    answer(run, 1, 1, "timer", at(1), WORDS)
    answer(run, 2, 1, "timer", at(2), WORDS)
    view = public_view(run)
    assert (view["combo"], view["best_combo"], view["round"], view["attempt"]) == (0, 1, 2, 2)
    assert answer(run, 2, 2, "timers", at(11), WORDS).points == 60  # c = 1 again (10 s: no bonus)


def test_already_used_third_rejection_loses_the_round():
    run = fresh()
    answer(run, 1, 1, "timer", at(1), WORDS)
    for attempt in (1, 2, 3):
        assert answer(run, 2, attempt, "timer", at(1 + attempt), WORDS).reason == "already_used"
    assert run.history[1].outcome == "lost" and run.history[1].points == 0 and run.score == 77


def test_already_used_is_checked_after_the_rules_of_section_2():
    puzzle = [Round("TMR", ""), Round("DGS", ""), Round("TMR", "EIO")] + [Round("TMR", "")] * 7
    run = new_run("run-2", "daily", "2026-11-29", puzzle, START)
    answer(run, 1, 1, "timer", at(1), WORDS)
    assert answer(run, 2, 1, "timer", at(2), WORDS).reason == "letter_order"
    skip(run, 2, at(3))
    assert answer(run, 3, 1, "timer", at(4), WORDS).reason == "forbidden_letter"


def test_already_used_a_retry_of_the_same_slot_replays_the_original_reply():
    run = fresh()
    answer(run, 1, 1, "timer", at(1), WORDS)
    first = answer(run, 2, 1, "timer", at(2), WORDS)
    again = answer(run, 2, 1, "Timer", at(3), WORDS)
    assert again.replayed and (again.accepted, again.reason, again.points) == (False, "already_used", 0)
    assert first.reason == "already_used" and len(run.history[1].attempts) == 1
    # The slot that first accepted the word still replays its acceptance.
    replay = answer(run, 1, 1, "timer", at(4), WORDS)
    assert replay.replayed and replay.accepted and replay.points == 77


def test_already_used_the_same_45_letter_word_is_accepted_in_one_round_only():
    # The guest run of issue #10 had this word accepted in 4 rounds; now only the first counts.
    puzzle = [Round("PNS", "")] * 7 + [Round("PNS", "BDF")] * 3
    run = new_run("guest-run", "daily", "2026-11-29", puzzle, START)
    dictionary = frozenset({LONGEST})
    replies = []
    for second in range(1, 5):
        view = public_view(run)
        replies.append(answer(run, view["round"], view["attempt"], LONGEST, at(second), dictionary))
    assert [(r.accepted, r.reason) for r in replies] == [(True, None)] + [(False, "already_used")] * 3
    assert run.score == 120 + 27 and run.accepted_words() == [LONGEST]
    assert run.history[1].outcome == "lost"
