"""An index in segments scores as one index over the whole corpus: built in one segment or many,
updated incrementally, merged, or interrupted."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import regnb
from regnb.catalog import load_catalog
from regnb.index import build as index
from regnb.index import segments
from regnb.search.matching import Lexicon, MatchItem, best_candidates, dataset_matches
from regnb.settings import Settings

WORDS = [
    "sterile",
    "contamination",
    "aseptic",
    "validation",
    "cleaning",
    "procedure",
    "batch",
    "record",
    "deviation",
    "complaint",
    "investigation",
    "microbial",
    "endotoxin",
    "particulate",
    "inspection",
    "observation",
    "firm",
    "warning",
    "letter",
    "recall",
    "device",
    "implant",
    "catheter",
    "software",
    "labeling",
    "adverse",
    "event",
    "report",
    "stability",
    "potency",
    "assay",
    "impurity",
    "specification",
    "laboratory",
    "control",
    "equipment",
    "calibration",
    "water",
    "system",
    "environmental",
    "monitoring",
    "gowning",
    "training",
    "corrective",
    "preventive",
    "action",
    "supplier",
    "audit",
    "documentation",
    "electronic",
    "signature",
    "data",
    "integrity",
    "audit",
    "trail",
]
DATASETS = ("fda_483", "fda_recalls", "fda_warning_letters")


def _document(rng: random.Random, dataset: str, n: int) -> dict[str, Any]:
    pages = [
        " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 60)))
        for _ in range(rng.randint(1, 4))
    ]
    company = rng.choice(["Acme Labs", "Beta Pharma", "Gamma Devices"])
    fields = {"company": company} if dataset != "fda_483" else {"facility_name": company}
    return {
        "title": " ".join(rng.choice(WORDS) for _ in range(3)),
        "date": f"20{rng.randint(10, 24)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}",
        "url": None,
        "fields": fields,
        "pages": pages,
        "key": f"{dataset}-{n}",
    }


def write_batches(corpus: Path, batches: int, *, seed: int = 3, start: int = 0) -> None:
    """`batches` writes (one shard per dataset each) of seeded random documents."""
    rng = random.Random(seed)
    for b in range(batches):
        docs = {
            ds: [_document(rng, ds, start + b * 100 + i) for i in range(rng.randint(5, 15))]
            for ds in DATASETS
        }
        regnb.write_corpus(corpus, docs, encoder=regnb.HashingEncoder(), progress=False)


def open_(corpus: Path, home: Path, batch_pages: int = 100_000, **more: Any) -> regnb.Engine:
    base = Settings.from_env()
    settings = Settings(
        **{**base.__dict__, "home": home, "index_batch_pages": batch_pages, "merge_segments": 0}
        | more
    )
    return regnb.Engine(corpus, encoder=regnb.HashingEncoder(), settings=settings, progress=False)


def queries(seed: int = 11, n: int = 30) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        items = [
            " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
            for _ in range(rng.randint(1, 3))
        ]
        query: dict[str, Any] = {"keywords": items, "limit": 50}
        if i % 2:
            query["query"] = " ".join(rng.choice(WORDS) for _ in range(6))
        if i % 5 == 0:
            query["filters"] = {"fda_recalls": {"company": "acme"}}
        if i % 7 == 0:
            query["date_from"] = "2015-01-01"
        out.append(query)
    return out


def candidates(eng: regnb.Engine, query: dict[str, Any]) -> dict[str, tuple[int, list[float]]]:
    """Each dataset's matched pages (count and BM25 of the best 500), by the store directly."""
    store = eng.store
    terms = sorted({t for item in query["keywords"] for t in eng.normaliser.terms(item)})
    ids = store.term_ids(terms)
    plain = [[ids[t] for t in eng.normaliser.terms(i) if t in ids] for i in query["keywords"]]
    items = [MatchItem(tuple(dict.fromkeys(p)), len(p)) for p in plain]
    post = store.postings.read_all([t for item in plain for t in item])
    post.prepare(plain)
    needs = [1] * len(items)
    return {
        ds: (c.matches, c.scores)
        for ds in DATASETS
        for chosen in [
            dataset_matches(post, store.dataset_codes.get(ds), items, needs, None, Lexicon(ids))
        ]
        for c in [best_candidates(post, chosen, limit=500, cap=10_000)]
    }


def summary(res: regnb.SearchResult) -> list[tuple[str, int, list[tuple[int, float]]]]:
    return [
        (r["document_id"], r["matched_pages"], [(p["page_num"], p["score"]) for p in r["pages"]])
        for r in res.to_dict()["results"]
    ]


def assert_same(one: regnb.Engine, many: regnb.Engine, *, order: bool = True) -> None:
    for query in queries():
        a, b = one.search(**query), many.search(**query)
        assert a.to_dict()["datasets"] == b.to_dict()["datasets"]
        assert a.total == b.total
        sa, sb = summary(a), summary(b)
        if order:
            assert [s[:2] for s in sa] == [s[:2] for s in sb]
        else:  # ties between pages may order differently: compare by document
            sa, sb = sorted(sa), sorted(sb)
        for (_, _, pa_), (_, _, pb) in zip(sa, sb, strict=True):
            assert [n for n, _ in pa_] == [n for n, _ in pb]
            assert [s for _, s in pa_] == pytest.approx([s for _, s in pb], rel=1e-6, abs=1e-9)
        ca, cb = candidates(one, query), candidates(many, query)
        for ds in DATASETS:
            assert ca[ds][0] == cb[ds][0]
            assert ca[ds][1] == pytest.approx(cb[ds][1], rel=1e-6)


