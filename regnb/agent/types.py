"""What passes between the conversation service and the research agent.

The service (store, worker pool, state table, HTTP) hands the agent a `TurnRequest`; the agent
reports progress as `Step`s, checks `stopped()` between stages, and returns a `TurnResult`.
Nothing here knows about SQLite or HTTP.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from regnb.models import Citation, Step

__all__ = [
    "DATA",
    "Agent",
    "Answer",
    "DataRow",
    "DataTable",
    "Finding",
    "KeyDocument",
    "PriorTurn",
    "Produced",
    "SourcedCitation",
    "Step",
    "Stopped",
    "Theme",
    "TurnRequest",
    "TurnResult",
]


# The kind of a finding that states the engine's counts (what the corpus holds of a firm, how
# many of a subject's documents hold a term), not a passage's words: verification keeps it when
# the documents it cites are there (`regnb.agent._leads`).
DATA = "data"


class Stopped(Exception):
    """Raised inside a run when the user stopped it; the service discards the run."""


@dataclass(frozen=True, kw_only=True)
class SourcedCitation(Citation):
    """A citation (`regnb.models.Citation`: a page citation, or a passage citation with
    `block_id` and `parent_index`) and where it points: `to_dict()` is the spec's citation
    object; `document_id`, `dataset_id` and `passage` are kept by the store beside it, so that
    a local front end can open the cited page and show the text."""

    document_id: str
    dataset_id: str
    passage: str | None = None

    @classmethod
    def wire_keys(cls) -> list[str]:
        return Citation.wire_keys()


@dataclass
class Finding:
    """One sentence of an answer and the citation numbers that back it.

    `quote`, when set, is the part of `text` taken word for word from a cited passage (whitespace
    aside); verification checks it against the passages the markers name."""

    text: str
    markers: list[int] = field(default_factory=list)
    quote: str | None = None
    quotes: list[str] = field(default_factory=list)  # more word-for-word parts, checked alike
    heading: str | None = None  # the unit's own heading: "Observation 2", "Product quality"
    kind: str | None = None  # the unit's kind: finding, violation, deficiency, recommendation…
    cfr: list[str] = field(default_factory=list)  # citations the unit makes: "21 CFR 211.113(b)"
    document_id: str | None = None  # the document the finding is from
    short: str | None = None  # a one-line statement of it (slides, tables): verbatim, cut


@dataclass
class Theme:
    """A group of findings, labelled by what their passages share."""

    label: str
    findings: list[Finding] = field(default_factory=list)
    numbered: bool = False  # an ordered list (a letter's deficiencies, a 483's observations)
    table: bool = False  # a two-column table: each finding's heading, then its text


@dataclass
class KeyDocument:
    """A document the answer cites; `citation` is its page citation's number."""

    title: str
    dataset: str  # display name
    dataset_id: str
    date: str | None
    firm_or_product: str | None
    url: str | None
    document_id: str
    citation: int
    fields: dict[str, Any] = field(default_factory=dict)
    cited_for: list[str] = field(default_factory=list)  # its findings' headings or CFR titles
    cfr: list[str] = field(default_factory=list)  # every CFR / FD&C Act section it cites
    findings: list[str] = field(default_factory=list)  # its units read: "Observation 1: …"
    role: str = "key"  # "key", or "see_also": a related document shown apart


@dataclass(frozen=True)
class DataRow:
    """A row of a data table; `document_id` when the row is a document (its page citations, if
    the answer has any, are marked beside it)."""

    cells: tuple[str, ...]
    document_id: str | None = None
    url: str | None = None  # the document's address, where the row is a document


@dataclass(frozen=True)
class DataTable:
    """Counts or document rows from the engine (every match, not only the pages read): data,
    never a finding, so it claims nothing a passage must support. `note` says what was counted."""

    label: str
    header: tuple[str, ...]
    rows: tuple[DataRow, ...]
    note: str = ""
    # "counts"; "matches": every matching document; "repeats": a site's repeat findings
    kind: str = "counts"


@dataclass(frozen=True)
class Answer:
    """An answer's structure, from which the markdown and every produced document are made. A
    stage makes a new answer (`dataclasses.replace`), never changes one; its markdown is
    rendered once, when first read."""

    question: str
    summary: list[Finding]  # the direct answer: two to four sentences
    themes: list[Theme]
    documents: list[KeyDocument]
    not_found: list[str]
    citations: list[SourcedCitation]
    notes: list[str] = field(default_factory=list)  # e.g. "the model writer failed; extractive"
    topic: str = ""  # what the answer is about, for titles: "Complete response letter: Barhemsys"
    scope: list[str] = field(default_factory=list)  # datasets, dates, filters, found vs shown
    subjects: list[str] = field(default_factory=list)  # ids of the documents it is about
    tables: list[DataTable] = field(default_factory=list)  # exact counts, every match listed

    @functools.cached_property
    def markdown(self) -> str:
        """The answer as markdown, with its citation markers (`regnb.agent._writer`)."""
        from regnb.agent._markdown import render_markdown

        return render_markdown(self)


@dataclass
class Produced:
    """A document the agent produced: `text` (markdown in `content`), `file` or `image` (`data`)."""

    title: str
    type: Literal["text", "file", "image"]
    filename: str | None = None
    content: str | None = None
    data: bytes | None = None
    media_type: str | None = None


@dataclass
class PriorTurn:
    """An earlier turn of the conversation, as the agent left it (stopped turns are gone)."""

    message: str
    status: str
    answer: str | None
    citations: list[SourcedCitation]
    question: dict[str, Any] | None
    state: dict[str, Any]  # the agent's own notes for follow-ups (plan, firms, documents)


@dataclass
class TurnRequest:
    """A message to answer, with the conversation so far."""

    message: str
    history: list[PriorTurn]
    first_citation: int  # the number the next citation takes (numbers continue across turns)
    plan: str  # the account's plan: free, paid or enterprise
    today: dt.date = field(default_factory=dt.date.today)


@dataclass
class TurnResult:
    """How a run ended: `completed` with an answer, or `needs_input` with a question."""

    status: Literal["completed", "needs_input"]
    answer: str | None
    citations: list[SourcedCitation] = field(default_factory=list)
    question: dict[str, Any] | None = None  # {"question": str, "options": [str, ...]}
    documents: list[Produced] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)


class Agent(Protocol):
    """Answers one message; `report` replaces the running turn's steps."""

    def run(
        self,
        request: TurnRequest,
        report: Callable[[list[Step]], None],
        stopped: Callable[[], bool],
    ) -> TurnResult: ...
