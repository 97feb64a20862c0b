"""The searches of a turn: a probe over every planned dataset (confirms firm and product filters,
finds phrases the data uses, measures how a question spreads), then one v3 search per dataset,
reformulated with fewer words per item when the first finds little."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from regnb.agent._config import AgentConfig
from regnb.agent._plan import steering
from regnb.agent._source import Source
from regnb.agent._stages import Found, Plan, Searches
from regnb.agent._vocab import FIRM_FIELDS, PRODUCT_FIELDS
from regnb.agent.types import Step
from regnb.documents.places import Place
from regnb.documents.words import content_words, words
from regnb.errors import RegnbError
from regnb.query import escape_item
from regnb.results import SearchResult
from regnb.text import terms

__all__ = [
    "confirm_names",
    "data_phrases",
    "documents_of",
    "items_for",
    "probe",
    "run_searches",
    "searched_items",
]

SPLIT_DF = 0.1  # a phrase's word on more pages than this is dropped when the phrase is split
MAX_ITEMS = 16
EXAMPLE_WORDS = 2  # of the topic's rarest words, searched with each example the message lists
# Words nearly every regulatory page holds: the items of a search whose filter does the choosing.
FALLBACK_ITEMS = [
    "fda",
    "firm",
    "product",
    "products",
    "device",
    "drug",
    "observation",
    "inspection",
    "letter",
    "report",
    "patient",
    "procedures",
    "guidance",
    "manufacturer",
]
EXACT_FILTERS = {
    "fei": "fei_number",
    "nct": "nct_id",
    "510k": "submission_number",
    "denovo": "submission_number",
    "pma": "pma_number",
}


# Filters that pin the documents down (a firm, a product, an identifier): with one, the search
# lists every document it allows. An enum filter ("phase3", "Class I") only narrows the topic's.
PINNING = frozenset({*FIRM_FIELDS, *PRODUCT_FIELDS, *EXACT_FILTERS.values()})


def _search(
    source: Source,
    request_plan: str,
    items: list[str],
    *,
    raw: Sequence[str] = (),
    **kwargs: Any,
) -> SearchResult:
    """A v3 search with the items that hold a searchable word (at most MAX_ITEMS of them), read
    as plain words, and the `raw` items as written (`state:MN`)."""
    plain = searched_items(items) if items or not raw else []
    return source.search([*plain, *raw], plan=request_plan, **kwargs)


def searched_items(items: list[str]) -> list[str]:
    """The keyword items a search sends: those that hold a searchable word (words nearly every
    page holds when none does), at most MAX_ITEMS, read as plain words."""
    usable = [i for i in items if content_words(i)] or list(FALLBACK_ITEMS)
    return as_items(usable[:MAX_ITEMS])


def as_items(items: list[str]) -> list[str]:
    """Items read as plain words whatever the search's syntax: a question's quotes, hyphens,
    `OR` or `name:` become words, never operators."""
    return [escape_item(i, terms) for i in items]


def _places(plan: Plan) -> dict[str, Any]:
    """`places=True` where the question places firms ("Indian API makers"): each result then
    carries the place the index read for its firm (`_placed`)."""
    return {"places": True} if plan.scope.places_in or plan.scope.places_out else {}


def _dataset_search(
    source: Source,
    request_plan: str,
    plan: Plan,
    ds: str,
    items: list[str],
    filtered: dict[str, str],
    limit: int,
    offset: int = 0,
    raw: Sequence[str] = (),
) -> SearchResult:
    """One page of one dataset's search for the plan (`raw`: items as written)."""
    return _search(
        source,
        request_plan,
        items,
        raw=raw,
        query=plan.query,
        datasets=[ds],
        filters={ds: filtered} if filtered else None,
        date_from=plan.scope.date_from,
        date_to=plan.scope.date_to,
        limit=limit,
        offset=offset,
        **_places(plan),
    )


def probe(source: Source, plan: Plan, request_plan: str, limit: int) -> SearchResult | None:
    """One broad search over every planned dataset: each term alone (words nearly every page
    holds when the message names no term), best `limit` documents."""
    items = list(dict.fromkeys([*plan.topic.terms, *plan.topic.pairs])) or list(FALLBACK_ITEMS)
    if not plan.scope.datasets:
        return None
    try:
        return _search(
            source,
            request_plan,
            items,
            query=plan.query,
            datasets=list(plan.scope.datasets),
            date_from=plan.scope.date_from,
            date_to=plan.scope.date_to,
            limit=limit,
            **_places(plan),
        )
    except RegnbError:
        return None  # the searches proper report what went wrong, dataset by dataset


def _holds(value: object, name: str) -> bool:
    """Whether a field's value holds every word of `name`."""
    if not isinstance(value, str) or not value:
        return False
    have = set(words(value))
    return all(w in have for w in words(name) if w not in {"&", "and", "of"})


