"""The numbers of the game's rules in SPEC §2-§4, by section (docs/game.md quotes them).

Numbers that are policy or API limits rather than rules live beside the code they shape: the
puzzles' difficulty bands in shared/game/puzzle_tiers.py, the body limit (4 KiB) in shared/http/api.py,
display-name lengths in shared/http/limits.py, history page sizes in shared/services/leaderboard.py.
"""

from datetime import date

# §2 validating a word (shared/http/models.py writes the 3s into the API's patterns)
PROMPT_LENGTH = 3
FORBIDDEN_LETTERS = 3
MAX_WORD_LENGTH = 45

# §3 the Daily Challenge
DAILY_ROUNDS = 10
DAILY_FORBIDDEN_ROUNDS = 3  # the last three rounds (8-10)
MIN_ANSWERS_CLASSIC = 30  # accepted answers of a classic prompt
MIN_COMMON_ANSWERS_CLASSIC = 15  # of which common (Zipf >= 3.0, dictionary/common.txt)
MIN_ANSWERS_FORBIDDEN = 10  # common answers a forbidden round keeps
TOP_WORDS = 10_000  # wordfreq's most frequent clean words (dictionary/top_words.txt: those accepted)
MIN_TOP_ANSWERS = 8  # every round, forbidden ones too, keeps this many answers among TOP_WORDS
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
SPEED_BONUS_PER_SECOND = 3  # 3 × max(0, 10 − s), s the whole seconds since the round was shown
SPEED_BONUS_SECONDS = 10
MAX_SCORE = 2085  # 7 classic rounds of 120, 3 forbidden of 240, combo bonuses 225, speed 300

# §3b fair play: an accepted answer sooner than REACTION_MS + KEYSTROKE_MS × (letters + 1) after
# its round was shown (a quick visual reaction, world-record typing, Enter) makes its run implausible
PLAUSIBLE_REACTION_MS = 250
PLAUSIBLE_KEYSTROKE_MS = 40

# §3a challenges
CHALLENGE_MIN_ROUNDS = 5
CHALLENGE_MAX_ROUNDS = 10
CHALLENGE_MAX_FORBIDDEN_ROUNDS = 3
CHALLENGE_DEFAULT_ROUNDS = 10
CHALLENGE_DEFAULT_FORBIDDEN_ROUNDS = 3
CHALLENGE_OPEN_DAYS = 7
CHALLENGES_PER_PLAYER_PER_DATE = 20  # the 21st of one Daily date is 429 too_many_challenges
MY_CHALLENGES_LIMIT = 50  # GET /me/challenges: the newest this many a player made

# §4 boards
BOARD_PAGE_DEFAULT = 50
BOARD_PAGE_MAX = 100

# §3c leagues
LEAGUE_MEMBERS_MAX = 50  # the 51st join is 409 league_full
LEAGUES_PER_PLAYER_MAX = 10  # an 11th league (created or joined) is 429 too_many_leagues

# The first Daily date of a deployment that does not set FIRST_DAILY_DATE (SPEC §3d).
DEFAULT_FIRST_DAILY_DATE = date(2026, 1, 1)

# §4a after the game: the day's score distribution and its ladder
SCORE_BAND_POINTS = 100  # the histogram's bands: 0-99, 100-199, ...
LADDER = (  # a step by the percentile of players a result is better than, from the lowest
    ("Good start", 0),
    ("Solid", 25),
    ("Great", 50),
    ("Excellent", 75),
    ("Brilliant", 90),
    ("Top 1%", 99),
)

# §4a after the game: a closed day's recap
RECAP_TOP_WORDS = 10  # a round's most played words
RECAP_MISSED_WORDS = 5  # a round's common answers nobody played
