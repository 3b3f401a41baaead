"""A closed day's recap (SPEC §4a): per round, how the day's players answered it, the words they
played and the common ones nobody did. Pure: the closing pass tallies the board's runs once
(`tally_rounds`), and the recap is summed up from the tallies (`summarize`)."""

from collections import Counter
from collections.abc import Iterable, Set

from pydantic import BaseModel

from shared.game.constants import RECAP_MISSED_WORDS, RECAP_TOP_WORDS
from shared.game.puzzles import Round
from shared.game.runs import Run


class RoundTally(BaseModel):
    """One round as the day's counted runs played it: each accepted word with how many played it,
    and how many lost or skipped it (the others ran out of time before it)."""

    round: int
    prompt: str
    forbidden: str
    words: dict[str, int] = {}
    lost: int = 0
    skipped: int = 0

    @property
    def answered(self) -> int:
        return sum(self.words.values())


class WordCount(BaseModel):
    word: str
    players: int


class RoundRecap(BaseModel):
    """What the recap says of one round."""

    round: int
    prompt: str
    forbidden: str
    answered: int
    lost_or_skipped: int
    lost_or_skipped_share: float  # of the day's counted players, 0-1
    top_words: list[WordCount]
    longest_word: str | None
    missed_common: list[str]


class DayRecap(BaseModel):
    """A closed Daily's recap: its counted players (the board's ranked runs when it closed) and
    its rounds."""

    date: str
    players: int
    rounds: list[RoundRecap]


def tally_rounds(puzzle: list[Round], runs: Iterable[Run]) -> list[RoundTally]:
    """Each round of PUZZLE as RUNS played it (a round a run never reached counts nowhere)."""
    tallies = [
        RoundTally(round=n, prompt=r.prompt, forbidden=r.forbidden) for n, r in enumerate(puzzle, start=1)
    ]
    counters = [Counter[str]() for _ in puzzle]
    for run in runs:
        for record in run.history:
            if not 1 <= record.round <= len(puzzle):
                continue
            tally = tallies[record.round - 1]
            if record.outcome == "accepted":
                counters[record.round - 1].update(a.word for a in record.attempts if a.accepted)
            elif record.outcome == "lost":
                tally.lost += 1
            elif record.outcome == "skipped":
                tally.skipped += 1
    for tally, counter in zip(tallies, counters, strict=True):
        tally.words = dict(counter)
    return tallies


def most_played(words: dict[str, int], limit: int = RECAP_TOP_WORDS) -> list[WordCount]:
    """The LIMIT words most played, the more played first, then alphabetically."""
    ranked = sorted(words.items(), key=lambda item: (-item[1], item[0]))[:limit]
    return [WordCount(word=word, players=count) for word, count in ranked]


def longest_word(words: Iterable[str]) -> str | None:
    """The longest word played (the first alphabetically among equals)."""
    return min(words, key=lambda word: (-len(word), word), default=None)


def missed_common(
    common: Iterable[str], played: Set[str], familiar: Set[str], limit: int = RECAP_MISSED_WORDS
) -> list[str]:
    """LIMIT of the round's common answers that nobody played: the most familiar first (those among
    the most frequent words), then the shortest, then alphabetically."""
    unplayed = [word for word in common if word not in played]
    return sorted(unplayed, key=lambda word: (word not in familiar, len(word), word))[:limit]


def summarize(
    day: str, players: int, tallies: list[RoundTally], common: list[list[str]], familiar: Set[str]
) -> DayRecap:
    """DAY's recap from its round TALLIES over PLAYERS counted runs; COMMON holds each round's
    common answers, FAMILIAR the most frequent words."""
    rounds = []
    for tally, answers in zip(tallies, common, strict=True):
        missed = tally.lost + tally.skipped
        rounds.append(
            RoundRecap(
                round=tally.round,
                prompt=tally.prompt,
                forbidden=tally.forbidden,
                answered=tally.answered,
                lost_or_skipped=missed,
                lost_or_skipped_share=round(missed / players, 3) if players else 0.0,
                top_words=most_played(tally.words),
                longest_word=longest_word(tally.words),
                missed_common=missed_common(answers, tally.words.keys(), familiar),
            )
        )
    return DayRecap(date=day, players=players, rounds=rounds)


class MyRoundWord(BaseModel):
    """The caller's word in one round (None: lost, skipped or not reached) and how many of the
    day's other counted players played it."""

    round: int
    word: str | None
    others: int | None


def my_words(run: Run, counts: dict[int, dict[str, int]], counted: bool, rounds: int) -> list[MyRoundWord]:
    """RUN's accepted word per round with how many others played it; COUNTED says whether RUN
    itself is in the counts (a ranked run when the board closed)."""
    mine = []
    for number in range(1, rounds + 1):
        record = next((r for r in run.history if r.round == number), None)
        word = next((a.word for a in record.attempts if a.accepted), None) if record else None
        others = None
        if word is not None:
            others = max(0, counts.get(number, {}).get(word, 0) - (1 if counted else 0))
        mine.append(MyRoundWord(round=number, word=word, others=others))
    return mine
