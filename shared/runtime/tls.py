"""One TLS context per container for every AWS client (DynamoDB, and Secrets Manager through
Powertools), with the CA bundle loaded into it once.

botocore gives each client's HTTP session its own `SSLContext`, and tells urllib3 the CA bundle's
path for every connection, so urllib3 loads the bundle (a few hundred certificates of PEM) into
the context again at each new HTTPS connection: tens of ms of CPU per connection, and a cold
container opens one per client, more at the rush when requests overlap. `share_one_context`
changes botocore's session so that every session uses the one context made here, the bundle
already in it, and gives urllib3 no path to load again. Verification is unchanged: the context
requires a certificate chained to that bundle, and urllib3 still matches the host name.

The container's bundle is botocore's setting AWS_CA_BUNDLE where it is set (on AWS the stack sets
it to the asset's Amazon Trust Services roots: infra/build_asset.py), else botocore's own bundle.
It is also the bundle of the sessions botocore makes with the default `verify=True` (its
credential providers' metadata fetchers, made with every client, speak plain HTTP and never use
it): otherwise each cold start would load botocore's whole bundle as well, for nothing.
"""

import os
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


def trusted_bundle(verify: bool | str) -> str:
    """The CA bundle a session with VERIFY trusts: its own path, else the container's."""
    if isinstance(verify, str):
        return verify
    return os.environ.get("AWS_CA_BUNDLE") or str(httpsession.get_cert_path(True))


def _ssl_context(session: httpsession.URLLib3Session) -> ssl.SSLContext:
    verify = getattr(session, "_verify", True)
    if verify is False:
        plain: ssl.SSLContext = httpsession.create_urllib3_context()
        return plain
    return container_context(trusted_bundle(verify))


def _setup_ssl_cert(session: httpsession.URLLib3Session, conn: Any, url: str, verify: Any) -> None:
    _original_setup(session, conn, url, verify)
    if conn.ca_certs is not None and conn.ca_certs == httpsession.get_cert_path(verify):
        # the session's context holds trusted_bundle(verify): urllib3 would load this one into it
        # again at every connection (for verify=True, botocore's whole bundle on top of the roots)
        conn.ca_certs = None


_original_setup = httpsession.URLLib3Session._setup_ssl_cert


def share_one_context() -> None:
    """From now on every botocore HTTP session of this process uses the container's context."""
    httpsession.URLLib3Session._get_ssl_context = _ssl_context
    httpsession.URLLib3Session._setup_ssl_cert = _setup_ssl_cert
