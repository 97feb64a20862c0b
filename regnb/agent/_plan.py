"""A message planned into searches: keyword items (identifiers, phrases, names, weighted content
words), datasets, dates, requested formats. The `Plan` (`regnb.agent._stages`) is JSON-able and
kept in the turn's state, so that a follow-up can narrow or reuse it."""

from __future__ import annotations

import datetime as dt
import itertools
import math
import re
from collections.abc import Callable, Sequence

from regnb.agent._shape import QUALIFIES, question_shape
from regnb.agent._spelling import spelled
from regnb.agent._stages import Ask, Plan, Scope, Topic
from regnb.agent._understand import FirmLookup, understand
from regnb.agent._vocab import (
    ACRONYMS,
    FILE_WORDS,
    FORMAT_WORDS,
    IDENTIFIERS,
    PHRASES,
    REPORT_WORDS,
    WHICH_FIRMS,
)
from regnb.catalog import Catalog
from regnb.documents.words import (
    QUESTION_WORDS,
    blank,
    content_words,
    sentences,
    stem,
    word_set,
    words,
)

__all__ = [
    "MAX_DF",
    "enum_filters",
    "plan_message",
    "searchable_datasets",
    "steering",
]

MAX_DF = 0.25  # a word on more pages than this share steers nothing
MAX_POINTER_WORDS = 6  # a user's pointer of at most this many words is searched as a phrase
MAX_WORDS = 5
# Enum values too common in questions to read as a filter.
VAGUE_ENUM_VALUES = frozenset(
    {
        "other",
        "unknown",
        "na",
        "review",
        "label",
        "food",
        "drugs",
        "devices",
        "biologics",
        "completed",
        "final",
        "draft",
        "pending",
        "approval_letter",
    }
)
IDENTIFIER_WEIGHT = 8.0
NAME_WEIGHT = 5.0
FORMAT_STOP = FILE_WORDS | word_set(
    "put export create make generate produce attach include save send draw build prepare"
)


def searchable_datasets(catalog: Catalog, plan_name: str) -> list[str]:
    """The datasets an account on `plan_name` can search."""
    return [
        d.id for d in catalog if d.available and (plan_name == "enterprise" or not d.enterprise)
    ]


def _formats(message: str) -> tuple[list[str], str]:
    """Requested formats, and the message without the sentences that only ask for them."""
    lowered = message.lower()
    found = [fmt for pattern, fmt in FORMAT_WORDS if re.search(pattern, lowered)]
    if not found and re.search(REPORT_WORDS, lowered):
        found = ["text"]
    parts = sentences(message)
    if found and len(parts) > 1:
        kept = [
            s
            for s in parts
            if not (
                any(re.search(p, s.lower()) for p, _ in FORMAT_WORDS)
                or re.search(REPORT_WORDS, s.lower())
            )
        ]
        if kept:
            message = " ".join(kept)
    return list(dict.fromkeys(found)), message


def _enum_value_pattern(value: str) -> str:
    """ "phase3" reads "phase 3", "de_novo" "de novo", "510k" "510(k)"."""
    spaced = re.sub(r"(?<=[a-z])(?=\d)", " ", value.lower().replace("_", " "))
    parts = [
        re.escape(p).replace("k", r"\(?k\)?") if p == "510k" else re.escape(p)
        for p in spaced.split()
    ]
    return r"\b" + r"[\s-]*".join(parts) + r"\b"


def enum_filters(
    text: str, datasets: Sequence[str], catalog: Catalog
) -> tuple[dict[str, dict[str, str]], list[tuple[int, int]]]:
    """Catalog enum values the text names ("OAI", "Class I", "phase 3", "death"), as filters of
    the planned datasets that list them; and where the text names them."""
    out: dict[str, dict[str, str]] = {}
    spans: list[tuple[int, int]] = []
    for ds in datasets:
        for name, spec in catalog[ds].filters.items():
            for value in spec.get("enum") or []:
                if str(value).lower() in VAGUE_ENUM_VALUES:
                    continue
                match = re.search(_enum_value_pattern(str(value)), text.lower())
                if match:
                    out.setdefault(ds, {}).setdefault(name, str(value))
                    spans.append(match.span())
    return out, spans


def _identifiers(text: str) -> tuple[list[str], dict[str, str], str]:
    """Identifiers found whole, their kinds, and the text without them."""
    found: dict[str, str] = {}
    for pattern, kind in IDENTIFIERS:
        for match in re.finditer(pattern, text, flags=re.IGNORECASE if kind == "cfr" else 0):
            value = " ".join(match.group(1).split())
            found.setdefault(value, kind)
            text = blank(text, match.start(), match.end())
    return list(found), found, text