def test_one_segment_and_many_score_alike(tmp_path):
    corpus = tmp_path / "corpus"
    write_batches(corpus, 5)
    with open_(corpus, tmp_path / "one") as one, open_(corpus, tmp_path / "many", 1) as many:
        assert len(one.store.segments) == 1
        assert len(many.store.segments) == 15  # a shard per segment
        assert one.store.n_pages == many.store.n_pages
        assert_same(one, many)


def test_added_and_replaced_documents_score_as_a_fresh_build(tmp_path):
    corpus = tmp_path / "corpus"
    write_batches(corpus, 3)
    with open_(corpus, tmp_path / "inc") as eng:
        before = [s.id for s in eng.store.state.segments]
        n_docs = int(eng.store.doc_live.sum())
    write_batches(corpus, 2, seed=5, start=1000)  # new documents
    write_batches(corpus, 1, seed=9, start=0)  # same keys as the first write: replacements
    with open_(corpus, tmp_path / "inc") as inc, open_(corpus, tmp_path / "fresh") as fresh:
        state = inc.store.state
        assert [s.id for s in state.segments][: len(before)] == before  # old segments kept
        assert any(s.deleted_docs for s in state.segments)
        assert int(inc.store.doc_live.sum()) > n_docs
        assert inc.counts().equals(fresh.counts())
        assert_same(fresh, inc, order=False)
    files = index.merge_index(corpus, load_catalog(corpus), tmp_path / "inc" / "index")
    merged = index.IndexState.load(files.folder)
    assert merged is not None and len(merged.segments) == 1 and not merged.segments[0].deleted
    with open_(corpus, tmp_path / "inc") as inc, open_(corpus, tmp_path / "fresh") as fresh:
        assert_same(fresh, inc, order=False)
    leftovers = {p.name for p in files.folder.iterdir()} - {index.MANIFEST, index.LOCK}
    assert leftovers <= set(merged.files()) | set(merged.previous)


def test_a_document_read_after_replacement_is_the_new_version(tmp_path):
    corpus = tmp_path / "corpus"
    docs = {"fda_483": [{"title": "T", "pages": ["old text"], "key": "k", "fields": {}}]}
    regnb.write_corpus(corpus, docs, encoder=regnb.HashingEncoder(), progress=False)
    with open_(corpus, tmp_path / "h") as eng:
        doc_id = eng.search(["old"]).to_dict()["results"][0]["document_id"]
    docs["fda_483"][0]["pages"] = ["new text"]
    regnb.write_corpus(corpus, docs, encoder=regnb.HashingEncoder(), progress=False)
    with open_(corpus, tmp_path / "h") as eng:
        assert eng.search(["old"]).total == 0
        assert eng.read(doc_id).page_list == [{"page_num": 1, "text": "new text"}]
        assert eng.counts().documents.sum() == 1
        assert eng.document_frequency(["old", "new"]) == {"old": 0.0, "new": 1.0}


