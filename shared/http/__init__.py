"""The HTTP edge: the route table, API Gateway's event and the checks before routing, the
resolver and its error envelope, the reply models of SPEC §5 and the board cursors. Handlers
(functions/) build replies here from the values the services return.
"""
