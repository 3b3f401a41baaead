"""The DynamoDB adapter: the one table's shape, its key formats and items, and the store that
implements the services' ports on it.
"""