def fail_on_third_call(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """Make `segments.<name>` raise OSError("disk full") on its third call; the calls made."""
    real = getattr(segments, name)
    calls: list[int] = []

    def failing(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:
            raise OSError("disk full")
        return real(*args, **kwargs)

    monkeypatch.setattr(segments, name, failing)
    return calls


# A segment's files are written in a thread while the next batch is tokenised: a failure in
# either (a write, or the tokenising while a write is in flight) leaves the index as it was.
@pytest.mark.parametrize("step", ["write_segment", "from_tables"])
def test_a_failed_build_leaves_the_index_as_it_was(tmp_path, monkeypatch, step):
    corpus = tmp_path / "corpus"
    write_batches(corpus, 2)
    with open_(corpus, tmp_path / "h", 1) as eng:
        folder = eng.store.files.folder
    manifest_before = (folder / index.MANIFEST).read_text()
    files_before = sorted(p.name for p in folder.iterdir())
    write_batches(corpus, 2, seed=5, start=1000)
    real = getattr(segments, step)
    calls = fail_on_third_call(monkeypatch, step)
    with pytest.raises(OSError, match="disk full"):
        open_(corpus, tmp_path / "h", 1)
    assert len(calls) == 3
    assert (folder / index.MANIFEST).read_text() == manifest_before
    assert sorted(p.name for p in folder.iterdir()) == files_before
    monkeypatch.setattr(segments, step, real)
    with open_(corpus, tmp_path / "h", 1) as eng, open_(corpus, tmp_path / "fresh") as fresh:
        assert_same(fresh, eng)


def test_a_build_that_commits_as_it_goes_resumes_after_a_failure(tmp_path, monkeypatch):
    # Commits come between segments, never while a segment's write is in flight: a build that
    # fails keeps the segments committed before, and the next one goes on from there.
    corpus = tmp_path / "corpus"
    write_batches(corpus, 3)
    monkeypatch.setattr(index, "COMMIT_EVERY_S", -1.0)
    real = segments.from_tables
    fail_on_third_call(monkeypatch, "from_tables")
    with pytest.raises(OSError, match="disk full"):
        open_(corpus, tmp_path / "h", 1)
    folders = list((tmp_path / "h" / "index").glob(f"*/v{index.INDEX_VERSION}"))
    assert len(folders) == 1
    state = index.IndexState.load(folders[0])
    assert len(state.segments) == 1  # the first batch's, committed before the second's write
    on_disk = sorted(p.name for p in folders[0].iterdir() if p.name.startswith("seg-"))
    assert on_disk == [state.segments[0].id]
    built = []
    monkeypatch.setattr(segments, "from_tables", lambda *a, **k: built.append(1) or real(*a, **k))
    with open_(corpus, tmp_path / "h", 1) as eng:
        assert len(eng.store.segments) == 1 + len(built)  # the committed one was not rebuilt
        assert state.segments[0].id in {s.folder.name for s in eng.store.segments}
        with open_(corpus, tmp_path / "fresh") as fresh:
            assert_same(fresh, eng)


def test_a_killed_build_is_cleaned_up_by_the_next(tmp_path):
    corpus = tmp_path / "corpus"
    write_batches(corpus, 2)
    home = tmp_path / "h"
    with open_(corpus, home) as eng:
        folder = eng.store.files.folder
    (folder / "seg-deadbeef0000").mkdir()  # what a killed build leaves: a segment nobody names
    (folder / "terms-99.arrow").write_bytes(b"x")
    write_batches(corpus, 1, seed=5, start=1000)
    with open_(corpus, home) as eng:
        assert eng.counts().documents.sum() > 0
    assert not (folder / "seg-deadbeef0000").exists()
    assert not (folder / "terms-99.arrow").exists()


def test_an_index_of_the_previous_version_is_rebuilt_once(tmp_path):
    corpus = tmp_path / "corpus"
    write_batches(corpus, 1)
    manifest = regnb.corpus.shards.Manifest.load(corpus)
    old = index.index_folder(tmp_path / "h" / "index", manifest).parent / "abc-v6"
    old.mkdir(parents=True)
    (old / "index.duckdb").write_bytes(b"old")
    with open_(corpus, tmp_path / "h") as eng:
        assert eng.search(["sterile"]).total >= 0
        assert eng.store.files.folder.name == f"v{index.INDEX_VERSION}"
    assert not old.exists()


def test_regnb_index_merge_merges_the_segments(tmp_path):
    corpus = tmp_path / "corpus"
    write_batches(corpus, 2)
    env = {"REGNB_HOME": str(tmp_path / "h"), "REGNB_INDEX_BATCH_PAGES": "1"}
    with open_(corpus, tmp_path / "h", 1) as eng:
        assert len(eng.store.segments) == 6
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "regnb.cli",
            "index",
            "--corpus",
            str(corpus),
            "--merge",
            "--fast-encoder",
        ],
        capture_output=True,
        text=True,
        env={**__import__("os").environ, **env, "REGNB_INDEX_BATCH_PAGES": "100000"},
        check=True,
    ).stdout
    assert "index ready" in out
    state = json.loads((tmp_path / "h" / "index").glob("*/v*/index.json").__next__().read_text())
    assert len(state["segments"]) == 1


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
def test_small_integers_keep_the_values_that_do_not_fit(tmp_path, dtype):
    values = np.array([0, 1, 255, 256, 70_000, 3, 65_535, 65_536, 2**40], np.int64)
    segments._save_small(tmp_path, "x", values, dtype)
    stored = segments.SmallInts(tmp_path, "x")
    assert stored.slice(0, values.size).tolist() == values.tolist()
    assert stored.slice(3, 8).tolist() == values[3:8].tolist()
    for lo, hi in [(0, values.size), (3, 8), (4, 4), (7, 9)]:
        assert stored.running_sum(lo, hi).tolist() == np.cumsum(values[lo:hi]).tolist()


def test_weights_from_a_snapshots_length_norms_are_the_same_floats():
    rng = np.random.default_rng(5)
    tf, dl = rng.integers(1, 300, 1000), rng.integers(0, 5000, 1000).astype(np.int32)
    direct = index.bm25_weights(tf, 17, 12_345, dl, 321.7)
    assert np.array_equal(
        direct, index.bm25_from_norms(tf, 17, 12_345, index.bm25_norms(dl, 321.7))
    )
    one = [index.bm25_weight(t, 17, 12_345, d, 321.7) for t, d in zip(tf, dl, strict=True)]
    assert direct.tolist() == pytest.approx(one, rel=1e-6)


def test_a_term_repeated_hundreds_of_times_keeps_its_frequency(tmp_path):
    corpus = tmp_path / "corpus"
    docs = {"fda_483": [{"title": "T", "pages": ["sterile " * 300 + "water"], "fields": {}}]}
    regnb.write_corpus(corpus, docs, encoder=regnb.HashingEncoder(), progress=False)
    with open_(corpus, tmp_path / "h") as eng:
        seg = eng.store.segments[0]
        pages, tf = seg.postings(eng.store.term_ids(["steril"])["steril"])
    assert pages.tolist() == [0] and tf.tolist() == [300]