def confirm_names(
    plan: Plan, result: SearchResult | None, filter_names: Callable[[str], dict[str, Any]]
) -> dict[str, dict[str, str]]:
    """Firm and product names that a probe found in a catalog filter field: {dataset: {field:
    name}}. `filter_names(dataset)` gives the dataset's catalog filters. Two names found in one
    field (two firms to compare) filter nothing: they are searched as alternatives. A product
    found filters alone: its maker's field is often empty (most MAUDE reports name no
    manufacturer), so the maker's name would drop the product's other documents."""
    found: dict[str, dict[str, list[str]]] = {}
    if result is None or (plan.ask.kind == "comparison" and len(plan.topic.names) >= 2):
        return {}  # two sides compared: a filter on the one the probe found loses the other
    for doc in result.results:
        ds = doc["dataset"]
        filters = filter_names(ds)
        for name in plan.topic.names:
            for field_name in (*FIRM_FIELDS, *PRODUCT_FIELDS):
                value = (doc.get("fields") or {}).get(field_name)
                if field_name in filters and _holds(value, name):
                    names = found.setdefault(ds, {}).setdefault(field_name, [])
                    if name not in names:
                        names.append(name)
    out: dict[str, dict[str, str]] = {}
    for ds, fields in found.items():
        single = {f: names[0] for f, names in fields.items() if len(names) == 1}
        if any(f in PRODUCT_FIELDS for f in single):  # the product says whose it is; a maker
            single = {
                f: n for f, n in single.items() if f not in FIRM_FIELDS
            }  # field is often empty
        if single:
            out[ds] = single
    return out


def data_phrases(plan: Plan, result: SearchResult | None) -> list[str]:
    """Adjacent words of the message that the pages found use as one term (on two pages or
    more, and on at least 40% of the pages that hold both words)."""
    if result is None or not plan.topic.pairs:
        return []
    texts = [p["text"].lower() for r in result.results for p in r["pages"]]
    out = []
    for pair in plan.topic.pairs:
        a, b = pair.split(" ", 1)
        together = re.compile(rf"\b{re.escape(a)}\w{{0,3}}[\s-]+{re.escape(b)}\w{{0,3}}\b")
        both = [t for t in texts if a in t and b in t]
        hits = sum(1 for t in both if together.search(t))
        if hits >= 2 and hits >= 0.4 * len(both):
            out.append(pair)
    return out


def _exact_filters(plan: Plan, filters: Mapping[str, Any]) -> dict[str, str]:
    out = {}
    for ident in plan.topic.identifiers:
        name = EXACT_FILTERS.get(plan.topic.identifier_kinds.get(ident, ""))
        if name and name in filters:
            out[name] = ident
    return out


def filters_for(plan: Plan, ds: str, catalog_filters: Mapping[str, Any]) -> dict[str, str]:
    """The dataset's filters: confirmed firm or product names, and exact identifiers."""
    return {**plan.scope.filters.get(ds, {}), **_exact_filters(plan, catalog_filters)}


def place_items(plan: Plan) -> list[str]:
    """One condition per place the question puts the firms in (`city:"zapopan"`, `state:NJ`,
    `country:IN`), joined to each topic item by `run_searches`: the topic's documents of firms
    there, not only those of the best matches anywhere that happen to lie there (a "which firms
    around Guadalajara…" question over a dataset of hundreds of firms)."""
    out = []
    for code in plan.scope.places_in:
        place = Place.from_code(code)
        if place.city:
            out.append(f'city:"{place.city.lower()}"')
        elif place.state and place.country:
            out.append(f"state:{place.state}")
        elif place.country:
            out.append(f"country:{place.country}")
    return out


def items_for(plan: Plan, filtered: dict[str, str], loosen: bool) -> list[str]:
    """Keyword items for one dataset. Identifiers alone; a name not used as a filter is joined to
    each topic item (the page must name it too) and stands alone as well (a page that names it
    is about what was asked, whatever words it uses); content words as one item. When `loosen`
    (the reformulated search), phrases are split and every word stands alone."""
    used = {v for k, v in filtered.items() if k in PINNING}
    pinned = {tuple(words(v)) for v in used}
    topic = plan.topic
    identifiers = [i for i in topic.identifiers if i not in used]
    names = [n for n in topic.names if tuple(words(n)) not in pinned]
    # each example the message lists, with the topic's rarest words: an alternative
    core = " ".join(topic.words[:EXAMPLE_WORDS])
    examples = [f"{e} {core}".strip() for e in topic.examples]
    if loosen:  # phrases split into the words that steer, every word alone
        split = [w for p in topic.phrases for w in steering(plan, p, SPLIT_DF)]
        items = [*identifiers, *names, *examples, *split, *topic.words]
    else:
        base = [*topic.phrases]
        if topic.words:
            base.append(" ".join(topic.words[:4]))
        joined = [f"{n} {b}" for n in names for b in base] if names else base
        items = [*identifiers, *joined, *examples, *names]
    if used or not items:  # a filter chooses the documents (or nothing else was named): list
        items = [*items, *FALLBACK_ITEMS]  # all it allows; the query ranks them
    return list(dict.fromkeys(items))


