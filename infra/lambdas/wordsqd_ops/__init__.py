"""The stack's own operations functions (stdlib and boto3 only, no game code): the midnight
guard every stack update runs first, and the scheduled checks of deploys, capacity and storage."""