# --- an open engine follows the corpus and the index ---


def test_an_open_engine_indexes_documents_written_since_at_its_next_search(tmp_path):
    corpus = tmp_path / "corpus"
    write_batches(corpus, 2)
    with open_(corpus, tmp_path / "h") as eng, open_(corpus, tmp_path / "fresh") as before:
        held = eng.store
        assert eng.store is held  # nothing changed: the snapshot is kept (two stats)
        assert eng.search(["zebra"]).total == 0
        docs = {"fda_483": [{"title": "Zebra", "pages": ["a zebra page"], "key": "z"}]}
        regnb.write_corpus(corpus, docs, encoder=regnb.HashingEncoder(), progress=False)
        assert eng.search(["zebra"]).total == 1  # indexed by the search that saw it
        assert eng.store is not held and len(eng.store.segments) == len(held.segments) + 1
        assert eng.read(eng.search(["zebra"]).to_dict()["results"][0]["document_id"]).page_list
        assert before.store is held or before.store.state.generation > 0
    with open_(corpus, tmp_path / "fresh2") as fresh, open_(corpus, tmp_path / "h") as again:
        assert_same(fresh, again, order=False)


def test_an_open_engine_opens_an_index_another_process_merged(tmp_path):
    corpus = tmp_path / "corpus"
    write_batches(corpus, 2)
    with open_(corpus, tmp_path / "h", 1) as eng:
        held = eng.store
        assert len(held.segments) == 6
        index.merge_index(corpus, load_catalog(corpus), tmp_path / "h" / "index")
        assert len(eng.store.segments) == 1  # the merged manifest, opened at the next call
        assert held.rows.texts([0]) == eng.store.rows.texts([0])  # the old snapshot still reads
        with open_(corpus, tmp_path / "fresh") as fresh:
            assert_same(fresh, eng)


def test_common_sentences_are_kept_when_documents_are_added(tmp_path, monkeypatch):
    from regnb.documents import furniture

    corpus = tmp_path / "corpus"
    write_batches(corpus, 3)
    calls = []
    real = furniture.common_sentences

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(furniture, "common_sentences", counting)
    with open_(corpus, tmp_path / "h") as eng:
        first = eng.common_sentences("fda_483")
        assert len(calls) == 1
        n = int(eng.counts().set_index("dataset").loc["fda_483", "documents"])
        docs = {"fda_483": [{"title": "T", "pages": ["sterile"], "key": "new"}]}
        regnb.write_corpus(corpus, docs, encoder=regnb.HashingEncoder(), progress=False)
        assert eng.search(["sterile"]).total > 0  # the index changed
        assert (eng.index_path / index.COMMON_FILE).exists()  # kept by the index's writer
        assert eng.common_sentences("fda_483") == first
        assert len(calls) == 1  # not found again: one document in more than ten changes little
    with open_(corpus, tmp_path / "h") as eng:
        assert eng.common_sentences("fda_483") == first and len(calls) == 1
        many = {"fda_483": [{"title": "T", "pages": ["sterile"], "key": f"m{i}"} for i in range(n)]}
        regnb.write_corpus(corpus, many, encoder=regnb.HashingEncoder(), progress=False)
        eng.common_sentences("fda_483")
        assert len(calls) == 2  # the dataset doubled: found again


def test_small_segments_merge_in_the_background_while_searches_go_on(tmp_path, monkeypatch):
    corpus = tmp_path / "corpus"
    write_batches(corpus, 1)
    gate, merging = threading.Event(), threading.Event()
    real = segments.merge_data

    def held(*args: Any, **kwargs: Any) -> Any:
        merging.set()
        assert gate.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(segments, "merge_data", held)
    with open_(corpus, tmp_path / "h", merge_segments=2) as eng:
        for b in range(1, 3):  # each write: one more small segment, indexed at the next search
            write_batches(corpus, 1, seed=b, start=100 * b)
            eng.search(["sterile"])
        assert len(eng.store.segments) == 3 and merging.wait(30)  # more than 2: a merge started
        for query in queries()[:5]:  # searches run while the merge is held
            assert eng.search(**query).to_dict()["datasets"]
        assert len(eng.store.segments) == 3
        gate.set()
        assert eng.index.wait_merged(60)
        assert eng.index.merges == 1 and len(eng.store.segments) == 1
        with open_(corpus, tmp_path / "fresh") as fresh:
            assert_same(fresh, eng, order=False)  # pages in the order they were added
    leftovers = {p.name for p in eng.index_path.iterdir()} - index.KEPT
    state = index.IndexState.load(eng.index_path)
    assert state is not None and leftovers <= set(state.files()) | set(state.previous)


def test_no_background_merge_below_the_setting_or_when_it_is_off(tmp_path):
    corpus = tmp_path / "corpus"
    write_batches(corpus, 3)
    with open_(corpus, tmp_path / "h", 1) as eng:  # a segment per shard
        assert len(eng.store.segments) == 9
    with open_(corpus, tmp_path / "h", merge_segments=0) as eng:
        assert not eng.index.merge_in_background()
    with open_(corpus, tmp_path / "h", merge_segments=9) as eng:
        assert not eng.index.merge_in_background()
    with open_(corpus, tmp_path / "h", merge_segments=8) as eng:  # 9 small: merged
        assert eng.index.wait_merged(60) and eng.index.merges == 1
        assert len(eng.store.segments) == 1


