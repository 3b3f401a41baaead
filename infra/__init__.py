"""WordSQD's CDK app: one stack per stage, built from one construct per concern.

- `config`: the stage settings, one entry of `stages.json` checked with pydantic;
- `data`: the DynamoDB table and its stream, the puzzle seed and the cursor key;
- `functions`: the ten Lambda functions on the one Docker-free asset (`build_asset`), behind aliases;
- `permissions`: what each function may do to the table and which secrets it reads;
- `api`: the HTTP API, its routes (from `shared.http.routes`), Cognito and the JWT authorizer;
- `schedule`: the reset and expiry schedules, the counters stream source, their dead-letter queues;
- `operations`: alarms, their topic and the dashboard;
- `deploys`: CodeDeploy canaries on the aliases; `capacity`: provisioned concurrency at midnight;
- `stack`: ties them together; `app`: the entry point (`python -m infra.app`).
"""
