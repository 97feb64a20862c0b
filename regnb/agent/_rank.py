"""Ranking passages: keyword evidence of a text for the plan's terms, the blend with the query
embedding, and maximal marginal relevance to drop near-duplicates. Pure functions."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from regnb.agent._stages import Plan
from regnb.agent._vocab import FOCUS_WORDS
from regnb.documents.words import content_words, stem, words

__all__ = [
    "Term",
    "blend",
    "document_terms",
    "focus_terms",
    "holds_asked",
    "keyword_score",
    "mmr",
    "part_terms",
    "plan_terms",
    "question_parts",
]

COSINE_SHARE = 0.5
KEYWORD_SHARE = 0.35
PRIOR_SHARE = 0.15
WEAK_FACTOR = 0.75
FOCUS_WEIGHT = 0.3
SOFT_SHARE = 0.5  # a word on many pages counts half its inverse frequency
DUPLICATE = 0.92


@dataclass(frozen=True)
class Term:
    """A term of the plan, how much it counts, and how a text is tested for it."""

    text: str
    weight: float
    pattern: re.Pattern[str] | None = None
    stems: frozenset[str] = frozenset()
    anchor: bool = False  # an identifier or a name: the document as a whole may hold it

    def found_in(self, text: str, text_stems: set[str]) -> bool:
        if self.pattern is not None:
            return bool(self.pattern.search(text))
        return bool(self.stems) and self.stems <= text_stems


def _alnum(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", text.lower())


def _phrase_pattern(phrase: str) -> re.Pattern[str]:
    parts = [re.escape(w) for w in words(phrase)]
    return re.compile(r"\b" + r"\w{0,3}[\s-]+".join(parts) + r"\w{0,3}\b", re.IGNORECASE)


def _identifier_pattern(ident: str) -> re.Pattern[str]:
    """Letters and digits of the identifier in order, any punctuation or spaces between them."""
    chars = [re.escape(c) for c in _alnum(ident)]
    return re.compile(r"(?<![0-9a-z])" + r"[^0-9a-z]{0,3}".join(chars), re.IGNORECASE)


def holds_asked(sentence: str, asked: Sequence[Term]) -> bool:
    """Whether a sentence holds every term of what is asked (not of whom): such a sentence is the
    question's subject even where a dataset repeats it ("X recalled Y because of listeria" in
    every listeria recall), so it is never its standard wording."""
    subject = [t for t in asked if not t.anchor]
    return bool(subject) and keyword_score(sentence, subject) >= 1.0


def plan_terms(plan: Plan) -> list[Term]:
    """Every term of the plan (and the follow-up's required ones) with its weight."""
    topic = plan.topic
    terms: list[Term] = []
    for ident in topic.identifiers:
        pattern = _identifier_pattern(ident)
        terms.append(Term(ident, topic.weight(ident), pattern=pattern, anchor=True))
    for name in topic.names:
        stems_ = frozenset(stem(w) for w in content_words(name))
        terms.append(Term(name, topic.weight(name), stems=stems_, anchor=True))
    for phrase in [*topic.phrases, *topic.pairs]:
        terms.append(Term(phrase, topic.weight(phrase) * 1.2, pattern=_phrase_pattern(phrase)))
    for word in topic.words:
        terms.append(Term(word, topic.weight(word), stems=frozenset({stem(word)})))
    for word in topic.soft_words:
        terms.append(Term(word, topic.weight(word) * SOFT_SHARE, stems=frozenset({stem(word)})))
    for example in topic.examples:  # one of several alternatives: a passage holding it all
        stems_ = frozenset(stem(w) for w in content_words(example))
        if stems_:
            terms.append(Term(example, topic.weight(example) * SOFT_SHARE, stems=stems_))
    for extra in plan.follow_up.require:
        if all(t.text != extra for t in terms):
            terms.append(Term(extra, 2.0, stems=frozenset(stem(w) for w in content_words(extra))))
    return terms


# Where a question of several parts breaks: a question mark, a semicolon, a dash between words,
# or "and"/"also" before a question word ("…pool units for the BET, and if we switch methods
# what submission…"; "…in one PMA - and which user fee applies? also can…").
_PART_BREAK = re.compile(
    r"\?+\s*|;\s*|\s[-\u2013\u2014]+\s|,?\s+(?:and|also|plus|then)\s+(?=(?:if|what|which|how|"
    r"when|whether|can|could|does|do|did|is|are|should|must|who|where|why|also)\b)|\balso\b,?",
    re.IGNORECASE,
)
_HEADER = re.compile(r"^\s*([^:?]{3,60}):\s+(?=\S)")  # "Endotoxin testing: can we…" names the topic


def question_parts(message: str) -> list[str]:
    """The parts of a question that asks several things, each with the header every part shares
    ("Handheld x-ray units: what leakage limit… and what…"); one part when it asks one."""
    header = _HEADER.match(message)
    head, body = (header.group(1), message[header.end() :]) if header else ("", message)
    parts = [p.strip(" ,.-") for p in _PART_BREAK.split(body)]
    parts = [p for p in parts if len(content_words(p)) >= 2]
    return [f"{head}: {p}" if head else p for p in parts] or [message]


def part_terms(terms: Sequence[Term], message: str) -> list[list[Term]]:
    """The terms of each part of the question (`question_parts`): a term belongs to the parts
    whose words hold it, and one no part holds (an expanded acronym) to every part. One list,
    all the terms, when the question asks one thing."""
    parts = question_parts(message)
    if len(parts) < 2:
        return [list(terms)]
    held = []
    for part in parts:
        stems_ = {stem(w) for w in content_words(part)}
        held.append([t for t in terms if t.found_in(part, stems_)])
    placed = {id(t) for part in held for t in part}
    out = [[*part, *(t for t in terms if id(t) not in placed)] for part in held]
    return out if sum(1 for part in held if part) >= 2 else [list(terms)]


def keyword_score(text: str, terms: Sequence[Term], given: Sequence[Term] = ()) -> float:
    """The weighted share of the plan's terms that the text holds (0 to 1). `given` terms (a
    firm or identifier that the document's title or fields already name) are left out: every
    block of that document holds them, so they tell its blocks nothing."""
    counted = [t for t in terms if t not in given]
    total = sum(t.weight for t in counted)
    if total <= 0:
        return 0.0
    text_stems = {stem(w) for w in content_words(text)}
    return sum(t.weight for t in counted if t.found_in(text, text_stems)) / total


def document_terms(terms: Sequence[Term], title: str, fields: Mapping[str, object]) -> list[Term]:
    """The identifier and name terms that a document's title or fields hold."""
    text = " ".join([title, *(str(v) for v in fields.values() if isinstance(v, str))])
    text_stems = {stem(w) for w in content_words(text)}
    return [t for t in terms if t.anchor and t.found_in(text, text_stems)]


def focus_terms(dataset: str) -> list[Term]:
    """Light terms that mark the substance of the dataset's documents."""
    return [
        Term(w, FOCUS_WEIGHT, stems=frozenset({stem(w)}))
        for w in FOCUS_WORDS.get(dataset, "").split()
    ]


def blend(
    cosine: np.ndarray, keyword: np.ndarray, prior: np.ndarray, weak: np.ndarray
) -> np.ndarray:
    """One score per passage: meaning, keyword evidence and the document's search rank, with
    passages of loosened matches counted as weaker evidence."""
    score = COSINE_SHARE * cosine + KEYWORD_SHARE * keyword + PRIOR_SHARE * prior
    return np.where(weak, score * WEAK_FACTOR, score)


def mmr(
    scores: np.ndarray,
    vectors: np.ndarray,
    k: int,
    *,
    groups: Sequence[str] | None = None,
    per_group: int = 3,
    lam: float = 0.7,
    duplicates_across_groups: bool = False,
) -> list[int]:
    """Indices of up to `k` items chosen by maximal marginal relevance; an item nearly equal to
    one already chosen (cosine ≥ 0.92) is never chosen (unless `duplicates_across_groups` and
    the two are of different groups: the same words in two firms' letters attest both; then
    only items of its own group count against it), nor more than `per_group` per group."""
    chosen: list[int] = []
    counts: dict[str, int] = {}
    candidates = list(np.argsort(-scores, kind="stable"))
    while candidates and len(chosen) < k:
        best, best_value = -1, -np.inf
        for i in candidates:
            if groups is not None and counts.get(groups[i], 0) >= per_group:
                continue
            similarity = float(np.max(vectors[chosen] @ vectors[i])) if chosen else 0.0
            if similarity >= DUPLICATE and not (
                duplicates_across_groups and _only_other_groups(chosen, i, vectors, groups)
            ):
                continue
            if duplicates_across_groups and groups is not None:
                # the same finding at another firm is new evidence: no penalty across groups
                same = [j for j in chosen if groups[j] == groups[i]]
                similarity = float(np.max(vectors[same] @ vectors[i])) if same else 0.0
            value = lam * float(scores[i]) - (1 - lam) * similarity
            if value > best_value:
                best, best_value = int(i), value
        if best < 0:
            break
        chosen.append(best)
        candidates.remove(best)
        if groups is not None:
            counts[groups[best]] = counts.get(groups[best], 0) + 1
    return chosen


def _only_other_groups(
    chosen: list[int], i: int, vectors: np.ndarray, groups: Sequence[str] | None
) -> bool:
    """Whether every chosen item nearly equal to item `i` is of another group."""
    if groups is None:
        return False
    near = [j for j in chosen if float(vectors[j] @ vectors[i]) >= DUPLICATE]
    return all(groups[j] != groups[i] for j in near)