def test_segments_written_with_blocks_of_16_pages_still_read(tmp_path, monkeypatch):
    corpus = tmp_path / "corpus"
    write_batches(corpus, 2)
    with monkeypatch.context() as patch:
        patch.setattr(segments, "PAGE_BLOCK", 16)
        with open_(corpus, tmp_path / "old") as old:
            folder = old.store.segments[0].folder
    summary = json.loads((folder / "segment.json").read_text())
    del summary["page_block"]  # as the first segments were written
    (folder / "segment.json").write_text(json.dumps(summary))
    with open_(corpus, tmp_path / "new") as new, open_(corpus, tmp_path / "old") as old:
        assert new.store.segments[0].page_block == segments.PAGE_BLOCK != 16
        assert old.store.segments[0].page_block == 16
        pages = range(new.store.page_space)
        assert old.store.rows.texts(pages) == new.store.rows.texts(pages)
        assert_same(new, old)


# --- CFR citations as postings (regnb.documents.cfr) ---------------------------------------------------

CITATIONS = [
    "as required by 21 CFR 211.113(b)",
    "see 21 CFR 211.192 and 21 CFR 211.113",
    "under 21 CFR Part 820",
    "§§ 211.100(a) and 211.192",
]


def write_citing_batches(corpus: Path, batches: int, *, seed: int = 5) -> None:
    """`write_batches`'s documents with a CFR citation added to some of their pages."""
    rng = random.Random(seed)
    for b in range(batches):
        docs = {}
        for ds in DATASETS:
            docs[ds] = []
            for i in range(rng.randint(5, 15)):
                doc = _document(rng, ds, b * 100 + i)
                doc["pages"] = [
                    f"{page} {rng.choice(CITATIONS)}" if rng.random() < 0.5 else page
                    for page in doc["pages"]
                ]
                docs[ds].append(doc)
        regnb.write_corpus(corpus, docs, encoder=regnb.HashingEncoder(), progress=False)


def cited_pages(eng: regnb.Engine, term: str) -> set[tuple[str, int]]:
    """(document id, page number) of the live pages holding `term`, read from the postings."""
    term_id = eng.store.term_ids([term])[term]
    pages, _ = eng.store.postings.weights(term_id)
    return {(p["document_id"], p["page_num"]) for p in eng.store.rows.pages(pages.tolist())}


def expected_pages(eng: regnb.Engine, section: str) -> set[tuple[str, int]]:
    """The same pages, read from the page texts with `regnb.documents.cfr.sections`."""
    ids = range(eng.store.page_space)
    return {
        (p["document_id"], p["page_num"])
        for p, text in zip(eng.store.rows.pages(list(ids)), eng.store.rows.texts(ids), strict=True)
        if section in regnb.documents.cfr.sections(text)
    }


def test_cfr_citations_do_not_change_a_single_score_of_a_word_search(tmp_path, monkeypatch):
    corpus = tmp_path / "corpus"
    write_citing_batches(corpus, 3)
    with monkeypatch.context() as patch:
        patch.setattr(segments, "cfr_postings", lambda texts: segments.CFR_SCHEMA.empty_table())
        with open_(corpus, tmp_path / "without") as without:
            assert without.store.term_ids(["cfr:211"]) == {}
            before = [summary(without.search(**q)) for q in queries()]
            lengths = [s.page_dl.copy() for s in without.store.segments]
    with open_(corpus, tmp_path / "with") as with_:
        assert with_.store.term_df(["cfr:211"])["cfr:211"] > 0
        assert [s.page_dl.tolist() for s in with_.store.segments] == [x.tolist() for x in lengths]
        assert [summary(with_.search(**q)) for q in queries()] == before


def test_a_page_holds_a_posting_per_cfr_section_and_part_it_cites(tmp_path):
    corpus = tmp_path / "corpus"
    write_citing_batches(corpus, 2)
    with open_(corpus, tmp_path / "h") as eng:
        for term, section in [("cfr:211.113", "21 CFR 211.113"), ("cfr:820", "21 CFR 820")]:
            assert cited_pages(eng, term) == expected_pages(eng, section) != set()
        by_part = cited_pages(eng, "cfr:211")
        assert cited_pages(eng, "cfr:211.192") < by_part


def test_the_tf_of_a_cfr_term_is_the_number_of_citations(tmp_path):
    corpus = tmp_path / "corpus"
    page = "sterile 21 CFR 211.113(b), 211.192 and 21 CFR 211.113(c); § 211.113"
    docs = {"fda_483": [{"title": "t", "date": None, "url": None, "pages": [page], "key": "k"}]}
    regnb.write_corpus(corpus, docs, encoder=regnb.HashingEncoder(), progress=False)
    with open_(corpus, tmp_path / "h") as eng:
        seg = eng.store.segments[0]
        ids = eng.store.term_ids(["cfr:211.113", "cfr:211.192", "cfr:211", "steril"])
        tf = {term: seg.postings(i)[1].tolist() for term, i in ids.items()}
        assert tf == {"cfr:211.113": [3], "cfr:211.192": [1], "cfr:211": [4], "steril": [1]}
        assert seg.page_dl.tolist() == [len(eng.normaliser.terms(f"t {page}"))]


