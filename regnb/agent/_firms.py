"""Firms and watchlists in a research conversation. A firm the question names is resolved to the
corpus's firm entities first (`Engine.firm`): a name that only begins several firms' names is a
clarifying question whose options carry each firm's identifiers and documents. "What's new for my
watchlist?" is answered from the saved watchlists (`regnb.watch`): each one's documents that
entered the corpus since it was last marked seen, one line each (data: the dataset, the date, the
CFR sections its findings cite), cited to the page of its first finding. Asking marks nothing
seen."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import pandas as pd

from regnb.agent._citations import CitationBook
from regnb.agent._labels import firm_of
from regnb.agent._stages import FirmRecord, Found, Plan
from regnb.agent.types import Answer, DataRow, DataTable, Finding, Theme
from regnb.errors import RegnbError

__all__ = [
    "FIRM_OPTIONS",
    "Repeats",
    "WatchSummary",
    "asks_repeats",
    "asks_watchlist",
    "firm_lookup",
    "firm_question",
    "firm_records",
    "repeats_table",
    "watchlist_answer",
]

FIRM_OPTIONS = 5  # candidate firms offered
WATCH_SHOWN = 10  # new documents listed per watchlist
SUMMARY_MARKERS = 6  # of the new documents' pages, cited by the summary
GUESSED = frozenset({"prefix", "words"})  # how a name matched when it only begins a firm's names
_WATCHLIST = re.compile(r"\bwatch[\s-]?lists?\b", re.IGNORECASE)


@runtime_checkable
class FirmSource(Protocol):
    """The engine call that resolves a firm (`Engine.firm`)."""

    def firm(
        self, name_or_id: str, *, limit: int = 20, plan: str | None = None
    ) -> pd.DataFrame: ...


# How a name must match a firm of the corpus to be read as that firm: its id or identifier, its
# name key, or the start of a name key ("Empower" of "Empower Pharmacy"); never words scattered
# through a name ("Houston" in "Lonza Houston").
OUTRIGHT = frozenset({"id", "identifier", "name", "prefix"})
MIN_PREFIX = 4  # characters of a name that begins a firm's name ("VII" begins too many)


def firm_lookup(source: object, plan: str = "enterprise") -> Callable[[str], str | None]:
    """The corpus's name of the firm a name names outright (`OUTRIGHT`), or None; by
    `Engine.firm`, each name asked once. A source without firms resolves nothing."""
    if not isinstance(source, FirmSource):
        return lambda name: None
    cache: dict[str, str | None] = {}

    def lookup(name: str) -> str | None:
        key = " ".join(name.split())
        if key not in cache:
            try:
                found = source.firm(key, limit=1, plan=plan)
            except (RegnbError, TypeError, ValueError):
                found = pd.DataFrame()
            how = "" if found.empty else str(found.iloc[0]["match"])
            hit = how in OUTRIGHT and (how != "prefix" or len(key) >= MIN_PREFIX)
            cache[key] = str(found.iloc[0]["name"]) if hit else None
        return cache[key]

    return lookup


# Entities a name begins whose documents a firm's record gathers ("Teva": its USA, parenteral
# and API firms), at most.
MAX_ENTITIES = 5


@runtime_checkable
class TimelineSource(FirmSource, Protocol):
    """The engine calls that give a firm's documents (`Engine.firm`, `Engine.timeline`)."""

    def timeline(self, entity: str | pd.Series, *, plan: str | None = None) -> pd.DataFrame: ...


