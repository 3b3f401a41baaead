"""shared/runtime/tls.py: every AWS client of a container shares one TLS context with the CA bundle loaded
once, and still verifies servers against that bundle."""

import ssl
from types import SimpleNamespace

from botocore import httpsession

from shared.runtime import tls


def test_every_client_session_shares_one_context_that_trusts_the_ca_bundle_and_requires_certificates():
    tls.share_one_context()
    first, second = httpsession.URLLib3Session(), httpsession.URLLib3Session()

    context = first._get_ssl_context()
    assert context is second._get_ssl_context()
    assert context.verify_mode == ssl.CERT_REQUIRED
    assert context.cert_store_stats()["x509_ca"] > 100  # the bundle's certificates are in it


def test_a_new_connection_is_given_no_bundle_to_load_again_but_still_requires_a_certificate():
    tls.share_one_context()
    session = httpsession.URLLib3Session()
    conn = SimpleNamespace(cert_reqs=None, ca_certs=None)

    session._setup_ssl_cert(conn, "https://dynamodb.us-east-1.amazonaws.com/", True)

    assert (conn.cert_reqs, conn.ca_certs) == ("CERT_REQUIRED", None)


def test_a_custom_bundle_gets_a_context_of_its_own_trusting_only_it(tmp_path):
    tls.share_one_context()
    default = httpsession.URLLib3Session()._get_ssl_context()
    bundle = tmp_path / "one.pem"
    with open(httpsession.get_cert_path(True)) as whole:
        certificates = whole.read().split("-----END CERTIFICATE-----")
    bundle.write_text(certificates[0] + "-----END CERTIFICATE-----\n")

    custom = httpsession.URLLib3Session(verify=str(bundle))._get_ssl_context()

    assert custom is not default and custom.cert_store_stats()["x509_ca"] == 1


def test_with_aws_ca_bundle_set_every_session_shares_that_bundle_s_context_alone(tmp_path, monkeypatch):
    """On AWS the stack sets AWS_CA_BUNDLE (the asset's five roots): the sessions botocore makes
    with the default verify=True (its credential providers') get that context too, so a cold start
    never loads botocore's whole bundle beside it, and no connection loads it into the context."""
    tls.share_one_context()
    bundle = tmp_path / "roots.pem"
    with open(httpsession.get_cert_path(True)) as whole:
        bundle.write_text(whole.read().split("-----END CERTIFICATE-----")[0] + "-----END CERTIFICATE-----\n")
    monkeypatch.setenv("AWS_CA_BUNDLE", str(bundle))

    client_session = httpsession.URLLib3Session(verify=str(bundle))  # what a client is given
    fetcher_session = httpsession.URLLib3Session()  # verify=True
    conn = SimpleNamespace(cert_reqs=None, ca_certs=None)
    fetcher_session._setup_ssl_cert(conn, "https://example.amazonaws.com/", True)

    context = client_session._get_ssl_context()
    assert fetcher_session._get_ssl_context() is context
    assert context.cert_store_stats()["x509_ca"] == 1
    assert (conn.cert_reqs, conn.ca_certs) == ("CERT_REQUIRED", None)
