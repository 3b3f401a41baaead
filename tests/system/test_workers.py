"""`make run`'s Lambda instances (local/workers.py): worker processes per function, each one event
at a time, on the server's game clock. The handlers here are this module's own `handler`."""

import os
import threading
import time
from datetime import UTC, datetime, timedelta

import pytest

from local.workers import Function, HandlerFailed, WorkerDied, preload, workers_per_function
from shared.game import clock

ENTRY = "tests.system.test_workers:handler"
IMPORTED_BY = os.getpid()  # the process that imported this module


@pytest.fixture(scope="module", autouse=True)
def fork_server():
    """This process's fork server, with this module imported, before its first worker starts."""
    preload([ENTRY])


def handler(event: dict, context) -> dict:
    if event.get("exit"):
        os._exit(1)
    if event.get("die_after"):
        time.sleep(event["die_after"])
        os._exit(1)
    if event.get("preload"):
        try:
            preload([ENTRY])
        except RuntimeError as error:
            return {"preload": str(error)}
    if event.get("fail"):
        raise RuntimeError("the handler failed")
    time.sleep(event.get("seconds", 0))
    return {
        "pid": os.getpid(),
        "imported_by": IMPORTED_BY,
        "now": clock.iso(clock.now()),
        "request": context.aws_request_id,
    }