def firm_records(source: object, plan: Plan, request_plan: str) -> tuple[FirmRecord, ...]:
    """The firms the plan names, each with every document of it the account may read (its
    entity's timeline; every entity a name begins, where it begins several and the name is all
    the user gave, or the question asks the firm's history: "Fresenius Kabi's history" is
    Fresenius Kabi AG's and Fresenius Kabi USA's), in date order; none without a firm-aware
    source."""
    if not isinstance(source, TimelineSource):
        return ()
    out = []
    for asked in plan.topic.firms:
        known = plan.topic.corpus_firms.get(asked)
        if known is None:
            continue
        try:  # the name as the user gave it: every firm it begins, where it begins several
            found = source.firm(asked, limit=MAX_ENTITIES, plan=request_plan)
        except (RegnbError, TypeError, ValueError):
            continue
        rows = [row for _, row in found.iterrows() if str(row["match"]) in OUTRIGHT]
        if not rows:
            continue
        first = str(rows[0]["match"])
        if first == "name" and plan.ask.kind == "history":  # "X's history": every X firm
            rows = [rows[0], *(r for r in rows[1:] if str(r["match"]) == "prefix")]
        elif first != "prefix":
            rows = rows[:1]
        documents: dict[str, Found] = {}
        for row in rows:
            for event in source.timeline(row, plan=request_plan).itertuples():
                documents.setdefault(str(event.document_id), _event_found(event))
        ordered = sorted(documents.values(), key=lambda d: (d.date or "", d.document_id))
        names = tuple(str(r["name"]) for r in rows)
        out.append(FirmRecord(asked, names, plan.topic.firm_places.get(asked), tuple(ordered)))
    return tuple(out)


def _event_found(event: Any) -> Found:
    """A timeline's event as a document found: its page of its first finding first."""
    date = event.date
    day = None if pd.isna(date) else pd.Timestamp(date).date().isoformat()
    page = int(event.page_num) if not pd.isna(event.page_num) else 1
    return Found(
        document_id=str(event.document_id),
        dataset=str(event.dataset),
        title=str(event.title),
        date=day,
        url=None if pd.isna(event.url) else str(event.url),
        fields={},
        score=1.0,
        pages=(max(page, 1),),
        weak=False,
    )


def _option(row: pd.Series) -> str:
    """ "Hospira Worldwide (FEI 3002806560; 14 documents)": an option that, sent back, names the
    firm (the count is dropped from a reply)."""
    ids = [i for i in row["identifiers"] if i.startswith("FEI ")] or list(row["identifiers"])
    n = int(row["documents"])
    counted = f"{n:,} document{'' if n == 1 else 's'}"
    return f"{row['name']} ({ids[0]}; {counted})" if ids else f"{row['name']} ({counted})"


_GROUP = (
    r"(?:companies|firms|entities|sites|subsidiaries|affiliates|businesses|facilities|divisions)"
)


def _collective(message: str, name: str) -> bool:
    """Whether the message asks about every firm of the name ("Abbott companies", "all Acme
    sites"): nothing to choose."""
    named = re.escape(name)
    return bool(
        re.search(rf"\b{named}(?:'s)?\s+{_GROUP}\b", message, re.IGNORECASE)
        or re.search(rf"\b(?:all|every|each|any)\s+(?:of\s+)?(?:the\s+)?{named}\b", message, re.I)
    )


# Datasets whose documents are addressed to no firm: a name in a question about them is no firm's.
NO_FIRMS = frozenset({"fda_guidance"})


def firm_question(source: object, plan: Plan, plan_name: str) -> dict[str, Any] | None:
    """A clarifying question when a firm the question names is not one firm of the corpus: no
    firm has that name (once case, punctuation and legal suffixes go) or identifier, the name
    begins the names of several, and the message does not ask about all of them ("Abbott
    companies"); None otherwise (or without firm entities)."""
    if not isinstance(source, FirmSource) or plan.topic.identifiers:
        return None
    guidance = bool(plan.scope.datasets) and set(plan.scope.datasets) <= NO_FIRMS
    if guidance or plan.ask.shape == "recommend":
        return None  # what guidance says: its capitalised words are its subject, not a firm
    for name in plan.topic.names:
        if _collective(plan.message, name):
            continue
        if any(other != name and other.startswith(name) for other in plan.topic.names):
            continue  # "Imprimis … Imprimis NJOF": the user named which one
        try:
            found = source.firm(name, limit=FIRM_OPTIONS + 1, plan=plan_name)
        except (RegnbError, TypeError, ValueError):
            continue
        if found.empty or not set(found["match"]) <= GUESSED or len(found) < 2:
            continue
        options = [_option(row) for _, row in found.head(FIRM_OPTIONS).iterrows()]
        more = " (the first few shown)" if len(found) > FIRM_OPTIONS else ""
        return {
            "question": f"Several firms in the corpus have names that begin with “{name}”{more}; "
            "which one do you mean?",
            "options": options,
        }
    return None


