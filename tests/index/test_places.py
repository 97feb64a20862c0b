"""regnb.index.places: the index reads the place of each firm-facing document's firm once, at
build time, into its fields; merges and incremental adds keep it; real documents get the place
their address gives (`../shared/data/realcorpus`, skipped without it)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

import regnb
from regnb.catalog import load_catalog
from regnb.documents.place_fields import PLACE_FIELDS
from regnb.documents.places import Place
from regnb.index import build as index
from regnb.index.places import address_pages, placed_fields
from regnb.settings import Settings
from tests.conftest import doc
from tests.documents import test_places as real
from tests.places_corpus import EXPECTED, LETTER, place_documents


def docs_table(rows: list[tuple[str, dict[str, Any], int]]) -> pa.Table:
    """Segment document rows: (dataset, fields, page count), pages in order from 0."""
    first, at = [], 0
    for _, _, count in rows:
        first.append(at)
        at += count
    return pa.table(
        {
            "dataset": [ds for ds, _, _ in rows],
            "fields": [json.dumps(f) for _, f, _ in rows],
            "first_page_id": pa.array(first, pa.int32()),
            "page_count": pa.array([c for _, _, c in rows], pa.int32()),
        }
    )


def test_only_firm_facing_documents_get_a_place_among_their_fields() -> None:
    docs = docs_table(
        [
            ("fda_warning_letters", {"company": "Gulf Labs LLC"}, 1),
            ("fda_guidance", {"center": "CDER"}, 1),
            ("fda_warning_letters", {"company": "Nowhere Inc"}, 1),
        ]
    )
    texts = pa.chunked_array(
        [["Gulf Labs LLC\n1 Main St\nHouston, TX 77064", "Meeting in Houston, TX 77064", "None"]]
    )
    fields = [json.loads(f) for f in placed_fields(docs, texts).to_pylist()]
    assert fields == [
        {"company": "Gulf Labs LLC", "country": "US", "state": "TX", "city": "Houston"},
        {"center": "CDER"},
        {"company": "Nowhere Inc"},
    ]


def test_a_corpus_without_firm_facing_documents_is_left_as_it_is() -> None:
    docs = docs_table([("fda_guidance", {}, 1)])
    assert placed_fields(docs, pa.chunked_array([["Houston, TX 77064"]])) is None


def test_a_crl_is_read_on_its_first_two_pages_and_a_letter_on_its_first() -> None:
    docs = docs_table([("fda_crl", {}, 3), ("fda_warning_letters", {}, 2), ("fda_guidance", {}, 1)])
    texts = pa.chunked_array([["c1", "c2", "c3", "w1", "w2", "g1"]])
    assert address_pages(docs, texts).to_pylist() == ["c1\nc2", "w1", None]


def index_places(eng: regnb.Engine) -> dict[str, Place | None]:
    """Each live document's place as the index holds it, by title."""
    store = eng.store
    rows = store.fields.live_field_values(PLACE_FIELDS).to_pylist()
    held: dict[int, dict[str, str]] = {}
    for row in rows:
        held.setdefault(row["doc_row"], {})[row["field"]] = row["value"]
    live = [int(r) for r in range(len(store.doc_live)) if store.doc_live[r]]
    return {
        d["title"]: Place(**held[d["doc_row"]]) if d["doc_row"] in held else None
        for d in store.rows.documents(live)
    }


def test_the_index_holds_each_firms_place(make_engine: Callable[..., regnb.Engine]) -> None:
    eng = make_engine(place_documents())
    assert index_places(eng) == EXPECTED


def test_an_added_document_gets_its_place_and_a_merge_keeps_every_place(tmp_path: Path) -> None:
    corpus, home = tmp_path / "corpus", tmp_path / "h"
    regnb.write_corpus(corpus, place_documents(), encoder=regnb.HashingEncoder(), progress=False)
    added = doc(
        "Letter to Lakeside Foods",
        [LETTER.format(address="Lakeside Foods Inc.\n5 Shore Road\nMadison, WI 53703")],
        fields={"company": "Lakeside Foods Inc."},
        key="lakeside",
    )
    expected = {**EXPECTED, "Letter to Lakeside Foods": Place("US", "WI", "Madison")}
    settings = dataclasses.replace(Settings.from_env(), home=home, merge_segments=0)
    with regnb.Engine(
        corpus, encoder=regnb.HashingEncoder(), settings=settings, progress=False
    ) as eng:
        assert eng.search(["sterility"]).total
        more = {"fda_warning_letters": [added]}
        regnb.write_corpus(corpus, more, encoder=regnb.HashingEncoder(), progress=False)
        eng.search(["sterility"])  # indexes the new shard
        assert len(eng.store.segments) == 2
        assert index_places(eng) == expected
        index.merge_index(corpus, load_catalog(corpus), home / "index", progress=False)
        eng.search(["sterility"])  # opens the merged index
        assert len(eng.store.segments) == 1
        assert index_places(eng) == expected


# ---------------------------------------------------------------------------------------------
# Real documents: the table of `tests/documents/test_places.py`, indexed


def _real_rows() -> list[tuple[str, str, str, Place | None]]:
    """The real table's cases that `address_place` gets right, each document once."""
    rows = {}
    for case in real.REAL_ADDRESSES:
        if not case.marks:
            dataset, field, value, place = case.values
            rows[(dataset, field, value)] = place
    return [(*key, place) for key, place in rows.items()]


DATASETS = {real.WL: "fda_warning_letters", real.F483: "fda_483", real.CRL: "fda_crl"}
NAME_FIELD = {real.WL: "company", real.F483: "facility_name", real.CRL: "company"}


@pytest.mark.shared_data
@pytest.mark.usefixtures("realcorpus")
def test_real_documents_get_the_place_of_their_address_at_index_time(
    make_engine: Callable[..., regnb.Engine],
) -> None:
    documents: dict[str, list[dict[str, Any]]] = {}
    expected: dict[str, Place | None] = {}
    for n, (source, field, value, place) in enumerate(_real_rows()):
        found = real._document(source, field, value)
        title = f"case {n}: {value}"
        firm = found.get("company")
        fields = {NAME_FIELD[source]: firm} if firm else {}
        documents.setdefault(DATASETS[source], []).append(
            doc(title, found["pages"][:3], fields=fields, key=title)
        )
        expected[title] = place
    assert len(expected) >= 100
    eng = make_engine(documents)
    held = index_places(eng)
    wrong = {t: (held[t], p) for t, p in expected.items() if not real._same(held[t], p)}
    assert not wrong
    countries = {p.country for p in held.values() if p}
    assert {"US", "IN", "CN", "DE", "CA", "MX", "JP", "KR"} <= countries


@pytest.fixture(scope="module")
def realcorpus() -> None:
    if not real.REALCORPUS.exists():
        pytest.skip(f"real corpus not found at {real.REALCORPUS}")
