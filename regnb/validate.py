"""Checks of caller input: each failure raises the spec's error with the field at fault."""

from __future__ import annotations

import datetime as dt
import difflib
import functools
import inspect
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar, cast

from regnb.catalog import Catalog, Dataset
from regnb.errors import InvalidFilter, InvalidRequest, UnknownDataset
from regnb.query import SYNTAXES, KeywordItem, parse_item, plain_item
from regnb.request import DATE_KINDS, ORDERS, SORTS, DocFilter, Facet, SearchArgs, SearchRequest

__all__ = [
    "FACET_SIZE_MAX",
    "FIXED_FACETS",
    "LEGACY_TOP_K_MAX",
    "LIMIT_MAX",
    "MAX_FILTER_CHARS",
    "MAX_KEYWORDS",
    "MAX_KEYWORD_CHARS",
    "MAX_QUERY_CHARS",
    "MAX_QUERY_TEXT_CHARS",
    "OFFSET_MAX",
    "PLANS",
    "check_date",
    "check_facets",
    "check_int",
    "check_order",
    "check_places",
    "check_plan",
    "check_sort",
    "check_syntax",
    "date_text",
    "did_you_mean",
    "search_args",
    "search_request",
    "spec_arguments",
]

PLANS = ("free", "paid", "enterprise")
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MAX_KEYWORDS = 20
MAX_KEYWORD_CHARS = 300
MAX_QUERY_CHARS = 2000
MAX_FILTER_CHARS = 300
LIMIT_DEFAULT, LIMIT_MAX = 20, 50
OFFSET_MAX = 500
LEGACY_TOP_K_MAX = 100
MAX_QUERY_TEXT_CHARS = 2000
YEAR_MAX = 9999
FIXED_FACETS = ("dataset", "year", "month", "cfr", "section")
FACET_SIZE_MAX = 1000
MISSING = re.compile(r"missing a required (?:keyword-only )?argument: '(\w+)'")
UNEXPECTED = re.compile(r"got an unexpected keyword argument '(\w+)'")

Terms = Callable[[str], list[str]]
F = TypeVar("F", bound=Callable[..., Any])


def did_you_mean(given: object, known: Iterable[str]) -> str:
    """`; did you mean 'fda_483'?` for the known name closest to `given`, else ``."""
    if not isinstance(given, str):
        return ""
    names = list(known)
    folded = {name.casefold(): name for name in names}
    close = difflib.get_close_matches(given.casefold(), list(folded), n=1, cutoff=0.6)
    return f"; did you mean {folded[close[0]]!r}?" if close else ""


