"""Reading request input: a size-limited JSON object body and integer query parameters.

The engine checks values and ranges; this module rejects what JSON parsing would let through
loosely: non-JSON bodies, NaN and Infinity, strings Python cannot encode (lone surrogates),
integers past 2**53, and a body that is not an object.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable
from typing import Any, overload

from starlette.requests import Request

from regnb.errors import InvalidRequest, PayloadTooLarge

__all__ = [
    "MAX_INT",
    "check_fields",
    "check_json",
    "check_query",
    "query_int",
    "read_body",
    "read_json_object",
]

MAX_INT = 2**53 - 1
DIGITS = re.compile(r"[0-9]+")


async def read_body(request: Request, max_bytes: int) -> bytes:
    """The body, counted while it arrives; PayloadTooLarge as soon as it passes `max_bytes`."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > max_bytes:
        raise PayloadTooLarge(f"the request body is over {max_bytes} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_bytes:
            raise PayloadTooLarge(f"the request body is over {max_bytes} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _where(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def check_json(value: Any) -> None:
    """Every string encodable as UTF-8 and every integer within ±(2**53 - 1)."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise InvalidRequest(
                    f"{path or 'body'} holds a character that is not valid Unicode",
                    field=path or None,
                ) from None
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int) and abs(item) > MAX_INT:
            raise InvalidRequest(f"{path or 'body'} is out of range", field=path or None)
        elif isinstance(item, dict):
            for key, sub in item.items():
                stack.append(("", key))
                stack.append((_where(path, key), sub))
        elif isinstance(item, list):
            stack.extend((_where(path, i), sub) for i, sub in enumerate(item))


async def read_json_object(request: Request, max_bytes: int) -> dict[str, Any]:
    """The body as a JSON object (any Content-Type: `curl -d` sends form encoding)."""
    raw = await read_body(request, max_bytes)
    if not raw.strip():
        raise InvalidRequest("the request body must be a JSON object; it is empty")
    try:
        value = json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "not JSON"
        raise InvalidRequest(f"the request body is not valid JSON: {reason}") from None
    if not isinstance(value, dict):
        raise InvalidRequest(f"the request body must be a JSON object, not {type(value).__name__}")
    check_json(value)
    return value


@overload
def query_int(request: Request, name: str, default: int) -> int: ...
@overload
def query_int(request: Request, name: str, default: None) -> int | None: ...
def query_int(request: Request, name: str, default: int | None) -> int | None:
    """A query parameter holding a non-negative integer; range checks are the engine's."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not DIGITS.fullmatch(raw):
        raise InvalidRequest(f"{name} must be a positive integer, got {raw!r}", field=name)
    if len(raw) > len(str(MAX_INT)) or int(raw) > MAX_INT:
        raise InvalidRequest(f"{name} is out of range", field=name)
    return int(raw)


def _unknown(kind: str, name: str, known: Iterable[str]) -> InvalidRequest:
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return InvalidRequest(f"unknown {kind} {name!r}{hint}", field=name)


def check_query(request: Request, allowed: tuple[str, ...] = ()) -> None:
    """Refuse query parameters the endpoint does not take, naming the closest it does (a typo
    such as `page_form` would otherwise pass unnoticed)."""
    for name in request.query_params:
        if name not in allowed:
            raise _unknown("query parameter", name, allowed)


def check_fields(body: dict[str, Any], known: Iterable[str]) -> None:
    """Refuse body fields the endpoint does not define, naming the closest it does (`"order"`
    on a search, which sorts by `"sort"`)."""
    known = tuple(known)
    for name in body:
        if name not in known:
            raise _unknown("field", name, known)