def asks_watchlist(message: str) -> bool:
    """Whether the message asks about the user's watchlists."""
    return bool(_WATCHLIST.search(message))


@runtime_checkable
class WatchSource(Protocol):
    """The engine call a watchlist answer makes (a local `Engine`)."""

    def watchlists(self) -> pd.DataFrame: ...


# A saved watchlist's new documents by name: the headline and lines, and the frame
# (`regnb.watch.summary` over the engine); nothing is marked seen.
WatchSummary = Callable[[str], tuple[list[str], pd.DataFrame]]


def _named(message: str, names: Sequence[str]) -> list[str]:
    """The saved watchlists the message names, else every one."""
    lowered = message.lower()
    named = [n for n in names if re.search(rf"(?<![\w-]){re.escape(n.lower())}(?![\w-])", lowered)]
    return named or list(names)


def _found(row: pd.Series) -> Found:
    date = row["date"]
    return Found(
        document_id=str(row["document_id"]),
        dataset=str(row["dataset"]),
        title=str(row["title"]),
        date=None if pd.isna(date) else pd.Timestamp(date).date().isoformat(),
        url=None if pd.isna(row["url"]) else str(row["url"]),
        fields={},
        score=0.0,
        pages=(int(row["page_num"]),),
        weak=False,
    )


def _line(row: pd.Series, found: Found, book: CitationBook) -> Finding:
    """One new document: its title, dataset and date, what its findings cite."""
    when = f", {found.date}" if found.date else ""
    text = f"{found.title} ({book.dataset_name(found.dataset)}{when})"
    cfr = list(row["cfr"])[:3]
    findings = len(row["findings"])
    if findings:
        text += f"; {findings} finding{'' if findings == 1 else 's'}"
    if cfr:
        text += f", citing {', '.join(cfr)}"
    return Finding(text=text, markers=[book.page(found, int(row["page_num"]))])


def watchlist_answer(
    source: object,
    message: str,
    first_citation: int,
    dataset_name: Callable[[str], str],
    summary: WatchSummary,
) -> Answer | None:
    """The watchlists' new documents as an answer (None when the source keeps no watchlists):
    "2 of your 3 watchlists have new documents…", then one section per watchlist. `summary` is
    a watchlist's `regnb.watch.summary` (lines, frame) by name; nothing is marked seen."""
    if not isinstance(source, WatchSource):
        return None
    saved = source.watchlists()
    book = CitationBook(first_citation, dataset_name)
    if saved.empty:
        text = (
            "You have no saved watchlists. Save one with eng.watch(name, keywords=…, firms=…) or "
            "`regnb watch add`, and ask again after documents are added."
        )
        answer = Answer(message, [Finding(text=text)], [], [], [], [], topic="Watchlists")
        return answer
    themes: list[Theme] = []
    counts: list[str] = []
    for name in _named(message, list(saved["name"])):
        lines, frame = summary(name)
        since = lines[0].rsplit(" since ", 1)[-1] if lines and " since " in lines[0] else ""
        when = f" since {since}" if since else ""
        if frame.empty:
            counts.append(f"“{name}” has nothing new{when}")
            continue
        noun = "document" if len(frame) == 1 else "documents"
        counts.append(f"“{name}” has {len(frame)} new {noun}{when}")
        findings = [_line(row, _found(row), book) for _, row in frame.head(WATCH_SHOWN).iterrows()]
        label = f"Watchlist “{name}”: {len(frame)} new document{'' if len(frame) == 1 else 's'}"
        if len(frame) > WATCH_SHOWN:
            label += f" ({WATCH_SHOWN} shown)"
        themes.append(Theme(label=label, findings=findings))
    if len(counts) == 1:
        text = f"Your watchlist {counts[0]}"
    else:
        verb = "has" if len(themes) == 1 else "have"
        text = f"{len(themes)} of your {len(counts)} watchlists {verb} new documents: " + "; ".join(
            counts
        )
    cited = [m for theme in themes for f in theme.findings for m in f.markers]
    summary_line = Finding(text=text, markers=cited[:SUMMARY_MARKERS])
    scope = [
        "New means added to the corpus since the watchlist was last marked seen (by when it "
        "was added, not by its date); asking marks nothing seen: `regnb watch run NAME` or "
        "`eng.watchlist(NAME).mark_seen()` does."
    ]
    answer = Answer(
        message,
        [summary_line],
        themes,
        [],
        [],
        book.citations,
        topic="Watchlists",
        scope=scope,
    )
    return answer