# Words the user quotes ("'live well with'", “adequate controls”): searched as they are written.
QUOTED = re.compile(r"[\"“]([^\"“”]{3,80})[\"”]|(?<![\w'’])['‘]([^'‘’]{3,80})['’](?![\w'’])")


def _quoted(text: str) -> tuple[list[str], str]:
    """The phrases of two to MAX_POINTER_WORDS words the message quotes, and the text without
    them."""
    found = []
    for match in QUOTED.finditer(text):
        quoted = " ".join(words(match.group(1) or match.group(2)))
        if 2 <= len(quoted.split()) <= MAX_POINTER_WORDS:
            found.append(quoted)
            text = blank(text, match.start(), match.end())
    return found, text


def _phrases(text: str) -> tuple[list[str], str]:
    """The field's multi-word terms found in the text (longest first), and the text without them."""
    found = []
    lowered = text.lower()
    for phrase in sorted(PHRASES, key=len, reverse=True):
        pattern = r"\b" + r"[\s-]+".join(map(re.escape, re.split(r"[\s-]+", phrase))) + r"\b"
        for match in re.finditer(pattern, lowered):
            found.append(phrase)
            text = blank(text, match.start(), match.end())
            lowered = text.lower()
    return list(dict.fromkeys(found)), text


def _expansions(message: str, phrases: list[str]) -> list[str]:
    """The phrases the message's acronyms stand for ("CAPA": "corrective and preventive
    action"), searched beside them."""
    found = {w.lower().strip("()") for w in re.findall(r"\b[A-Za-z]{2,6}s?\b", message)}
    lowered = " ".join(words(message))
    out = [
        phrase
        for acronym, phrase in ACRONYMS.items()
        if acronym in found and phrase not in phrases and acronym.upper() in message.upper()
    ]
    out += [  # and the acronym for a phrase spelled out ("medical device reports": "MDR")
        acronym
        for acronym, phrase in ACRONYMS.items()
        if " ".join(words(phrase)) in lowered and acronym not in found and len(acronym) >= 3
    ]
    return list(dict.fromkeys(out))


def _pairs(text: str, kept: set[str]) -> list[str]:
    """Adjacent content words with nothing between them: candidates for a data-driven phrase."""
    out = []
    for chunk in re.split(r"[^\w\s-]|\s{2,}", text):
        tokens = words(chunk)
        for a, b in itertools.pairwise(tokens):
            if a in kept and b in kept:
                out.append(f"{a} {b}")
    return list(dict.fromkeys(out))


def _idf(share: float) -> float:
    return math.log(1.0 / max(share, 1e-4))


def _weigh(
    terms: Sequence[str], df: Callable[[Sequence[str]], dict[str, float]]
) -> dict[str, float]:
    """Inverse document frequency of each phrase (its rarest word) and of each of its words
    (a reformulated search splits a phrase into the words that steer)."""
    singles = sorted({w for t in terms for w in content_words(t)})
    shares = df(singles) if singles else {}
    weights = {w: _idf(shares.get(w, 0.0)) for w in singles}
    for term in terms:
        parts = content_words(term) or [term]
        weights[term] = _idf(min(shares.get(w, 0.0) for w in parts))
    return weights


def steering(plan: Plan, phrase: str, max_df: float = MAX_DF) -> list[str]:
    """The words of a phrase that are on at most `max_df` of the pages."""
    weights = plan.topic.weights
    return [w for w in content_words(phrase) if weights.get(w, _idf(0.0)) >= _idf(max_df)]


# Phrases that ask rather than say what: "what went wrong at each?", "how fast does CDRH have
# to decide?", "does an AI letter count too?".
_FRAMES = re.compile(
    r"\b(?:went|go|goes|gone|going)\s+wrong\b|\bhow\s+(?:long|fast|soon|quickly)\b"
    rf"|\bcounts?\s+{QUALIFIES}\b",
    re.IGNORECASE,
)


