"""One TLS context per container for every AWS client (DynamoDB, and Secrets Manager through
Powertools), with the CA bundle loaded into it once.

botocore gives each client's HTTP session its own `SSLContext`, and tells urllib3 the CA bundle's
path for every connection, so urllib3 loads the bundle (a few hundred certificates of PEM) into
the context again at each new HTTPS connection: tens of ms of CPU per connection, and a cold
container opens one per client, more at the rush when requests overlap. `share_one_context`
changes botocore's session so that every session uses the one context made here, the bundle
already in it, and gives urllib3 no path to load again. Verification is unchanged: the context
requires a certificate chained to that bundle, and urllib3 still matches the host name.
"""

import ssl
from functools import cache
from typing import Any

from botocore import httpsession


@cache
def container_context(ca_bundle: str) -> ssl.SSLContext:
    """The container's TLS context, trusting the certificates of CA_BUNDLE (loaded once)."""
    context: ssl.SSLContext = httpsession.create_urllib3_context()
    context.load_verify_locations(cafile=ca_bundle)
    return context


def _ssl_context(session: httpsession.URLLib3Session) -> ssl.SSLContext:
    verify = getattr(session, "_verify", True)
    if verify is False:
        plain: ssl.SSLContext = httpsession.create_urllib3_context()
        return plain
    return container_context(httpsession.get_cert_path(verify))


def _setup_ssl_cert(session: httpsession.URLLib3Session, conn: Any, url: str, verify: Any) -> None:
    _original_setup(session, conn, url, verify)
    if conn.ca_certs is not None and conn.ca_certs == httpsession.get_cert_path(verify):
        conn.ca_certs = None  # already in the context: urllib3 would load it again per connection


_original_setup = httpsession.URLLib3Session._setup_ssl_cert


def share_one_context() -> None:
    """From now on every botocore HTTP session of this process uses the container's context."""
    httpsession.URLLib3Session._get_ssl_context = _ssl_context
    httpsession.URLLib3Session._setup_ssl_cert = _setup_ssl_cert
