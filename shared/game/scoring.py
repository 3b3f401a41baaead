"""Scoring (SPEC §3): integers only."""

from shared.game.constants import (
    COMBO_BONUS_MAX_STEPS,
    COMBO_BONUS_PER_STEP,
    POINTS_PER_LETTER,
    POINTS_PER_LETTER_FORBIDDEN,
    SCORED_LENGTH_CAP,
    SPEED_BONUS_PER_SECOND,
    SPEED_BONUS_SECONDS,
)


def word_points(length: int, forbidden_mode: bool) -> int:
    """An accepted word of length n scores 10 × min(n, 12) (20 × min(n, 12) in forbidden mode):
    length stops paying at a cap, so a memorised 30-letter novelty word wins no more than a good
    12-letter word."""
    per_letter = POINTS_PER_LETTER_FORBIDDEN if forbidden_mode else POINTS_PER_LETTER
    return per_letter * min(length, SCORED_LENGTH_CAP)


def combo_bonus(combo: int) -> int:
    """Plus a combo bonus 5 × min(c − 1, 10), never doubled, where c is the number of
    consecutive accepted answers ending with this one."""
    return COMBO_BONUS_PER_STEP * min(combo - 1, COMBO_BONUS_MAX_STEPS)


def speed_bonus(elapsed_ms: int) -> int:
    """Plus a speed bonus 3 × max(0, 10 − s), never doubled, where s is the whole seconds from the
    moment the server showed the round to the moment the accepted answer arrived."""
    seconds = max(0, elapsed_ms) // 1000
    return SPEED_BONUS_PER_SECOND * max(0, SPEED_BONUS_SECONDS - seconds)


def points_for(length: int, forbidden_mode: bool, combo: int, elapsed_ms: int) -> int:
    """What one accepted answer scores: its word points, combo bonus and speed bonus."""
    return word_points(length, forbidden_mode) + combo_bonus(combo) + speed_bonus(elapsed_ms)
