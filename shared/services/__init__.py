"""The services: what each route does, in domain terms (the game, boards, players, leagues,
a player's data), and the ports they need from storage (`ports`). They import the game and the
ports only: the storage behind the ports is handed to them by shared/runtime/wiring.py.
"""