# A firm's repeat findings by its name or identifier: `regnb.firms.timeline.repeat_findings` of the
# timeline of the firm it names outright (an empty frame when it names none).
Repeats = Callable[[str], pd.DataFrame]
_REPEAT = re.compile(r"\brepeat(?:s|ed|ing)?\b|\brecurr", re.IGNORECASE)
REPEATS_SHOWN = 20


def asks_repeats(message: str) -> bool:
    """Whether the message asks about repeat findings ("were any observations repeats?")."""
    return bool(_REPEAT.search(message))


def _firm_asked(plan: Plan, subjects: Sequence[Found]) -> str | None:
    """The firm whose inspections a repeat question is about: a Form 483 it names, else an FEI
    or a firm name of the message."""
    for doc in subjects:
        if doc.dataset.startswith("fda_483") and (firm := firm_of(doc)):
            return firm
    feis = [i for i in plan.topic.identifiers if i.upper().startswith("FEI")]
    asked = [*feis, *plan.topic.names]
    return asked[0] if asked else None


def _when(value: Any) -> str:
    return "" if value is None or pd.isna(value) else pd.Timestamp(value).date().isoformat()


def repeats_table(plan: Plan, subjects: Sequence[Found], repeats: Repeats) -> DataTable | None:
    """The repeat findings of the firm asked about, from its timeline (data: consecutive Form
    483s of the site citing the same CFR section, or a later one marking an observation a
    repeat), those of the 483s the question names when it names any; None when no firm is
    asked about."""
    firm = _firm_asked(plan, subjects)
    if firm is None:
        return None
    frame = repeats(firm)
    named = {d.document_id for d in subjects}
    if named and not frame.empty:
        mine = frame["document_id"].isin(named) | frame["earlier_document_id"].isin(named)
        frame = frame[mine] if mine.any() else frame
    rows = []
    for _, r in frame.head(REPEATS_SHOWN).iterrows():
        section = "" if pd.isna(r["section"]) else str(r["section"])
        if section and not pd.isna(r["title"]):
            section += f" ({r['title']})"
        earlier = r["earlier_finding"] if not pd.isna(r["earlier_finding"]) else "an observation"
        rows.append(
            DataRow(
                (
                    f"Form 483 {_when(r['date'])}",
                    f"{r['finding']} (page {int(r['page_num'])})",
                    section or "marked a repeat",
                    f"{earlier} of the Form 483 {_when(r['earlier_date'])}",
                ),
                document_id=str(r["document_id"]),
            )
        )
    found = len(frame)
    note = (
        f"Read from {firm}'s inspections in the corpus: a finding repeats when the site's next "
        "Form 483 cites the same CFR section, or marks the observation a repeat."
    )
    if not rows:
        note = f"No finding of {firm}'s Form 483s in the corpus repeats one of its previous inspection."
    label = f"Repeat findings: {firm} ({found}{'' if found <= REPEATS_SHOWN else f', {REPEATS_SHOWN} shown'})"
    header = ("Document", "Finding", "Repeats", "Of")
    return DataTable(label, header, tuple(rows), note, kind="repeats")