def documents_of(result: SearchResult, weak: bool) -> list[Found]:
    """The documents of a search result, as `Found`."""
    return [
        Found(
            document_id=r["document_id"],
            dataset=r["dataset"],
            title=r["title"],
            date=r["date"],
            url=r["url"],
            fields=r.get("fields") or {},
            score=float(r["pages"][0]["score"]) if r["pages"] else 0.0,
            pages=tuple(int(p["page_num"]) for p in r["pages"]),
            weak=weak,
        )
        for r in result.results
    ]


def _placed_first(there: SearchResult, anywhere: SearchResult, ds: str) -> SearchResult:
    """The search anywhere with the documents found in the places asked before its own (a
    dataset's best matches may all lie elsewhere); its status where it found nothing."""
    if not there.results:
        return anywhere
    seen = {r["document_id"] for r in there.results}
    results = [*there.results, *(r for r in anywhere.results if r["document_id"] not in seen)]
    statuses = anywhere.dataset_statuses
    if not anywhere.results:
        statuses = {**statuses, ds: there.dataset_statuses.get(ds, {"status": "ok"})}
    return dataclasses.replace(
        anywhere,
        results=results,
        total=max(anywhere.total, there.total),
        dataset_statuses=statuses,
    )


def run_searches(
    source: Source,
    plan: Plan,
    request_plan: str,
    catalog_filters: Callable[[str], dict[str, Any]],
    dataset_name: Callable[[str], str],
    step: Callable[[Step], None],
    check: Callable[[], None],
    config: AgentConfig,
    depth: int | None = None,
    placed: Callable[[str], bool] = lambda ds: False,
) -> Searches:
    """One search per planned dataset; datasets with no full match, or fewer than
    `config.min_strong` when all of them have fewer, are searched again with the content words
    as separate items (their documents count as weaker evidence). Up to `depth`
    documents of a dataset are listed (more than one page of results for a "which…" question;
    one page, `config.search_documents`, by default). A dataset whose firms have places
    (`placed`) is searched for the places the question names too."""
    page = config.search_documents
    depth = page if depth is None else depth
    found: list[Found] = []
    statuses: dict[str, dict[str, Any]] = {}
    totals: dict[str, int] = {}
    reformulated: list[str] = []
    for loosen in (False, True):
        todo = [
            ds
            for ds in plan.scope.datasets
            if not loosen
            or statuses.get(ds, {}).get("status") in ("no_match", "loosened")
            or (statuses.get(ds, {}).get("status") == "ok" and totals[ds] < config.min_strong)
        ]
        if loosen:
            strong = sum(1 for f in found if not f.weak)
            if strong >= config.min_strong or not todo:
                break
        for ds in todo:
            check()
            filtered = filters_for(plan, ds, catalog_filters(ds))
            items = items_for(plan, filtered, loosen)
            if not items:
                continue
            where = place_items(plan) if not loosen and placed(ds) else []
            try:
                result = _dataset_search(source, request_plan, plan, ds, items, filtered, page)
                if where:  # the topic's pages of firms in the places asked first
                    joined = [f"{i} {c}" for i in searched_items(items) for c in where]
                    there = _dataset_search(
                        source, request_plan, plan, ds, [], filtered, page, raw=joined[:MAX_ITEMS]
                    )
                    result = _placed_first(there, result, ds)
            except RegnbError as exc:
                statuses[ds] = {"status": "error", "reason": exc.message}
                continue
            if loosen and not result.results:
                continue
            listed = list(result.results)
            offset = result.next_offset
            loosened = bool(result.dataset_statuses.get(ds, {}).get("loosened"))
            while offset is not None and len(listed) < depth and not loosen and not loosened:
                check()
                try:
                    more = _dataset_search(
                        source, request_plan, plan, ds, items, filtered, page, offset
                    )
                except RegnbError:
                    break
                listed += more.results
                offset = more.next_offset
            result = dataclasses.replace(result, results=listed[:depth])
            status = dict(result.dataset_statuses.get(ds, {"status": "no_match"}))
            weak = loosen or bool(status.get("loosened"))
            if status.get("status") == "ok" and status.get("loosened"):
                status["status"] = "loosened"
            known = {f.document_id for f in found}
            added = [f for f in documents_of(result, weak) if f.document_id not in known]
            found += added
            if loosen and status.get("status") == "ok" and added:
                reformulated.append(ds)
            statuses[ds] = status
            totals[ds] = result.total
            if result.total or not loosen:
                prefix = "Searching again" if loosen else "Searching"
                step(Step(f"{prefix} {dataset_name(ds)}", result.total))
    return Searches(tuple(found), statuses, totals, tuple(reformulated))
