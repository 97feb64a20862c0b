"""Misspelt words of a question's vocabulary put right before it is read: "warning leter",
"inspecton", "guidnace", "respnse" are the words that choose the documents, and a letter
typed wrong should not send the question to the wrong kind of document.

Only the words the understanding rules turn on are corrected (the kinds of document and what
analysts ask of them), and only a word that is none of them, starts with the same letter and is
one edit away (a transposition counts as one; two for words of eight letters or more), by
rapidfuzz's optimal-string-alignment distance; never another form of the same word ("issued",
"reported"), nor a word the corpus uses as often as a real one ("audit trails" is not "audit
trials"). Quotes and every other word are left as typed; "form" is never "firm".
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

from rapidfuzz import process
from rapidfuzz.distance import OSA

__all__ = ["VOCABULARY", "spelled"]

# The words the understanding rules read (`regnb.agent._vocab.DATASET_MEANINGS`, the kinds of
# question), spelled right. Short words are left out: at four letters one edit reaches a real
# word too often ("form"/"firm", "wls"/"was").
VOCABULARY = frozenset(
    [
        "warning",
        "letter",
        "letters",
        "complete",
        "response",
        "responses",
        "guidance",
        "guidances",
        "recall",
        "recalls",
        "recalled",
        "inspection",
        "inspections",
        "inspected",
        "observation",
        "observations",
        "enforcement",
        "report",
        "reports",
        "approval",
        "approvals",
        "approved",
        "clearance",
        "cleared",
        "adverse",
        "event",
        "events",
        "malfunction",
        "malfunctions",
        "deficiency",
        "deficiencies",
        "violation",
        "violations",
        "classification",
        "classifications",
        "premarket",
        "notification",
        "submission",
        "submissions",
        "clinical",
        "trials",
        "compounding",
        "compounder",
        "compounders",
        "pharmacy",
        "pharmacies",
        "outsourcing",
        "facility",
        "facilities",
        "manufacturer",
        "manufacturers",
        "issues",
        "findings",
        "observed",
        "cited",
    ]
)
MIN_LENGTH = 5
LONG = 8  # a word this long may be two edits away
RARE = 0.02  # a word on fewer pages than this share of its correction's is a misspelling
_WORD = re.compile(r"[A-Za-z]+")
_ENDINGS = re.compile(r"(?:ies|es|s|ed|d|ing|er|ers|y)$")

Frequency = Callable[[Sequence[str]], dict[str, float]]


def _same_word(a: str, b: str) -> bool:
    """Whether one is another form of the other ("issued", "issues"; "reported", "report")."""
    return _ENDINGS.sub("", a) == _ENDINGS.sub("", b)


@functools.lru_cache(maxsize=4096)
def _closest(lowered: str) -> str | None:
    limit = 2 if len(lowered) >= LONG else 1
    candidates = [  # in one order everywhere: of two as near, the same one on any machine
        v for v in sorted(VOCABULARY) if v[0] == lowered[0] and abs(len(v) - len(lowered)) <= limit
    ]
    best = process.extractOne(lowered, candidates, scorer=OSA.distance, score_cutoff=limit)
    if best is None or _same_word(lowered, best[0]):
        return None
    right: str = best[0]
    return right


def _correction(word: str, df: Frequency | None) -> str | None:
    lowered = word.lower()
    if len(lowered) < MIN_LENGTH or lowered in VOCABULARY:
        return None
    right = _closest(lowered)
    if right is None:
        return None
    if df is not None:
        shares = df([lowered, right])
        if shares.get(lowered, 0.0) >= RARE * shares.get(right, 0.0) > 0:
            return None  # a word of its own in this corpus
    return right.capitalize() if word[0].isupper() else right


def spelled(message: str, df: Frequency | None = None) -> str:
    """The message with its misspelt vocabulary words put right; text inside quotes as typed.
    `df` (the share of the corpus's pages holding each word) keeps the words the corpus uses.

    >>> spelled("Did Edge Pharma get a warning leter after its inspecton?")
    'Did Edge Pharma get a warning letter after its inspection?'
    >>> spelled('guidnace on "recal" wording')
    'guidance on "recal" wording'
    """
    out: list[str] = []
    at = 0
    quoted = {i for m in re.finditer(r"\"[^\"]*\"|“[^”]*”", message) for i in range(*m.span())}
    for match in _WORD.finditer(message):
        fixed = None if match.start() in quoted else _correction(match.group(), df)
        out.append(message[at : match.start()])
        out.append(fixed or match.group())
        at = match.end()
    out.append(message[at:])
    return "".join(out)
