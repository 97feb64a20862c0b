"""Building one document in `write_corpus`'s shape from extracted text and metadata."""

from __future__ import annotations

from typing import Any

from regnb.ingest._fields import parse_date
from regnb.ingest.normalise import normalise_pages, normalise_text

__all__ = ["build_document", "clean_title", "first_line", "has_text"]

TITLE_CHARS = 300


def clean_title(value: object) -> str:
    """One line of at most TITLE_CHARS characters ('' for nothing usable)."""
    if not isinstance(value, str):
        return ""
    text = " ".join(normalise_text(value).split())
    return text[:TITLE_CHARS].rstrip()


def first_line(pages: list[str], min_chars: int = 4) -> str:
    """The first line of the text with some letters in it."""
    for page in pages:
        for line in page.split("\n"):
            if sum(ch.isalpha() for ch in line) >= min_chars:
                return clean_title(line)
    return ""


def has_text(pages: list[str]) -> bool:
    return any(page.strip() for page in pages)


def build_document(
    *,
    key: str,
    title: object,
    pages: list[str],
    date: object = None,
    url: object = None,
    fields: dict[str, Any] | None = None,
    fallback_title: str = "",
    headers: bool = True,
) -> dict[str, Any]:
    """Normalised pages, a usable title (given, else the text's first line, else the fallback),
    an ISO date (partial dates -> first day) and the fields."""
    pages = normalise_pages([p if isinstance(p, str) else "" for p in pages], headers=headers)
    return {
        "key": key,
        "title": clean_title(title) or first_line(pages) or clean_title(fallback_title) or key,
        "date": parse_date(date),
        "url": url.strip() if isinstance(url, str) and url.strip() else None,
        "fields": fields or {},
        "pages": pages,
    }
