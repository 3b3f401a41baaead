"""Moderation (SPEC §3e): reports, the cases they merge into, moderators' decisions, the sanctions
they leave on a player, and the audit log's entries. Plain values and rules; storing them is the
adapters' business (shared/dynamo/moderation.py), deciding them the service's
(shared/services/moderation.py). docs/moderation.md describes the whole.
"""

import hashlib
from datetime import datetime, timedelta
from typing import Literal

from pydantic import BaseModel

from shared.game.boards import SETTLE_SECONDS
from shared.game.clock import parse_iso
from shared.game.names import name_skeleton
from shared.game.rules import ascii_lower
from shared.game.scope import Scope

ReportKind = Literal["name", "run", "word"]
REPORT_KINDS: tuple[ReportKind, ...] = ("name", "run", "word")
# What the queue holds: reports' cases, and players' appeals of a sanction (shared/game/cases.py).
CaseKind = Literal["name", "run", "word", "appeal"]
CASE_KINDS: tuple[CaseKind, ...] = ("name", "run", "word", "appeal")
Action = Literal["dismiss", "hide_name", "void_result", "rank_ban", "ban", "accept_word", "uphold", "lift"]
# Which decisions fit which kind of case: a name is hidden, a run voided (or its player kept off
# the boards or banned), a word accepted; any case may be dismissed.
ACTIONS_FOR: dict[CaseKind, tuple[Action, ...]] = {
    "name": ("dismiss", "hide_name", "rank_ban", "ban"),
    "run": ("dismiss", "void_result", "rank_ban", "ban"),
    "word": ("dismiss", "accept_word"),
    "appeal": ("uphold", "lift"),
}
SanctionKind = Literal["hide_name", "void_result", "rank_ban", "ban"]
CaseSource = Literal["report", "find_time", "appeal"]
CaseStatus = Literal["open", "decided"]

# A closed board's review window: it becomes final this long after it closed (SPEC §4).
REVIEW_WINDOW = timedelta(hours=24)
FINAL_AT_LATEST = timedelta(days=7)  # every board is final this long after it closed (SPEC §4)
BoardStatus = Literal["live", "closed", "final"]

# At most this many reports per reporter per Daily date (the 21st is 429 `too_many_reports`).
REPORTS_PER_DAY = 20
REASON_MAX = 200  # characters of a report's or a decision's reason
# The players whose `cognito:groups` claim names this group are moderators (SPEC §3e).
MODERATORS_GROUP = "moderators"


class Report(BaseModel):
    """One reporter's report, as they see it in `GET /me/reports`."""

    reporter: str  # a player id, or `guest:<run id>` for a guest's word report
    kind: ReportKind
    target: str  # as the reporter gave it
    reason: str
    case_id: str
    reported_at: str


class Decision(BaseModel):
    """A moderator's decision on a case."""

    action: Action
    reason: str
    until: str | None = None  # a rank ban's end (ISO 8601 UTC); None for every other action
    moderator: str
    decided_at: str
    note: str | None = None  # what the decision could not do (a name its player no longer holds)


class Case(BaseModel):
    """What reports about one target (and the find-time pass, about one run) merge into. `subject`
    is the player the case is about (None for a word), `run_id` and `scope_id` the run and its
    board's scope (a Daily date or a challenge id) for a run's case."""

    case_id: str
    kind: CaseKind
    target: str  # canonical: the run id, the name's skeleton, the lowercased word, or a sanction
    shown: str  # what reporters saw: the name as shown, the word, the row
    subject: str | None = None
    run_id: str | None = None
    scope_id: str | None = None
    source: CaseSource = "report"
    # The find-time pass's figures for a suspect run: its scope's hard rounds' quantiles (ms).
    quantiles: dict[int, int] | None = None
    opened_at: str
    count: int = 0
    status: CaseStatus = "open"
    decision: Decision | None = None
    # The evidence as it stood at the opening (shared/game/cases.py): kept with the case, so an
    # erasure of its player leaves it until the case is decided plus EVIDENCE_RETENTION.
    snapshot: dict[str, object] | None = None
    generation: int = 0  # 1 + the decided cases on the same target before it (a target reported again)


