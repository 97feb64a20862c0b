"""A message planned against the conversation so far: a reply to a clarifying question is planned
together with the question's message; a follow-up ("only those in California", "since 2020",
"more", "put them in a spreadsheet") narrows or reuses the previous turn's plan."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from typing import Any

from regnb.agent._plan import Plan, plan_message
from regnb.agent.types import PriorTurn
from regnb.catalog import Catalog

__all__ = ["continues_subject", "is_follow_up", "plan_turn", "turn_state"]

REFERENCES = re.compile(
    r"\b(?:those|them|these|they|their|theirs|it|its|same|such|above|previous|earlier)\b",
    re.IGNORECASE,
)
NARROW = re.compile(r"\b(?:only|just|exclusively|limit(?:ed)?\s+to|restrict(?:ed)?\s+to)\b", re.I)
SWITCH = re.compile(r"^\s*(?:and\s+|what\s+about\s+|how\s+about\s+|now\s+|instead\s+)", re.I)
# A short question that names no document of its own continues the conversation's subject
# ("What did FDA ask for about ARIA?" after a question about one letter).
CONTINUES = re.compile(
    r"^\s*(?:and\s+|so\s+|then\s+)?(?:what|why|how|which|when|who|did|does|do|was|were|is|are|"
    r"were there|any)\b",
    re.I,
)
CONTINUE_WORDS = 12
ACRONYM = re.compile(r"\b[A-Z]{2,}s?\b")  # "ARIA", "SBOMs": what the follow-up asks about
MORE = re.compile(r"^\s*(?:(?:show|give|find|list)\s+(?:me\s+)?)?more\b|\bany\s+others?\b", re.I)


def _planner(
    catalog: Catalog,
    plan_name: str,
    today: dt.date,
    df: Callable[[Sequence[str]], dict[str, float]],
) -> Callable[[str], Plan]:
    return lambda text: plan_message(text, catalog=catalog, plan_name=plan_name, today=today, df=df)


def is_follow_up(message: str, new: Plan) -> bool:
    """A message that refers to the previous answer, narrows it, or asks nothing of its own."""
    if REFERENCES.search(message) or NARROW.search(message) or SWITCH.search(message):
        return True
    if MORE.search(message):
        return True
    return not (new.identifiers or new.names or new.phrases or new.words)


def continues_subject(message: str, new: Plan, previous: Plan) -> bool:
    """A short question with no identifier and no dataset of its own, after a turn about named
    firms, products or documents: it asks about the same ones."""
    subject = previous.names or [
        i for i in previous.identifiers if previous.identifier_kinds.get(i) != "cfr"
    ]
    return bool(
        subject
        and not new.identifiers
        and not new.named_datasets
        and len(message.split()) <= CONTINUE_WORDS
        and CONTINUES.search(message)
    )


def _last_answered(history: list[PriorTurn]) -> PriorTurn | None:
    for turn in reversed(history):
        if turn.status == "completed" and turn.state.get("plan"):
            return turn
    return None


def _merge(
    previous: Plan, new: Plan, message: str, state: dict[str, Any], history: list[PriorTurn]
) -> Plan:
    """The previous plan, changed by what the follow-up says."""
    merged = Plan.from_dict(previous.to_dict())
    merged.message = message
    merged.query = f"{previous.query} {new.query}".strip()
    merged.formats = new.formats
    merged.exclude_documents = []
    merged.restrict_documents = []
    merged.subjects = []
    if new.date_from or new.date_to:
        merged.date_from, merged.date_to, merged.date_text = (
            new.date_from,
            new.date_to,
            new.date_text,
        )
    if new.named_datasets:
        merged.datasets, merged.named_datasets = new.datasets, new.named_datasets
        merged.unsearchable, merged.weakly_named = new.unsearchable, new.weakly_named
    for ds, filters in new.filters.items():
        if ds in merged.datasets:
            merged.filters[ds] = {**merged.filters.get(ds, {}), **filters}
    topic = [*new.identifiers, *new.names, *new.phrases, *new.words]
    refers = bool(REFERENCES.search(message))
    if refers:
        merged.restrict_documents = list(state.get("documents", []))
    if MORE.search(message):
        merged.exclude_documents = _cited(history)
    if topic and (refers or NARROW.search(message)):
        merged.require = list(dict.fromkeys([*previous.require, *topic]))
        merged.weights = {**previous.weights, **new.weights}
    elif topic and SWITCH.search(message) and (new.names or new.identifiers):
        _switch(merged, previous, new)  # "what about Baxter?": another firm
    elif topic and (
        continues_subject(message, new, previous) or not (new.names or new.identifiers)
    ):
        _same_subject(merged, new)
        merged.subjects = list(state.get("subjects", []))  # the documents it was about
    elif topic and SWITCH.search(message):
        _switch(merged, previous, new)
    return merged


def _switch(merged: Plan, previous: Plan, new: Plan) -> None:
    """The follow-up's own firms, identifiers and topic instead of the previous turn's, in its
    datasets and dates."""
    merged.identifiers, merged.names = new.identifiers, new.names
    merged.identifier_kinds = new.identifier_kinds
    merged.phrases, merged.words, merged.pairs = new.phrases, new.words, new.pairs
    merged.soft_words = new.soft_words
    merged.weights, merged.filters, merged.require = new.weights, {}, []
    merged.query = new.query
    merged.which_firms = previous.which_firms or new.which_firms


def _same_subject(merged: Plan, new: Plan) -> None:
    """The follow-up's topic about the previous turn's firms, products and documents: its own
    capitalised words ("ARIA") are words of the topic, not other firms."""
    extra = [w for n in new.names for w in n.lower().split()]
    extra += [w.lower() for w in ACRONYM.findall(merged.message) if w.lower() in new.words]
    merged.phrases = new.phrases
    merged.words = list(dict.fromkeys([*new.words, *extra]))
    merged.pairs, merged.soft_words = new.pairs, new.soft_words
    merged.weights = {**merged.weights, **new.weights, **{w: 5.0 for w in extra}}
    merged.query = f"{' '.join(merged.names)} {new.query}".strip()
    merged.require = []
    merged.shape = new.shape if new.shape != "general" else merged.shape


def plan_turn(
    message: str,
    history: list[PriorTurn],
    *,
    catalog: Catalog,
    plan_name: str,
    today: dt.date,
    df: Callable[[Sequence[str]], dict[str, float]],
) -> Plan:
    """The plan for `message` given the conversation's earlier turns."""
    plan = _planner(catalog, plan_name, today, df)
    if history and history[-1].status == "needs_input":
        asked = history[-1]
        message = _option(message)
        original = asked.state.get("plan", {}).get("message") or asked.message
        combined = plan(f"{original} {message}")
        combined.message = f"{original}\n{message}"
        return combined
    new = plan(message)
    previous_turn = _last_answered(history)
    if previous_turn is None:
        return new
    previous = Plan.from_dict(previous_turn.state["plan"])
    if not (is_follow_up(message, new) or continues_subject(message, new, previous)):
        return new
    return _merge(previous, new, message, previous_turn.state, history)


# An option's count sent back with it ("Acme Foods (4 documents)", "21 CFR 211.113 (Control
# of microbiological contamination; 3 documents)"): what it says, not what to search for.
_COUNTED = re.compile(r"\s*\((?:[^()]*;\s*)?[\d,]+ documents?\)\s*$")


def _option(reply: str) -> str:
    """A reply to a clarifying question without the count its option carried."""
    return _COUNTED.sub("", reply) or reply


def _cited(history: list[PriorTurn]) -> list[str]:
    """Every document the conversation's answers cited, first cited first."""
    return list(dict.fromkeys(d for turn in history for d in turn.state.get("documents", [])))


def turn_state(
    plan: Plan,
    documents: list[str],
    firms: list[str],
    history: list[PriorTurn],
    subjects: Sequence[str] = (),
) -> dict[str, Any]:
    """What a turn keeps for the next: its plan, the documents and firms it cited, the documents
    its answer is about, and every document cited so far in the conversation ("more" skips
    them)."""
    return {
        "plan": plan.to_dict(),
        "documents": documents,
        "firms": firms,
        "subjects": list(subjects),
        "seen": list(dict.fromkeys([*_cited(history), *documents])),
    }
