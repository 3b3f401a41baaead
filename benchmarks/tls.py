"""What a new HTTPS connection of an AWS client costs in TLS set-up CPU before the handshake, with
botocore's own sessions and with the container's one context (shared/runtime/tls.py). Figures, no
assertions: `python benchmarks/tls.py`.

botocore's session hands urllib3 the CA bundle's path for each connection, and urllib3 loads it
into the session's context again each time; with shared/runtime/tls.py the bundle is loaded once per
container and a connection loads nothing. Measured here: the CPU of what urllib3 does per
connection before the handshake (`load_verify_locations` of the bundle, when given a path), and
of making a session's context, each the median of 15.
"""

import statistics
import time
from types import SimpleNamespace

from offline import use_offline_env

use_offline_env()

from botocore import httpsession  # noqa: E402

from shared.runtime import tls  # noqa: E402

RUNS = 15


def cpu_ms(action) -> float:
    times = []
    for _ in range(RUNS):
        started = time.process_time()
        action()
        times.append((time.process_time() - started) * 1000)
    return statistics.median(times)


def per_connection_load(session: httpsession.URLLib3Session) -> None:
    """What urllib3 does with the CA bundle for one new connection of SESSION."""
    conn = SimpleNamespace(cert_reqs=None, ca_certs=None)
    session._setup_ssl_cert(conn, "https://dynamodb.us-east-1.amazonaws.com/", True)
    if conn.ca_certs:
        session._manager.connection_pool_kw["ssl_context"].load_verify_locations(conn.ca_certs)


def main() -> None:
    plain = httpsession.URLLib3Session()
    before_context = cpu_ms(httpsession.create_urllib3_context)
    before_load = cpu_ms(lambda: per_connection_load(plain))
    tls.share_one_context()
    shared = httpsession.URLLib3Session()
    after_context = cpu_ms(lambda: httpsession.URLLib3Session()._get_ssl_context())
    after_load = cpu_ms(lambda: per_connection_load(shared))
    print("TLS set-up CPU per AWS client and per new HTTPS connection (ms, median of 15)")
    print(f"{'':<34}{'botocore':>10}{'one context':>13}")
    print(f"{'a client session context':<34}{before_context:>10.2f}{after_context:>13.2f}")
    print(f"{'a new connection: the CA bundle':<34}{before_load:>10.2f}{after_load:>13.2f}")
    once = cpu_ms(lambda: tls.container_context.__wrapped__(httpsession.get_cert_path(True)))
    print(f"(the one context loads the bundle once per container: {once:.1f} ms)")


if __name__ == "__main__":
    main()
