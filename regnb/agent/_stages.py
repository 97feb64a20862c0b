"""What passes between the research agent's stages, in the order a turn makes them:

    Plan      the message planned (`regnb.agent._plan`, `_followup`)
    Prepared  the plan refined by a first search, or the clarifying question to ask instead
    Searched  what the searches found (`_searching`, `_research`), with exact counts (`_counts`)
    Reading   the documents read and the text of their pages (`_research`)
    Evidence  the passages chosen and their themes: all a writer needs (`_research`, `_rank`)
    Draft     the evidence, the question and how citations are numbered (`_writer`, `llm`)

then the `Answer` the writer makes of a draft, verified (`_verify`), and the files produced
(`regnb.agent.types`: the agent's public results, plain dataclasses that each stage builds and
the next replaces). Every value here is frozen: a stage makes new values, it never changes those
it was given. A plan is JSON-able and kept in the turn's state, in sections that a follow-up
replaces whole (`_followup`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from regnb.agent._dates import DateRange
from regnb.documents.structure import Unit

__all__ = [
    "Ask",
    "Count",
    "Draft",
    "Evidence",
    "FirmRecord",
    "FollowUp",
    "Found",
    "Listing",
    "Match",
    "Passage",
    "Plan",
    "Prepared",
    "Presence",
    "Reading",
    "Scope",
    "Searched",
    "Searches",
    "Side",
    "SideCount",
    "Tally",
    "Topic",
    "as_read",
]

# -- the plan ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Topic:
    """What the message asks about, as it is searched: identifiers (kept whole) and their kinds,
    firm and product names, the field's phrases, content words (rarest first; `soft_words` are
    on too many pages to search for), adjacent words that may be one term, and the weights."""

    identifiers: tuple[str, ...] = ()
    identifier_kinds: Mapping[str, str] = field(default_factory=dict)
    names: tuple[str, ...] = ()
    phrases: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    soft_words: tuple[str, ...] = ()
    pairs: tuple[str, ...] = ()
    weights: Mapping[str, float] = field(default_factory=dict)
    # the firms of the corpus the message names (as written), and the corpus's name of each;
    # a place that qualifies one ("Empower Pharmacy's Houston facilities"): its `Place.code`
    firms: tuple[str, ...] = ()
    corpus_firms: Mapping[str, str] = field(default_factory=dict)
    firm_places: Mapping[str, str] = field(default_factory=dict)
    # the examples the message lists ("e.g., X's A, Y's B"): alternatives, each searched with
    # the topic's words
    examples: tuple[str, ...] = ()

    @property
    def terms(self) -> tuple[str, ...]:
        """Everything the message asks about, strongest first."""
        return (*self.identifiers, *self.names, *self.phrases, *self.words)

    def weight(self, term: str) -> float:
        return self.weights.get(term, 1.0)


@dataclass(frozen=True)
class Scope:
    """Where and when to search: the datasets searched; those the message named (only by weak
    words such as "trials" or "recall", when `weakly_named`) and those it named that cannot be
    searched, with why; the dates; the filters of each dataset."""

    datasets: tuple[str, ...] = ()
    named_datasets: tuple[str, ...] = ()
    weakly_named: bool = False
    unsearchable: Mapping[str, str] = field(default_factory=dict)
    dates: DateRange | None = None
    filters: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # where the firms searched are (`Place.code`s): in one of `places_in`, none of `places_out`
    places_in: tuple[str, ...] = ()
    places_out: tuple[str, ...] = ()

    @property
    def date_from(self) -> str | None:
        return self.dates.date_from if self.dates is not None else None

    @property
    def date_to(self) -> str | None:
        return self.dates.date_to if self.dates is not None else None


@dataclass(frozen=True)
class FollowUp:
    """What a follow-up keeps of the conversation: terms every document must hold ("only those
    that mention…"), the documents it may cite ("those"), those it skips ("more"), and the
    documents the conversation is still about."""

    require: tuple[str, ...] = ()
    restrict_documents: tuple[str, ...] = ()
    exclude_documents: tuple[str, ...] = ()
    subjects: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ask:
    """What the answer should be: its shape (`regnb.agent._shape`), whether it names firms, the
    periods a comparison sets side by side, and the files to produce."""

    shape: str = "general"
    which_firms: bool = False
    periods: tuple[DateRange, ...] = ()
    formats: tuple[str, ...] = ()
    # the kind of question (`regnb.agent._understand.KINDS`), and the user's own pointers to a
    # passage ("I recall it faulted the human factors data"): found and quoted first
    kind: str = "summary"
    kind_said: bool = False  # the message's own words say the kind (a follow-up keeps it)
    pointers: tuple[str, ...] = ()
    # the kinds of statement that answer it: an amount, a time, a condition… (`regnb.agent._wants`)
    wants: tuple[str, ...] = ()

    @property
    def lists(self) -> bool:
        """Whether the answer lists documents a line each: which firms or documents, or what
        kinds of finding many documents hold ("what kinds of deficiencies did investigators
        write up?")."""
        many_kinds = "examples" in self.wants and self.kind in ("which", "summary")
        return (
            self.shape == "which" or self.which_firms or (many_kinds and self.shape == "findings")
        )


_SECTIONS: dict[str, type[Any]] = {
    "topic": Topic,
    "scope": Scope,
    "follow_up": FollowUp,
    "ask": Ask,
}


@dataclass(frozen=True)
class Plan:
    """What to search for and where: the message, the query that ranks what the keywords find,
    and the sections a follow-up replaces."""

    message: str
    query: str
    topic: Topic = field(default_factory=Topic)
    scope: Scope = field(default_factory=Scope)
    follow_up: FollowUp = field(default_factory=FollowUp)
    ask: Ask = field(default_factory=Ask)

    @property
    def has_anchor(self) -> bool:
        """An identifier, a firm or product, or a date: something that pins the answer down."""
        topic, scope = self.topic, self.scope
        return bool(topic.identifiers or topic.names or scope.date_from or scope.date_to)

    def to_dict(self) -> dict[str, Any]:
        """The plan as JSON: message, query, and one object per section."""
        return {
            "message": self.message,
            "query": self.query,
            **{name: _json(getattr(self, name)) for name in _SECTIONS},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Plan:
        """A plan from `to_dict()`, or from the flat object turns stored before plans had
        sections (every field at the top); unknown keys are ignored."""
        if not any(name in data for name in _SECTIONS):
            data = _sectioned(data)
        return cls(
            message=data["message"],
            query=data["query"],
            topic=_section(Topic, data.get("topic") or {}),
            scope=_section(Scope, data.get("scope") or {}),
            follow_up=_section(FollowUp, data.get("follow_up") or {}),
            ask=_section(Ask, data.get("ask") or {}),
        )


def _json(value: Any) -> Any:
    """A section (or a value in it) as JSON data: objects for dataclasses and mappings, lists
    for tuples."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    return value


def _dates(value: Any) -> DateRange | None:
    """A date range from its JSON object, or from the flat form's [from, to, words]."""
    if value is None:
        return None
    if isinstance(value, Mapping):
        return DateRange(value.get("date_from"), value.get("date_to"), value.get("text") or "")
    date_from, date_to, text = value
    return DateRange(date_from, date_to, text or "")


def _section(cls: type[Any], data: Mapping[str, Any]) -> Any:
    """A section from its JSON object: lists become tuples, dates date ranges."""
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        if f.name == "dates":
            value = _dates(value)
        elif f.name == "periods":
            value = tuple(d for d in map(_dates, value) if d is not None)
        elif isinstance(value, list):
            value = tuple(value)
        elif isinstance(value, Mapping):
            value = dict(value)
        values[f.name] = value
    return cls(**values)


def _sectioned(flat: Mapping[str, Any]) -> dict[str, Any]:
    """A flat plan (as turns stored it before plans had sections) as `to_dict()` writes one."""
    out: dict[str, Any] = {"message": flat["message"], "query": flat["query"]}
    for name, cls in _SECTIONS.items():
        out[name] = {f.name: flat[f.name] for f in dataclasses.fields(cls) if f.name in flat}
    if flat.get("date_from") or flat.get("date_to"):
        out["scope"]["dates"] = [flat.get("date_from"), flat.get("date_to"), flat.get("date_text")]
    return out


@dataclass(frozen=True)
class Prepared:
    """The plan refined by a first search (the firm and product filters the catalog confirms,
    the phrases the pages use), or the clarifying question to ask instead of answering."""

    plan: Plan
    question: dict[str, Any] | None = None  # {"question": str, "options": [str, ...]}


# -- searching -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """A document a search returned, with what the agent needs to weigh it and read it. `pages`
    are the pages the search matched, best first; once read (`Reading`), the pages read."""

    document_id: str
    dataset: str
    title: str
    date: str | None
    url: str | None
    fields: Mapping[str, Any]
    score: float
    pages: tuple[int, ...]
    weak: bool  # found by a loosened or reformulated search, or without a name asked for
    placed: bool = False  # its firm is known to be where the question asks (`_placed`)


@dataclass(frozen=True)
class Searches:
    """Every document the searches found (best first within a dataset), each dataset's status
    and total, and the datasets searched again with fewer words."""

    found: tuple[Found, ...] = ()
    statuses: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    totals: Mapping[str, int] = field(default_factory=dict)
    reformulated: tuple[str, ...] = ()

    def merged(self, other: Searches) -> Searches:
        """These searches and another's: its documents not found already, its statuses where
        these found nothing, totals summed."""
        known = {f.document_id for f in self.found}
        statuses = dict(self.statuses)
        for ds, status in other.statuses.items():
            if statuses.get(ds, {}).get("status") != "ok":
                statuses[ds] = status
        totals = dict(self.totals)
        for ds, total in other.totals.items():
            totals[ds] = totals.get(ds, 0) + total
        return Searches(
            found=(*self.found, *(f for f in other.found if f.document_id not in known)),
            statuses=statuses,
            totals=totals,
            reformulated=tuple(dict.fromkeys([*self.reformulated, *other.reformulated])),
        )


@dataclass(frozen=True)
class Count:
    """One row of a count: a value (a dataset, a year, a section, a term) and its documents."""

    value: str
    documents: int


@dataclass(frozen=True)
class Tally:
    """Documents matching the question over every full match (not only those read)."""

    total: int
    datasets: tuple[Count, ...]
    years: tuple[Count, ...]
    cfr: tuple[Count, ...]
    terms: tuple[Count, ...] = ()
    counted: str = ""  # what was counted, in words


@dataclass(frozen=True)
class Match:
    """A matching document, as the engine lists it (data from its row, not a claim)."""

    document_id: str
    dataset: str
    title: str
    date: str | None
    url: str | None
    firm: str | None
    cfr: tuple[str, ...]


@dataclass(frozen=True)
class Listing:
    """Every matching document of a "which…" question: how many, and the first `rows`."""

    total: int
    rows: tuple[Match, ...]


Side = tuple[str, tuple[Found, ...]]  # a compared period's words and the documents it found


@dataclass(frozen=True)
class Presence:
    """What the documents about the question's subject (its names, in one dataset) say of the
    terms it asks about, over every match: how many documents, and how many hold each term."""

    dataset: str
    subject: str
    documents: int
    terms: tuple[Count, ...]


@dataclass(frozen=True)
class SideCount:
    """One compared period over every match: the documents matching, the documents of the
    datasets searched in that period (what the share is of), and the CFR sections they cite
    most."""

    text: str
    matched: int
    total: int
    cfr: tuple[Count, ...] = ()

    @property
    def share(self) -> float | None:
        return self.matched / self.total if self.total else None


@dataclass(frozen=True)
class FirmRecord:
    """A firm the question names, as the corpus holds it: the name asked, the corpus's entity
    names (several where the name begins several firms' names: "Teva"), the place asked about
    (`Place.code`), and every document of it the plan may read, in date order, each dataset."""

    asked: str
    names: tuple[str, ...]
    place: str | None
    documents: tuple[Found, ...]

    def of(self, datasets: Sequence[str]) -> tuple[Found, ...]:
        """Its documents in the datasets."""
        return tuple(d for d in self.documents if d.dataset in datasets)


@dataclass(frozen=True)
class Searched:
    """The search stage's result: every search, the documents the question may cite (a
    follow-up's narrowing applied, best first), notes for the answer, each compared period's
    documents, exact counts, and every matching document of a "which…" question."""

    searches: Searches
    found: tuple[Found, ...]
    notes: tuple[str, ...] = ()
    sides: tuple[Side, ...] = ()
    tally: Tally | None = None
    listing: Listing | None = None
    firms: tuple[FirmRecord, ...] = ()  # the firms the question names, with their documents
    side_counts: tuple[SideCount, ...] = ()  # each compared period, counted over every match
    presence: Presence | None = None  # for "were any deaths reported on X?": the counts


# -- reading -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """The read stage's result: the documents read (each with the pages read), the documents
    the question names (the first `shown` have `per_subject` of their units listed), every
    document found and each period's documents with those read as read, the text of every page
    read by (document id, page number), and each document's weight."""

    documents: tuple[Found, ...]
    subjects: tuple[Found, ...]
    shown: int
    per_subject: int
    found: tuple[Found, ...]
    sides: tuple[Side, ...]
    pages: Mapping[tuple[str, int], str]
    weights: Mapping[str, float]  # each document found: how much it weighs (0 to 1)


def as_read(documents: Sequence[Found], read: Mapping[int, Found]) -> tuple[Found, ...]:
    """The documents, each one that was read replaced by its read self (`read` maps the id()
    of a document given to the reader to the document it returned: the same search result,
    found in several lists, is read once)."""
    return tuple(read.get(id(d), d) for d in documents)


# -- ranking -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Passage:
    """A unit of a page read (an observation, a violation, a deficiency, a recommendation, or a
    plain block) with its evidence; once ranked, its scores, its copies in other documents and
    its theme."""

    found: Found
    page_num: int
    unit: Unit
    keyword: float
    prior: float
    quality: float = 1.0
    topic: float = 0.0  # evidence of what is asked: no firm, identifier, focus or title terms
    cosine: float = 0.0
    score: float = 0.0
    theme: int = 0
    copies: tuple[Passage, ...] = ()  # the same words in other documents


@dataclass(frozen=True)
class Evidence:
    """What research found, all a writer needs: the plan, the searches, every document found
    and those read, the chosen passages and their theme labels, the text of the pages read,
    notes; the documents the question names and their units in document order."""

    plan: Plan
    searches: Searches
    documents: Sequence[Found]
    read: Sequence[Found]
    passages: Sequence[Passage]
    themes: Sequence[str]
    pages: Mapping[tuple[str, int], str] = field(default_factory=dict)
    notes: Sequence[str] = ()
    subjects: Sequence[Found] = ()
    candidates: Sequence[Passage] = ()  # every readable unit of the pages read
    common: Mapping[str, frozenset[str]] = field(default_factory=dict)  # standard sentences
    sides: Sequence[Side] = ()  # periods compared
    units: Mapping[str, Sequence[Passage]] = field(default_factory=dict)  # by document id
    shown: int = 3  # documents of `subjects` whose units are listed
    per_subject: int = 12  # units listed for each of them
    tally: Tally | None = None  # documents matched, counted over every match
    listing: Listing | None = None  # every matching document, for a "which…" question
    firms: Sequence[FirmRecord] = ()  # the firms the question names, with their documents
    side_counts: Sequence[SideCount] = ()  # each compared period, counted over every match
    presence: Presence | None = None  # for "were any deaths reported on X?": the counts


# -- writing -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Draft:
    """What a writer needs: the question, the evidence, and how citations are numbered."""

    question: str
    evidence: Evidence
    first_citation: int
    dataset_name: Callable[[str], str]
    # raises `Stopped` once the user stopped the turn: a writer that waits (on a model) calls it
    check: Callable[[], None] = lambda: None
