"""The spec's rules for conversation inputs, as pure functions: message, Idempotency-Key, wait,
the list's status/limit/offset, and which produced files need a paid plan."""

from __future__ import annotations

import math
import re
from pathlib import PurePath
from typing import Any

from regnb.errors import InvalidRequest
from regnb.settings import Settings

__all__ = [
    "LIST_LIMIT_MAX",
    "LIST_STATUSES",
    "check_idempotency_key",
    "check_list",
    "check_message",
    "check_wait",
    "needs_paid_plan",
]

KEY_FIELD = "Idempotency-Key"
KEY_PATTERN = re.compile(r"[\x21-\x7e]{1,255}")  # printable ASCII without the space
# A JSON (and so OpenAPI) number, plus the forms `.5` and `5.` read before: an optional minus,
# digits with an optional fraction, an optional exponent. No leading `+`, no nan or inf.
NUMBER = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
LIST_STATUSES = ("all", "running")
LIST_LIMIT_MAX = 100
OFFICE_SUFFIXES = {".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx"}
OFFICE_MEDIA = ("application/msword", "application/vnd.ms-", "application/vnd.openxmlformats-")


def check_message(value: Any) -> str:
    """A message: a string with something in it besides white space."""
    if value is None:
        raise InvalidRequest("message is required", field="message")
    if not isinstance(value, str):
        raise InvalidRequest("message must be a string", field="message")
    if not value.strip():
        raise InvalidRequest("message must not be empty", field="message")
    return value


def check_idempotency_key(value: Any) -> str | None:
    """None, or 1 to 255 printable ASCII characters without spaces."""
    if value is None:
        return None
    if not isinstance(value, str) or not KEY_PATTERN.fullmatch(value):
        raise InvalidRequest(
            "Idempotency-Key must be 1 to 255 printable ASCII characters without spaces",
            field=KEY_FIELD,
        )
    return value


def check_wait(value: Any, most: float = Settings.conversation_wait_max_s) -> float:
    """Seconds to wait: a number from 0 to `most`. A query string's text is read as a JSON
    number (`2`, `2.5`, `1e1`, `1E-05`, `-0`); `nan`, `inf` and a leading `+` are refused."""
    shown = value
    if isinstance(value, str):
        text = value.strip()
        if not NUMBER.fullmatch(text):
            raise InvalidRequest(
                f"wait must be a number from 0 to {most:g} (seconds), got {value!r}", field="wait"
            )
        shown, value = text, float(text)
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        raise InvalidRequest(f"wait must be a number from 0 to {most:g} (seconds)", field="wait")
    if not 0 <= value <= most:
        raise InvalidRequest(f"wait must be from 0 to {most:g} seconds, got {shown}", field="wait")
    return float(value)


def _count(value: Any, name: str, low: int, high: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRequest(f"{name} must be an integer", field=name)
    if value < low or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise InvalidRequest(f"{name} must be {bounds}, got {value}", field=name)
    return value


def check_list(status: Any, limit: Any, offset: Any) -> tuple[str, int, int]:
    """The list's `status` (`all` or `running`), `limit` (1 to 100) and `offset` (0 or more)."""
    if status not in LIST_STATUSES:
        raise InvalidRequest(f"status must be 'all' or 'running', got {status!r}", field="status")
    return status, _count(limit, "limit", 1, LIST_LIMIT_MAX), _count(offset, "offset", 0, None)


def needs_paid_plan(filename: str | None, media_type: str | None) -> bool:
    """Word, Excel and PowerPoint files need a paid plan; text, images and other files do not."""
    if filename and PurePath(filename).suffix.lower() in OFFICE_SUFFIXES:
        return True
    return media_type is not None and media_type.startswith(OFFICE_MEDIA)