def _at_once(function: Function, events: list[dict]) -> list[dict]:
    replies: list[dict] = [{}] * len(events)

    def call(index: int) -> None:
        replies[index] = function.invoke(events[index], f"r{index}", timedelta(0))

    threads = [threading.Thread(target=call, args=(i,)) for i in range(len(events))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return replies


@pytest.fixture
def function():
    made: list[Function] = []

    def make(size: int) -> Function:
        made.append(Function(ENTRY, size))
        return made[-1]

    yield make
    for each in made:
        each.close(timeout=10)


def test_two_events_of_one_function_at_once_go_to_two_workers(function):
    # The first holds its worker 3 s: the second, sent meanwhile, needs a worker of its own.
    replies = _at_once(function(2), [{"seconds": 3}, {"seconds": 0}])
    assert replies[0]["pid"] != replies[1]["pid"]
    assert {r["request"] for r in replies} == {"r0", "r1"}


def test_a_function_runs_no_more_workers_than_its_size(function):
    replies = _at_once(function(1), [{"seconds": 1}, {"seconds": 0}])
    assert replies[0]["pid"] == replies[1]["pid"]


def test_a_worker_reads_the_servers_game_clock(function):
    reply = function(1).invoke({}, "r", timedelta(days=3))
    worker_now = clock.parse_iso(reply["now"])
    assert timedelta(days=3) - timedelta(minutes=1) < worker_now - datetime.now(UTC) <= timedelta(days=3)


def test_a_worker_reads_this_processs_game_clock_when_no_offset_is_given(function):
    clock.travel_to(datetime.now(UTC) + timedelta(days=2))
    try:
        reply = function(1).invoke({}, "r")
    finally:
        clock.reset()
    worker_now = clock.parse_iso(reply["now"])
    assert timedelta(days=2) - timedelta(minutes=1) < worker_now - datetime.now(UTC) <= timedelta(days=2)


def test_a_handler_that_raises_fails_its_request_and_its_worker_takes_the_next(function):
    instance = function(1)
    first = instance.invoke({}, "r", timedelta(0))
    with pytest.raises(HandlerFailed, match="the handler failed"):
        instance.invoke({"fail": True}, "r", timedelta(0))
    assert instance.invoke({}, "r", timedelta(0))["pid"] == first["pid"]


def test_a_worker_that_dies_fails_its_request_and_the_next_gets_a_new_one(function):
    instance = function(1)
    first = instance.invoke({}, "r", timedelta(0))
    with pytest.raises(WorkerDied):
        instance.invoke({"exit": True}, "r", timedelta(0))
    assert instance.invoke({}, "r", timedelta(0))["pid"] != first["pid"]


def test_a_worker_is_forked_with_its_handler_already_imported(function):
    # Imported once by the fork server: neither by the worker at its first event (a fresh
    # interpreter's 1-2 s of CPU per worker) nor by this process (workers are no forks of it).
    replies = _at_once(function(2), [{"seconds": 1}, {"seconds": 0}])
    assert replies[0]["pid"] != replies[1]["pid"]
    assert replies[0]["imported_by"] == replies[1]["imported_by"]
    assert replies[0]["imported_by"] not in (replies[0]["pid"], replies[1]["pid"], os.getpid())


def test_preload_from_inside_the_fork_server_refuses_rather_than_start_another(function):
    # A handler module calling preload() at its import would start fork servers without end.
    reply = function(1).invoke({"preload": True}, "r", timedelta(0))
    assert "from inside the fork server" in reply["preload"]


def test_local_workers_must_be_a_whole_number_from_1(monkeypatch):
    monkeypatch.setenv("LOCAL_WORKERS", "3")
    assert workers_per_function() == 3
    for value in ("0", "-1", "two"):
        monkeypatch.setenv("LOCAL_WORKERS", value)
        with pytest.raises(ValueError, match="LOCAL_WORKERS"):
            workers_per_function()


def test_requests_waiting_for_a_worker_are_served_in_the_order_they_came(function):
    # One worker, held by a first event: the five sent meanwhile, one after another, wait; each is
    # served in its turn, and one that comes once the worker is free again waits behind them.
    instance = function(1)
    served: list[str] = []

    def call(name: str, seconds: float = 0) -> None:
        instance.invoke({"seconds": seconds}, name, timedelta(0))
        served.append(name)

    first = threading.Thread(target=call, args=("first", 1))
    first.start()
    while instance._started < 1 or instance._idle:  # the first holds the worker
        time.sleep(0.01)
    waiting = []
    for index in range(5):
        waiting.append(threading.Thread(target=call, args=(f"w{index}", 0.2)))
        waiting[-1].start()
        while len(instance._waiting) < index + 1:
            time.sleep(0.01)
    first.join()
    late = threading.Thread(target=call, args=("late",))
    late.start()
    for thread in [*waiting, late]:
        thread.join()
    assert served == ["first", "w0", "w1", "w2", "w3", "w4", "late"]


def test_close_fails_the_requests_still_waiting_for_a_worker(function):
    instance = function(1)
    failures: list[Exception] = []

    def call(seconds: float) -> None:
        try:
            instance.invoke({"seconds": seconds}, "r", timedelta(0))
        except HandlerFailed as error:
            failures.append(error)

    holder = threading.Thread(target=call, args=(1,))
    holder.start()
    while instance._started < 1 or instance._idle:
        time.sleep(0.01)
    waiter = threading.Thread(target=call, args=(0,))
    waiter.start()
    while not instance._waiting:
        time.sleep(0.01)
    instance.close(timeout=10)
    holder.join()
    waiter.join()
    assert [str(error) for error in failures] == ["the server is stopping"]


def test_a_request_waiting_when_the_worker_dies_is_served_by_a_new_one(function):
    instance = function(1)
    outcome: dict[str, object] = {}

    def hold() -> None:
        try:
            instance.invoke({"die_after": 1}, "r", timedelta(0))
        except WorkerDied as error:
            outcome["holder"] = error

    holder = threading.Thread(target=hold)
    holder.start()
    while instance._started < 1 or instance._idle:
        time.sleep(0.01)
    waiter = threading.Thread(target=lambda: outcome.update(waiter=instance.invoke({}, "w", timedelta(0))))
    waiter.start()
    while not instance._waiting:
        time.sleep(0.01)
    holder.join()
    waiter.join(timeout=60)
    assert isinstance(outcome["holder"], WorkerDied)
    assert outcome["waiter"]["request"] == "w"
    assert instance._started == 1
