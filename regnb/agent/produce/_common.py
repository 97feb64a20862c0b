"""What every produced format shares: sentences, markers, one-line findings, sources, dates and
zips."""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from collections.abc import Iterable

from regnb.agent.types import Finding, SourcedCitation
from regnb.dates import parse_date
from regnb.present.markers import marker_numbers as marker_numbers
from regnb.present.markers import markers as markers
from regnb.present.markers import strip_markers as strip_markers
from regnb.present.office import naive_utc as naive_utc  # shared by regnb's Office files
from regnb.present.office import stable_zip as stable_zip

FIXED_TIME = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
STATEMENT_WORDS = 18  # a one-line statement of a finding is cut past this many words
# A sentence ends at . ! ? (a closing quote or bracket may follow) before a capital or an opening
# quote; "Inc." "No." "e.g." and single initials do not end one.
_SENTENCE_END = re.compile(r"[.!?][\"”’)\]]*(?=\s+[\"“‘(\[]?[^\W\d_a-z])")
_ABBREVIATION = re.compile(
    r"(?:\b(?:inc|ltd|co|corp|llc|pvt|no|nos|vs|dr|mr|mrs|ms|st|jr|sr|u\.s|e\.g|i\.e|etc|approx"
    r"|dept|fig|sec|ref|vol|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)|\b[A-Za-z])\.$",
    re.IGNORECASE,
)
_LIST_NUMBER = re.compile(r"(?:^|[“\"‘(]|:\s)\d{1,3}\.$")  # "1. Your firm failed…" goes on


def split_sentences(text: str) -> list[str]:
    """`text`'s sentences, whitespace collapsed; abbreviations, initials and a list's numbers
    ("1.") do not end one."""
    text = " ".join(text.split())
    out, start = [], 0
    for end in _SENTENCE_END.finditer(text):
        sentence = text[start : end.start() + 1]
        if _ABBREVIATION.search(sentence) or _LIST_NUMBER.search(sentence):
            continue
        out.append(text[start : end.end()])
        start = end.end() + 1
    out.append(text[start:])
    return [s for s in out if s]


def shorten(text: str, limit: int) -> str:
    """`text` cut at a word boundary to at most `limit` characters, with an ellipsis if cut."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:-") + "…"


def finding_numbers(finding: Finding) -> list[int]:
    """Every citation number a finding shows: the markers in its text, then its own."""
    return list(dict.fromkeys([*marker_numbers(finding.text), *finding.markers]))


def with_markers(text: str, numbers: Iterable[int]) -> str:
    """`text` with markers before its closing stop ("text [4]."), after an ellipsis ("text… [4]")."""
    shown = markers(numbers)
    if not shown:
        return text
    body, stop = re.fullmatch(r"(.*?)([.!?]*)", text, re.S).groups()  # type: ignore[union-attr]
    return f"{body} {shown}{stop}"


def finding_text(finding: Finding, limit: int | None = None) -> str:
    """A finding with its markers before the closing stop: "text [4]."; `limit` shortens the text."""
    present = set(marker_numbers(finding.text))
    missing = [n for n in finding.markers if n not in present]
    text = " ".join(finding.text.split())
    if limit is not None and len(text) > limit:
        text = shorten(text.rstrip(".!?"), limit)
    return with_markers(text, missing)


def statement(finding: Finding, words: int = STATEMENT_WORDS, *, quoted: bool = True) -> str:
    """A finding in one line, without markers: its `short`, else the first sentence of its quote
    (`quoted`) or its text, cut after `words` words with "…"."""
    source = finding.short or (finding.quote if quoted else None) or finding.text
    sentences = split_sentences(strip_markers(source))
    return cut_words(sentences[0] if sentences else "", words)


def cut_words(text: str, words: int) -> str:
    """`text` cut after `words` words with "…" (never inside a word); an open quote is closed."""
    parts = text.split()
    if len(parts) > 1 and parts[-1] == "…":  # a short statement's own "cut …"
        parts[-2:] = [parts[-2] + "…"]
    out = " ".join(parts)
    if len(parts) > words:
        out = " ".join(parts[:words]).rstrip(",;:-–—") + "…"
    if out.count("“") > out.count("”"):
        out += "”"
    return out


def source_label(citation: SourcedCitation) -> str:
    """A citation's name, with its block for a passage: "Letter to Acme, page 2, ¶3"."""
    if citation.block_id:
        return f"{citation.name}, {citation.block_id}"
    return citation.name


def source_details(citation: SourcedCitation, *, page: bool = False) -> list[str]:
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
