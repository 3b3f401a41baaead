"""What the stage costs, watched: a monthly AWS Budget for the account (actual and forecast
spend) and a Cost Anomaly Detection monitor on the stack's `app` tag, both notifying the alarm
topic, whose policy lets Budgets and Cost Anomaly Detection publish for this account only.

The budget covers the whole account (keep stages in separate accounts, docs/operations.md); the
anomaly monitor sees the resources tagged `app=wordsqd` once that tag is activated as a cost
allocation tag (Billing > Cost allocation tags), a step of the runbook's first deploy."""

import json

from aws_cdk import aws_budgets as budgets
from aws_cdk import aws_ce as ce
from aws_cdk import aws_sns as sns
from constructs import Construct

from infra.alarm_parts import allow_publishers

# (kind, percent of the budget): spent already, and forecast by the month's end.
BUDGET_ALERTS = (("ACTUAL", 80.0), ("ACTUAL", 100.0), ("FORECASTED", 100.0))
ANOMALY_DOLLARS = 50  # an anomaly's total impact that is worth a message
COST_PUBLISHERS = ("budgets.amazonaws.com", "costalerts.amazonaws.com")
COST_TAG = ("app", "wordsqd")  # infra/stack.py tags every resource so


class Money(Construct):
    def __init__(
        self, scope: Construct, id: str, *, stage: str, monthly_budget: float, topic: sns.Topic
    ) -> None:
        super().__init__(scope, id)
        allow_publishers(topic, "CostPublishers", COST_PUBLISHERS)
        self.budget = budgets.CfnBudget(
            self,
            "Budget",
            budget=budgets.CfnBudget.BudgetDataProperty(
                budget_name=f"WordSQD-{stage}-monthly",
                budget_type="COST",
                time_unit="MONTHLY",
                budget_limit=budgets.CfnBudget.SpendProperty(amount=monthly_budget, unit="USD"),
            ),
            notifications_with_subscribers=[
                budgets.CfnBudget.NotificationWithSubscribersProperty(
                    notification=budgets.CfnBudget.NotificationProperty(
                        notification_type=kind,
                        comparison_operator="GREATER_THAN",
                        threshold=percent,
                        threshold_type="PERCENTAGE",
                    ),
                    subscribers=[
                        budgets.CfnBudget.SubscriberProperty(subscription_type="SNS", address=topic.topic_arn)
                    ],
                )
                for kind, percent in BUDGET_ALERTS
            ],
        )
        key, value = COST_TAG
        self.monitor = ce.CfnAnomalyMonitor(
            self,
            "AnomalyMonitor",
            monitor_name=f"WordSQD-{stage}",
            monitor_type="CUSTOM",
            monitor_specification=json.dumps(
                {"Tags": {"Key": key, "Values": [value], "MatchOptions": ["EQUALS"]}}
            ),
        )
        self.subscription = ce.CfnAnomalySubscription(
            self,
            "AnomalySubscription",
            subscription_name=f"WordSQD-{stage}-anomalies",
            frequency="IMMEDIATE",  # the only frequency SNS subscribers take
            monitor_arn_list=[self.monitor.attr_monitor_arn],
            subscribers=[ce.CfnAnomalySubscription.SubscriberProperty(type="SNS", address=topic.topic_arn)],
            threshold_expression=json.dumps(
                {
                    "Dimensions": {
                        "Key": "ANOMALY_TOTAL_IMPACT_ABSOLUTE",
                        "Values": [str(ANOMALY_DOLLARS)],
                        "MatchOptions": ["GREATER_THAN_OR_EQUAL"],
                    }
                }
            ),
        )
