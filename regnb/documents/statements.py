"""A unit's statement: its text without its label ("OBSERVATION 3", "2.", a bullet), split
into sentences, and the one-line statement of a finding that tables, slides and timelines show
(word for word from the unit as `plain` gives it)."""

from __future__ import annotations

import re
from collections.abc import Callable

from regnb.documents.words import plain, sentence_spans

__all__ = [
    "MIN_SECOND_WORDS",
    "MIN_SENTENCE_WORDS",
    "cut_words",
    "has_substance",
    "short_statement",
    "unit_body",
    "unit_sentences",
]

_LABEL = re.compile(
    r"^\s*(?:[A-Z][A-Z/&,\- ]{2,60}?\s+(?=\(?\d{1,2}[.)]\s))?"  # a section heading before it
    r"(?:O?BSERVATION\s+\d+[A-Za-z]?\s*[:.\-–|]?|\(?\d{1,2}[.)]|\(?[A-Za-z][.)]|[•▪●◦·*-])\s+",
)
# The end of a Form 483's header, OCR'd into the block of its first observation: "DURING AN
# INSPECTION OF YOUR FIRM (I) (WE) OBSERVED: OBSERVATION 1".
_FORM_PREAMBLE = re.compile(
    r"(?:\(I\)\s*\(WE\)|\bI\b|\bWE\b|\|)\s*OBSERVED\s*:?\s*"
    r"(?:(?<![A-Za-z])O?BSERVATION\s*\d{0,2}\s*[|:.\-–]?\s*)?"
)
PREAMBLE_CHARS = 1200
# A record written as labelled fields (an enforcement report's "Recalling Firm: … Address: …"):
# its statement is the reason, not the firm's address lines before it.
_REASON = re.compile(r"\bReason for (?:the )?Recall\s*:", re.IGNORECASE)
_FIELD_LABEL = re.compile(r"\b[A-Z][A-Za-z/()\- ]{1,40}:\s")
_NEXT_FIELD = re.compile(  # the fields that follow the reason in an enforcement report
    r"\b(?:Recall Initiation Date|Center Classification Date|Code Information|Product "
    r"Quantity|Product Description|Distribution Pattern|Report Date|Termination Date|Event ID|"
    r"Recall Number|Status)\s*:"
)
MIN_RECORD_LABELS = 3
MIN_SENTENCE_WORDS = 6
MIN_SECOND_WORDS = 10


def unit_body(text: str) -> str:
    """The unit's text without its leading label ("OBSERVATION 3", "2.", "b)", a bullet); a
    record of labelled fields, its reason for recall alone."""
    folded = plain(text)
    reason = _REASON.search(folded)
    if reason and len(_FIELD_LABEL.findall(folded, 0, reason.start())) >= MIN_RECORD_LABELS:
        after = _NEXT_FIELD.search(folded, reason.end())  # the next field ends the reason
        return folded[reason.start() : after.start() if after else len(folded)].rstrip()
    preamble = _FORM_PREAMBLE.search(folded, 0, PREAMBLE_CHARS)
    if preamble is not None and len(folded[preamble.end() :].split()) >= MIN_SENTENCE_WORDS:
        folded = folded[preamble.end() :]  # the form's header glued before the observation
    match = _LABEL.match(folded)
    return folded[match.end() :] if match and match.end() < len(folded) else folded


def cut_words(text: str, limit: int) -> tuple[str, bool]:
    parts = text.split()
    if len(parts) <= limit:
        return text, False
    return " ".join(parts[:limit]).rstrip(",;:"), True


def unit_sentences(body: str, skip: Callable[[str], bool] | None = None) -> list[str]:
    """The body's sentences, a very short one (a list number, a label) joined to the next; from
    the first one `skip` does not reject (furniture inside a unit), up to the next it does."""
    out: list[str] = []
    for s, e in sentence_spans(body):
        sentence = body[s:e]
        if skip is not None and skip(sentence):
            if out:
                break
            continue
        if out and len(out[-1].split()) < MIN_SENTENCE_WORDS:
            start = body.find(out[-1])
            out[-1] = body[start:e]
        else:
            out.append(sentence)
    return out or [body]


def has_substance(text: str, skip: Callable[[str], bool]) -> bool:
    """Whether a unit has a sentence worth quoting (one `skip` does not reject)."""
    body = unit_body(text)
    return any(not skip(body[s:e]) for s, e in sentence_spans(body))


def short_statement(text: str, limit: int, skip: Callable[[str], bool] | None = None) -> str:
    """A one-line statement of the unit: its first sentence (that `skip` does not reject) cut at
    `limit` words, with an ellipsis where cut (word for word, for slides and tables)."""
    first, cut = cut_words(unit_sentences(unit_body(text), skip)[0], limit)
    return first + (" …" if cut else "")
