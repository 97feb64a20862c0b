"""The documents a question is about. When a message names a firm, a product or an identifier and
the search found documents whose own fields or title hold it, those are the subject: the answer
comes from them, and other documents may only appear in a short "See also"."""

from __future__ import annotations

import re
from collections.abc import Sequence

from regnb.agent.plan import Plan
from regnb.agent.searching import Found
from regnb.agent.structure import document_kind
from regnb.agent.vocab import FIRM_FIELDS, PRODUCT_FIELDS
from regnb.agent.words import content_words, fold, stem, words

__all__ = [
    "MAX_SUBJECTS",
    "distinct_documents",
    "holds_name",
    "subject_documents",
    "titled_documents",
]

MAX_SUBJECTS = 4
MAX_TITLED = 2
MIN_TITLE_WORDS = 2
TITLE_SHARE = 0.75  # of the question's words a guidance's title must hold
_JOINERS = frozenset({"&", "and", "of", "the", "inc", "llc", "ltd", "co", "corp", "dba"})


def _alnum(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", fold(text).lower())


def holds_name(text: str, name: str) -> bool:
    """Whether `text` holds every word of `name` (company suffixes and joiners aside)."""
    have = set(words(fold(text)))
    wanted = [w for w in words(fold(name)) if w not in _JOINERS]
    return bool(wanted) and all(w in have for w in wanted)


def _holds_identifier(found: Found, ident: str) -> bool:
    key = _alnum(ident)
    if len(key) < 5:
        return False
    values = [found.title, *(str(v) for v in found.fields.values() if v is not None)]
    return any(key in _alnum(v) for v in values)


def _document_identifiers(plan: Plan) -> list[str]:
    """Identifiers that name documents (an application, a site, a trial), not a CFR section."""
    return [i for i in plan.identifiers if plan.identifier_kinds.get(i) != "cfr"]


def _names_of(found: Found) -> str:
    """The text a firm or product name is looked for in: the firm and product fields, the title."""
    values = [str(found.fields.get(f) or "") for f in (*FIRM_FIELDS, *PRODUCT_FIELDS)]
    return " ".join([found.title, *values])


def titled_documents(found: Sequence[Found], plan: Plan) -> list[Found]:
    """Guidance documents whose title holds every term of the question (at least two words):
    a guidance written on what is asked."""
    terms = [*plan.phrases, *plan.words]
    if sum(len(words(t)) for t in terms) < MIN_TITLE_WORDS:
        return []
    wanted = {stem(w) for t in terms for w in content_words(t)}
    out = []
    for doc in found:
        have = {stem(w) for w in content_words(fold(doc.title))}
        share = len(wanted & have) / max(1, len(wanted))
        if document_kind(doc.dataset) == "guidance" and not doc.weak and share >= TITLE_SHARE:
            out.append(doc)
    return distinct_documents(out)[:MAX_TITLED]


def subject_documents(found: Sequence[Found], plan: Plan) -> list[Found]:
    """The documents the message names (by identifier, firm or product), best first, or else
    the guidance written on what it asks; empty when there are none."""
    if not (_document_identifiers(plan) or plan.names):
        return titled_documents(found, plan)
    out = []
    for doc in found:
        by_id = any(_holds_identifier(doc, i) for i in _document_identifiers(plan))
        by_name = any(holds_name(_names_of(doc), n) for n in plan.names)
        if by_id or by_name:
            out.append(doc)
    strong = [d for d in out if not d.weak]
    return distinct_documents(strong or out)[:MAX_SUBJECTS] or titled_documents(found, plan)


def distinct_documents(found: Sequence[Found]) -> list[Found]:
    """The documents without copies: a record the corpus holds twice (same dataset, firm or
    title, and date) is kept once, the first (best) one."""
    seen: set[tuple[str, str, str]] = set()
    out = []
    for doc in found:
        who = _alnum(str(doc.fields.get("company") or doc.fields.get("facility_name") or doc.title))
        key = (doc.dataset, who, str(doc.date or doc.title))
        if key not in seen:
            seen.add(key)
            out.append(doc)
    return out
