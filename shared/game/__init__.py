"""The game: WordSQD's rules and values, pure Python with no AWS import and no storage key.

Rules (RULES.txt), scoring, runs and their rounds, puzzles and their tiers, the board order and
ranks, stats, scopes, display names, fair play and the domain's errors. Everything above imports
from here; this package imports nothing of the project outside itself.
"""
