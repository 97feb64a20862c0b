"""What of a unit is quoted: its core statement (an observation's or a violation's first sentence,
without its "OBSERVATION 2" or "1." label) and, when the question asks about something the
statement does not say, the sentence of the unit that says it. Every quote is word for word
from the unit as `plain` gives it, so verification can find it there."""

from __future__ import annotations

import re
from collections.abc import Callable

from regnb.agent._rank import Term, keyword_score
from regnb.agent._words import plain, sentence_spans

__all__ = ["Quoted", "core_quotes", "has_substance", "short_statement"]

_LABEL = re.compile(
    r"^\s*(?:[A-Z][A-Z/&,\- ]{2,60}?\s+(?=\(?\d{1,2}[.)]\s))?"  # a section heading before it
    r"(?:OBSERVATION\s+\d+[A-Za-z]?\s*[:.\-–]?|\(?\d{1,2}[.)]|\(?[A-Za-z][.)]|[•▪●◦·*-])\s+",
)
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


class Quoted:
    """The quotes taken from a unit, and how they show (with ellipses where cut)."""

    def __init__(self, parts: list[tuple[str, bool]]) -> None:
        self.parts = parts  # (quote, cut after it)

    @property
    def quotes(self) -> list[str]:
        return [q for q, _ in self.parts]

    @property
    def shown(self) -> str:
        """“first … second” : the parts joined by an ellipsis, one closing if the last is cut."""
        texts = []
        for i, (quote, cut) in enumerate(self.parts):
            last = i == len(self.parts) - 1
            texts.append(quote + (" …" if cut and last else ""))
        return "“" + " … ".join(texts) + "”"


def _body(text: str) -> str:
    """The unit's text without its leading label ("OBSERVATION 3", "2.", "b)", a bullet); a
    record of labelled fields, its reason for recall alone."""
    folded = plain(text)
    reason = _REASON.search(folded)
    if reason and len(_FIELD_LABEL.findall(folded, 0, reason.start())) >= MIN_RECORD_LABELS:
        after = _NEXT_FIELD.search(folded, reason.end())  # the next field ends the reason
        return folded[reason.start() : after.start() if after else len(folded)].rstrip()
    match = _LABEL.match(folded)
    return folded[match.end() :] if match and match.end() < len(folded) else folded


def _cut(text: str, limit: int) -> tuple[str, bool]:
    parts = text.split()
    if len(parts) <= limit:
        return text, False
    return " ".join(parts[:limit]).rstrip(",;:"), True


def _sentences(body: str, skip: Callable[[str], bool] | None = None) -> list[str]:
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


def core_quotes(
    text: str,
    terms: list[Term],
    limit: int,
    skip: Callable[[str], bool] | None = None,
    *,
    lead: bool = True,
) -> Quoted:
    """The statement, then the sentence most about the question when it is another one (both
    within `limit` words); sentences `skip` rejects (furniture) are never quoted. Without
    `lead`, when the statement holds none of the question's words, the sentence most about the
    question comes first (a list of firms: the statement, a regulation's standard wording, is
    the same in every letter)."""
    body = _body(text)
    sentences = _sentences(body, skip)
    if not lead and terms and len(sentences) > 1:
        scored = [(keyword_score(s, terms), -i) for i, s in enumerate(sentences)]
        best = max(range(len(sentences)), key=lambda i: scored[i])
        if best > 0 and scored[best][0] > 0 and scored[0][0] == 0:
            first, cut = _cut(sentences[best], limit)
            return Quoted(
                [_following(body, first, sentences[best + 1 :], limit)]
                if not cut
                else [(first, cut)]
            )
    first, cut = _cut(sentences[0], limit)
    parts = [(first, cut)]
    left = limit - len(first.split())
    if len(sentences) > 1 and terms and left >= MIN_SECOND_WORDS:
        ranked = [(keyword_score(s, terms), -i, s) for i, s in enumerate(sentences[1:])]
        top = max(ranked)
        if top[0] > keyword_score(sentences[0], terms) and top[0] > 0:
            second, second_cut = _cut(top[2], left)
            if body.find(second) == body.find(first) + len(first) + 1:
                joined = body[body.find(first) : body.find(second) + len(second)]
                parts = [(joined, second_cut)]
            else:
                parts.append((second, second_cut))
    if len(parts) == 1 and not cut:
        parts = [_following(body, first, sentences[1:], limit)]
    return Quoted(parts)


def _following(body: str, first: str, rest: list[str], limit: int) -> tuple[str, bool]:
    """The statement and the sentences after it (the specifics), within `limit` words; a
    sentence is cut only when it is the first one added."""
    start = body.find(first)
    end = start + len(first)
    used = len(first.split())
    for i, sentence in enumerate(rest):
        size = len(sentence.split())
        at = body.find(sentence, end)
        if at < 0:
            break
        if used + size > limit:
            if i == 0 and limit - used >= MIN_SECOND_WORDS:
                piece, _ = _cut(sentence, limit - used)
                return body[start : at + len(piece)], True
            return body[start:end], True
        end = at + len(sentence)
        used += size
    return body[start:end], False


def has_substance(text: str, skip: Callable[[str], bool]) -> bool:
    """Whether a unit has a sentence worth quoting (one `skip` does not reject)."""
    body = _body(text)
    return any(not skip(body[s:e]) for s, e in sentence_spans(body))


def short_statement(text: str, limit: int, skip: Callable[[str], bool] | None = None) -> str:
    """A one-line statement of the unit: its first sentence (that `skip` does not reject) cut at
    `limit` words, with an ellipsis where cut (word for word, for slides and tables)."""
    first, cut = _cut(_sentences(_body(text), skip)[0], limit)
    return first + (" …" if cut else "")
