"""benchmarks/bench_peers.py over 2,000 recombined real pages: tantivy's and bm25s's indexes
built as the benchmark builds them, and every engine answering the same queries in one process,
with the agreement with tantivy measured. Skipped without the real pages or without tantivy and
bm25s (the test extra installs them: under CI=true their absence fails)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT, SHARED_DATA

pytestmark = pytest.mark.skipif(
    not (SHARED_DATA / "realcorpus").exists(), reason="the real pages are not there"
)


@pytest.fixture(scope="module")
def bench():
    missing = [m for m in ("tantivy", "bm25s") if importlib.util.find_spec(m) is None]
    if missing:
        message = f"{', '.join(missing)} not installed (pip install -e '.[bench]')"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_peers
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return bench_peers


@pytest.fixture(scope="module")
def built(bench, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of the benchmark's indexes (tantivy, bm25s) over a corpus of 2,000 pages."""
    from bench_scale import make_corpus

    out = tmp_path_factory.mktemp("peers")
    n_pages = make_corpus(out / "corpus", 2_000)
    assert 1_900 < n_pages < 2_100
    bench.build_tantivy(out / "corpus", out / "tantivy")
    bench.build_bm25s(out / "corpus", out / "bm25s")
    return out


def test_every_engine_answers_the_same_queries(bench, built: Path) -> None:
    from bench_scale import make_queries
    from common import PHRASES

    queries = make_queries(6)
    found = bench.search_all(built / "corpus", built, queries, 1, PHRASES, 1)
    assert set(found["ms"]) == {
        "regnb v3 (15 datasets)",
        "regnb 1 dataset bm25",
        "tantivy 15 filtered top-500",
        "tantivy 1 dataset top-500",
        "tantivy 1 dataset top-500 + 60 texts",
        "bm25s 1 dataset top-500",
    }
    assert all(len(ms) == len(queries) for ms in found["ms"].values())
    regnb_agrees = found["agreement"]["regnb"]
    assert all(0 <= a <= 1 for a in regnb_agrees)
    # the same pages, words and BM25 (other constants and stemming): mostly the same documents
    assert sum(regnb_agrees) / len(regnb_agrees) > 0.3
    assert set(found["phrase_ms"]) == {
        "regnb phrase v3 (15 datasets)",
        "regnb phrase v3 (15 datasets): its matching (match_ms)",
        "regnb phrase v3 (15 datasets): its phrase checks",
        "regnb phrase 1 dataset bm25",
        "regnb phrase 1 dataset bm25: its matching (match_ms)",
        "regnb phrase 1 dataset bm25: its phrase checks",
        "tantivy phrase 15 filtered top-500",
        "tantivy phrase 1 dataset top-500",
        "tantivy phrase top-500 (every page)",
    }
    assert all(len(ms) == len(PHRASES) for ms in found["phrase_ms"].values())
    checks = found["phrase_ms"]["regnb phrase v3 (15 datasets): its phrase checks"]
    assert 0 < sum(checks) < sum(found["phrase_ms"]["regnb phrase v3 (15 datasets)"])
    matched = found["phrase_matches"]
    assert set(matched) == set(PHRASES)
    # both find the phrase exclusions' pages: the word's, less the phrase's
    for item in ('sterility -"media fill"', 'validation -"data integrity"'):
        assert matched[item]["regnb"] > 0 and matched[item]["tantivy"] > 0, item


def test_tantivy_counts_a_datasets_matches_as_regnb_does(bench, built: Path) -> None:
    """An item of one word: every page holding it matches, in regnb and in tantivy alike."""
    peers = bench.Peers(built / "corpus", built, built / "home")
    res = peers.eng.search(["inspection"], datasets=[bench.ONE_DATASET])
    theirs = peers.tantivy_top(["inspection"], bench.ONE_DATASET)
    assert theirs.count == res.dataset_statuses[bench.ONE_DATASET]["matches"] > 0


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ('"media fill"', '+"media fill"'),
        ('"media fill"~3', '+"media fill"~3'),
        ('sterility -"media fill"', '+sterility -"media fill"'),
        ('aseptic "data integrity"~2 -"media fill"', '+aseptic +"data integrity"~2 -"media fill"'),
    ],
)
def test_phrases_become_tantivys_own_phrase_queries(bench, item: str, expected: str) -> None:
    assert bench.tantivy_syntax(item) == expected


def test_tantivy_matches_a_phrase_from_its_positions(bench, built: Path) -> None:
    """A phrase matches fewer pages than its words together, and more with a slop."""
    peers = bench.Peers(built / "corpus", built, built / "home")
    both = peers.tantivy_search("+batch +record", None).count
    exact = peers.tantivy_phrase('"batch record"', None).count
    near = peers.tantivy_phrase('"batch record"~3', None).count
    assert 0 < exact < near <= both
