"""Domain errors, each with a stable `code` for clients; shared/http/api.py maps each class to a status."""


class GameError(Exception):
    """Base class: a request the game refuses, with a machine-readable code."""

    code = "bad_request"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code


class BadRequest(GameError):
    """The request is malformed or names something impossible (400)."""


class Unauthorized(GameError):
    """No verified caller on a player route (401)."""

    code = "unauthorized"


class AccountErased(Unauthorized):
    """The caller's account was erased (`DELETE /me` began): every player route refuses it (401),
    whatever token it holds."""

    code = "account_erased"

    def __init__(self, message: str = "This account has been deleted", code: str | None = None):
        super().__init__(message, code)


class NotFound(GameError):
    """Unknown resource, or one that is not the caller's (404): the two are indistinguishable on purpose."""

    code = "not_found"


class Forbidden(GameError):
    """The caller may see the thing but not do this to it (403): a league member who is not its creator."""

    code = "forbidden"


class AccountBanned(Forbidden):
    """The caller is under a ban (SPEC §3e): the player routes a ban closes refuse it (403)."""

    code = "banned"

    def __init__(self, message: str = "This account is banned", code: str | None = None):
        super().__init__(message, code)


class Conflict(GameError):
    """The request does not fit the current state (409)."""

    code = "conflict"


class Throttled(GameError):
    """The data store is shedding load (429); the client may retry."""

    code = "throttled"


class StoreUnavailable(GameError):
    """The data store cannot be reached or refused to serve (503); the client may retry."""

    code = "store_unavailable"


class KeyReused(GameError):
    """An idempotency key sent again with another request (422): a key names one request."""

    code = "idempotency_key_reused"
