"""WordSQD's CDK app: one stack per stage, built from one construct per concern.

- `config`: the stage settings read from CDK context (stage, allowed origins, throttling);
- `data`: the DynamoDB table and the secret puzzle seed;
- `functions`: the four Lambda functions on the one Docker-free asset (`build_asset`);
- `api`: the HTTP API, its routes (from `shared.routes`), Cognito and the JWT authorizer;
- `schedule`: the Central-midnight reset schedule and its dead-letter queue;
- `operations`: alarms and the dashboard;
- `stack`: ties them together; `app`: the entry point (`python -m infra.app`).
"""
