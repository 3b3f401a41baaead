"""The runtime: a container's settings and secrets, logging and metrics, the shared TLS context,
the Cognito accounts, and the wiring that builds the services on the adapters once per container.
"""
