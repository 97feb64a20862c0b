"""The base URL that links in a response start with, when REGNB_PUBLIC_URL is not set: the
request's own, as the client reached the server.

By default that is the request's scheme (which uvicorn sets from `X-Forwarded-Proto` only for
proxies in `--forwarded-allow-ips`, 127.0.0.1 by default), its `Host` header and the app's root
path. Behind a reverse proxy that sets `X-Forwarded-Proto`, `X-Forwarded-Host` and
`X-Forwarded-Prefix`, REGNB_TRUST_PROXY_HEADERS=1 makes them count; they are ignored otherwise,
since any client can send them. Of a header a chain of proxies added to, the last value (the
one the nearest proxy wrote) counts. A value that is not a plain scheme, host or path is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from starlette.types import Scope

__all__ = ["base_url", "scope_base_url"]

SCHEMES = ("http", "https")
HOST = re.compile(
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*"
    r"|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?"
)
PREFIX = re.compile(r"(?:/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*/?")


def _last(value: str | None) -> str | None:
    """The last of a comma-separated header's values, stripped; None when empty."""
    if value is None:
        return None
    last = value.rsplit(",", 1)[-1].strip()
    return last or None


def base_url(
    scheme: str,
    host: str | None,
    root_path: str,
    headers: Mapping[str, str],
    *,
    server: tuple[str, int | None] | None = None,
    trust_proxy: bool = False,
) -> str:
    """`scheme://host/prefix` of a request, without a trailing slash.

    `host` is the Host header (else `server`'s address); `headers` are the request's, by
    lower-case name, read only when `trust_proxy`.
    """
    if host is None or not HOST.fullmatch(host):
        host = None
        if server is not None:
            name, port = server
            name = f"[{name}]" if ":" in name else name
            host = name if port is None else f"{name}:{port}"
    prefix = root_path if PREFIX.fullmatch(root_path) else ""
    if trust_proxy:
        proto = (_last(headers.get("x-forwarded-proto")) or "").lower()
        forwarded_host = _last(headers.get("x-forwarded-host"))
        forwarded_prefix = _last(headers.get("x-forwarded-prefix"))
        scheme = proto if proto in SCHEMES else scheme
        host = forwarded_host if forwarded_host and HOST.fullmatch(forwarded_host) else host
        if forwarded_prefix is not None and PREFIX.fullmatch(forwarded_prefix):
            prefix = forwarded_prefix
    scheme = scheme if scheme in SCHEMES else "http"
    return f"{scheme}://{host or 'localhost'}{prefix}".rstrip("/")


def scope_base_url(scope: Scope, trust_proxy: bool = False) -> str:
    """`base_url` of an ASGI HTTP scope."""
    headers: dict[str, str] = {}
    for raw_name, raw_value in scope["headers"]:
        name, value = raw_name.decode("latin-1").lower(), raw_value.decode("latin-1")
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    server = scope.get("server")
    return base_url(
        scope.get("scheme", "http"),
        headers.get("host"),
        scope.get("root_path", ""),
        headers,
        server=(str(server[0]), server[1]) if server else None,
        trust_proxy=trust_proxy,
    )
