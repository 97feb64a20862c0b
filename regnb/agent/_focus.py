"""The documents a question is about. When a message names a firm, a product or an identifier and
the search found documents whose own fields or title hold it, those are the subject: the answer
comes from them, and other documents may only appear in a short "See also"."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from regnb.agent._stages import Found, Plan
from regnb.agent._vocab import FIRM_FIELDS, PRODUCT_FIELDS
from regnb.documents.structure import document_kind
from regnb.documents.words import content_words, fold_spaces, stem, word_set, words

__all__ = [
    "MAX_SUBJECTS",
    "distinct_documents",
    "holds_name",
    "leading_guidance",
    "subject_documents",
    "titled_documents",
    "titles_by_meaning",
]

MAX_SUBJECTS = 4
MAX_TITLED = 1
MIN_TITLE_WORDS = 2
TITLE_SHARE = 0.6  # of the words of the shorter of title and question, shared
MANY_TITLE_WORDS, MANY_TITLE_SHARE = 3, 0.45  # or as many words, a smaller share
CODED_WEIGHT = 6.0  # a shared code ("517A") this rare names the guidance by itself
# A guidance whose title means what the question asks, where no title shares its words: the
# best of the guidance found by the question's embedding against each title's, when it is close
# enough and clearly ahead of the next.
MEANING_CANDIDATES = 20
MEANING_FLOOR, MEANING_LEAD = 0.3, 0.05
# Words every guidance title or question about guidance uses: they tell no guidance apart.
_GENERIC_TITLE = frozenset(
    stem(w)
    for w in word_set(
        "guidance industry staff fda food drug administration recommend recommendation "
        "recommendations document draft final medical device devices product products "
        "cfr part subpart section"  # a title's citation ("Under 21 CFR Part 7") tells none apart
    )
)
# A title's date in parentheses: "FDA Form 483 - X (2020-03-30)" is a copy of "… - X" that day.
_DATED = re.compile(r"\s*\(\d{4}-\d{2}-\d{2}\)")
_JOINERS = frozenset({"&", "and", "of", "the", "inc", "llc", "ltd", "co", "corp", "dba"})


def _alnum(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", fold_spaces(text).lower())


def holds_name(text: str, name: str) -> bool:
    """Whether `text` holds every word of `name` (company suffixes and joiners aside)."""
    have = set(words(fold_spaces(text)))
    wanted = [w for w in words(fold_spaces(name)) if w not in _JOINERS]
    return bool(wanted) and all(w in have for w in wanted)


def _holds_identifier(found: Found, ident: str) -> bool:
    key = _alnum(ident)
    if len(key) < 5:
        return False
    values = [found.title, *(str(v) for v in found.fields.values() if v is not None)]
    return any(key in _alnum(v) for v in values)


def _document_identifiers(plan: Plan) -> list[str]:
    """Identifiers that name documents (an application, a site, a trial), not a CFR section."""
    topic = plan.topic
    return [i for i in topic.identifiers if topic.identifier_kinds.get(i) != "cfr"]


def _names_of(found: Found) -> str:
    """The text a firm or product name is looked for in: the firm and product fields, the title."""
    values = [str(found.fields.get(f) or "") for f in (*FIRM_FIELDS, *PRODUCT_FIELDS)]
    return " ".join([found.title, *values])


def titled_documents(found: Sequence[Found], plan: Plan) -> list[Found]:
    """Guidance documents written on what is asked: their title and the question share most of
    the shorter one's words (at least two), best match first."""
    wanted = _asked_title_words(plan)
    if len(wanted) < MIN_TITLE_WORDS:
        return []
    # a rare word of letters and digits the question names ("517A"): a section, a form, a code
    coded = {
        stem(w.lower())
        for w, weight in plan.topic.weights.items()
        if weight >= CODED_WEIGHT and re.fullmatch(r"(?=\w*\d)(?=\w*[a-z])\w{3,}", w.lower())
    }
    scored = []
    for rank, doc in enumerate(found):
        if document_kind(doc.dataset) != "guidance" or doc.weak:
            continue
        have = {
            stem(w) for w in content_words(_title_head(doc.title)) if len(w) > 1 and not w.isdigit()
        } - _GENERIC_TITLE
        shared = len(wanted & have)
        share = shared / max(1, min(len(wanted), len(have)))
        if coded & have:  # "Under 517A…": the guidance on section 517A, whatever else is asked
            scored.append((-1.0 - share, rank, doc))
        elif (shared >= MIN_TITLE_WORDS and share >= TITLE_SHARE) or (
            shared >= MANY_TITLE_WORDS and share >= MANY_TITLE_SHARE
        ):
            scored.append((-share, rank, doc))
    return distinct_documents([doc for _, _, doc in sorted(scored, key=lambda t: t[:2])])[
        :MAX_TITLED
    ]


