"""Moderation on DynamoDB (the ports of shared/services/moderation_store.py): here reports, cases,
the queue and decisions (`CaseStore`); the audit log, sanctions and a decision's effects, accepted
words, each board's review and final boards each in a module of their own. Keys in
shared/dynamo/moderation_keys.py; docs/data-model.md, "Moderation", has the items and their write
rates.
"""

import json

from shared.dynamo import keys
from shared.dynamo import moderation_keys as mod_keys
from shared.dynamo.client import Client, Item
from shared.dynamo.reports import case_reasons, client_quota, queue_figures, quota_item
from shared.game.cases import retained_until
from shared.game.clock import parse_iso
from shared.game.errors import Throttled
from shared.game.moderation import (
    CASE_KINDS,
    Case,
    CaseKind,
    Decision,
    LogEntry,
    Report,
    canonical_name,
    scope_of_case,
)
from shared.services.moderation_store import AlreadyReported, CaseDecided, CasePosition, ReportQuotaExceeded

_ATTEMPTS = 5
_BUSY = "The game is busy; try again shortly"
GUEST_REPORTS_DAYS = 2  # a guest's report items go with their runs (SPEC §3: guests' runs, 2 days)


class DynamoCases:
    """Reports, cases, the queue and decisions (the CaseStore)."""

    def __init__(self, db: Client):
        self.db = db

    # Reports and cases -------------------------------------------------------------------------

    def file_report(
        self, report: Report, case: Case, day: str, quota: int, client: str | None = None
    ) -> Case:
        """One transaction: the reporter's quota for DAY (1), their mark on the case with their
        reason (2), the case (3: created on condition it is new, else counted on condition it
        exists), the reporter's own report (4), a guest client's quota (5, shared/dynamo/reports.py),
        and for a new case its queue item. A case created between the read and the write fails
        (3): read again."""
        reporter = report.reporter
        for _ in range(_ATTEMPTS):
            stored = self.get_case(case.case_id)
            quota_update = quota_item(mod_keys.report_quota_key(reporter, day), quota)
            own: Item = {
                **mod_keys.report_key(reporter, report.reported_at, case.case_id),
                "data": {"S": report.model_dump_json()},
            }
            mark: Item = {
                **mod_keys.case_reporter_key(case.case_id, reporter),
                "reason": {"S": report.reason},
            }
            if reporter.startswith("guest:"):
                expires = _epoch(report.reported_at) + GUEST_REPORTS_DAYS * 86400
                own["expires_at"] = {"N": str(expires)}
                quota_update["UpdateExpression"] += " SET expires_at = :expires"
                quota_update["ExpressionAttributeValues"][":expires"] = {"N": str(expires)}
            items: list[Item] = [
                {"Update": quota_update},
                {"Put": {"Item": mark, "ConditionExpression": "attribute_not_exists(pk)"}},
                {"Update": _count_case(case, new=stored is None)},
                {"Put": {"Item": own}},
            ]
            if client is not None:
                items.append({"Update": client_quota(client, day, quota, _epoch(report.reported_at))})
            if stored is None:
                items += _queue(case)
            codes = self.db.transact(items)
            if not codes:
                base = stored or case
                return base.model_copy(update={"count": base.count + 1})
            if codes[0] == "ConditionalCheckFailed" or (client and codes[4:5] == ["ConditionalCheckFailed"]):
                raise ReportQuotaExceeded(reporter)
            if codes[1] == "ConditionalCheckFailed":
                raise AlreadyReported(case.case_id)
        raise Throttled(_BUSY)

    def open_case(self, case: Case) -> bool:
        return not self.db.transact([{"Update": _count_case(case, new=True, count=0)}, *_queue(case)])

    def get_case(self, case_id: str) -> Case | None:
        item = self.db.get(mod_keys.case_key(case_id), consistent=True)
        return _case_of(item) if item else None

    def cases(self, case_ids: list[str]) -> dict[str, Case]:
        found = self.db.batch_get([mod_keys.case_key(i) for i in dict.fromkeys(case_ids)])
        return {case.case_id: case for case in map(_case_of, found)}

    def case_reporters(self, case_id: str, limit: int) -> list[str]:
        items, _ = self.db.query_page(
            KeyConditionExpression="pk = :p AND begins_with(sk, :by)",
            ExpressionAttributeValues={":p": mod_keys.case_key(case_id)["pk"], ":by": {"S": mod_keys.BY}},
            Limit=limit,
        )
        return [item["sk"]["S"].removeprefix(mod_keys.BY) for item in items]

    def case_reasons(self, case_id: str, limit: int) -> list[tuple[str, str]]:
        return case_reasons(self.db, case_id, limit)

    def has_reported(self, case_id: str, reporter: str) -> bool:
        return self.db.get(mod_keys.case_reporter_key(case_id, reporter), consistent=True) is not None

    def reports_of(self, reporter: str, limit: int) -> list[Report]:
        items = self.db.newest(mod_keys.reporter_partition(reporter), mod_keys.REPORT, limit)
        return [Report.model_validate_json(item["data"]["S"]) for item in items]

    def open_cases(self, kind: CaseKind | None, after: CasePosition | None, limit: int) -> list[Case]:
        """Each queue partition of the kinds asked read from AFTER on (LIMIT items each), merged
        oldest first; then the cases themselves in one BatchGetItem."""
        kinds = [kind] if kind else list(CASE_KINDS)
        queued: list[tuple[str, str]] = []
        for each in kinds:
            for number in range(mod_keys.CASE_QUEUE_SHARDS):
                values: Item = {":p": {"S": mod_keys.case_queue_partition(each, number)}}
                condition = "pk = :p"
                if after is not None:
                    condition += " AND sk > :after"
                    values[":after"] = {"S": f"{after.opened_at}#{after.case_id}"}
                items, _ = self.db.query_page(
                    KeyConditionExpression=condition, ExpressionAttributeValues=values, Limit=limit
                )
                for item in items:
                    opened_at, _, case_id = item["sk"]["S"].rpartition("#")
                    queued.append((opened_at, case_id))
        wanted = [case_id for _, case_id in sorted(queued)[:limit]]
        found = self.cases(wanted)
        return [found[i] for i in wanted if i in found and found[i].status == "open"]

    def queue_figures(self) -> dict[CaseKind, tuple[int, str | None]]:
        return queue_figures(self.db)

    # Decisions ---------------------------------------------------------------

    def decide(self, case: Case, decision: Decision, entry: LogEntry) -> None:
        codes = self.db.transact(
            [
                {
                    "Update": {
                        "Key": mod_keys.case_key(case.case_id),
                        "UpdateExpression": "SET #status = :decided, decision = :decision, "
                        "expires_at = :gone",
                        "ConditionExpression": "#status = :open",
                        "ExpressionAttributeNames": {"#status": "status"},
                        "ExpressionAttributeValues": {
                            ":decided": {"S": "decided"},
                            ":open": {"S": "open"},
                            ":decision": {"S": decision.model_dump_json()},
                            ":gone": {"N": str(int(retained_until(decision.decided_at).timestamp()))},
                        },
                    }
                },
                {"Delete": {"Key": mod_keys.case_queue_key(case.kind, case.opened_at, case.case_id)}},
                {
                    "Put": {
                        "Item": {
                            **mod_keys.log_key(entry.decided_at, entry.case_id),
                            "data": {"S": entry.model_dump_json()},
                        },
                        "ConditionExpression": "attribute_not_exists(pk)",
                    }
                },
                {
                    "Put": {
                        "Item": {
                            **mod_keys.moderator_log_key(entry.moderator, entry.decided_at, entry.case_id),
                            "data": {"S": entry.model_dump_json()},
                        }
                    }
                },
            ]
        )
        if codes:
            raise CaseDecided(case.case_id)
        if case.run_id and case.scope_id:  # its row no longer shows `review: pending`
            self.db.call("update_item", **_pending(case, "DELETE"))

    def name_holder(self, name: str) -> str | None:
        item = self.db.get(keys.name_key(canonical_name(name)), consistent=True) or {}
        holder = item.get("player", {}).get("S")
        return str(holder) if holder else None


