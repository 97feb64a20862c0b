"""A message planned against the conversation so far: a reply to a clarifying question is planned
together with the question's message; a follow-up ("only those in California", "since 2020",
"more", "put them in a spreadsheet") narrows or reuses the previous turn's plan."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from regnb.agent._dates import DateRange
from regnb.agent._plan import plan_message
from regnb.agent._stages import FollowUp, Plan, Scope
from regnb.agent._understand import OPENING, FirmLookup
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
# "leave out the Canadian ones": the place named is where the firms must not be
LEAVING = re.compile(
    r"\b(?:leave|leaving|drop|dropping|without|except|excluding|exclude|not\s+the)\b", re.I
)
# "which of those…", "the ones that mention…": the previous documents, narrowed by words
RESTRICT = re.compile(
    r"\b(?:of|among|from)\s+(?:those|them|these|the\s+above)\b"
    r"|\b(?:those|ones|them|these)\s+(?:that|which|with|who|where|mentioning|about|citing)\b",
    re.I,
)
# A question of its own ("Could our app claim it helps…?"): its "it" is its own subject's
ASKS = re.compile(
    r"^\s*(?:and\s+|so\s+|but\s+)?(?:could|can|would|should|may|might|must|is|are|does|do|did|"
    r"what|how|why|when|where|will)\b",
    re.I,
)
ASKS_WORDS = 8
# A conditional: "and if we learn new info about an event, how long do we have to send it?"
ASKS_WITHIN = re.compile(r"^\s*(?:what\s+)?if\b", re.I)
# "did they get a warning letter afterwards?": from the earlier turn's period on.
AFTERWARDS = re.compile(
    r"\b(?:afterwards?|after\s+that|since\s+then|thereafter|subsequently|later\s+on"
    r"|after\s+(?:it|this|the\s+(?:inspection|483|letter|recall|crl)))\b",
    re.IGNORECASE,
)
MORE = re.compile(r"^\s*(?:(?:show|give|find|list)\s+(?:me\s+)?)?more\b|\bany\s+others?\b", re.I)


def _planner(
    catalog: Catalog,
    plan_name: str,
    today: dt.date,
    df: Callable[[Sequence[str]], dict[str, float]],
    firms: FirmLookup | None,
) -> Callable[[str], Plan]:
    return lambda text: plan_message(
        text, catalog=catalog, plan_name=plan_name, today=today, df=df, firms=firms
    )


def is_follow_up(message: str, new: Plan) -> bool:
    """A message that refers to the previous answer, narrows it, or asks nothing of its own."""
    if REFERENCES.search(message) or NARROW.search(message) or SWITCH.search(message):
        return True
    if MORE.search(message):
        return True
    return not new.topic.terms


def continues_subject(message: str, new: Plan, previous: Plan) -> bool:
    """A short question with no identifier and no dataset of its own, after a turn about named
    firms, products or documents: it asks about the same ones."""
    before = previous.topic
    subject = before.names or [
        i for i in before.identifiers if before.identifier_kinds.get(i) != "cfr"
    ]
    return bool(
        subject
        and not new.topic.identifiers
        and not new.topic.firms
        and (not new.scope.named_datasets or re.match(r"\s*and\b", message, re.IGNORECASE))
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
    """The previous plan, changed by what the follow-up says: its own dates, datasets and
    filters; the documents it refers to ("those") or skips ("more"); and its topic, as words
    the previous topic's documents must hold ("only those that mention…"), as another firm
    ("what about…"), or as what it asks of the same firms and documents."""
    refers = bool(REFERENCES.search(message))
    merged = Plan(
        message=message,
        query=f"{previous.query} {new.query}".strip(),
        topic=previous.topic,
        scope=_scope(previous.scope, new.scope, message),
        follow_up=FollowUp(
            require=previous.follow_up.require,
            restrict_documents=tuple(state.get("documents", [])) if refers else (),
            exclude_documents=tuple(_cited(history)) if MORE.search(message) else (),
        ),
        ask=replace(
            previous.ask,
            formats=new.ask.formats,
            kind=new.ask.kind if new.ask.kind_said else previous.ask.kind,
            pointers=new.ask.pointers,
            wants=new.ask.wants or previous.ask.wants,
        ),
    )
    terms = new.topic.terms
    anchored = bool(new.topic.names or new.topic.identifiers)
    if not terms:  # "and the 2020 inspection?": the same firms, the new dates and documents
        return (
            _same_subject(merged, new, state)
            if continues_subject(message, new, previous)
            else merged
        )
    if NARROW.search(message) or (refers and _narrows(message)):
        require = tuple(dict.fromkeys([*previous.follow_up.require, *terms]))
        weights = {**previous.topic.weights, **new.topic.weights}
        return replace(
            merged,
            topic=replace(previous.topic, weights=weights),
            follow_up=replace(merged.follow_up, require=require),
        )
    if SWITCH.search(message) and anchored:  # "what about Baxter?": another firm
        return _switch(merged, new)
    if continues_subject(message, new, previous) or not anchored:
        return _same_subject(merged, new, state)
    return merged


def _narrows(message: str) -> bool:
    """A message that refers to the previous answer to narrow it ("those that mention…",
    "which of them…"), not a question of its own that names its subject with a pronoun."""
    if RESTRICT.search(message):
        return True
    asked = OPENING.sub("", message)  # "ok - and if we learn…": if we learn…
    own = ASKS.search(asked) or ASKS_WITHIN.search(asked)
    return not (own and len(message.split()) >= ASKS_WORDS)


def _scope(previous: Scope, new: Scope, message: str) -> Scope:
    """The previous scope with the follow-up's own dates and datasets, if it names them, its
    filters of the datasets searched added, and its places: where the firms must be ("only the
    ones in Ohio"), or where they must not ("leave out the Canadian ones")."""
    scope = previous
    if new.places_in or new.places_out:
        if LEAVING.search(message):
            out = (*previous.places_out, *new.places_in, *new.places_out)
            scope = replace(scope, places_out=tuple(dict.fromkeys(out)))
        else:
            scope = replace(
                scope,
                places_in=new.places_in or previous.places_in,
                places_out=tuple(dict.fromkeys((*previous.places_out, *new.places_out))),
            )
    if new.date_from or new.date_to:
        scope = replace(scope, dates=new.dates)
    elif previous.date_from and AFTERWARDS.search(message):
        scope = replace(scope, dates=DateRange(previous.date_from, None, "afterwards"))
    if new.named_datasets and not new.weakly_named:  # "cited for…": a word, not new documents
        scope = replace(
            new,
            dates=scope.dates,
            filters=scope.filters,
            places_in=scope.places_in,
            places_out=scope.places_out,
        )
    filters = dict(scope.filters)
    for ds, given in new.filters.items():
        if ds in scope.datasets:
            filters[ds] = {**filters.get(ds, {}), **given}
    return replace(scope, filters=filters)


def _switch(merged: Plan, new: Plan) -> Plan:
    """The follow-up's own firms, identifiers and topic instead of the previous turn's (and no
    filter of theirs), in its datasets and dates."""
    which_firms = merged.ask.which_firms or new.ask.which_firms
    return replace(
        merged,
        query=new.query,
        topic=new.topic,
        scope=replace(merged.scope, filters={}),
        follow_up=replace(merged.follow_up, require=()),
        ask=replace(merged.ask, which_firms=which_firms),
    )


def _same_subject(merged: Plan, new: Plan, state: dict[str, Any]) -> Plan:
    """The follow-up's topic about the previous turn's firms, products and documents: its own
    capitalised words ("ARIA") are words of the topic, not other firms."""
    asked = new.topic
    extra = [w for n in asked.names for w in n.lower().split()]
    extra += [w.lower() for w in ACRONYM.findall(merged.message) if w.lower() in asked.words]
    topic = replace(
        merged.topic,
        phrases=asked.phrases,
        words=tuple(dict.fromkeys([*asked.words, *extra])),
        pairs=asked.pairs,
        soft_words=asked.soft_words,
        weights={**merged.topic.weights, **asked.weights, **{w: 5.0 for w in extra}},
    )
    shape = new.ask.shape if new.ask.shape != "general" else merged.ask.shape
    return replace(
        merged,
        query=f"{' '.join(merged.topic.names)} {new.query}".strip(),
        topic=topic,
        follow_up=replace(
            merged.follow_up, require=(), subjects=tuple(state.get("subjects", []))
        ),  # the documents it was about
        ask=replace(merged.ask, shape=shape),
    )


def plan_turn(
    message: str,
    history: list[PriorTurn],
    *,
    catalog: Catalog,
    plan_name: str,
    today: dt.date,
    df: Callable[[Sequence[str]], dict[str, float]],
    firms: FirmLookup | None = None,
) -> Plan:
    """The plan for `message` given the conversation's earlier turns; `firms`: the corpus's
    firms by name."""
    plan = _planner(catalog, plan_name, today, df, firms)
    if history and history[-1].status == "needs_input":
        asked = history[-1]
        message = _option(message)
        original = asked.state.get("plan", {}).get("message") or asked.message
        return replace(plan(f"{original} {message}"), message=f"{original}\n{message}")
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
