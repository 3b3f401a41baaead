"""The web page's security headers, defined once for both places that serve it: CloudFront's
response headers policy on a stage (infra/edge.py) and `make run` (local/server.py), so the
browser tests run the page under the policy a player's browser gets.

The page runs only its own scripts (no inline script or handler: tests/browser/test_web_files.py
scans web/ for them), talks to its own origin (and on a stage to Cognito), is never framed, and
sends no path to other sites. HSTS only where the page is served over HTTPS (a stage).
"""

from collections.abc import Sequence

# (directive, sources) in the order sent. A stage adds Cognito's origins to the two that need them.
CSP_DIRECTIVES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("default-src", ("'self'",)),
    # The page's module scripts (web/js: main.js, its imports and modulepreloads), nothing inline.
    ("script-src", ("'self'",)),
    # Inline style attributes are common in small clients and cannot run code.
    ("style-src", ("'self'", "'unsafe-inline'")),
    ("img-src", ("'self'", "data:")),
    ("connect-src", ("'self'",)),
    ("form-action", ("'self'",)),
    ("frame-ancestors", ("'none'",)),
    ("base-uri", ("'self'",)),
    ("object-src", ("'none'",)),
)
HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60
HSTS_INCLUDE_SUBDOMAINS = True
CONTENT_TYPE_OPTIONS = "nosniff"
FRAME_OPTIONS = "DENY"
REFERRER_POLICY = "strict-origin-when-cross-origin"


def content_security_policy(connect: Sequence[str] = (), form_action: Sequence[str] = ()) -> str:
    """The page's CSP, with CONNECT added to connect-src and FORM_ACTION to form-action."""
    extra = {"connect-src": tuple(connect), "form-action": tuple(form_action)}
    return "; ".join(" ".join([name, *sources, *extra.get(name, ())]) for name, sources in CSP_DIRECTIVES)


def security_headers(
    https: bool, connect: Sequence[str] = (), form_action: Sequence[str] = ()
) -> list[tuple[str, str]]:
    """The headers themselves, as `make run` sends them (CloudFront builds the same from the
    constants above)."""
    headers = [
        ("Content-Security-Policy", content_security_policy(connect, form_action)),
        ("X-Content-Type-Options", CONTENT_TYPE_OPTIONS),
        ("X-Frame-Options", FRAME_OPTIONS),
        ("Referrer-Policy", REFERRER_POLICY),
    ]
    if https:
        subdomains = "; includeSubDomains" if HSTS_INCLUDE_SUBDOMAINS else ""
        headers.append(("Strict-Transport-Security", f"max-age={HSTS_MAX_AGE_SECONDS}{subdomains}"))
    return headers
