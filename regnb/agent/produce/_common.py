"""What every produced format shares: names from the question, markers, sources, dates, zips."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import re
import unicodedata
import zipfile
from collections.abc import Iterable

from regnb.agent.types import Citation, Finding
from regnb.corpus import parse_date

FIXED_TIME = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
_MARKER = re.compile(r"\[(\d+)\]")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


_FORMAT_WORDS = _wordset(
    "chart charts csv deck docx excel graph graphs plot plots png powerpoint pptx report "
    "slide slides spreadsheet table tables word xlsx"
)
_SLUG_STOPWORDS = _FORMAT_WORDS | _wordset(
    "a about after all an and any are as at be been before between by can could did do does "
    "during each find for from get gets give got had has have how i if in into is it its list "
    "me my no not of on or our please put show since so some tell than that the their them "
    "there these they this those to us was were what when where which who whom whose why "
    "will with would"
)


def short_title(question: str, limit: int = 100) -> str:
    """The question without its requests for files ("Put the letters in an Excel table.")."""
    sentences = [s for s in _SENTENCE.split(" ".join(question.split())) if s]
    kept = [s for s in sentences if not _FORMAT_WORDS & set(_words(s))] or sentences
    return shorten(" ".join(kept), limit) or "Research answer"


def slug(question: str, words: int = 6) -> str:
    """A short, ASCII, filesystem-safe name from the question's content words."""
    folded = unicodedata.normalize("NFKD", short_title(question, 200)).encode("ascii", "ignore")
    content = [w for w in _words(folded.decode()) if w not in _SLUG_STOPWORDS]
    return "-".join(content[:words])[:60].strip("-") or "research-answer"


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.lower())


def shorten(text: str, limit: int) -> str:
    """`text` cut at a word boundary to at most `limit` characters, with an ellipsis if cut."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:-") + "…"


def markers(numbers: Iterable[int]) -> str:
    """Citation markers as the answer writes them: "[3][5]"."""
    return "".join(f"[{n}]" for n in numbers)


def marker_numbers(text: str) -> list[int]:
    """The citation numbers that the markers in `text` refer to, in order."""
    return [int(n) for n in _MARKER.findall(text)]


def finding_text(finding: Finding, limit: int | None = None) -> str:
    """A finding with its markers before the closing stop: "text [4]."; `limit` shortens the text."""
    present = set(marker_numbers(finding.text))
    missing = markers(n for n in finding.markers if n not in present)
    text = " ".join(finding.text.split())
    body, stop = re.fullmatch(r"(.*?)([.!?]*)", text, re.S).groups()  # type: ignore[union-attr]
    if limit is not None and len(body) > limit:
        body, stop = shorten(body, limit), ""
    return f"{body} {missing}{stop}" if missing else f"{body}{stop}"


def source_label(citation: Citation) -> str:
    """A citation's name, with its block for a passage: "Letter to Acme, page 2, ¶3"."""
    if citation.block_id:
        return f"{citation.name}, {citation.block_id}"
    return citation.name


def source_details(citation: Citation, *, page: bool = False) -> list[str]:
    """Dataset, date (and page) of a citation, leaving out what it does not have."""
    parts = [citation.dataset, citation.date or ""]
    if page and citation.page_num is not None:
        parts.append(f"page {citation.page_num}")
    return [p for p in parts if p]


def as_date(value: object) -> dt.date | None:
    """A date for a cell or a chart; None where the value is missing or not a date."""
    with contextlib.suppress(ValueError, TypeError):
        return parse_date(value, lenient=True)
    return None


def stable_zip(data: bytes, when: dt.datetime) -> bytes:
    """The same zip with every member stamped `when`, so equal content gives equal bytes."""
    stamp = max(when.timetuple()[:6], (1980, 1, 1, 0, 0, 0))  # zip has no earlier dates
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            member = zipfile.ZipInfo(info.filename, date_time=stamp)  # type: ignore[arg-type]
            member.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(member, src.read(info))
    return out.getvalue()


def naive_utc(when: dt.datetime) -> dt.datetime:
    """`when` in UTC without tzinfo, as the Office core properties store it."""
    if when.tzinfo is not None:
        when = when.astimezone(dt.UTC).replace(tzinfo=None)
    return when