def spec_arguments(func: F) -> F:
    """`func` with a missing or misspelled argument raised as the spec's `invalid_request`
    (`keywords is required`) instead of Python's bare TypeError. Its signature is unchanged."""
    signature = inspect.signature(func)
    known = [p.name for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]

    @functools.wraps(func)
    def checked(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except TypeError:
            try:
                signature.bind(*args, **kwargs)
            except TypeError as exc:
                raise _argument_error(str(exc), known) from None
            raise

    return checked  # type: ignore[return-value]


def _argument_error(text: str, known: list[str]) -> InvalidRequest:
    missing = MISSING.search(text)
    if missing:
        return InvalidRequest(f"{missing.group(1)} is required", field=missing.group(1))
    unexpected = UNEXPECTED.search(text)
    if unexpected:
        name = unexpected.group(1)
        hint = did_you_mean(name, [k for k in known if k != "self"])
        return InvalidRequest(f"unknown argument {name!r}{hint}", field=name)
    return InvalidRequest(text)


def search_args(given: Mapping[str, Any], refused: Mapping[str, str] | None = None) -> SearchArgs:
    """Keyword arguments of the search block (`SearchArgs`) as given to a method that takes
    them as `**args`: a name outside the block is the spec's `invalid_request` naming it (with
    the closest known one), and so is one of `refused` (name: why the method refuses it)."""
    known = [k for k in SearchArgs.__annotations__ if k not in (refused or {})]
    for name in given:
        if refused and name in refused:
            raise InvalidRequest(f"{name} is not taken here: {refused[name]}", field=name)
        if name not in known:
            raise InvalidRequest(
                f"unknown argument {name!r}{did_you_mean(name, known)}", field=name
            )
    return cast(SearchArgs, dict(given))


def date_text(value: object) -> object:
    """A `date`, `datetime` or `pandas.Timestamp` as the spec's `YYYY-MM-DD` (a datetime gives
    its own calendar date); any other value as it is."""
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value == value else value  # NaT stays NaT
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def check_int(value: object, field: str, low: int, high: int | None = None) -> int:
    """An integer within bounds (booleans are not integers here)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRequest(f"{field} must be an integer, got {value!r}", field=field)
    if value < low or (high is not None and value > high):
        bounds = f"{low} to {high}" if high is not None else f"at least {low}"
        raise InvalidRequest(f"{field} must be {bounds}, got {value}", field=field)
    return value


def check_date(value: object, field: str, error: type[InvalidRequest | InvalidFilter]) -> str:
    """A `YYYY-MM-DD` calendar date; a `date`, `datetime` or `pandas.Timestamp` gives its own."""
    value = date_text(value)
    if isinstance(value, str) and ISO_DATE.match(value):
        try:
            return dt.date.fromisoformat(value).isoformat()
        except ValueError:
            pass
    raise error(f"{field} must be a date YYYY-MM-DD, got {value!r}", field=field)


def check_plan(plan: object) -> str:
    if plan not in PLANS:
        raise InvalidRequest(f"plan must be one of {', '.join(PLANS)}, got {plan!r}", field="plan")
    return str(plan)


def check_syntax(syntax: object) -> str:
    """`plain` (the spec's reading of keyword items) or `query` (regnb.query's syntax)."""
    if syntax not in SYNTAXES:
        raise InvalidRequest(
            f"syntax must be one of {', '.join(SYNTAXES)}, got {syntax!r}", field="syntax"
        )
    return str(syntax)


def check_keywords(
    keywords: object, terms: Terms, syntax: str = "plain"
) -> tuple[KeywordItem, ...]:
    """1 to 20 strings of up to 300 characters, each with at least one searchable word; read
    as plain words or parsed in the query syntax."""
    if isinstance(keywords, str) or not isinstance(keywords, list | tuple):
        raise InvalidRequest("keywords must be a list of strings", field="keywords")
    if not 1 <= len(keywords) <= MAX_KEYWORDS:
        raise InvalidRequest(
            f"keywords must have 1 to {MAX_KEYWORDS} items, got {len(keywords)}", field="keywords"
        )
    items = []
    for i, item in enumerate(keywords):
        where = f"keywords[{i}]"
        if not isinstance(item, str):
            raise InvalidRequest(f"{where} must be a string, got {item!r}", field=where)
        if len(item) > MAX_KEYWORD_CHARS:
            raise InvalidRequest(
                f"{where} is {len(item)} characters; at most {MAX_KEYWORD_CHARS}", field=where
            )
        if syntax == "query":
            items.append(parse_item(item, terms, where=where))
            continue
        parsed = plain_item(item, terms)
        if not parsed.terms:
            raise InvalidRequest(
                f"{where} {item!r} has no searchable word (only stop words or punctuation)",
                field=where,
            )
        items.append(parsed)
    return tuple(items)


def check_item_fields(catalog: Catalog, items: tuple[KeywordItem, ...], covered: list[str]) -> None:
    """Every `field:value` of the items names a field of some dataset searched (or a filter
    of one, which reads its field)."""
    known = sorted(
        {
            n
            for ds in covered
            for n in (*catalog[ds].fields, *catalog[ds].filters, *catalog[ds].place_fields)
        }
    )
    known = [n for n in known if n not in DATE_KINDS]
    for i, item in enumerate(items):
        for cond in item.fields:
            if cond.name in known:
                continue
            where = f"keywords[{i}]"
            hint = did_you_mean(cond.name, known)
            raise InvalidRequest(
                f"{where}: no dataset searched has a field {cond.name!r} at character "
                f"{cond.at + 1}{hint}",
                field=where,
            )


def check_query(query: object) -> str | None:
    if query is None:
        return None
    if not isinstance(query, str):
        raise InvalidRequest(f"query must be a string, got {query!r}", field="query")
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidRequest(
            f"query is {len(query)} characters; at most {MAX_QUERY_CHARS}", field="query"
        )
    return query.strip() or None


def check_datasets(catalog: Catalog, datasets: object, plan: str) -> tuple[list[str], bool]:
    """The datasets a search covers, and whether the caller named them."""
    if datasets is None:
        return [d.id for d in catalog if d.available and d.open_to(plan)], False
    if isinstance(datasets, str) or not isinstance(datasets, list | tuple):
        raise InvalidRequest("datasets must be a list of dataset ids", field="datasets")
    if not datasets:
        raise InvalidRequest(
            "datasets must name at least one dataset (omit it for all)", field="datasets"
        )
    out: list[str] = []
    for i, ds in enumerate(datasets):
        if not isinstance(ds, str):
            raise InvalidRequest(
                f"datasets[{i}] must be a string, got {ds!r}", field=f"datasets[{i}]"
            )
        if ds not in catalog:
            hint = did_you_mean(ds, catalog.ids)
            raise UnknownDataset(f"unknown dataset {ds!r}{hint}", field=f"datasets[{i}]")
        if ds not in out:
            out.append(ds)
    return out, True


def _one_filter(dataset: Dataset, name: str, value: object, where: str, terms: Terms) -> DocFilter:
    spec = dataset.filters[name]
    kind = dataset.filter_kind(name)
    if kind in DATE_KINDS:
        checked = check_date(value, where, InvalidFilter)
        return DocFilter(kind, dataset.date_field or name, checked, name)
    if kind == "boolean":
        if not isinstance(value, bool):
            raise InvalidFilter(f"{where} must be true or false, got {value!r}", field=where)
    elif kind == "number":
        whole = spec.get("type") == "integer"
        allowed = int if whole else int | float
        if isinstance(value, bool) or not isinstance(value, allowed):
            what = "an integer" if whole else "a number"
            raise InvalidFilter(f"{where} must be {what}, got {value!r}", field=where)
    elif not isinstance(value, str) or not value.strip():
        raise InvalidFilter(f"{where} must be a non-empty string, got {value!r}", field=where)
    elif len(value) > MAX_FILTER_CHARS:
        raise InvalidFilter(
            f"{where} is {len(value)} characters; at most {MAX_FILTER_CHARS}", field=where
        )
    elif kind == "enum" and value not in spec["enum"]:
        raise InvalidFilter(
            f"{where} must be one of {', '.join(spec['enum'])}, got {value!r}", field=where
        )
    elif kind == "exact" and not re.search(r"[A-Za-z0-9]", value):
        raise InvalidFilter(f"{where} has no letters or digits: {value!r}", field=where)
    elif kind == "keyword" and not terms(value):
        raise InvalidFilter(
            f"{where} {value!r} has no searchable word (only stop words or punctuation)",
            field=where,
        )
    return DocFilter(kind, dataset.filter_field(name), value, name)


def check_filters(
    catalog: Catalog,
    filters: object,
    covered: list[str],
    top_dated: dict[str, str | None],
    terms: Terms,
) -> dict[str, tuple[DocFilter, ...]]:
    """Each dataset's own filters, checked against the catalog."""
    if filters is None:
        return {}
    if not isinstance(filters, Mapping):
        raise InvalidFilter("filters must be an object keyed by dataset id", field="filters")
    out: dict[str, tuple[DocFilter, ...]] = {}
    for ds_id, given in filters.items():
        where = f"filters.{ds_id}"
        if ds_id not in covered:
            hint = did_you_mean(ds_id, covered)
            raise InvalidFilter(
                f"filters name {ds_id!r}, which this search does not cover{hint}", field=where
            )
        if not isinstance(given, Mapping):
            raise InvalidFilter(f"{where} must be an object of filters", field=where)
        dataset = catalog[ds_id]
        parsed = []
        for name, value in given.items():
            at = f"{where}.{name}"
            if name not in dataset.filters:
                listed = ", ".join(dataset.filters) or "none"
                hint = did_you_mean(name, dataset.filters)
                raise InvalidFilter(
                    f"{ds_id} has no filter {name!r} (filters: {listed}){hint}", field=at
                )
            if name in top_dated and top_dated[name] is not None:
                raise InvalidFilter(
                    f"{name} is given at the top level and in {where}; give it once", field=at
                )
            parsed.append(_one_filter(dataset, name, value, at, terms))
        bounds = {f.kind: f.value for f in parsed if not f.on_fields}
        if len(bounds) == 2 and bounds["date_from"] > bounds["date_to"]:
            raise InvalidFilter(f"{where}.date_from is after date_to", field=f"{where}.date_from")
        out[ds_id] = tuple(parsed)
    return out


def check_places(places: object) -> bool:
    """Whether the results carry their firms' places (`true` or `false`)."""
    if not isinstance(places, bool):
        raise InvalidRequest(f"places must be true or false, got {places!r}", field="places")
    return places


def check_sort(sort: object) -> str:
    if sort not in SORTS:
        hint = did_you_mean(sort, SORTS)
        raise InvalidRequest(
            f"sort must be one of {', '.join(SORTS)}, got {sort!r}{hint}", field="sort"
        )
    return str(sort)


def check_order(order: object) -> str:
    """How matches are ordered: `date` (newest first), `date_asc` or `bm25`."""
    if order not in ORDERS:
        hint = did_you_mean(order, ORDERS)
        raise InvalidRequest(
            f"order must be one of {', '.join(ORDERS)}, got {order!r}{hint}", field="order"
        )
    return str(order)


def facet_names(catalog: Catalog, datasets: Iterable[str]) -> list[str]:
    """The facets a search of `datasets` offers: the fixed ones, then their catalog fields and
    the place of firm-facing datasets' firms (`country`, `state`, `city`)."""
    fields = [f for ds in datasets for f in (*catalog[ds].fields, *catalog[ds].place_fields)]
    return list(dict.fromkeys([*FIXED_FACETS, *fields]))


def _one_facet(given: object, where: str, known: list[str]) -> Facet:
    name, size = given, Facet.size
    if isinstance(given, Mapping):
        extra = sorted(set(given) - {"name", "size"})
        if extra:
            raise InvalidRequest(f"{where} has an unknown key {extra[0]!r}", field=where)
        name = given.get("name")
        size = check_int(given.get("size", Facet.size), f"{where}.size", 1, FACET_SIZE_MAX)
    if not isinstance(name, str):
        raise InvalidRequest(
            f"{where} must be a facet name or an object with name and size, got {given!r}",
            field=where,
        )
    if name not in known:
        raise InvalidRequest(
            f"{where}: unknown facet {name!r} (facets: {', '.join(known)}){did_you_mean(name, known)}",
            field=where,
        )
    return Facet(name, size)


def check_facets(catalog: Catalog, facets: object, datasets: Iterable[str]) -> tuple[Facet, ...]:
    """Facet names (or `{"name", "size"}` objects) that the searched datasets offer, each once."""
    if facets is None:
        return ()
    if isinstance(facets, str | Mapping) or not isinstance(facets, list | tuple):
        raise InvalidRequest("facets must be a list of facet names", field="facets")
    known = facet_names(catalog, datasets)
    out: list[Facet] = []
    for i, given in enumerate(facets):
        facet = _one_facet(given, f"facets[{i}]", known)
        if any(f.name == facet.name for f in out):
            raise InvalidRequest(f"facets[{i}] repeats {facet.name!r}", field=f"facets[{i}]")
        out.append(facet)
    return tuple(out)


def search_request(catalog: Catalog, terms: Terms, args: Mapping[str, Any]) -> SearchRequest:
    """Check a search's arguments in the spec's order of fields; `terms` normalises words."""
    plan = check_plan(args.get("plan", "enterprise"))
    syntax = check_syntax(args.get("syntax", "plain"))
    items = check_keywords(args.get("keywords"), terms, syntax)
    query = check_query(args.get("query"))
    datasets, named = check_datasets(catalog, args.get("datasets"), plan)
    check_item_fields(catalog, items, datasets)
    date_from = args.get("date_from")
    date_to = args.get("date_to")
    if date_from is not None:
        date_from = check_date(date_from, "date_from", InvalidRequest)
    if date_to is not None:
        date_to = check_date(date_to, "date_to", InvalidRequest)
    if date_from and date_to and date_from > date_to:
        raise InvalidRequest(f"date_from {date_from} is after date_to {date_to}", field="date_from")
    limit = check_int(args.get("limit", LIMIT_DEFAULT), "limit", 1, LIMIT_MAX)
    offset = check_int(args.get("offset", 0), "offset", 0, OFFSET_MAX)
    filters = check_filters(
        catalog, args.get("filters"), datasets, {"date_from": date_from, "date_to": date_to}, terms
    )
    sort = check_sort(args.get("sort", "relevance"))
    facets = check_facets(catalog, args.get("facets"), datasets)
    places = check_places(args.get("places", False))
    return SearchRequest(
        items=items,
        query=query,
        datasets=tuple(datasets),
        named_datasets=named,
        filters=filters,
        date_from=date_from,
        date_to=date_to,
        limit=limit,
        offset=offset,
        plan=plan,
        sort=sort,
        facets=facets,
        syntax=syntax,
        places=places,
    )