def _topic_words(
    text: str, df: Callable[[Sequence[str]], dict[str, float]]
) -> tuple[list[str], list[str], dict[str, float], list[str]]:
    """Content words, rarest first; those on more than MAX_DF of the pages apart (they steer no
    search, and count only a little when passages and titles are ranked); adjacent pairs."""
    text = _FRAMES.sub(" ", text)
    candidates = [
        w
        for w in content_words(text, QUESTION_WORDS | FORMAT_STOP)
        if not (w.isdigit() and len(w) < 3)
    ]
    unique: dict[str, str] = {}
    for w in candidates:
        unique.setdefault(stem(w), w)
    ordered = list(unique.values())
    shares = df(ordered) if ordered else {}
    kept = [w for w in ordered if shares.get(w, 0.0) <= MAX_DF]
    if not kept and ordered:
        kept = [min(ordered, key=lambda w: shares.get(w, 0.0))]
    kept.sort(key=lambda w: shares.get(w, 0.0) if shares.get(w, 0.0) > 0 else 1.0)
    soft = [w for w in ordered if w not in kept][:MAX_WORDS]
    weights = {w: _idf(shares.get(w, 0.0)) for w in [*kept, *soft]}
    return kept[:MAX_WORDS], soft, weights, _pairs(text, set(ordered))


def plan_message(
    message: str,
    *,
    catalog: Catalog,
    plan_name: str,
    today: dt.date,
    df: Callable[[Sequence[str]], dict[str, float]],
    firms: FirmLookup | None = None,
) -> Plan:
    """Plan one message on its own (follow-ups are planned in `followup`): the message is
    understood first (`regnb.agent._understand`: its firms, places, datasets, periods, kind and
    pointers), then its remaining words are weighed as the topic. `firms`: the corpus's firms by
    name (None: capitalised names are kept as names)."""
    formats, text = _formats(message)
    text = spelled(text, df)  # "warning leter": the letter asked about, searched as such
    query = " ".join(text.split())
    understood = understand(text, datasets=[d.id for d in catalog], today=today, firms=firms, df=df)
    periods = understood.periods if len(understood.periods) == 2 else ()
    dates = understood.periods[0] if len(understood.periods) == 1 else None
    for pattern, _ in FORMAT_WORDS:
        for match in re.finditer(pattern, text.lower()):
            text = blank(text, match.start(), match.end())
    before = text
    named = list(understood.datasets or ())
    weak = understood.weak
    searchable = searchable_datasets(catalog, plan_name)
    chosen = [d for d in named if d in searchable] if named else searchable
    filters, spans = enum_filters(before, chosen, catalog)
    rest = understood.rest
    for start, end in spans:
        rest = blank(rest, start, end)
    for pattern, _ in FORMAT_WORDS:
        for match in re.finditer(pattern, rest.lower()):
            rest = blank(rest, match.start(), match.end())
    identifiers, kinds, _ = _identifiers(text)
    names = [f.name for f in understood.firms] + list(understood.names)
    quoted, rest = _quoted(rest)
    phrases, rest = _phrases(rest)
    phrases = list(dict.fromkeys([*quoted, *phrases]))
    phrases += _expansions(message, phrases)
    for pointer in understood.pointers:
        if pointer not in phrases and len(pointer.split()) <= MAX_POINTER_WORDS:
            phrases.append(pointer)
    topic, soft, weights, pairs = _topic_words(rest, df)
    weights |= _weigh([*phrases, *understood.examples], df)
    weights |= {i: IDENTIFIER_WEIGHT for i in identifiers}
    weights |= {n: NAME_WEIGHT for n in names}
    unsearchable = {
        d: ("not_available" if not catalog[d].available else "forbidden")
        for d in named
        if d not in searchable
    }
    asked = message
    if tuple(chosen) == ("fda_guidance",):  # "who writes it?" of a guidance: what it says
        asked = re.sub(r"\bwho\b", "", message, flags=re.IGNORECASE)
    return Plan(
        message=message,
        query=query or message,
        topic=Topic(
            identifiers=tuple(identifiers),
            identifier_kinds=kinds,
            names=tuple(dict.fromkeys(names)),
            phrases=tuple(phrases),
            words=tuple(topic),
            soft_words=tuple(soft),
            pairs=tuple(pairs),
            weights=weights,
            firms=tuple(f.name for f in understood.firms),
            corpus_firms={f.name: f.known for f in understood.firms if f.known},
            firm_places={f.name: f.place.code for f in understood.firms if f.place},
            examples=understood.examples,
        ),
        scope=Scope(
            datasets=tuple(chosen),
            named_datasets=tuple(named),
            weakly_named=weak,
            unsearchable=unsearchable,
            dates=dates,
            filters=filters,
            places_in=tuple(p.code for p in understood.places.include),
            places_out=tuple(p.code for p in understood.places.exclude),
        ),
        ask=Ask(
            shape="compare" if periods else question_shape(asked),
            which_firms=bool(WHICH_FIRMS.search(asked)),
            periods=tuple(periods),
            formats=tuple(formats),
            kind=understood.kind,
            kind_said=understood.strong_kind,
            pointers=understood.pointers,
            wants=understood.wants,
        ),
    )
