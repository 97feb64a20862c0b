"""Dates as the corpus and its documents' metadata write them: ISO strings, and (leniently) the
forms that metadata from outside uses. Pure functions with no imports from the rest of regnb,
so the agent and the corpus writer share them."""

from __future__ import annotations

import contextlib
import datetime as dt
import re

__all__ = ["parse_date"]

_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_LOOSE_DATES = (
    re.compile(r"(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?:[T ].*)?"),
    re.compile(r"(?P<y>\d{4})(?P<m>\d{2})(?P<d>\d{2})"),
    re.compile(r"(?P<y>\d{4})-(?P<m>\d{1,2})"),
    re.compile(r"(?P<y>\d{4})"),
)
_WRITTEN_DATES = ("%B %d, %Y", "%b %d, %Y", "%B %d %Y", "%d %B %Y", "%d %b %Y", "%B %Y", "%b %Y")


def parse_date(value: object, *, lenient: bool = False) -> dt.date | None:
    """The date of a date object or an ISO string YYYY-MM-DD; None for None.

    `lenient` (metadata from outside) also reads '' and whitespace (None), timestamps, numbers
    and strings in compact (20190303), partial ('2019-03', '2019': the first day) and written
    ('March 3, 2019') form. Anything else raises ValueError saying what was expected.
    """
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if lenient and isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if isinstance(value, str) and lenient:
        return _lenient_date(value.strip())
    if isinstance(value, str) and (match := _ISO_DATE.fullmatch(value)):
        return _make_date(*match.groups(), text=value)
    raise ValueError(f"{value!r} is not an ISO date YYYY-MM-DD")


def _lenient_date(text: str) -> dt.date | None:
    if not text:
        return None
    for pattern in _LOOSE_DATES:
        if match := pattern.fullmatch(text):
            parts = match.groupdict()
            return _make_date(parts["y"], parts.get("m") or 1, parts.get("d") or 1, text=text)
    for fmt in _WRITTEN_DATES:
        with contextlib.suppress(ValueError):
            return dt.datetime.strptime(text, fmt).date()
    raise ValueError(f"{text!r} is not a date like 2019-03-03, 2019-03, 2019 or March 3, 2019")


def _make_date(year: str | int, month: str | int, day: str | int, *, text: str) -> dt.date:
    try:
        return dt.date(int(year), int(month), int(day))
    except ValueError:
        raise ValueError(f"{text!r} is not a day of the calendar") from None
