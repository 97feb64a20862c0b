"""Keep keys out of the logs: query values named like keys are written as `***`, and anything
that looks like a regnb key (`rnb_` and its characters) as `rnb_***`, wherever it is.

A client that puts its key in the URL by mistake (`?api_key=...`, `?k=rnb_...`, or a path
segment) would otherwise leave it in uvicorn's access log. regnb's own log lines name the path
only, never the query; the key-like values of their paths, arguments and tracebacks are hidden
too. No log line holds request headers.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote_plus

from regnb.server.accounts import KEY_LIKE, KEY_PREFIX

__all__ = ["ACCESS_LOGGER", "RedactKeys", "install_log_filter", "is_secret_name", "redact"]

ACCESS_LOGGER = "uvicorn.access"
MASK = "***"
KEY_MASK = KEY_PREFIX + MASK
SECRET_NAMES = frozenset(
    {"key", "apikey", "token", "secret", "password", "passwd", "pwd", "auth", "authorization"}
)
SECRET_SUFFIXES = ("_key", "_token", "_secret", "_password")
PARAM = re.compile(r"(?P<lead>[?&;](?P<name>[^=&;#\s?]+)=)(?P<value>[^&;#\s\"']+)")


def is_secret_name(name: str) -> bool:
    """Whether a query parameter name looks like it holds a key (`api_key`, `X-Api-Key`, ...)."""
    norm = unquote_plus(name).strip().lower().replace("-", "_")
    return norm in SECRET_NAMES or norm.endswith(SECRET_SUFFIXES)


def redact(text: str) -> str:
    """`text` with every value that looks like a key replaced by `rnb_***`, and the value of
    every query parameter named like a key by `***`."""
    text = KEY_LIKE.sub(KEY_MASK, text)
    if "=" not in text:
        return text
    return PARAM.sub(
        lambda m: m["lead"] + MASK if is_secret_name(m["name"]) else m[0],
        text,
    )


class RedactKeys(logging.Filter):
    """A logging filter that redacts keys in a record's message, arguments and traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {
                k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()
            }
        return True


def install_log_filter(name: str = ACCESS_LOGGER) -> None:
    """Add the filter to logger `name` once (uvicorn's access log by default).

    A filter on the logger itself survives uvicorn's `dictConfig`, which replaces handlers.
    """
    logger = logging.getLogger(name)
    if not any(isinstance(f, RedactKeys) for f in logger.filters):
        logger.addFilter(RedactKeys())
