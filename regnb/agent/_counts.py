"""Exact counts for an answer, from the engine rather than from the pages the agent read: how
many documents match the question over every full match, by dataset, year and CFR section; how
many hold each term a count question asks about; and, for a "which…" question, every matching
document with the CFR sections its matching pages cite. The searches are the agent's own (the
same keyword items and filters per dataset), so the counts say what the answer searched."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from regnb.agent._config import AgentConfig
from regnb.agent._labels import firm_of
from regnb.agent._searching import (
    FALLBACK_ITEMS,
    PINNING,
    filters_for,
    items_for,
    searched_items,
)
from regnb.agent._source import Source
from regnb.agent._stages import Count, Found, Listing, Match, Plan, Presence, Tally
from regnb.agent._vocab import FIRM_FIELDS, PRODUCT_FIELDS
from regnb.documents.words import word_set, words
from regnb.errors import RegnbError

__all__ = [
    "Choices",
    "asked_terms",
    "count_choices",
    "count_matches",
    "counted_words",
    "list_matches",
    "presence",
    "term_documents",
]

OTHER = "(other)"  # the facet row that sums the values past its size
_FIXED = frozenset({"document_id", "dataset", "title", "date", "url", "cfr", "bm25", "pages"})


@dataclass(frozen=True)
class Choices:
    """What a clarifying question offers, counted over every document the agent's searches
    match: per dataset (by id), per year, per CFR section cited and per firm or product."""

    total: int
    datasets: tuple[Count, ...]
    years: tuple[Count, ...]
    cfr: tuple[Count, ...]
    firms: tuple[Count, ...]


CatalogFilters = Callable[[str], dict[str, Any]]
CatalogFields = Callable[[str], Sequence[str]]


def _query(
    plan: Plan, ds: str, catalog_filters: CatalogFilters
) -> tuple[list[str], dict[str, Any]]:
    """The keyword items and filters the agent searches one dataset with."""
    filtered = filters_for(plan, ds, catalog_filters(ds))
    items = searched_items(specific(items_for(plan, filtered, loosen=False)))
    return [exact(i, plan) for i in items], ({ds: filtered} if filtered else {})


def exact(item: str, plan: Plan) -> str:
    """A fixed expression of the field ("research use only", "media fill") counted as a phrase,
    its words next to each other; other items as their words anywhere on a page."""
    return f'"{item}"' if item in plan.topic.phrases and len(words(item)) > 1 else item


def specific(items: list[str]) -> list[str]:
    """The items a count or a listing holds a document to: those of two words or more where
    there are any (a lone generic word such as “failures” would count every letter that has
    it), else every item that is not a fallback."""
    content = [i for i in items if i not in FALLBACK_ITEMS]
    several = [i for i in content if len(words(i)) > 1]
    return several or content or items


def counted_words(plan: Plan, ds: str, catalog_filters: CatalogFilters) -> str:
    """What was counted in a dataset, in words: “a” or “b”, or every document a filter allows."""
    filtered = filters_for(plan, ds, catalog_filters(ds))
    items = [
        i for i in specific(items_for(plan, filtered, loosen=False)) if i not in FALLBACK_ITEMS
    ]
    by = "; ".join(f"{k.replace('_', ' ')} “{v}”" for k, v in filtered.items())
    if any(k in PINNING for k in filtered):  # the filter chooses; the words only rank
        return f"every document with {by}"
    held = " or ".join(f"“{i}”" for i in items) or "the question"
    return f"documents with a page holding {held}" + (f", {by}" if by else "")


def asked_terms(plan: Plan, config: AgentConfig | None = None) -> list[str]:
    """The terms a count question asks about (`config.count_terms` at most), each counted on its
    own: its phrases, then its words not inside a phrase (names and identifiers are what is
    counted within)."""
    topic = plan.topic
    inside = {w for p in topic.phrases for w in words(p)}
    named = {w for n in [*topic.names, *topic.identifiers] for w in words(n)}
    single = [w for w in topic.words if w not in inside and w not in named]
    phrases = [p for p in topic.phrases if not set(words(p)) <= named]
    return list(dict.fromkeys([*phrases, *single]))[: (config or AgentConfig()).count_terms]


def _facets(
    source: Source,
    plan: Plan,
    request_plan: str,
    items: list[str],
    filters: dict[str, Any],
    ds: str,
    by: Sequence[str],
    size: int,
) -> dict[str, pd.DataFrame]:
    return source.facets(
        items,
        by=list(by),
        datasets=[ds],
        filters=filters or None,
        date_from=plan.scope.date_from,
        date_to=plan.scope.date_to,
        plan=request_plan,
        size=size,
    )


def _rows(frame: pd.DataFrame) -> list[tuple[str | None, int]]:
    return [
        (None if v is None or (isinstance(v, float) and v != v) else str(v), int(n))
        for v, n in zip(frame["value"], frame["documents"], strict=True)
    ]


# What a question asks whether documents hold: "any deaths or patient injuries in the reports
# on X", "were any deaths reported with X".
_CONDITION = re.compile(
    r"\bany\s+(?P<what>[\w\s,'’-]+?)\s+(?:in|on|with|for|reported|among|about|from|to)\b",
    re.IGNORECASE,
)


def condition_terms(plan: Plan) -> list[str]:
    """The terms a question asks whether a subject's documents hold ("deaths", "injuries" of
    "any deaths or patient injuries in the MAUDE reports on X"), without the subject's own
    words; empty when it asks no such thing."""
    match = _CONDITION.search(plan.message)
    if match is None:
        worry = _WORRY.search(plan.message)  # "safety or efficacy concerns": safety, efficacy
        if worry is None:
            return []
        parts = re.split(r"\s*(?:\bor\b|\band\b|/)\s*", worry.group("what"))
        return list(dict.fromkeys(p.lower() for p in parts if p and p.lower() not in _FRAME_WORDS))
    named = {w for n in [*plan.topic.names, *plan.topic.identifiers] for w in words(n)}
    what = match.group("what")
    if set(words(what)) <= _FRAME_WORDS:  # "any observation about media fills": media fills
        about = _ABOUT.match(plan.message, match.end("what"))
        if about is None:
            return []
        return [" ".join(w for w in words(about.group("what")) if w not in named)]
    out = []
    for part in re.split(r"\s*(?:,|\bor\b|\band\b|/)\s*", what):
        kept = [w for w in words(part) if w not in named and w not in _NOT_CONDITIONS]
        if kept:
            out.append(kept[-1])  # "patient injuries": injuries
    return list(dict.fromkeys(out))


# The words that frame what a question asks a document ("did the letter mention …", "any
# observation about …", "before sending the letter"), never the thing asked about.
_FRAME_WORDS = word_set(
    "observation observations violation violations deficiency deficiencies finding findings "
    "mention mentions mentioned mentioning say says said saying include includes included "
    "including cite cites cited citing send sending sent issue issued issuing get got receive "
    "received receiving anything something thing things problem problems issues "
    # "did the CRL ask for another trial?", "was it turned down over sterility?"
    "ask asks asked asking require requires required requiring another additional further "
    "turned down rejected refused declined denied reason reasons application applications "
    # "did FDA ask them to run another clinical study?", "actually inspect"
    "run running conduct conducting perform performing new actually really"
)
# What a question asks whether a document raised: "safety or efficacy concerns", "manufacturing/
# CGMP problems".
_WORRY = re.compile(
    r"\b(?P<what>[A-Za-z][\w-]*(?:\s*(?:\bor\b|\band\b|/)\s*[A-Za-z][\w-]*)*)\s+"
    r"(?:concerns?|issues|problems|deficienc(?:y|ies)|questions|objections)\b",
    re.IGNORECASE,
)
_ABOUT = re.compile(
    r"\s+(?:about|on|regarding|concerning|of|for|related\s+to)\s+(?:the\s+|any\s+|its\s+)?"
    r"(?P<what>[\w\s'’-]+?)\s*(?:[?.,;]|$|\b(?:in|at|from|during|before|after)\b)",
    re.IGNORECASE,
)


def presence_terms(plan: Plan, config: AgentConfig | None = None) -> list[str]:
    """What an absence question asks whether the subject's documents hold: its condition
    ("any deaths in …"), else its terms without the words that frame the asking."""
    terms = condition_terms(plan) or asked_terms(plan, config)
    kept = [" ".join(w for w in words(t) if w not in _FRAME_WORDS) for t in terms]
    return list(dict.fromkeys(t for t in kept if t))


_NOT_CONDITIONS = frozenset(
    [
        "maude",
        "mdr",
        "mdrs",
        "report",
        "reports",
        "fda",
        "warning",
        "letter",
        "letters",
        "483",
        "483s",
        "recall",
        "recalls",
    ]
)


def presence(
    source: Source,
    plan: Plan,
    request_plan: str,
    catalog_filters: CatalogFilters,
    config: AgentConfig | None = None,
) -> Presence | None:
    """For a question whether documents about a subject say something ("any deaths in the
    MAUDE reports on the LINQ II?"): in the dataset searched where most documents hold one of
    its names (the first, on a tie), the documents holding one, and of them those holding each
    term asked about, counted over every match. None without a name or a term, or when nothing
    holds the names."""
    names = [*plan.topic.names, *plan.topic.identifiers]
    terms = presence_terms(plan, config)
    if not names or not terms:
        return None
    base = searched_items([exact(n, plan) for n in names])
    try:
        totals: dict[str, int] = {}
        for ds in plan.scope.datasets:
            filtered = filters_for(plan, ds, catalog_filters(ds))
            got = _facets(
                source, plan, request_plan, base, {ds: filtered} if filtered else {}, ds,
                ("dataset",), 1,
            )  # fmt: skip
            totals[ds] = sum(n for _, n in _rows(got["dataset"]))
        # "NDA 209191" names no drug approval here: its CRL; "CARTO 3" is in one guidance and
        # in twenty MAUDE reports: the reports
        ds = max(totals, key=lambda d: totals[d], default="")
        if not ds or not totals[ds]:
            return None
        filtered = filters_for(plan, ds, catalog_filters(ds))
        filters = {ds: filtered} if filtered else {}
        held = []
        for term in terms:
            items = searched_items([f"{n} {exact(term, plan)}" for n in names])
            got = _facets(source, plan, request_plan, items, filters, ds, ("dataset",), 1)
            held.append(Count(term, sum(n for _, n in _rows(got["dataset"]))))
    except (RegnbError, KeyError, TypeError):
        return None
    return Presence(ds, names[0], totals[ds], tuple(held))


def count_matches(
    source: Source,
    plan: Plan,
    request_plan: str,
    catalog_filters: CatalogFilters,
    dataset_name: Callable[[str], str],
    *,
    terms: Sequence[str] = (),
    config: AgentConfig | None = None,
) -> Tally | None:
    """The documents matching the agent's searches of the plan's datasets, counted by dataset,
    year and CFR section (the `config.cfr_counted` most cited) over every full match; and, for
    each of `terms`, how many of the documents the question's filters allow hold it. None when
    the engine cannot count."""
    size = (config or AgentConfig()).cfr_counted
    datasets: list[Count] = []
    years: Counter[str] = Counter()
    cfr: Counter[str] = Counter()
    said: list[str] = []
    per_term: Counter[str] = Counter()
    try:
        for ds in plan.scope.datasets:
            items, filters = _query(plan, ds, catalog_filters)
            by = ("dataset", "year", "cfr")
            got = _facets(source, plan, request_plan, items, filters, ds, by, size)
            n = sum(count for _, count in _rows(got["dataset"]))
            if not n:
                continue
            datasets.append(Count(dataset_name(ds), n))
            said.append(f"{dataset_name(ds)}: {counted_words(plan, ds, catalog_filters)}")
            years.update({y: c for y, c in _rows(got["year"]) if y is not None and c})
            cfr.update({s: c for s, c in _rows(got["cfr"]) if s and s != OTHER})
            loose = [n for n in plan.topic.names if not filters]
            for term in terms:
                item = searched_items([" ".join([*loose, term])])
                one = _facets(source, plan, request_plan, item, filters, ds, ("dataset",), size)
                per_term[term] += sum(count for _, count in _rows(one["dataset"]))
    except (RegnbError, KeyError, TypeError):
        return None
    total = sum(c.documents for c in datasets)
    return Tally(
        total=total,
        datasets=tuple(sorted(datasets, key=lambda c: -c.documents)),
        years=tuple(Count(y, years[y]) for y in sorted(years)),
        cfr=tuple(Count(s, n) for s, n in sorted(cfr.items(), key=lambda kv: (-kv[1], kv[0]))),
        terms=tuple(Count(t, per_term[t]) for t in terms) if total else (),
        counted="; ".join(said),
    )


def _firm_field(fields: Sequence[str]) -> str | None:
    """The catalog field that names a dataset's firm (else its product), if it has one."""
    return next((f for f in (*FIRM_FIELDS, *PRODUCT_FIELDS) if f in fields), None)


def _ranked(counts: Counter[str]) -> tuple[Count, ...]:
    return tuple(Count(v, n) for v, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def count_choices(
    source: Source,
    plan: Plan,
    request_plan: str,
    catalog_filters: CatalogFilters,
    catalog_fields: CatalogFields,
    config: AgentConfig | None = None,
) -> Choices | None:
    """The documents the agent's searches of the plan's datasets match, counted by dataset,
    year, CFR section and firm (each dataset's firm field; the `config.cfr_counted` most
    frequent sections and firms) over every full match: the options of a clarifying question.
    None when the engine cannot count."""
    size = (config or AgentConfig()).cfr_counted
    datasets: list[Count] = []
    years: Counter[str] = Counter()
    cfr: Counter[str] = Counter()
    firms: Counter[str] = Counter()
    try:
        for ds in plan.scope.datasets:
            items, filters = _query(plan, ds, catalog_filters)
            firm = _firm_field(catalog_fields(ds))
            by = ("dataset", "year", "cfr", *([firm] if firm else []))
            got = _facets(source, plan, request_plan, items, filters, ds, by, size)
            n = sum(count for _, count in _rows(got["dataset"]))
            if not n:
                continue
            datasets.append(Count(ds, n))
            years.update({y: c for y, c in _rows(got["year"]) if y is not None and c})
            cfr.update({s: c for s, c in _rows(got["cfr"]) if s and s != OTHER})
            if firm:
                firms.update({f: c for f, c in _rows(got[firm]) if f and f != OTHER})
    except (RegnbError, KeyError, TypeError):
        return None
    return Choices(
        total=sum(c.documents for c in datasets),
        datasets=tuple(sorted(datasets, key=lambda c: (-c.documents, c.value))),
        years=tuple(Count(y, years[y]) for y in sorted(years)),
        cfr=_ranked(cfr),
        firms=_ranked(firms),
    )


def _date(value: object) -> str | None:
    if value is None or value is pd.NaT or (isinstance(value, float) and value != value):
        return None
    try:
        return str(pd.Timestamp(value).date())  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return str(value)[:10] or None


def _match(row: dict[Any, Any]) -> Match:
    fields = {str(k): v for k, v in row.items() if k not in _FIXED and isinstance(v, str)}
    found = Found(
        document_id=str(row["document_id"]),
        dataset=str(row["dataset"]),
        title=str(row["title"] or ""),
        date=_date(row.get("date")),
        url=row.get("url") or None,
        fields=fields,
        score=0.0,
        pages=(),
        weak=False,
    )
    cited = row.get("cfr")
    return Match(
        document_id=found.document_id,
        dataset=found.dataset,
        title=found.title,
        date=found.date,
        url=found.url,
        firm=firm_of(found),
        cfr=tuple(str(c) for c in (cited if cited is not None else ())),
    )


def list_matches(
    source: Source,
    plan: Plan,
    request_plan: str,
    catalog_filters: CatalogFilters,
    limit: int,
) -> Listing | None:
    """Every document matching the agent's searches (newest first): how many, and the first
    `limit` with their firm or product and the CFR sections their matching pages cite."""
    total = 0
    rows: list[Match] = []
    try:
        for ds in plan.scope.datasets:
            items, filters = _query(plan, ds, catalog_filters)
            frame = source.matches(
                items,
                datasets=[ds],
                filters=filters or None,
                date_from=plan.scope.date_from,
                date_to=plan.scope.date_to,
                plan=request_plan,
                order="date",
                limit=limit,
            )
            assert isinstance(frame, pd.DataFrame)  # no batch_size: one frame
            total += int(frame.attrs.get("total", len(frame)))
            rows += [_match(r) for r in frame.to_dict("records")]
    except (RegnbError, KeyError, TypeError):
        return None
    rows.sort(key=lambda m: m.date or "", reverse=True)
    return Listing(total=total, rows=tuple(rows[:limit]))


def term_documents(
    source: Source,
    plan: Plan,
    request_plan: str,
    catalog_filters: CatalogFilters,
    term: str,
    limit: int,
) -> list[Found]:
    """The documents that hold `term` best (by BM25), within the question's filters: examples
    of what a count question counts, so that each term counted is read (from its first page:
    the engine lists a document's matching pages by count, not by number)."""
    out: list[Found] = []
    for ds in plan.scope.datasets:
        _, filters = _query(plan, ds, catalog_filters)
        loose = [n for n in plan.topic.names if not filters]
        try:
            frame = source.matches(
                searched_items([" ".join([*loose, term])]),
                datasets=[ds],
                filters=filters or None,
                date_from=plan.scope.date_from,
                date_to=plan.scope.date_to,
                plan=request_plan,
                order="bm25",
                limit=limit,
            )
        except RegnbError:
            continue
        assert isinstance(frame, pd.DataFrame)
        for row in frame.to_dict("records"):
            m = _match(row)
            fields = {str(k): v for k, v in row.items() if k not in _FIXED and isinstance(v, str)}
            out.append(
                Found(
                    m.document_id,
                    m.dataset,
                    m.title,
                    m.date,
                    m.url,
                    fields,
                    float(row.get("bm25") or 0.0),
                    (1,),
                    False,
                )
            )
    return sorted(out, key=lambda f: -f.score)[:limit]
