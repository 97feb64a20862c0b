"""The store's reading of pages: phrases verified on the pages' words agree with the index's
own SQL (`regnb_terms` joined by spaces, matched by `phrase_pattern`)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import regnb
from regnb import _store, text
from regnb._matching import phrase_pattern
from regnb.settings import Settings

from .conftest import doc

# Stop words, accents, compatibility forms (a ligature, full-width letters), a zero-width space,
# words over the index's length limit (dropped), and words that stem alike.
WORDS = [
    "media",
    "médias",
    "ＭＥＤＩＡ",
    "me\u200bdia",
    "fill",
    "ﬁlls",
    "filling",
    "page",
    "pages",
    "paging",
    "the",
    "of",
    "a" * 41,
    "fill" * 10,
    "other",
    "x",
]
PHRASES = [
    "media fill",
    "fill media",
    "page pages",
    "media media",
    "media fill page",
    "the media of fill",
]
OLD_SQL = "SELECT regexp_matches(array_to_string(regnb_terms(?), ' '), ?)"


def seeded_corpus(seed: int = 11, n: int = 60) -> list[dict[str, object]]:
    rng = random.Random(seed)
    return [
        doc(
            " ".join(rng.choices(WORDS, k=rng.randint(1, 3))),
            [" ".join(rng.choices(WORDS, k=rng.randint(0, 12))) for _ in range(rng.randint(1, 3))],
        )
        for _ in range(n)
    ]


@pytest.mark.parametrize("slop", [0, 1, 3])
def test_phrase_pages_agree_with_the_sql_over_each_pages_terms(make_engine, monkeypatch, slop):
    monkeypatch.setattr(_store, "PHRASE_BATCH", 7)  # several batches
    store = make_engine({"fda_483": seeded_corpus()}).store
    ids = np.arange(store.n_pages)
    pages = [text.fold(f"{p['title']} {p['text']}") for p in store.pages(ids.tolist())]
    con = text.connect()
    for phrase in PHRASES:
        terms = text.terms(phrase)
        pattern = phrase_pattern(terms, slop)
        expected = [bool(con.execute(OLD_SQL, [p, pattern]).fetchone()[0]) for p in pages]
        assert 0 < sum(expected) < ids.size, phrase  # the case tells pages apart
        assert store.phrase_pages(ids, terms, slop).tolist() == expected, phrase
        assert store.phrase_pages(ids[::3], terms, slop).tolist() == expected[::3], phrase
    con.close()


def test_document_keys_name_a_segment_and_a_row_in_it(tmp_path):
    corpus = tmp_path / "corpus"

    def write(batch: int) -> None:
        docs = {"fda_483": [doc(f"d{batch}{i}", ["text"], key=f"{batch}-{i}") for i in range(3)]}
        regnb.write_corpus(corpus, docs, encoder=regnb.HashingEncoder(), progress=False)

    write(0)
    base = Settings.from_env().__dict__
    settings = Settings(**{**base, "home": tmp_path / "h", "merge_segments": 0})
    with regnb.Engine(corpus, encoder=regnb.HashingEncoder(), settings=settings) as eng:
        write(1)  # a second segment, added when the engine next looks
        store = eng.store
        names = [s.folder.name for s in store.segments]
        assert len(names) == 2
        assert store.document_keys([0, 2, 3, 5]) == [
            f"{names[0]}:0",
            f"{names[0]}:2",
            f"{names[1]}:0",
            f"{names[1]}:2",
        ]


# --- a query's candidates: joined a segment at a time, split by dataset from its runs ---


def test_union_gives_the_distinct_pages_and_each_lists_positions_both_ways():
    from regnb._matching import DENSE_RATIO, union

    rng = np.random.default_rng(1)
    for n_pages, sizes in [(1_000, [400, 300, 5]), (100_000, [30, 7, 0])]:  # dense, sorted
        lists = [np.sort(rng.choice(n_pages, k, replace=False)).astype(np.int32) for k in sizes]
        assert (sum(sizes) * DENSE_RATIO > n_pages) == (n_pages == 1_000)
        pages, inverse = union(lists, n_pages)
        assert pages.tolist() == sorted(set(np.concatenate(lists).tolist()))
        for a, inv in zip(lists, inverse, strict=True):
            assert pages[inv].tolist() == a.tolist()


def test_candidates_split_by_dataset_from_runs_as_by_a_sort():
    from regnb import _matching
    from regnb._matching import QueryPostings

    rng = np.random.default_rng(2)
    page_ds = np.repeat(rng.integers(0, 5, 300), rng.integers(1, 40, 300)).astype(np.int16)
    starts = np.concatenate([[0], np.flatnonzero(np.diff(page_ds)) + 1])
    cands = np.sort(rng.choice(page_ds.size, page_ds.size // 3, replace=False))

    def split(runs: tuple[np.ndarray, np.ndarray] | None) -> dict[int, list[int]]:
        post = QueryPostings(cands, np.zeros(cands.size), [], page_ds.size, page_ds, runs)
        return {c: post.in_dataset(c).tolist() for c in range(6)}

    by_runs = split((starts, page_ds[starts]))
    by_sort = split(None)
    assert by_runs == by_sort
    assert by_runs == {c: np.flatnonzero(page_ds[cands] == c).tolist() for c in range(6)}
    assert starts.size <= _matching.MAX_RUNS
