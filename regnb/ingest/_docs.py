"""Building one document in `write_corpus`'s shape from extracted text and metadata."""

from __future__ import annotations

import re
from typing import Any

from regnb.ingest._fields import read_date
from regnb.ingest.normalise import normalise_pages, normalise_text

__all__ = ["build_document", "clean_title", "first_line", "has_text"]

TITLE_CHARS = 300


def clean_title(value: object) -> str:
    """One line of at most TITLE_CHARS characters ('' for nothing usable)."""
    if not isinstance(value, str):
        return ""
    text = " ".join(normalise_text(value).split())
    return text[:TITLE_CHARS].rstrip()


_DANGLING = re.compile(
    r"(?:\b(?:and|or|of|the|for|to|in|on|with|by|at|from|a|an)|[&,:/-])$", re.IGNORECASE
)


def first_line(pages: list[str], min_chars: int = 4) -> str:
    """The first line of the text with some letters in it, with the lines that carry on a
    heading cut at a connecting word ("CENTER FOR DRUG EVALUATION AND" / "RESEARCH")."""
    for page in pages:
        lines = [line.strip() for line in page.split("\n")]
        for index, line in enumerate(lines):
            if sum(ch.isalpha() for ch in line) >= min_chars:
                parts = [line]
                for following in lines[index + 1 : index + 4]:
                    if not _DANGLING.search(parts[-1]) or not following:
                        break
                    parts.append(following)
                return clean_title(" ".join(parts))
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
    problems: list[str] | None = None,
) -> dict[str, Any]:
    """Normalised pages, a usable title (given, else the text's first line, else the fallback),
    an ISO date (partial dates -> first day; one that cannot be read is left out and said in
    `problems`) and the fields."""
    pages = normalise_pages([p if isinstance(p, str) else "" for p in pages], headers=headers)
    iso, problem = read_date(date)
    if problem and problems is not None:
        problems.append(problem)
    return {
        "key": key,
        "title": clean_title(title) or first_line(pages) or clean_title(fallback_title) or key,
        "date": iso,
        "url": url.strip() if isinstance(url, str) and url.strip() else None,
        "fields": fields or {},
        "pages": pages,
    }
