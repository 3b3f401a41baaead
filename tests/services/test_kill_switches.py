"""Kill switches (shared/runtime/flags.py): a feature turned off answers 503 `feature_disabled`
before any routing, everything else plays on, and a switch that cannot be read counts as on."""

import functools
import json

import pytest

from local.events import http_event
from shared.http.gateway import Refused, checked_event
from shared.http.routes import ROUTES
from shared.runtime import flags
from tests.conftest import player_claims


@pytest.fixture(autouse=True)
def fresh_flags(monkeypatch):
    for name in (*flags.APPCONFIG, flags.LOCAL_FILE):
        monkeypatch.delenv(name, raising=False)
    flags.forget()
    yield
    flags.forget()


def _off(monkeypatch, tmp_path, *switches):
    path = tmp_path / "flags.json"
    path.write_text(json.dumps({s: {"default": False} for s in switches}))
    monkeypatch.setenv(flags.LOCAL_FILE, str(path))
    return path


def _refusal(method, path, body=None):
    event = http_event(method, path, body=body, claims=player_claims("ann"))
    try:
        checked_event(event)
    except Refused as refused:
        return refused.reply["statusCode"], json.loads(refused.reply["body"])["error"]["code"]
    return None


def test_a_switched_off_feature_answers_503_feature_disabled(monkeypatch, tmp_path):
    _off(monkeypatch, tmp_path, "leagues")
    assert _refusal("POST", "/leagues", {"name": "Friends"}) == (503, "feature_disabled")
    assert _refusal("GET", "/me/leagues") == (503, "feature_disabled")
    assert _refusal("GET", "/daily") is None
    assert _refusal("POST", "/challenges", {}) is None


def test_past_dailies_switch_off_only_the_dated_routes(monkeypatch, tmp_path):
    _off(monkeypatch, tmp_path, "past_dailies")
    assert _refusal("GET", "/daily/2026-01-02") == (503, "feature_disabled")
    assert _refusal("POST", "/guest/daily/2026-01-02/runs") == (503, "feature_disabled")
    assert _refusal("GET", "/leaderboard/daily/2026-01-02") == (503, "feature_disabled")
    assert _refusal("GET", "/daily") is None and _refusal("POST", "/guest/daily/runs") is None


def test_a_local_edit_applies_at_once(monkeypatch, tmp_path):
    path = _off(monkeypatch, tmp_path, "challenges")
    assert _refusal("GET", "/me/challenges") == (503, "feature_disabled")
    path.write_text(json.dumps({"challenges": {"default": True}}))
    assert _refusal("GET", "/me/challenges") is None


def test_without_flags_everything_is_on():
    assert all(flags.enabled(switch) for switch in flags.SWITCHES)


def test_unreadable_flags_count_as_on(monkeypatch, tmp_path):
    path = tmp_path / "flags.json"
    path.write_text("{not json")
    monkeypatch.setenv(flags.LOCAL_FILE, str(path))
    assert flags.enabled("leagues")
    path.unlink()
    assert flags.enabled("leagues")


def test_appconfig_out_of_reach_counts_as_on_but_new_reports_as_off(monkeypatch):
    for name, value in zip(flags.APPCONFIG, ("wordsqd-dev", "dev", "switches"), strict=True):
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("AWS_ENDPOINT_URL_APPCONFIGDATA", "http://127.0.0.1:9")  # nothing listens
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")
    assert flags.enabled("leagues") and _refusal("POST", "/leagues", {"name": "Friends"}) is None
    assert not flags.enabled("new_reports")
    config = flags._flags().store._conf_store.client.meta.config  # type: ignore[union-attr]
    assert (config.connect_timeout, config.read_timeout) == (1, 1)
    assert config.retries["total_max_attempts"] == 1


class CountingStore:
    """A store whose reads are counted, answering SWITCHES or failing."""

    def __init__(self):
        self.reads = 0
        self.answer = None

    def get_configuration(self):
        self.reads += 1
        if self.answer is None:
            raise TimeoutError("AppConfig did not answer")
        return self.answer

    get_raw_configuration = property(get_configuration)


def test_a_failed_read_keeps_the_last_good_value_and_is_not_retried_for_a_while(monkeypatch):
    from aws_lambda_powertools.utilities.feature_flags import FeatureFlags

    store = CountingStore()
    now = [1000.0]
    monkeypatch.setattr(flags, "clock", lambda: now[0])
    monkeypatch.setattr(flags, "_flags", functools.cache(lambda: FeatureFlags(store=store)))
    assert flags.enabled("leagues") and not flags.enabled("new_reports")  # never read: each one's side
    assert store.reads == 1  # the failure is remembered: the second switch did not wait again
    now[0] += flags.FAILURE_SECONDS
    store.answer = {"leagues": {"default": False}, "new_reports": {"default": True}}
    assert not flags.enabled("leagues") and flags.enabled("new_reports")
    store.answer = None
    now[0] += 1
    assert not flags.enabled("leagues") and flags.enabled("new_reports")  # the last good values
    reads = store.reads
    now[0] += flags.FAILURE_SECONDS - 1
    assert not flags.enabled("leagues") and store.reads == reads
    now[0] += 1
    flags.enabled("leagues")
    assert store.reads == reads + 1  # tried again once FAILURE_SECONDS have passed


def test_every_switch_has_its_unreadable_side():
    assert set(flags.UNREADABLE) == set(flags.SWITCHES)
    assert [s for s, on in flags.UNREADABLE.items() if not on] == ["new_reports"]


@pytest.mark.parametrize("switch", ["challenges", "leagues", "past_dailies"])
def test_each_switch_turns_off_real_routes_and_no_run_of_the_daily(switch):
    switched = [r for r in ROUTES if flags.switch_for(r.path) == switch]
    assert switched
    assert not any(r.path in ("/daily", "/guest/daily/runs", "/daily/runs") for r in switched)


def test_new_reports_switch_covers_every_reports_route():
    from shared.http.routes import ROUTES

    reports = {r.path for r in ROUTES if r.path.endswith("/reports")}
    assert reports == {"/reports", "/guest/reports", "/me/reports"}
    assert {flags.switch_for(path) for path in reports} == {"new_reports"}
    assert flags.switch_for("/validate") is None
