"""Checks of the DATA of the question-understanding table (tests/agent/understanding_cases.json):
the stage it specifies does not exist yet, so nothing here runs the agent. The table must load,
use only known kinds, tags, dataset ids (the catalog's), country and subdivision codes and valid
periods, be consistent with itself (a follow-up has earlier messages, a pointer is the user's own
words, an identifier is never a firm), cover every category with enough cases, and name real
firms of ../shared/data/realcorpus."""

from __future__ import annotations

import gzip
import json
import re
import unicodedata
from collections import Counter
from functools import cache
from typing import Any

import pytest

from regnb.catalog import load_catalog
from tests.agent.understanding_cases import (
    KINDS,
    PLAN_FIELDS,
    TAGS,
    Case,
    Place,
    load_cases,
    load_table,
)
from tests.paths import ROOT, SHARED_DATA

REAL = SHARED_DATA / "realcorpus"

# Minimum number of cases per coverage tag, and per kind.
MIN_TAGS = {
    "place": 30,
    "dataset": 20,
    "pointer": 12,
    "followup": 15,
    "identifier": 10,
    "trap": 20,
    "period": 25,
    "typo": 8,
    "informal": 8,
    "abbreviation": 15,
    "alias": 4,
}
MIN_KINDS = {"comparison": 15, "history": 12, "absence": 12}
MIN_COUNT_OR_TREND = 15
MIN_CASES = 160
MIN_DISTINCT_FIRMS = 60

# Identifiers that must never be firm names: FEI numbers, application numbers, 510(k)/De Novo/PMA
# numbers, trial ids, CFR citations, letter and recall numbers.
IDENTIFIER = re.compile(
    r"^(?:FEI\s*)?\d{7,10}$|^(?:NDA|BLA|ANDA)\s*\d{6}$|^(?:K|DEN|P)\d{6}$|^NCT\d{8}$"
    r"|^21 CFR|^\d{3}-\d{2}-\d{2}$|^[A-Z]-\d{4}-\d{4}$",
    re.IGNORECASE,
)
# A real-corpus record's firm fields (CRLs often name the firm only in the title).
FIRM_FIELDS = ("company", "title")


@cache
def cases() -> list[Case]:
    return load_cases()


def _fold(text: str) -> str:
    """Lower case, no accents or apostrophes, '&' as 'and', other punctuation as spaces, one
    space between words ("Dr. Reddy’s" → "dr reddys")."""
    text = re.sub(r"['’]", "", text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = text.lower().replace("&", " and ")
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text).split())


def _within(key: str, name: str) -> bool:
    """Whether folded `key` is a run of whole words of folded `name`."""
    return f" {key} " in f" {name} "


def _places(case: Case) -> list[Place]:
    plan = case.expected
    found = [*plan.places.include, *plan.places.exclude]
    return found + [f.place for f in plan.firms if f.place is not None]


def test_the_table_loads_with_its_version_and_date():
    table = load_table()
    assert table.version == 1
    assert table.today.isoformat() == "2026-11-26"
    assert len(table.cases) >= MIN_CASES


def test_the_file_is_the_shape_the_loader_documents():
    raw = json.loads((ROOT / "tests/agent/understanding_cases.json").read_text(encoding="utf-8"))
    for entry in raw["cases"]:
        assert {"id", "q", "kind"} <= set(entry), entry.get("id")
        assert entry["q"].strip() == entry["q"] and entry["q"], entry["id"]


def test_ids_are_unique_slugs():
    ids = [c.id for c in cases()]
    assert [i for i, n in Counter(ids).items() if n > 1] == []
    assert [i for i in ids if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)+", i)] == []


def test_an_id_prefix_that_names_a_kind_agrees_with_it():
    kind_of = {
        "cmp": "comparison",
        "count": "count",
        "trend": "trend",
        "hist": "history",
        "abs": "absence",
        "sum": "summary",
    }
    wrong = [
        c.id
        for c in cases()
        if c.id.split("-")[0] in kind_of and kind_of[c.id.split("-")[0]] != c.expected.kind
    ]
    assert wrong == []


def test_questions_are_unique():
    keyed = Counter((c.prior, c.q.lower()) for c in cases())
    assert [k for k, n in keyed.items() if n > 1] == []


def test_every_kind_and_tag_is_known():
    assert [c.id for c in cases() if c.expected.kind not in KINDS] == []
    assert [(c.id, sorted(c.tags - set(TAGS))) for c in cases() if c.tags - set(TAGS)] == []


def test_every_case_says_why_when_it_is_a_trap():
    assert [c.id for c in cases() if "trap" in c.tags and not c.note] == []