def _queue(case: Case) -> list[Item]:
    """A new case's queue item, and for a run's case its place in its board's pending runs."""
    items: list[Item] = [{"Put": {"Item": mod_keys.case_queue_key(case.kind, case.opened_at, case.case_id)}}]
    if case.run_id and case.scope_id:
        items.append({"Update": _pending(case, "ADD")})
    return items


def _pending(case: Case, verb: str) -> Item:
    return {
        "Key": mod_keys.pending_runs_key(scope_of_case(case.scope_id or "")),
        "UpdateExpression": f"{verb} runs :run",
        "ExpressionAttributeValues": {":run": {"SS": [case.run_id or ""]}},
    }


def _count_case(case: Case, new: bool, count: int = 1) -> Item:
    """The case item's update: created with its data when NEW (on condition it is), else counted
    (on condition it exists)."""
    update: Item = {
        "Key": mod_keys.case_key(case.case_id),
        "UpdateExpression": "SET #data = if_not_exists(#data, :data), "
        "#status = if_not_exists(#status, :open) ADD #count :n",
        "ConditionExpression": "attribute_not_exists(pk)" if new else "attribute_exists(pk)",
        "ExpressionAttributeNames": {"#data": "data", "#status": "status", "#count": "count"},
        "ExpressionAttributeValues": {
            ":data": {"S": case.model_dump_json(include=_CASE_DATA)},
            ":open": {"S": "open"},
            ":n": {"N": str(count)},
        },
    }
    return update


_CASE_DATA = {
    "case_id", "kind", "target", "shown", "subject", "run_id", "scope_id", "source", "quantiles", "opened_at",
    "snapshot", "generation",
}  # fmt: skip


def _case_of(item: Item) -> Case:
    data = json.loads(item["data"]["S"])
    decision = item.get("decision", {}).get("S")
    return Case(
        **data,
        count=int(item.get("count", {}).get("N", "0")),
        status=item["status"]["S"],
        decision=Decision.model_validate_json(decision) if decision else None,
    )


def _epoch(instant: str) -> int:
    return int(parse_iso(instant).timestamp())
