"""The search stages as plain functions: statuses, loosening, ranking blend, grouping, the request."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from regnb import text
from regnb.catalog import Catalog, Dataset, load_catalog
from regnb.index.checksums import Damage
from regnb.request import DocFilter, KeywordItem, SearchRequest
from regnb.search.procedure import (
    RankedPage,
    blend,
    dataset_statuses,
    group_documents,
    healing,
    loosen_needs,
    match_levels,
    rank_groups,
    undamaged,
)
from regnb.validate import search_request

CATALOG = load_catalog()


def request(**args: object) -> SearchRequest:
    return search_request(CATALOG, text.terms, {"keywords": ["sterility"], **args})


@pytest.mark.parametrize(
    ("sizes", "level", "needs"),
    [
        ([1, 2, 3, 5], 0, [1, 2, 3, 5]),
        ([1, 2, 3, 5], 1, [1, 1, 2, 2]),
        ([1, 2, 3, 5], 2, [1, 1, 1, 1]),
        ([10], 1, [4]),
        ([6], 1, [3]),
    ],
)
def test_loosening_needs_all_then_40_percent_rounded_up_then_any(sizes, level, needs):
    assert loosen_needs(sizes, level) == needs


@pytest.mark.parametrize(
    ("sizes", "levels"), [([1, 1], [0]), ([1, 2], [0, 1, 2]), ([3], [0, 1, 2])]
)
def test_only_items_of_several_words_loosen(sizes, levels):
    assert match_levels(sizes) == levels


def test_statuses_before_matching_follow_plan_availability_and_dates():
    req = request(
        datasets=["fda_483", "fda_crl", "ema_epar", "fda_guidance"],
        date_from="2020-01-01",
        plan="paid",
    )
    statuses, runnable = dataset_statuses(req, CATALOG)
    assert statuses["fda_crl"] == {"status": "forbidden"}
    assert statuses["ema_epar"] == {"status": "not_available"}
    assert statuses["fda_483"] == {"status": "no_match"}
    assert runnable == [d for d in ("fda_483", "fda_guidance") if CATALOG[d].date_field]


def test_undated_datasets_are_skipped_only_by_a_dated_search():
    undated = "acme_sops"
    catalog = Catalog([Dataset(undated, "ACME SOPs", "", True, False, None, {}, ["title"])])

    def statuses(**args: object) -> tuple[dict[str, dict[str, object]], list[str]]:
        req = search_request(catalog, text.terms, {"keywords": ["x1"], **args})
        return dataset_statuses(req, catalog)

    dated, _ = statuses(datasets=[undated], date_to="2020-01-01")
    plain, runnable = statuses(datasets=[undated])
    assert dated[undated] == {"status": "skipped", "reason": "no date field"}
    assert runnable == [undated] and plain[undated] == {"status": "no_match"}


def test_blend_puts_cosine_and_keyword_evidence_on_one_scale():
    out = blend(np.array([0.5, 0.1]), np.array([2.0, 4.0]), weight=0.7)
    assert out == pytest.approx([0.7 * 0.5 + 0.3 * 0.5, 0.7 * 0.1 + 0.3 * 1.0])
    assert blend(np.array([0.2]), np.array([0.0]), weight=0.7) == pytest.approx([0.14])


def test_documents_rank_by_best_page_and_loosened_datasets_come_last():
    pages = [
        RankedPage(1, "a", 1.0, 0.2),
        RankedPage(2, "a", 1.0, 0.9),
        RankedPage(3, "b", 1.0, 0.95),
        RankedPage(4, "c", 1.0, 0.5),
        RankedPage(5, "a", 1.0, 0.5),
    ]
    doc_of = {1: 10, 2: 10, 3: 30, 4: 40, 5: 50}
    groups = group_documents(pages, doc_of, loosened={"b"})
    assert [g.doc_row for g in groups] == [10, 40, 50, 30]
    assert [p.page_id for p in groups[0].pages] == [2, 1]  # best page first


def test_equal_scores_are_ordered_by_page_id():
    pages = [RankedPage(9, "a", 0, 0.5), RankedPage(3, "a", 0, 0.5)]
    assert [g.doc_row for g in group_documents(pages, {9: 1, 3: 2}, set())] == [2, 1]


def test_a_request_carries_its_items_with_their_terms():
    req = request(keywords=["Media fills", "21 CFR 211.113(b)", "sterility sterility"])
    assert req.items == (
        KeywordItem("Media fills", ("media", "fill")),
        KeywordItem("21 CFR 211.113(b)", ("21", "cfr", "211", "113", "b")),
        KeywordItem("sterility sterility", ("steril",)),
    )
    assert [i.size for i in req.items] == [2, 5, 1]


@pytest.mark.parametrize(
    ("args", "ranking"),
    [
        ({"datasets": ["fda_483"]}, "bm25"),
        ({"datasets": ["fda_483"], "query": "why"}, "similarity"),
        ({"datasets": ["fda_483", "fda_recalls"]}, "similarity"),
        ({}, "similarity"),
    ],
)
def test_ranking_is_bm25_only_for_one_dataset_without_query(args, ranking):
    assert request(**args).ranking == ranking


def test_the_ranking_text_is_the_query_else_the_items_joined():
    assert request(keywords=["a1", "b2 c3"]).ranking_text == "a1, b2 c3"
    assert request(query="  why?  ").ranking_text == "why?"


def test_top_level_dates_apply_to_each_dataset_date_field():
    req = request(datasets=["fda_483"], date_from="2020-01-01")
    assert req.dataset_filters("fda_483", "record_date") == [
        DocFilter("date_from", "record_date", "2020-01-01", "date_from")
    ]


def test_a_request_turns_back_into_the_body_it_came_from():
    body = {
        "keywords": ["sterility", "media fill"],
        "query": "who failed media fills?",
        "datasets": ["fda_483", "fda_warning_letters"],
        "filters": {"fda_483": {"fei_number": "300-123-4567", "date_to": "2024-01-01"}},
        "date_from": "2018-01-01",
        "limit": 7,
        "offset": 14,
    }
    assert request(**body).to_body() == body
    assert "datasets" not in request().to_body()  # all the plan can search, as given


@pytest.mark.parametrize("seed", range(20))
def test_ranking_groups_over_arrays_is_group_documents(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 200))
    ids = rng.permutation(1000)[:n].astype(np.int64)
    docs = rng.integers(0, max(n // 3, 1), n)
    scores = rng.choice(np.linspace(0, 1, 7, dtype=np.float32), n)  # many ties
    datasets = np.array(["a", "b", "c"])[docs % 3]
    loosened = {"c"}
    pages = [
        RankedPage(int(p), str(d), 0.0, s)
        for p, d, s in zip(ids, datasets, scores.tolist(), strict=True)
    ]
    doc_of = dict(zip(ids.tolist(), docs.tolist(), strict=True))
    expected = group_documents(pages, doc_of, loosened)
    order, bounds = rank_groups(ids, docs, scores, np.isin(datasets, list(loosened)))
    got = [ids[order[a:b]].tolist() for a, b in itertools.pairwise(bounds.tolist())]
    assert got == [[p.page_id for p in g.pages] for g in expected]


class _DamagedStore:
    """What `healing` and `undamaged` read of a store: its damage, and a diagnosis that finds
    the segments of `finds` damaged the first time."""

    def __init__(self, finds: dict[str, Damage]) -> None:
        self.damage: dict[str, Damage] = {}
        self.finds = finds

    def diagnose(self, datasets, exc) -> bool:
        self.damage, self.finds = {**self.damage, **self.finds}, {}
        return bool(self.damage)

    def damage_to(self, dataset: str) -> Damage | None:
        return next((d for d in self.damage.values() if d.holds(dataset)), None)


BROKEN = Damage("seg-1", ("texts.bin corrupted",), ("fda_483",))


def test_a_failure_in_a_segment_found_damaged_runs_the_search_again_without_it():
    store = _DamagedStore({"seg-1": BROKEN})
    tries = []

    def attempt():
        tries.append(undamaged(store, {"fda_483": {}, "fda_crl": {}}, ["fda_483", "fda_crl"]))
        if len(tries) == 1:
            raise ValueError("zstd: corrupted block")
        return tries[-1]

    statuses, runnable = healing(store, ["fda_483", "fda_crl"], attempt)
    assert runnable == ["fda_crl"] and len(tries) == 2
    assert statuses["fda_483"] == {"status": "error", "reason": BROKEN.reason}


def test_a_failure_with_no_damage_found_is_raised():
    def attempt():
        raise ValueError("a bug")

    with pytest.raises(ValueError, match="a bug"):
        healing(_DamagedStore({}), ["fda_483"], attempt)
