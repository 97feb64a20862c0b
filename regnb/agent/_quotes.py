"""What of a unit is quoted: its core statement (an observation's or a violation's first sentence,
without its "OBSERVATION 2" or "1." label) and, when the question asks about something the
statement does not say, the sentence of the unit that says it. Every quote is word for word
from the unit as `plain` gives it, so verification can find it there."""

from __future__ import annotations

from collections.abc import Callable

from regnb.agent._rank import Term, keyword_score
from regnb.documents.statements import MIN_SECOND_WORDS
from regnb.documents.statements import cut_words as _cut
from regnb.documents.statements import unit_body as _body
from regnb.documents.statements import unit_sentences as _sentences

__all__ = ["Quoted", "core_quotes"]


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
