"""The numbers of the game's rules in SPEC §2-§4, by section (docs/game.md quotes them).

Numbers that are policy or API limits rather than rules live beside the code they shape: the
puzzles' difficulty bands in shared/puzzle_tiers.py, the body limit (4 KiB) in shared/api.py,
display-name lengths in shared/models.py, history page sizes in shared/leaderboard.py.
"""

# §2 validating a word (shared/models.py writes the 3s into the API's patterns)
PROMPT_LENGTH = 3
FORBIDDEN_LETTERS = 3
MAX_WORD_LENGTH = 45

# §3 the Daily Challenge
DAILY_ROUNDS = 10
DAILY_FORBIDDEN_ROUNDS = 3  # the last three rounds (8-10)
MIN_ANSWERS_CLASSIC = 30  # accepted answers of a classic prompt
MIN_COMMON_ANSWERS_CLASSIC = 15  # of which common (Zipf >= 3.0, dictionary/common.txt)
MIN_ANSWERS_FORBIDDEN = 10  # common answers a forbidden round keeps
FORBIDDEN_REMOVES_AT_LEAST_PERCENT = 40  # of the prompt's common answers, by the forbidden letters
FORBIDDEN_REMOVES_AT_MOST_PERCENT = 80
DAY_DIFFICULTY_SPREAD = 1.5  # over a year, p90 / p10 of a day's median round difficulty at most
PROMPT_REST_DAYS = 60  # no prompt is used again within 60 days of its last use
TIME_LIMIT_SECONDS = 180
ATTEMPTS_PER_ROUND = 3
GUEST_RUN_TTL_SECONDS = 2 * 24 * 3600
PRACTICE_RUN_TTL_SECONDS = 30 * 24 * 3600  # a player's practice runs; official ones are kept

# §3 scoring
POINTS_PER_LETTER = 10
POINTS_PER_LETTER_FORBIDDEN = 20
SCORED_LENGTH_CAP = 12  # letters beyond the 12th score nothing (longest_word_length is uncapped)
COMBO_BONUS_PER_STEP = 5
COMBO_BONUS_MAX_STEPS = 10

# §3a challenges
CHALLENGE_MIN_ROUNDS = 5
CHALLENGE_MAX_ROUNDS = 10
CHALLENGE_MAX_FORBIDDEN_ROUNDS = 3
CHALLENGE_DEFAULT_ROUNDS = 10
CHALLENGE_DEFAULT_FORBIDDEN_ROUNDS = 3
CHALLENGE_OPEN_DAYS = 7
CHALLENGES_PER_PLAYER_PER_DATE = 20  # the 21st of one Daily date is 429 too_many_challenges

# §4 boards
BOARD_PAGE_DEFAULT = 50
BOARD_PAGE_MAX = 100