def test_every_dataset_id_is_in_the_catalog():
    with open(ROOT / "regnb/catalog.json", encoding="utf-8") as f:
        ids = {d["id"] for d in json.load(f)["datasets"]}
    assert set(load_catalog().ids) == ids
    unknown = []
    for case in cases():
        plan = case.expected
        for dataset in (*(plan.datasets or ()), *plan.not_datasets):
            if dataset not in ids:
                unknown.append((case.id, dataset))
    assert unknown == []


def test_chosen_and_forbidden_datasets_do_not_overlap():
    clash = [c.id for c in cases() if set(c.expected.datasets or ()) & set(c.expected.not_datasets)]
    assert clash == []


def test_dataset_lists_have_no_repeats():
    repeats = [
        c.id
        for c in cases()
        if c.expected.datasets is not None
        and len(set(c.expected.datasets)) != len(c.expected.datasets)
    ]
    assert repeats == []


def _bad_place(place: Place, pycountry: Any) -> bool:
    """Whether a place's codes are malformed, or unknown to pycountry when it is installed."""
    if not re.fullmatch(r"[A-Z]{2}", place.country):
        return True
    if pycountry is not None and pycountry.countries.get(alpha_2=place.country) is None:
        return True
    if place.state is not None:
        code = f"{place.country}-{place.state}"
        if not re.fullmatch(r"[A-Z]{2}-[A-Z0-9]{1,3}", code):
            return True
        if pycountry is not None and pycountry.subdivisions.get(code=code) is None:
            return True
    return place.city is not None and (not place.city or place.city != place.city.strip())


def test_country_and_subdivision_codes_are_valid():
    try:
        import pycountry
    except ImportError:  # then the codes' shape only
        pycountry = None
    bad = [(c.id, p) for c in cases() for p in _places(c) if _bad_place(p, pycountry)]
    assert bad == []


def test_a_place_is_not_both_included_and_excluded():
    clash = [
        c.id for c in cases() if set(c.expected.places.include) & set(c.expected.places.exclude)
    ]
    assert clash == []


def test_periods_are_ordered_iso_dates_resolved_against_today():
    today = load_table().today
    bad = []
    for case in cases():
        for period in case.expected.periods:
            if period.start is not None and period.start > period.end:
                bad.append((case.id, period))
            if period.end.year > today.year:  # "in 2026" may run to 2026-12-31
                bad.append((case.id, period))
        if len(case.expected.periods) > 2:
            bad.append((case.id, "more than two periods"))
        if len(case.expected.periods) == 2 and case.expected.kind != "comparison":
            bad.append((case.id, "two periods outside a comparison"))
    assert bad == []


def test_a_comparison_names_its_two_sides():
    one_sided = []
    for case in cases():
        plan = case.expected
        if plan.kind != "comparison":
            continue
        if not (len(plan.periods) == 2 or len(plan.firms) >= 2 or len(plan.places.include) >= 2):
            one_sided.append(case.id)
    assert one_sided == []


def test_a_follow_up_has_earlier_messages_and_only_a_follow_up_has():
    assert [c.id for c in cases() if ("followup" in c.tags) != bool(c.prior)] == []


def test_pointers_are_the_users_own_words():
    bad = []
    for case in cases():
        said = " ".join((*case.prior, case.q)).lower()
        bad += [(case.id, p) for p in case.expected.pointers if p.lower() not in said]
        if ("pointer" in case.tags) != bool(case.expected.pointers):
            bad.append((case.id, "tag 'pointer' and pointers disagree"))
    assert bad == []


def test_topic_items_and_negatives_are_non_empty_phrases():
    bad = []
    for case in cases():
        plan = case.expected
        for item in plan.topic:
            bad += [(case.id, item) for phrase in item if not phrase.strip()]
            if not item:
                bad.append((case.id, "empty topic item"))
        for phrase in (*plan.not_firms, *plan.not_topic, *plan.pointers):
            if not phrase.strip():
                bad.append((case.id, "empty phrase"))
    assert bad == []


def test_identifiers_are_never_firms():
    bad = []
    for case in cases():
        for firm in case.expected.firms:
            bad += [(case.id, n) for n in (firm.name, *firm.aliases) if IDENTIFIER.search(n)]
    assert bad == []


def test_an_identifier_case_names_its_identifier_in_the_topic():
    missing = []
    for case in cases():
        if "identifier" not in case.tags:
            continue
        phrases = [p for item in case.expected.topic for p in item]
        if not any(IDENTIFIER.search(p) or re.search(r"\d{6,}|CFR", p) for p in phrases):
            missing.append(case.id)
    assert missing == []


def test_no_firm_is_also_a_span_that_must_not_be_one():
    clash = []
    for case in cases():
        names = {_fold(n) for f in case.expected.firms for n in (f.name, *f.aliases)}
        clash += [(case.id, s) for s in case.expected.not_firms if _fold(s) in names]
    assert clash == []


