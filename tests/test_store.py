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


def _small(values: np.ndarray, dtype: type) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What `_segments._save_small` writes and `SmallInts.parts` gives, in memory."""
    top = np.iinfo(dtype).max
    big = np.flatnonzero(values > top)
    return np.where(values > top, 0, values).astype(dtype), big, values[big].astype(np.int64)


@pytest.mark.parametrize(
    ("n_terms", "n_pages", "with_live"), [(5, 300_000, False), (70, 3_000, True)]
)
def test_the_compiled_pass_over_postings_equals_numpy(
    n_terms: int, n_pages: int, with_live: bool
) -> None:
    """Candidates, bit sets and scores (bit for bit) as numpy gives them, with gaps and tfs too
    large for their small types, deleted pages, unscored terms, and more than 64 terms."""
    from regnb import _kernels
    from regnb._bm25 import bm25_from_norms, bm25_scale

    rng = np.random.default_rng(3)
    lists = []
    for j in range(n_terms):
        size = int(rng.integers(0, 400 if j % 3 else 5))
        lists.append(np.sort(rng.choice(n_pages, size, replace=False)).astype(np.int64))
    tfs = [rng.integers(1, 300 if j == 1 else 6, a.size) for j, a in enumerate(lists)]
    ends = np.cumsum([0] + [a.size for a in lists])
    gaps = np.concatenate([np.diff(a, prepend=0) for a in lists] or [np.zeros(0, np.int64)])
    norm = rng.uniform(0.2, 3.0, n_pages).astype(np.float32)
    live = rng.random(n_pages) > 0.2 if with_live else None
    scored = np.array([j % 4 != 2 for j in range(n_terms)])
    dfs = rng.integers(1, 10_000, n_terms).astype(float)
    scales = np.array([bm25_scale(df, 50_000) for df in dfs], np.float32)
    space = _kernels.Workspace()
    for _ in range(2):  # the work arrays are left clean for the next segment
        pages, score, bits = _kernels.segment_postings(
            space,
            n_pages,
            _small(gaps, np.uint16),
            _small(np.concatenate(tfs), np.uint8),
            (ends[:-1], ends[1:]),
            scales,
            scored,
            norm,
            live,
        )
        kept = [a if live is None else a[live[a]] for a in lists]
        kept_tf = [t if live is None else t[live[a]] for a, t in zip(lists, tfs, strict=True)]
        expect = np.unique(np.concatenate(kept))
        assert pages.tolist() == expect.tolist()
        weights = [
            bm25_from_norms(t, dfs[j], 50_000, norm[a]) if scored[j] else np.zeros(a.size)
            for j, (a, t) in enumerate(zip(kept, kept_tf, strict=True))
        ]
        at = np.searchsorted(expect, np.concatenate(kept))
        want = np.bincount(at, weights=np.concatenate(weights), minlength=expect.size)
        assert score.tolist() == want.tolist()
        for j, a in enumerate(kept):
            held = (bits[:, j // 64] >> np.uint64(j % 64)) & np.uint64(1)
            assert np.flatnonzero(held).tolist() == np.searchsorted(expect, a).tolist()
    assert not space.bits.any() and not space.score.any()


def test_candidates_split_by_dataset_from_runs_as_by_a_sort():
    from regnb import _matching
    from regnb._matching import QueryPostings

    rng = np.random.default_rng(2)
    page_ds = np.repeat(rng.integers(0, 5, 300), rng.integers(1, 40, 300)).astype(np.int16)
    starts = np.concatenate([[0], np.flatnonzero(np.diff(page_ds)) + 1])
    cands = np.sort(rng.choice(page_ds.size, page_ds.size // 3, replace=False))

    def split(runs: tuple[np.ndarray, np.ndarray] | None) -> dict[int, list[int]]:
        post = QueryPostings(
            cands,
            np.zeros(cands.size),
            np.zeros((cands.size, 1), np.uint64),
            {},
            page_ds.size,
            page_ds,
            runs,
        )
        return {c: post.in_dataset(c).tolist() for c in range(6)}

    by_runs = split((starts, page_ds[starts]))
    by_sort = split(None)
    assert by_runs == by_sort
    assert by_runs == {c: np.flatnonzero(page_ds[cands] == c).tolist() for c in range(6)}
    assert starts.size <= _matching.MAX_RUNS
