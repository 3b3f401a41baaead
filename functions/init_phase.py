"""Lambda's Init phase without CPython's cyclic garbage collector (issue #12, docs/operations.md
"Cold starts").

An init builds only what lives as long as the process: modules, classes, the resolver and its
routes, the models, the word list, the DynamoDB client. CPython's collector still runs over and
over while they pile up (every 700 new container objects; daily's init: ~135 collections, one of
them over every object, about 50 ms of its ~400 ms of CPU) and finds almost nothing to free (~500
objects in cycles; resident memory is ~0.3 MB higher without them freed). So every Lambda entry
module imports this module first, which
switches the collector off, and calls `end()` on its last line, which moves every object the init
made into the collector's permanent generation (`gc.freeze()`: later collections never scan them
again, so the requests' collections are cheaper too) and switches it back on. This is the sequence
the `gc` module's documentation gives for a process that prepares long-lived state once
(`gc.disable()` early, `gc.freeze()`, `gc.enable()`).

Only the first init of a process pauses the collector (a test session imports several handlers:
the later ones, and `end()` calls after the first, change nothing), and `end()` leaves the collector
off if it already was when the pause began.
"""

import gc

_pause = {"active": gc.isenabled()}  # the collector was on: this import switches it off until end()
gc.disable()


def end() -> None:
    """The init is over: freeze what it made, then collect again as usual."""
    if _pause["active"]:
        _pause["active"] = False
        gc.freeze()
        gc.enable()
