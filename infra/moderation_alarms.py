"""The review queue's alarms (SPEC §3e; docs/moderation.md, "The queue"): a case left open too long,
and cases opening faster than moderators and honest reporters would open them (a flood of reports:
a script, or a bad day). The figures are the expiry job's (functions/daily/expire.py publishes the
queue every minute) and the `CasesOpened` count each opening adds (functions/moderation/routes.py).
"""

from collections.abc import Callable

from aws_cdk import Duration
from aws_cdk import aws_cloudwatch as cw

from infra.alarm_parts import game_metric

# The oldest open case's age that pages: a case that waits two days holds its player's row
# `pending` and its reporters unanswered (boards are final 7 days after close whatever happens).
OLDEST_CASE_HOURS = 48
# New cases in an hour that page. Reports are bounded at 20 a day per player and per guest client
# (shared/game/moderation.py REPORTS_PER_DAY), so a flood comes from many accounts or addresses.
CASES_OPENED_PER_HOUR = 200


def queue_alarms(alarm: Callable[..., cw.Alarm]) -> list[cw.Alarm]:
    """The two alarms, made with ALARM (infra/operations.py `Operations.alarm`)."""
    oldest = game_metric("OldestOpenCaseHours").with_(statistic=cw.Stats.MAXIMUM, period=Duration.minutes(15))
    opened = game_metric("CasesOpened").with_(statistic=cw.Stats.SUM, period=Duration.hours(1))
    return [
        alarm(
            "ModerationQueueOldest",
            oldest,
            OLDEST_CASE_HOURS,
            f"A review case has been open {OLDEST_CASE_HOURS} h or more: the queue is not draining "
            "(docs/moderation.md, runbook).",
        ),
        alarm(
            "ModerationCasesOpened",
            opened,
            CASES_OPENED_PER_HOUR,
            f"{CASES_OPENED_PER_HOUR}+ review cases opened in an hour: a flood of reports "
            "(docs/moderation.md, runbook: the `new_reports` kill switch).",
        ),
    ]
