"""What the sync and the async client share besides the calls: the server's address, the key,
the plan, timeouts, and how a call becomes an httpx request."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import httpx

from regnb.catalog import Catalog
from regnb.client import _calls as calls
from regnb.client._calls import Call
from regnb.client._extensions import batch_size_of, not_offered, page_limit
from regnb.errors import InvalidRequest, MissingApiKey
from regnb.models import ProducedDocument
from regnb.present.names import DatasetNames, package_names
from regnb.request import SearchArgs, SearchRequest
from regnb.settings import API_KEY_ENV, ClientSettings, RemoteSettings
from regnb.validate import PLANS, search_request

__all__ = ["API_KEY_ENV", "UNKNOWN_PLAN", "ClientBase", "base_url_of", "resolve_api_key"]

UNKNOWN_PLAN = "unknown"
API_SUFFIXES = ("/api/v3", "/api")


def resolve_api_key(api_key: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The key given, else `REGNB_API_KEY`; MissingApiKey when there is neither."""
    key = (api_key if api_key is not None else RemoteSettings.from_env(environ).api_key).strip()
    if not key:
        raise MissingApiKey(
            f"no API key: pass api_key= or set {API_KEY_ENV} (regnb keys create makes one "
            "for a regnb serve)"
        )
    return key


def base_url_of(base_url: object) -> str:
    """`https://host[:port][/prefix]` without a trailing slash or a copied `/api/v3`."""
    if not isinstance(base_url, str) or not base_url.strip():
        raise InvalidRequest("base_url must be the server's address", field="base_url")
    try:
        url = httpx.URL(base_url.strip())
    except httpx.InvalidURL as exc:
        raise InvalidRequest(
            f"base_url {base_url!r} is not a URL: {exc}", field="base_url"
        ) from None
    if url.scheme not in ("http", "https") or not url.host:
        raise InvalidRequest(
            f"base_url must start with http:// or https:// and name a host, got {base_url!r}",
            field="base_url",
        )
    path = url.path.rstrip("/")
    for suffix in API_SUFFIXES:
        if path.endswith(suffix):
            path = path[: -len(suffix)]
            break
    return str(url.copy_with(path=path or "/", query=None, fragment=None)).rstrip("/")


class ClientBase:
    """The parts of a remote engine that do no I/O."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        plan: str | None = None,
        settings: ClientSettings | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.base_url = base_url_of(base_url)
        self._api_key = resolve_api_key(api_key)
        if plan is not None and plan not in PLANS:
            raise InvalidRequest(
                f"plan must be one of {', '.join(PLANS)}, got {plan!r}", field="plan"
            )
        self.plan: str = plan or UNKNOWN_PLAN
        """What the caller says the key's plan is; the server decides from the key."""
        self.settings = settings or ClientSettings.from_env()
        self._clock = clock
        self._catalog: Catalog | None = None
        self._extensions: frozenset[str] | None = None
        """The extensions of regnb serve the server lists, read once when first needed."""

    def __repr__(self) -> str:
        return f"<regnb.{type(self).__name__} {self.base_url} plan={self.plan}>"

    def _names(self) -> DatasetNames:
        """The dataset names a result of this server shows: its catalog's, read once when the
        first result is shown unless it was read before."""
        if self._catalog is not None:
            return DatasetNames.of(self._catalog)
        return DatasetNames(load=self._load_names)

    def _load_names(self) -> dict[str, str]:
        """The server's names when its catalog was read, else the package catalog's."""
        if self._catalog is not None:
            return DatasetNames.of(self._catalog).mapping()
        return package_names().mapping()

    def _http_options(self) -> dict[str, Any]:
        """Options of the one httpx client: pooled connections, timeouts, no redirects (the key
        must not follow a redirect to another host)."""
        from regnb._version import __version__

        s = self.settings
        return {
            "base_url": self.base_url,
            "headers": {"user-agent": f"regnb/{__version__}", "accept": "application/json"},
            "timeout": httpx.Timeout(
                connect=s.connect_timeout_s,
                read=s.read_timeout_s,
                write=s.write_timeout_s,
                pool=s.pool_timeout_s,
            ),
            "limits": httpx.Limits(
                max_connections=s.max_connections, max_keepalive_connections=s.max_connections
            ),
            "follow_redirects": False,
        }

    def _request(self, call: Call[Any]) -> dict[str, Any]:
        """Keyword arguments of `httpx.Client.request` for `call`."""
        headers = dict(call.headers)
        if call.with_key:
            headers["x-api-key"] = self._api_key
        if call.body is not None:
            headers["content-type"] = "application/json"
        out: dict[str, Any] = {
            "method": call.method,
            "url": call.path,
            "params": call.params,
            "content": call.body,
            "headers": headers,
        }
        s = self.settings
        if call.min_read_timeout_s is not None and call.min_read_timeout_s > s.read_timeout_s:
            out["timeout"] = httpx.Timeout(
                connect=s.connect_timeout_s,
                read=call.min_read_timeout_s,
                write=s.write_timeout_s,
                pool=s.pool_timeout_s,
            )
        return out

    def _where(self, call: Call[Any]) -> str:
        return call.path if "://" in call.path else self.base_url + call.path

    def _check_plan(self, plan: str | None) -> None:
        """`plan=` is accepted only as the client's own: the server takes the plan from the key,
        so a remote call cannot run as another plan (the local engine can)."""
        if plan is None or plan == self.plan:
            return
        raise InvalidRequest(
            f"plan={plan!r}: the server decides the plan from the API key; use a key of that "
            "plan (or leave plan= out)",
            field="plan",
        )

    def _local_check(
        self,
        catalog: Catalog,
        keywords: Sequence[str] | str,
        args: dict[str, Any],
    ) -> SearchRequest:
        """The search checked here as the local engine checks it, against the server's catalog
        (a plan the client does not know checks as enterprise, the plan the spec's API needs)."""
        from regnb.query import warn_plain
        from regnb.text import terms

        if isinstance(keywords, str):
            keywords = [keywords]
        if args.get("syntax") == "plain":
            warn_plain(keywords, terms, stacklevel=4)
        plan = self.plan if self.plan in PLANS else "enterprise"
        return search_request(catalog, terms, {"keywords": keywords, **args, "plan": plan})

    def _unoffered(self, wanted: Sequence[str]) -> None:
        """Raise FeatureNotOffered for the first of `wanted` the server does not list."""
        for name in wanted:
            if name not in (self._extensions or ()):
                raise not_offered(name, self.base_url)

    def _matches_body(
        self,
        keywords: Sequence[str] | str,
        query: str | None,
        args: SearchArgs,
        *,
        order: str,
        batch_size: int | None,
    ) -> dict[str, Any]:
        """The first matches request: the search's body, `order`, a page of the batch's size."""
        limit = page_limit(batch_size_of(batch_size))
        body = calls.search_body(keywords, query, args)
        return body | {"order": order, "limit": limit, "offset": 0}

    def _download_call(self, document: ProducedDocument) -> Call[bytes]:
        url = str(document.url)
        return calls.download(url, calls.same_origin(url, self.base_url))
