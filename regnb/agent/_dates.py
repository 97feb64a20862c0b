"""Dates a message asks for: "since 2018", "in 2021", "between 2019 and 2022", "before 2020",
"in the last 5 years", "late 2019", "March 2021" → an inclusive ISO range."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["DateRange", "find_dates", "find_periods"]

_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTHS |= {m.lower(): i for i, m in enumerate(calendar.month_abbr) if m}
_NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twelve": 12,
    "a": 1,
}
_YEAR = r"((?:19|20)\d{2})"
_MONTH = r"(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_COUNT = r"(\d{1,2}|" + "|".join(_NUMBERS) + r")"
_PART = {"early": (1, 4), "mid": (5, 8), "middle of": (5, 8), "late": (9, 12), "end of": (10, 12)}
_Bounds = Callable[[re.Match[str]], tuple[str | None, str | None]]  # a match → (from, to)


@dataclass(frozen=True)
class DateRange:
    """Inclusive bounds (ISO dates, either may be None) and the words that asked for them."""

    date_from: str | None
    date_to: str | None
    text: str

    def inside(self) -> str:
        """The dates kept: "from 2018-01-01", "to 2019-12-31", or "from … to …"."""
        if self.date_from and self.date_to:
            return f"from {self.date_from} to {self.date_to}"
        return f"from {self.date_from}" if self.date_from else f"to {self.date_to}"

    def outside(self) -> str:
        """The dates left out: "before 2018-01-01", "after 2019-12-31", or both."""
        parts = []
        if self.date_from:
            parts.append(f"before {self.date_from}")
        if self.date_to:
            parts.append(f"after {self.date_to}")
        return " or ".join(parts)


def _first(year: int, month: int = 1) -> str:
    return dt.date(year, month, 1).isoformat()


def _last(year: int, month: int = 12) -> str:
    return dt.date(year, month, calendar.monthrange(year, month)[1]).isoformat()


def _year(text: str) -> int:
    """ "2019" or "19" (this century) as a year."""
    return int(text) if len(text) == 4 else 2000 + int(text)


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBERS[word]


def _years_back(today: dt.date, years: int = 0, months: int = 0) -> str:
    month_index = today.year * 12 + today.month - 1 - years * 12 - months
    year, month = divmod(month_index, 12)
    day = min(today.day, calendar.monthrange(year, month + 1)[1])
    return dt.date(year, month + 1, day).isoformat()


def _rules(today: dt.date) -> list[tuple[str, _Bounds]]:
    """(pattern, match → (from, to)) in the order they are tried; the first match wins."""
    return [
        (
            rf"\b(?:between|from)\s+{_YEAR}\s+(?:and|to|through|until)\s+{_YEAR}\b",
            lambda m: (_first(int(m[1])), _last(int(m[2]))),
        ),
        (rf"\b{_YEAR}\s*[-–—]\s*{_YEAR}\b", lambda m: (_first(int(m[1])), _last(int(m[2])))),
        (  # "the 2016 and 2017 letters": both years
            rf"\b{_YEAR}\s+(?:and|or|&)\s+{_YEAR}\b",
            lambda m: (_first(min(int(m[1]), int(m[2]))), _last(max(int(m[1]), int(m[2])))),
        ),
        (
            rf"\b(?:in\s+|over\s+|during\s+|within\s+)?(?:the\s+)?(?:last|past|previous)\s+"
            rf"{_COUNT}\s+(years?|months?)\b",
            lambda m: (
                _years_back(today, years=_count(m[1]))
                if m[2].startswith("year")
                else _years_back(today, months=_count(m[1])),
                None,
            ),
        ),
        (
            r"\b(?:in\s+|over\s+|during\s+)?(?:the\s+)?(?:last|past)\s+(year|month)\b",
            lambda m: (
                _years_back(today, years=1) if m[1] == "year" else _years_back(today, months=1),
                None,
            ),
        ),
        (r"\bthis\s+year\b", lambda m: (_first(today.year), None)),
        (  # fiscal years (October to September): "FY2019", "FY 2019", "FY19"
            r"\bfy\s?'?((?:19|20)?\d{2})\b",
            lambda m: (_first(_year(m[1]) - 1, 10), _last(_year(m[1]), 9)),
        ),
        (
            rf"\bq([1-4])\s*(?:of\s+)?{_YEAR}\b",
            lambda m: (_first(int(m[2]), 3 * int(m[1]) - 2), _last(int(m[2]), 3 * int(m[1]))),
        ),
        (
            rf"\b(?:since|after)\s+{_MONTH}\s+{_YEAR}\b",
            lambda m: (_first(int(m[2]), _MONTHS[m[1]]), None),
        ),
        (
            rf"\bsince\s+{_YEAR}\b|\bfrom\s+{_YEAR}\s+(?:on\b|onwards?\b|to\s+(?:date|now|today))"
            rf"|\b{_YEAR}\s+(?:onwards?|and\s+later)\b",
            lambda m: (_first(int(m[1] or m[2] or m[3])), None),
        ),
        (rf"\bafter\s+{_YEAR}\b", lambda m: (_first(int(m[1]) + 1), None)),
        (
            rf"\b(?:before|prior\s+to|earlier\s+than)\s+{_YEAR}\b",
            lambda m: (None, _last(int(m[1]) - 1)),
        ),
        (rf"\b(?:until|through|up\s+to|by)\s+{_YEAR}\b", lambda m: (None, _last(int(m[1])))),
        (
            rf"\b(early|mid|middle\s+of|late|end\s+of)[\s-]+{_YEAR}\b",
            lambda m: (
                _first(int(m[2]), _PART[" ".join(m[1].split())][0]),
                _last(int(m[2]), _PART[" ".join(m[1].split())][1]),
            ),
        ),
        (
            rf"\b(?:in\s+|during\s+)?{_MONTH}\s+{_YEAR}\b",
            lambda m: (_first(int(m[2]), _MONTHS[m[1]]), _last(int(m[2]), _MONTHS[m[1]])),
        ),
        (
            rf"\b(?:in|during|of|for|from)\s+(?:the\s+year\s+)?{_YEAR}\b",
            lambda m: (_first(int(m[1])), _last(int(m[1]))),
        ),
        (rf"(?<![\w(-]){_YEAR}(?![\w)-])", lambda m: (_first(int(m[1])), _last(int(m[1])))),
    ]


# One side of a comparison: a year, a fiscal year, a quarter, a month and year or a range of
# years, with the word before it ("before 2019", "in 2020-2021", "FY2020", "Q1 2025").
_SIDE = (
    r"(?:(?:before|prior\s+to|until|since|after|from|in|during|of|for)\s+)?(?:the\s+)?"
    r"(?:fy\s?'?(?:19|20)?\d{2}\b|q[1-4]\s+(?:19|20)\d{2}\b"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+(?:19|20)\d{2}\b"
    r"|(?:19|20)\d{2}(?:\s*[-–]\s*(?:19|20)\d{2})?\b)"
)
# Two periods compared: "before 2019 vs after 2022", "in 2025 than in 2024", "FY2019 vs FY2020",
# "2016 compared with 2023". Each side is read by `find_dates` on its own.
_SIDES = re.compile(
    rf"({_SIDE})\s*,?\s*(?:(?:vs\.?|versus|compared\s+(?:with|to)|against|than|or)\s*"
    rf"|and\s+(?:those\s+)?(?=after|since))\s*({_SIDE})",
    re.IGNORECASE,
)
# A question that compares names its two periods apart: "how did the 2026 letter differ from
# the 2023 one?", "what changed between 2019 and 2021?", "the 2012 and 2013 CRLs".
_COMPARING = re.compile(
    r"\bcompar|\bversus\b|\bvs\.?\s|\bdiffer|\bchanged?\b|\bcontrast|\bsame\b|\bpersist"
    r"|\brepeat|\bfixed\b|\bboth\s+times\b|\bthan\b|\bbetter\b|\bworse\b|\bwhat\s+got\b",
    re.IGNORECASE,
)
_MENTION = re.compile(_SIDE, re.IGNORECASE)
_BETWEEN = re.compile(r"\bbetween\s+(?:19|20)\d{2}\s+and\s+(?:19|20)\d{2}\b", re.IGNORECASE)
# ... unless it compares two things dated so: "compare the two inspections: what changed
# between 2019 and 2021?"
_POINTS = re.compile(r"\bcompar|\btwo\b|\bboth\b|\bvs\.?\b|\bversus\b", re.IGNORECASE)


def _sides(message: str) -> tuple[str, str] | None:
    """The words of the two periods a comparison names: side by side ("2019 vs after 2022"),
    or two mentions in a question that compares ("between 2019 and 2021", "the 2012 and 2013
    CRLs")."""
    match = _SIDES.search(message)
    if match:
        return match[1], match[2]
    if not _COMPARING.search(message):
        return None
    if _BETWEEN.search(message) and not _POINTS.search(message):
        return None  # "how did letters change between 2019 and 2022?": one range
    mentions = [m.group() for m in _MENTION.finditer(message)]
    return (mentions[0], mentions[1]) if len(mentions) == 2 else None


def find_periods(message: str, today: dt.date) -> tuple[DateRange, DateRange] | None:
    """The two periods a comparison asks for, each with its words, or None."""
    sides = _sides(message)
    if sides is None:
        return None
    first, second = find_dates(sides[0], today), find_dates(sides[1], today)
    if (
        first is None
        or second is None
        or (first.date_from, first.date_to)
        == (
            second.date_from,
            second.date_to,
        )
    ):
        return None
    return first, second


# "after the early-2020 inspection", "following its 2019 483": the date is the event's, and what
# is asked about came after it.
_AFTER_EVENT = re.compile(r"\b(?:after|following|since)\s+(?:[\w'’]+\s+){0,3}$")
_EVENT = re.compile(
    r"^[\s-]*(?:[\w'’]+\s+){0,2}(?:inspections?|483s?|audits?|visits?|warning\s+letters?|"
    r"letters?|recalls?|crls?|observations)\b"
)


def find_dates(message: str, today: dt.date) -> DateRange | None:
    """The date range a message asks for, or None when it names none. A date that dates an
    event the question asks what came after ("after FDA's early-2020 inspection") opens the
    range from it on."""
    lowered = message.lower()
    for pattern, bounds in _rules(today):
        match = re.search(pattern, lowered)
        if match:
            date_from, date_to = bounds(match)
            if (
                date_from is not None
                and _AFTER_EVENT.search(lowered[: match.start()])
                and _EVENT.match(lowered[match.end() :])
            ):
                date_to = None
            return DateRange(date_from, date_to, message[match.start() : match.end()])
    return None