def test_a_merged_index_still_finds_the_cfr_terms(tmp_path):
    corpus = tmp_path / "corpus"
    write_citing_batches(corpus, 2)
    with open_(corpus, tmp_path / "h", 1) as many:
        assert len(many.store.segments) == 6
        before = cited_pages(many, "cfr:211.113")
    catalog = load_catalog(corpus)
    index.merge_index(corpus, catalog, tmp_path / "h" / "index", progress=False)
    with open_(corpus, tmp_path / "h") as merged:
        assert len(merged.store.segments) == 1
        assert cited_pages(merged, "cfr:211.113") == before != set()


def test_an_index_without_cfr_postings_is_rebuilt_once_with_them(tmp_path, monkeypatch):
    corpus = tmp_path / "corpus"
    write_citing_batches(corpus, 1)
    with monkeypatch.context() as patch:  # the index as version 7 built it
        patch.setattr(segments, "cfr_postings", lambda texts: segments.CFR_SCHEMA.empty_table())
        with open_(corpus, tmp_path / "h") as old:
            folder = old.store.files.folder
    state = json.loads((folder / "index.json").read_text())
    state["version"] = 7
    (folder / "index.json").write_text(json.dumps(state))
    old_folder = folder.rename(folder.parent / "v7")
    with open_(corpus, tmp_path / "h") as eng:
        assert eng.store.files.folder == folder
        assert eng.store.term_df(["cfr:211"])["cfr:211"] > 0
        built = [s.folder.name for s in eng.store.segments]
    assert not old_folder.exists()
    with open_(corpus, tmp_path / "h") as again:
        assert [s.folder.name for s in again.store.segments] == built


def write_identified_batches(corpus: Path, batches: int, *, seed: int = 7) -> None:
    """`write_batches`'s documents with an FEI number in some pages and fields."""
    rng = random.Random(seed)
    for b in range(batches):
        docs = {}
        for ds in DATASETS:
            docs[ds] = []
            for i in range(rng.randint(5, 15)):
                doc = _document(rng, ds, b * 100 + i)
                fei = f"300{rng.randint(1000000, 1000005)}"
                doc["pages"] = [
                    f"{page} FEI {fei}" if rng.random() < 0.5 else page for page in doc["pages"]
                ]
                if ds == "fda_483" and rng.random() < 0.5:
                    doc["fields"]["fei_number"] = fei
                docs[ds].append(doc)
        regnb.write_corpus(corpus, docs, encoder=regnb.HashingEncoder(), progress=False)


def identifier_rows(eng: regnb.Engine) -> set[tuple[str, str, str, int]]:
    """(document id, kind, value, page) of every document's identifiers in the index."""
    found = eng.store.cursor().execute("SELECT doc_row, kind, value, page_num FROM identifiers")
    rows = found.fetchall()
    docs = {d["doc_row"]: d["document_id"] for d in eng.store.rows.documents({r[0] for r in rows})}
    return {(docs[r[0]], r[1], r[2], r[3]) for r in rows}


def test_identifiers_do_not_change_a_single_score_of_a_word_search(tmp_path, monkeypatch):
    corpus = tmp_path / "corpus"
    write_identified_batches(corpus, 2)
    empty = (segments.CFR_SCHEMA.empty_table(), segments.IDENTIFIER_SCHEMA.empty_table())
    with monkeypatch.context() as patch:
        patch.setattr(segments, "identifier_tables", lambda docs, pages: empty)
        with open_(corpus, tmp_path / "without") as without:
            assert without.store.term_ids(["fei:3001000001"]) == {}
            before = [summary(without.search(**q)) for q in queries()]
            lengths = [s.page_dl.tolist() for s in without.store.segments]
    with open_(corpus, tmp_path / "with") as with_:
        assert sum(with_.store.term_df([f"fei:300100000{i}" for i in range(6)]).values()) > 0
        assert [s.page_dl.tolist() for s in with_.store.segments] == lengths
        assert [summary(with_.search(**q)) for q in queries()] == before


def test_a_merged_index_keeps_the_identifiers_of_its_live_documents(tmp_path):
    corpus = tmp_path / "corpus"
    write_identified_batches(corpus, 2)
    with open_(corpus, tmp_path / "h", 1) as many:
        assert len(many.store.segments) == 6
        before = identifier_rows(many)
        assert {kind for _, kind, _, _ in before} == {"fei"}
        assert {page for *_, page in before} >= {0, 1}
    write_identified_batches(corpus, 1, seed=9)  # the first batch's keys: replacements
    index.merge_index(corpus, load_catalog(corpus), tmp_path / "h" / "index", progress=False)
    with open_(corpus, tmp_path / "h") as merged, open_(corpus, tmp_path / "fresh") as fresh:
        assert len(merged.store.segments) == 1
        assert identifier_rows(merged) == identifier_rows(fresh) != before


# --- a ranked search reads only the pages that can count (`regnb.search.matching.Gates`) ---