def titles_by_meaning(
    found: Sequence[Found], plan: Plan, embed: Callable[[Sequence[str]], np.ndarray]
) -> list[Found]:
    """For a question of guidance whose words no title shares ("keeps the investigator waiting"
    for "Delaying, Denying, Limiting, or Refusing a Drug or Device Inspection"): the guidance
    found whose title is nearest the question in meaning (the corpus's encoder), when it is near
    (`MEANING_FLOOR`) and ahead of the next by `MEANING_LEAD`; else none."""
    guidance = distinct_documents(
        [f for f in found if document_kind(f.dataset) == "guidance" and not f.weak]
    )[:MEANING_CANDIDATES]
    if not guidance:
        return []
    vectors = embed([plan.message, *(_title_head(d.title) for d in guidance)])
    near = vectors[1:] @ vectors[0]
    order = np.argsort(-near, kind="stable")
    best = float(near[order[0]])
    second = float(near[order[1]]) if len(order) > 1 else 0.0
    if best < MEANING_FLOOR or best - second < MEANING_LEAD:
        return []
    return [guidance[int(order[0])]]


def leading_guidance(found: Sequence[Found], plan: Plan) -> list[Found]:
    """For a question of the rules that names no guidance ("can we pool units for the BET?"):
    the guidance the search ranks first, when its title shares a word of what is asked
    ("Pyrogen and Endotoxins Testing" for "endotoxin testing: …"); else none. A list of
    guidance ("which guidances…") has no one subject."""
    if plan.ask.lists:
        return []
    first = next((f for f in found if not f.weak), None)
    if first is None or document_kind(first.dataset) != "guidance":
        return []
    have = {stem(w) for w in content_words(_title_head(first.title)) if len(w) > 1}
    return [first] if _asked_title_words(plan) & (have - _GENERIC_TITLE) else []


def _asked_title_words(plan: Plan) -> set[str]:
    """The stems of every word the question weighs that could tell one guidance title from
    another (the words every guidance title uses left out)."""
    terms = [*plan.topic.phrases, *plan.topic.words, *plan.topic.weights]
    return {stem(w) for t in terms for w in content_words(t)} - _GENERIC_TITLE


def _title_head(title: str) -> str:
    """A guidance title without its audience ("…: Guidance for Industry and FDA Staff")."""
    title = re.sub(
        r"^(?:fda\s+)?(?:draft\s+)?guidance(?:\s+for\s+industry)?\s*[:-]\s*",
        "",
        fold_spaces(title),
        flags=re.I,
    )
    return re.split(r"[:;-]\s*(?:draft\s+|final\s+)?guidance\b", title, flags=re.I)[0]


FINDING_KINDS = frozenset({"483", "warning_letter", "crl"})  # documents that list findings


def subject_documents(found: Sequence[Found], plan: Plan) -> list[Found]:
    """The documents the message names (by identifier, firm or product), best first, or else
    the guidance written on what it asks; empty when there are none."""
    if not (_document_identifiers(plan) or plan.topic.names):
        return titled_documents(found, plan)
    out = []
    for doc in found:
        by_id = any(_holds_identifier(doc, i) for i in _document_identifiers(plan))
        by_name = any(holds_name(_names_of(doc), n) for n in plan.topic.names)
        if by_id or by_name:
            out.append(doc)
    if plan.ask.shape == "findings":  # "what did FDA find at X?": its inspections and letters
        out.sort(key=lambda d: document_kind(d.dataset) not in FINDING_KINDS)
    strong = [d for d in out if not d.weak]
    return distinct_documents(strong or out)[:MAX_SUBJECTS] or titled_documents(found, plan)


def distinct_documents(found: Sequence[Found], *, undated: bool = False) -> list[Found]:
    """The documents without copies: a record the corpus holds twice (same dataset, firm or
    title, and date) is kept once, the first (best) one. `undated`: a title with its date in
    parentheses is the title without it, a copy too ("FDA Form 483 - X (2020-03-30)" and "…
    - X", often one scanned and one typed: reading both keeps the readable one, so only what
    is said of them counts them once)."""
    seen: set[tuple[str, str, str]] = set()
    out = []
    for doc in found:
        name = doc.fields.get("company") or doc.fields.get("facility_name")
        if document_kind(doc.dataset) == "guidance":  # "FDA Guidance: X" and "X: Guidance for…"
            name = _title_head(doc.title)
        who = _alnum(str(name or (_DATED.sub("", doc.title) if undated else doc.title)))
        keys = {(doc.dataset, who, str(doc.date or doc.title))}
        number = doc.fields.get("application_number") or doc.fields.get("fei_number")
        if number and doc.date:  # an application's letter of one date, however titled
            keys.add((doc.dataset, _alnum(str(number)), str(doc.date)))
        if not keys & seen:
            seen |= keys
            out.append(doc)
    return out