class Sanction(BaseModel):
    """A sanction a decision left on a player, as `GET /me` shows it (`until`: None, for good)."""

    action: SanctionKind
    reason: str
    until: str | None
    case_id: str
    decided_at: str
    lifted_at: str | None = None  # an appeal lifted it (its effects undone)


class LogEntry(BaseModel):
    """One line of the append-only audit log."""

    case_id: str
    moderator: str
    kind: CaseKind
    target: str
    action: Action
    reason: str
    until: str | None
    decided_at: str
    subject: str | None = None  # the player the case is about
    note: str | None = None


class Correction(BaseModel):
    """A decision about a final board, which changes none of its rows: listed publicly instead."""

    rank: int | None  # the row's rank on the final board (None: the result was never on it)
    display_name: str
    action: Action
    reason_code: CaseSource  # what opened the case: reports, or the find-time pass
    decided_at: str
    case_id: str


def board_final(now: datetime, closes_at: datetime, pending: bool) -> bool:
    """A closed board becomes final when its review window has ended (REVIEW_WINDOW after it
    could first be called closed) and no case on it is pending, and FINAL_AT_LATEST after it closed
    whatever is pending (a case still open then is decided as a correction); it then never
    changes again."""
    closed = closes_at + timedelta(seconds=SETTLE_SECONDS)
    return now >= closed + FINAL_AT_LATEST or (not pending and now >= closed + REVIEW_WINDOW)


def case_id_for(kind: CaseKind, target: str) -> str:
    """One case per target: the same canonical target always names the same case."""
    return hashlib.sha256(f"{kind}\n{target}".encode()).hexdigest()[:24]


def scope_of_case(scope_id: str) -> "Scope":
    """A run case's scope: a Daily date, or a challenge id."""
    is_date = len(scope_id) == 10 and scope_id[4] == "-" and scope_id[7] == "-"
    return (
        Scope.daily(scope_id)
        if is_date and scope_id.replace("-", "").isdigit()
        else Scope.challenge(scope_id)
    )


def canonical_name(name: str) -> str:
    """Reports about look-alike names are about one name: its skeleton (shared/game/names.py)."""
    return name_skeleton(name)


def canonical_word(word: str) -> str:
    return ascii_lower(word)


# A ban for good ends at the end of time: the profile's `banned_until` compares as a timestamp.
BANNED_FOREVER = "9999-12-31T23:59:59.999Z"


def ban_end(sanction: Sanction) -> str | None:
    """When SANCTION, if a ban, ends (BANNED_FOREVER for good); None for any other sanction."""
    if sanction.action != "ban" or sanction.lifted_at is not None:
        return None
    return sanction.until or BANNED_FOREVER


def banned_at(banned_until: str | None, now: datetime) -> bool:
    """Whether a ban that ends at BANNED_UNTIL (None: no ban) still holds at NOW."""
    return banned_until is not None and now < parse_iso(banned_until)


def sanction_active(sanction: Sanction | None, now: datetime, *kinds: SanctionKind) -> bool:
    """Whether SANCTION is one of KINDS and has not ended at NOW."""
    if sanction is None or sanction.action not in kinds or sanction.lifted_at is not None:
        return False
    return sanction.until is None or now < parse_iso(sanction.until)


def is_moderator(groups_claim: object) -> bool:
    """Whether a verified `cognito:groups` claim names the moderators' group. API Gateway's HTTP
    API hands a list claim over as one string, `[a b]`; a test may hand a list."""
    if isinstance(groups_claim, list):
        return MODERATORS_GROUP in groups_claim
    if not isinstance(groups_claim, str):
        return False
    return MODERATORS_GROUP in groups_claim.strip("[]").replace(",", " ").split()