def test_a_pruned_search_returns_what_reading_every_page_returns(tmp_path, monkeypatch):
    """With a small budget and cap, floors are reached after a few segments: every response
    (documents, pages, scores, dataset statuses) is the same as with every page read, over
    searches of one to three items, filtered by field or date or not, loosened or not, with and
    without a query, some pages deleted, and the pruned reads hold fewer candidate pages.
    Timing is not what it checks: its searches get 10 minutes each, for a loaded machine, where a
    search out of time (every dataset `timeout`, no postings joined) failed as an IndexError."""
    from regnb.index.postings import PostingReader
    from regnb.search.matching import DatasetFloors

    corpus = tmp_path / "corpus"
    write_batches(corpus, 6)
    open_(corpus, tmp_path / "h", 1).close()
    write_batches(corpus, 1, seed=9, start=200)  # replaces documents: pages deleted in segments
    read: list[int] = []
    real = PostingReader.joined

    def counting(self: PostingReader, *args: Any, **kwargs: Any) -> Any:
        post = real(self, *args, **kwargs)
        read.append(int(post.candidates.size))
        return post

    floors: list[float | None] = []
    real_floor = DatasetFloors.floor

    def floor(self: DatasetFloors, codes: Any) -> float | None:
        floors.append(real_floor(self, codes))
        return floors[-1]

    monkeypatch.setattr(PostingReader, "joined", counting)
    monkeypatch.setattr(DatasetFloors, "floor", floor)
    relaxed = {"page_budget": 4, "match_count_cap": 6, "search_timeout_s": 600.0}
    with open_(corpus, tmp_path / "h", 1, **relaxed) as eng:
        assert len(eng.store.segments) > 15
        assert not all(eng.store.segment_whole)
        searches = [
            *queries(seed=5, n=40),
            # and some that loosen: words no page holds
            {"keywords": ["sterile zyxwv", "batch record qwerty"], "limit": 50},
            {"keywords": ["aseptic validation zyxwv qwerty"], "query": "cleaning", "limit": 50},
            {"keywords": ["microbial zyxwv", "endotoxin"], "limit": 50},
            # and dated ones: a date filter counts only the pages it lets through
            {"keywords": ["batch", "record"], "date_from": "2016-01-01", "limit": 50},
            {"keywords": ["sterile"], "date_to": "2018-06-30", "query": "audit", "limit": 50},
            {"keywords": ["cleaning validation zyxwv"], "date_from": "2020-01-01", "limit": 50},
        ]
        pruned, pruned_read = [], []
        for query in searches:
            read.clear()
            pruned.append(eng.search(**query).to_dict())
            assert read, f"{query} joined no postings: {pruned[-1]['datasets']}"
            pruned_read.append(read[0])
        with monkeypatch.context() as m:
            m.setattr(DatasetFloors, "floor", lambda self, codes: None)
            whole, whole_read = [], []
            for query in searches:
                read.clear()
                whole.append(eng.search(**query).to_dict())
                assert read, f"{query} joined no postings: {whole[-1]['datasets']}"
                whole_read.append(read[0])
    for a, b in zip(pruned, whole, strict=True):
        a.pop("timings", None), b.pop("timings", None)
        assert a == b
    assert sum(pruned_read) < sum(whole_read) * 0.6
    assert all(p <= w for p, w in zip(pruned_read, whole_read, strict=True))
    assert sum(f is not None and f > 0 for f in floors) > 100  # floors were reached
    loosened = [ds for res in pruned for ds, st in res["datasets"].items() if st.get("loosened")]
    assert len(loosened) > 5  # datasets read again, loosened


def test_segments_written_without_skip_entries_get_them_once_and_score_alike(tmp_path):
    corpus = tmp_path / "corpus"
    write_batches(corpus, 3)
    with open_(corpus, tmp_path / "h", 1) as eng:
        folder = eng.store.files.folder
        before = [eng.search(**q).to_dict() for q in queries(n=10)]
    written = sorted(folder.glob(f"seg-*/{segments.BLOCKS}"))
    assert len(written) == len(index.IndexState.load(folder).segments) > 3
    for path in written:  # as an index written before skip entries (and checksums)
        path.unlink()
        summary = json.loads((path.parent / "segment.json").read_text())
        del summary["files"]
        (path.parent / "segment.json").write_text(json.dumps(summary))
    with open_(corpus, tmp_path / "h", 1) as eng:
        assert sorted(folder.glob(f"seg-*/{segments.BLOCKS}")) == written
        after = [eng.search(**q).to_dict() for q in queries(n=10)]
    for a, b in zip(before, after, strict=True):
        a.pop("timings", None), b.pop("timings", None)
        assert a == b


