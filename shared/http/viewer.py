"""The address of the client a request came from (a guest's report quota, SPEC §3e).

Behind CloudFront, API Gateway's `sourceIp` is the edge server's, shared by every viewer of that
edge, so the edge adds `CloudFront-Viewer-Address` (the viewer's address and port, IPv6 unbracketed:
`2001:db8::1:443`) on the routes that read it (infra/edge.py `VIEWER_ADDRESS_PATHS`). Without it
(`make run`, tests; a direct call is refused by the origin secret anyway), `sourceIp` is the address.
"""

import ipaddress
from typing import Any

from shared.http.routes import VIEWER_ADDRESS_HEADER


def viewer_address(event: dict[str, Any]) -> str:
    """The viewer's address, normalized (one form per address, whatever its port or spelling)."""
    headers = {k.lower(): v for k, v in (event.get("headers") or {}).items()}
    found = _address(str(headers.get(VIEWER_ADDRESS_HEADER) or ""))
    if found is not None:
        return found
    source = str(((event.get("requestContext") or {}).get("http") or {}).get("sourceIp") or "")
    return _address(source) or source


def _address(value: str) -> str | None:
    """The address of VALUE (`address:port`, `[v6]:port` or a bare address); None if it holds none."""
    value = value.strip()
    if value.startswith("["):
        value = value[1:].partition("]")[0]
    else:
        host, colon, port = value.rpartition(":")
        if colon and port.isdigit() and _parsed(host) is not None:
            value = host
    return _parsed(value)


def _parsed(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return None