def test_firms_have_names_and_distinct_aliases():
    bad = []
    for case in cases():
        for firm in case.expected.firms:
            if not firm.name.strip() or _fold(firm.name) in {_fold(a) for a in firm.aliases}:
                bad.append((case.id, firm.name))
    assert bad == []


def test_every_plan_field_is_given_by_some_case():
    given = Counter(f for c in cases() for f in PLAN_FIELDS if c.expected.checks(f))
    assert set(given) == set(PLAN_FIELDS)
    assert given["datasets"] >= MIN_CASES * 0.8
    nothing_named = [
        c for c in cases() if c.expected.checks("datasets") and c.expected.datasets is None
    ]
    assert len(nothing_named) >= 8  # datasets null: the plan must not narrow
    # None says "none named"; an empty list would say nothing can be searched.
    assert [c.id for c in cases() if c.expected.datasets == ()] == []


def test_coverage_per_tag_and_kind():
    tags = Counter(t for c in cases() for t in c.tags)
    kinds = Counter(c.expected.kind for c in cases())
    short = {t: (tags[t], n) for t, n in MIN_TAGS.items() if tags[t] < n}
    short |= {k: (kinds[k], n) for k, n in MIN_KINDS.items() if kinds[k] < n}
    if kinds["count"] + kinds["trend"] < MIN_COUNT_OR_TREND:
        short["count+trend"] = (kinds["count"] + kinds["trend"], MIN_COUNT_OR_TREND)
    assert short == {}
    assert set(kinds) == set(KINDS)  # every kind is exercised


def test_place_cases_cover_filters_qualifiers_and_names():
    """Both ways of the place traps: filters (include and exclude), a place qualifying a named
    firm, and firm names that contain a place word (the 'place' cases without any place)."""
    place_cases = [c for c in cases() if "place" in c.tags]
    include = [c for c in place_cases if c.expected.places.include]
    exclude = [c for c in place_cases if c.expected.places.exclude]
    qualified = [c for c in place_cases if any(f.place for f in c.expected.firms)]
    in_a_name = [c for c in place_cases if c.expected.firms and not _places(c)]
    assert len(include) >= 15
    assert len(exclude) >= 5
    assert len(qualified) >= 8
    assert len(in_a_name) >= 10


def test_at_least_sixty_distinct_firms():
    """Counted once per firm: a name key within another ("Eugia" and "Eugia Pharma", "Imprimis"
    and "Imprimis NJOF") is the same firm."""
    names = sorted({_fold(f.name) for c in cases() for f in c.expected.firms}, key=len)
    distinct: list[str] = []
    for name in names:
        if not any(_within(key, name) for key in distinct):
            distinct.append(name)
    assert len(distinct) >= MIN_DISTINCT_FIRMS, len(distinct)


@cache
def _corpus_firm_text() -> str:
    """The firm fields of every real-corpus record, folded, one per line."""
    lines = []
    for path in sorted(REAL.glob("fda_*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for line in f:
                record = json.loads(line)
                for field in FIRM_FIELDS:
                    value = record.get(field)
                    if isinstance(value, str):
                        lines.append(_fold(value))
                    elif isinstance(value, dict):  # one CRL gives the sponsor as an object
                        lines.append(_fold(json.dumps(value)))
    return "\n".join(lines)


@pytest.mark.shared_data
@pytest.mark.skipif(not REAL.exists(), reason=f"real corpus not found at {REAL}")
def test_every_firm_is_named_in_the_real_corpus():
    """A resolver against the corpus's firms can be tested honestly: every firm name and alias
    of the table is a run of whole words of some record's company or title (folded)."""
    text = _corpus_firm_text()
    missing = sorted(
        {
            (c.id, n)
            for c in cases()
            for f in c.expected.firms
            for n in (f.name, *f.aliases)
            if not re.search(rf"(?:^|\s){re.escape(_fold(n))}(?:\s|$)", text, re.MULTILINE)
        }
    )
    assert missing == []


@pytest.mark.parametrize(
    "case",
    [
        {"id": "x-y", "q": "q", "kind": "which", "firm": []},  # a misspelt field
        {"id": "x-y", "q": "q", "kind": "which", "periods": [{"from": "2020-13-01", "to": None}]},
        {"id": "x-y", "q": "q", "kind": "which", "places": {"include": [{"state": "NJ"}]}},
        {"id": "x-y", "q": "q", "kind": "which", "firms": [{"name": "A", "city": "B"}]},
    ],
)
def test_the_loader_refuses_a_malformed_case(tmp_path, case):
    path = tmp_path / "cases.json"
    path.write_text(json.dumps({"version": 1, "today": "2026-11-26", "cases": [case]}))
    with pytest.raises(ValueError, match="x-y"):
        load_table(path)