def test_a_failed_incremental_add_is_tried_again_after_a_back_off(tmp_path, monkeypatch, caplog):
    """A running engine whose index update fails (disk full) keeps searching its snapshot, logs
    the failure, tries again once the back-off has passed (not at every call before), and then
    finds the documents added meanwhile."""
    import logging

    from regnb.index import current

    corpus = tmp_path / "corpus"
    write_batches(corpus, 1)
    with open_(corpus, tmp_path / "h") as eng:
        now = [0.0]
        eng.index.clock = lambda: now[0]
        before = int(eng.counts().documents.sum())
        real, tries = current.ensure_index, []

        def full_disk(*args, **kwargs):
            tries.append(now[0])
            if len(tries) <= 2:
                raise OSError(28, "No space left on device")
            return real(*args, **kwargs)

        monkeypatch.setattr(current, "ensure_index", full_disk)
        write_batches(corpus, 1, seed=5, start=1000)
        with caplog.at_level(logging.WARNING, logger="regnb.index.build"):
            assert int(eng.counts().documents.sum()) == before  # failed: the snapshot held
            eng.counts()
            now[0] += current.RETRY_FIRST_S - 0.1
            eng.counts()  # within the back-off: not tried
            assert tries == [0.0]
            now[0] += 0.2
            assert int(eng.counts().documents.sum()) == before  # tried again, failed again
            assert eng.index.failures == 2
            now[0] += current.RETRY_FIRST_S * 2 - 0.1
            eng.counts()
            assert len(tries) == 2  # the back-off doubled
            now[0] += 0.2
            assert int(eng.counts().documents.sum()) > before  # the third try: up to date
        assert eng.index.failures == 0
        messages = [r.getMessage() for r in caplog.records]
        assert sum("could not be brought up to date" in m for m in messages) == 2
        assert any("up to date again after 2 failed tries" in m for m in messages)


# --- page texts: zstd blocks, with a dictionary in segments of TEXT_DICT_PAGES pages or more ---


def written(tmp_path: Path, n_pages: int) -> tuple[segments.Segment, list[str]]:
    """A segment of `n_pages` pages of seeded text, and the texts."""
    import pyarrow as pa

    from regnb.index.build import TERM_SCHEMA
    from tests.index.test_tokens import random_text

    rng = random.Random(n_pages)
    texts = [random_text(rng) + f" page {i}" for i in range(n_pages)]
    docs = pa.table(
        {
            "document_id": ["d"],
            "dataset": ["fda_483"],
            "title": ["A title"],
            "date": pa.array([None], pa.date32()),
            "url": [""],
            "fields": ["{}"],
            "page_count": pa.array([n_pages], pa.int32()),
            "first_page_id": pa.array([0], pa.int32()),
            "content_hash": [""],
            "shard_id": ["s"],
        }
    )
    pages = pa.table(
        {
            "doc_row": pa.array(np.zeros(n_pages, np.int32)),
            "page_num": pa.array(np.arange(n_pages, dtype=np.int32)),
            "text": pa.array(texts),
        }
    )
    data, _ = segments.from_tables(
        docs, pages, np.zeros((n_pages, 4), np.float16), TERM_SCHEMA.empty_table(), 1
    )
    segments.write_segment(tmp_path / "seg", data, ["s"])
    return segments.Segment(tmp_path / "seg"), texts


@pytest.mark.parametrize("n_pages", [segments.TEXT_DICT_PAGES - 1, segments.TEXT_DICT_PAGES])
def test_page_texts_come_back_as_written(tmp_path, n_pages):
    seg, texts = written(tmp_path, n_pages)
    assert (seg.folder / segments.TEXT_DICT).exists() == (n_pages >= segments.TEXT_DICT_PAGES)
    assert seg.all_texts().to_pylist() == texts
    picked = [n_pages - 1, 0, 5, 6, 7, 5]  # from several blocks, one block twice
    assert seg.texts(picked) == [texts[i] for i in picked]


def test_a_dictionary_makes_small_blocks_smaller(tmp_path):
    seg, _ = written(tmp_path, segments.TEXT_DICT_PAGES)
    blocks = np.load(seg.folder / "text_blocks.npy")
    plain = [
        len(pa_codec().compress(b"".join(t.encode() for t in seg.texts(list(range(i, i + 4))))))
        for i in range(0, segments.TEXT_DICT_PAGES, segments.PAGE_BLOCK)
    ]
    assert int(blocks[-1]) < 0.8 * sum(plain)


def pa_codec() -> Any:
    import pyarrow as pa

    return pa.Codec(segments.CODEC, compression_level=segments.TEXT_LEVEL)


def test_a_small_segments_blocks_are_plain_zstd_frames_as_before_dictionaries(tmp_path):
    """What a reader of segments written before dictionaries reads (pyarrow's codec)."""
    import pyarrow as pa

    seg, texts = written(tmp_path, 10)
    blocks = np.load(seg.folder / "text_blocks.npy")
    stored = (seg.folder / "texts.bin").read_bytes()[int(blocks[0]) : int(blocks[1])]
    size = sum(len(t.encode()) for t in texts[: segments.PAGE_BLOCK])
    assert (
        pa_codec().decompress(pa.py_buffer(stored), size, asbytes=True)
        == "".join(texts[: segments.PAGE_BLOCK]).encode()
    )


def test_a_damaged_block_compressed_with_a_dictionary_is_reported(tmp_path):
    from regnb.errors import IndexDamaged
    from tests import damage_support as damage

    seg, _ = written(tmp_path, segments.TEXT_DICT_PAGES)
    damage.overwrite(seg.folder / "texts.bin", at=0, size=50)
    with pytest.raises(IndexDamaged, match=r"texts\.bin corrupted"):
        segments.Segment(seg.folder).texts([0])
