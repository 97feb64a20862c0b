"""The table for the research agent's question-understanding stage (which does not exist yet):
analyst questions, each with the typed plan a careful human analyst means by it. It is a
specification of the meaning, not a record of what the current code does.

The data is `understanding_cases.json` beside this module:

    {"version": 1, "today": "2026-11-26", "cases": [{"id": ..., "q": ..., "kind": ..., ...}]}

A case gives the fields that matter for it; a field it omits is not checked (only `id`, `q` and
`kind` are always given). `load_cases()` reads the cases; `load_table()` also gives the version
and the date relative periods were resolved against.

How a stage's plan is meant to be compared with an `ExpectedPlan` (for the implementer):

- names and phrases are compared normalised: case, accents, punctuation and spacing folded, "&"
  read as "and";
- a firm matches when the plan's firm name or one of its aliases contains the expected name key
  (or the key contains it), and the places match when the expected firm has one;
- a place matches when its city, state and country equal the expected ones (an absent field must
  be absent: the place is exactly as specific as the user was);
- dataset lists, place lists, firm lists and period lists are compared as sets;
- topic items must each be searched, `not_*` items must never appear.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

__all__ = [
    "KINDS",
    "PLAN_FIELDS",
    "TABLE",
    "TAGS",
    "Case",
    "ExpectedPlan",
    "Firm",
    "Period",
    "Place",
    "Places",
    "Table",
    "load_cases",
    "load_table",
]

TABLE = Path(__file__).with_name("understanding_cases.json")

KINDS = {
    "document": "about one document (a specific letter, 483, CRL, guidance or report)",
    "which": "a list of firms or documents meeting a condition",
    "count": "how many (an exact number is expected)",
    "trend": "counts over time ('per year', 'more common lately')",
    "comparison": "two periods, two firms, two sites, two places or two inspections side by side",
    "history": "a firm's record over time, across its documents",
    "absence": "whether something exists or happened: a yes/no existence question",
    "summary": "anything else: what guidance recommends, explain a topic, summarise documents",
}

TAGS = {
    "place": "a place or nationality: a filter, a firm's qualifier, or a place word in a name",
    "trap": "a reading the agent is known to get wrong (place word as a firm, document type "
    "inside a topic, a year inside a pointer...)",
    "dataset": "the case tests which datasets a phrase means",
    "pointer": "the user points at a passage of their own ('I recall...', 'the part about...')",
    "followup": "the question is a follow-up: `prior` holds the earlier messages",
    "identifier": "an FEI, NDA/BLA/ANDA, K/P/DEN, NCT, recall or letter number, or a CFR citation",
    "period": "a date range to resolve (a year, 'since', 'before', FY, quarter, 'last 3 years')",
    "typo": "misspelt words",
    "informal": "informal writing: no verb, 'w/', lower-case names, 'pls'",
    "abbreviation": "WL, CRL, OAI, CGMP, API, CDMO, 503B, PMA, MAUDE...",
    "alias": "a firm named twice, 'X (Y)' or 'X dba Y': one firm with aliases",
}

# The plan fields a case may give; those it gives are in `ExpectedPlan.checked`.
PLAN_FIELDS = ("firms", "places", "datasets", "periods", "pointers", "topic")
_NEGATIVE_FIELDS = ("not_firms", "not_datasets", "not_topic")
_CASE_KEYS = {"id", "q", "prior", "kind", "tags", "note", *PLAN_FIELDS, *_NEGATIVE_FIELDS}
_PLACE_KEYS = {"city", "state", "country"}
_FIRM_KEYS = {"name", "aliases", "place"}


@dataclass(frozen=True)
class Place:
    """A location, as specific as the user was: a city comes with its state (where the country
    has states) and country, a state with its country, a country or nationality alone is just the
    country.

    - `country`: ISO 3166-1 alpha-2 ("US", "IN", "CN", "DE"); always given. Puerto Rico is the US
      subdivision "PR" (country "US"), as FDA treats it.
    - `state`: the subdivision code without the country prefix: US postal codes ("NJ", "TX"),
      ISO 3166-2 for other countries ("GJ" for Gujarat, "ZJ" for Zhejiang, "ON" for Ontario).
    - `city`: the city's current English name ("Bengaluru" for "Bangalore").
    """

    country: str
    state: str | None = None
    city: str | None = None


@dataclass(frozen=True)
class Places:
    """Location filters on the firms searched (not qualifiers of a named firm, which are in
    `Firm.place`).

    - `include`: firms located in any of these ("Indian", "in New Jersey", "domestic" → US).
    - `exclude`: firms located in none of these ("foreign", "overseas", "outside the US",
      "ex-US" → US).
    """

    include: tuple[Place, ...] = ()
    exclude: tuple[Place, ...] = ()


@dataclass(frozen=True)
class Firm:
    """A firm the question names.

    - `name`: a distinctive key of the firm as the corpus names it ("Empower", "Intas
      Pharmaceuticals", "Lonza Houston"): a corpus firm matches when its name contains the key.
    - `aliases`: other names of the same firm the user gave ("Belmar Select Outsourcing (BSO
      LLC)": one firm, alias "BSO LLC").
    - `place`: a place that qualifies this firm ("Empower's Houston facility", "SCA's Arkansas
      site"); None when the user gave none. A place word that is part of the firm's name
      ("Lonza Houston", "Dabur India") is not a place.
    """

    name: str
    aliases: tuple[str, ...] = ()
    place: Place | None = None


@dataclass(frozen=True)
class Period:
    """An inclusive date range, resolved against the table's `today`: "in 2021" is the calendar
    year (even the current one), "since 2018" runs to today, "FY2019" is 2018-10-01..2019-09-30,
    "last 3 years" is today minus three years..today. `start` None: no lower bound ("before
    2020"); `end` is always a date (an open end runs to today). JSON keys: "from", "to"."""

    start: date | None
    end: date


@dataclass(frozen=True)
class ExpectedPlan:
    """The plan of the question's last message, understood in the context of the earlier ones.

    - `kind`: one of `KINDS`.
    - `firms`: the firms the question names; () when it names none (a place alone is a filter,
      not a firm).
    - `places`: location filters; empty lists when there are none.
    - `datasets`: the dataset ids the question means (a set); None when it names none: the plan
      must not narrow the search ("inspection" → fda_483 + fda_inspections, "recall" → both
      recall datasets; a document type named inside a topic, as in "guidance on user fees for
      510(k)s", is the topic, not a dataset).
    - `periods`: date ranges; () = no date restriction; two = the pair a comparison compares.
    - `pointers`: the user's own phrases (each verbatim in `q` or `prior`) to find and quote
      first.
    - `topic`: key topic items that must be searched, as the analyst means them; each item is a
      tuple of alternative phrasings (any one suffices). Identifiers (FEI, NDA, K numbers, CFR
      citations) are topic items, never firms. Not exhaustive: the plan may search more.
    - `not_firms`: spans that must not be the name or an alias of any firm in the plan.
    - `not_datasets`: datasets the plan must not choose.
    - `not_topic`: phrases the plan must not search ("Chinese medicine" for "Chinese API makers").
    - `checked`: which of `PLAN_FIELDS` the case gives; the others are not checked (and hold
      their empty defaults). `checks("datasets")` tells None-as-"none named" from "not checked".
    """

    kind: str
    firms: tuple[Firm, ...] = ()
    places: Places = Places()
    datasets: tuple[str, ...] | None = None
    periods: tuple[Period, ...] = ()
    pointers: tuple[str, ...] = ()
    topic: tuple[tuple[str, ...], ...] = ()
    not_firms: tuple[str, ...] = ()
    not_datasets: tuple[str, ...] = ()
    not_topic: tuple[str, ...] = ()
    checked: frozenset[str] = frozenset()

    def checks(self, name: str) -> bool:
        """Whether the case gives plan field `name` (one of `PLAN_FIELDS`)."""
        if name not in PLAN_FIELDS:
            raise KeyError(name)
        return name in self.checked


@dataclass(frozen=True)
class Case:
    """One analyst question and the plan it means.

    - `id`: unique slug; its prefix names the area (place-, ds-, cmp-, count-, trend-, hist-,
      abs-, ptr-, fu-, id-, typo-, sum-...).
    - `q`: the analyst's message, verbatim (typos included).
    - `prior`: the earlier user messages of the conversation, oldest first; () when `q` opens it.
    - `expected`: the plan a careful analyst means by `q`.
    - `tags`: coverage tags (`TAGS`).
    - `note`: why the case is tricky, and any doubt about the expected plan.
    """

    id: str
    q: str
    expected: ExpectedPlan
    prior: tuple[str, ...] = ()
    tags: frozenset[str] = frozenset()
    note: str = ""


@dataclass(frozen=True)
class Table:
    """The whole file: `version` (1), `today` (the date relative periods were resolved
    against) and the cases in file order."""

    version: int
    today: date
    cases: tuple[Case, ...]


def load_table(path: str | Path = TABLE) -> Table:
    """Read and check the shape of the table (unknown keys, wrong types and bad dates raise
    ValueError, naming the case)."""
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    if set(raw) != {"version", "today", "cases"}:
        raise ValueError(f"{path}: keys must be version, today, cases; got {sorted(raw)}")
    if raw["version"] != 1:
        raise ValueError(f"{path}: unknown version {raw['version']!r}")
    cases = []
    for i, entry in enumerate(raw["cases"]):
        where = f"{path}: cases[{i}] ({entry.get('id', '?') if isinstance(entry, dict) else '?'})"
        try:
            cases.append(_case(entry))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{where}: {exc}") from exc
    return Table(version=1, today=date.fromisoformat(raw["today"]), cases=tuple(cases))


def load_cases(path: str | Path = TABLE) -> list[Case]:
    """The table's cases, in file order."""
    return list(load_table(path).cases)


def _case(entry: dict[str, Any]) -> Case:
    if not isinstance(entry, dict):
        raise TypeError("a case is an object")
    unknown = set(entry) - _CASE_KEYS
    if unknown:
        raise ValueError(f"unknown keys {sorted(unknown)}")
    checked = frozenset(name for name in PLAN_FIELDS if name in entry)
    datasets = entry.get("datasets")
    plan = ExpectedPlan(
        kind=_str(entry["kind"]),
        firms=tuple(_firm(f) for f in _list(entry.get("firms", []))),
        places=_places(entry.get("places", {"include": [], "exclude": []})),
        datasets=None if datasets is None else tuple(_str(d) for d in _list(datasets)),
        periods=tuple(_period(p) for p in _list(entry.get("periods", []))),
        pointers=_strs(entry.get("pointers", [])),
        topic=tuple(_topic_item(t) for t in _list(entry.get("topic", []))),
        not_firms=_strs(entry.get("not_firms", [])),
        not_datasets=_strs(entry.get("not_datasets", [])),
        not_topic=_strs(entry.get("not_topic", [])),
        checked=checked,
    )
    return Case(
        id=_str(entry["id"]),
        q=_str(entry["q"]),
        expected=plan,
        prior=_strs(entry.get("prior", [])),
        tags=frozenset(_strs(entry.get("tags", []))),
        note=_str(entry.get("note", "")),
    )


def _firm(entry: Any) -> Firm:
    if not isinstance(entry, dict) or set(entry) - _FIRM_KEYS:
        raise ValueError(f"a firm is an object with keys {sorted(_FIRM_KEYS)}: {entry!r}")
    place = entry.get("place")
    return Firm(
        name=_str(entry["name"]),
        aliases=_strs(entry.get("aliases", [])),
        place=None if place is None else _place(place),
    )


def _places(entry: Any) -> Places:
    if not isinstance(entry, dict) or set(entry) != {"include", "exclude"}:
        raise ValueError(f"places is an object with include and exclude: {entry!r}")
    return Places(
        include=tuple(_place(p) for p in _list(entry["include"])),
        exclude=tuple(_place(p) for p in _list(entry["exclude"])),
    )


def _place(entry: Any) -> Place:
    if not isinstance(entry, dict) or set(entry) - _PLACE_KEYS or "country" not in entry:
        raise ValueError(f"a place has a country and optionally state and city: {entry!r}")
    state, city = entry.get("state"), entry.get("city")
    return Place(
        country=_str(entry["country"]),
        state=None if state is None else _str(state),
        city=None if city is None else _str(city),
    )


def _period(entry: Any) -> Period:
    if not isinstance(entry, dict) or set(entry) != {"from", "to"}:
        raise ValueError(f"a period is an object with from and to: {entry!r}")
    start = entry["from"]
    return Period(
        start=None if start is None else date.fromisoformat(_str(start)),
        end=date.fromisoformat(_str(entry["to"])),
    )


def _topic_item(entry: Any) -> tuple[str, ...]:
    return (_str(entry),) if isinstance(entry, str) else _strs(entry)


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, got {value!r}")
    return value


def _strs(value: Any) -> tuple[str, ...]:
    return tuple(_str(v) for v in _list(value))


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r}")
    return value
