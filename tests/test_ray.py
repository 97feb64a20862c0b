"""Corpora embedded and indexed on Ray (`runner="ray"`, `regnb.corpus.ray`): the same corpus and the
same index as the local path, on a local Ray instance the file starts once and stops after."""

from __future__ import annotations

import json
import pickle
import random
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

import regnb
from regnb.catalog import load_catalog
from regnb.cli import main
from regnb.corpus import ray as _ray
from regnb.corpus import shards
from regnb.index import build as index_module
from regnb.index import ray as index_ray
from regnb.index import segments
from regnb.settings import Settings
from tests.conftest import doc
from tests.index.test_segments import DATASETS, _document, assert_same, open_

ray = pytest.importorskip("ray")

SALT = "5a" * 16
ENCODER = regnb.HashingEncoder()


@pytest.fixture(scope="module", autouse=True)
def ray_session() -> Iterator[None]:
    """One local Ray instance of two CPUs for the whole file."""
    assert not ray.is_initialized()  # regnb shuts down a Ray it started (docs/ray.md's)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(autouse=True)
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of a few dozen pages, here and on Ray: several shards from a small corpus."""
    monkeypatch.setattr("regnb.corpus.write.BATCH_PAGES", 40)
    monkeypatch.setenv("REGNB_RAY_BATCH_PAGES", "40")
    monkeypatch.setenv("REGNB_PROGRESS", "0")


def new_corpus(path: Path) -> Path:
    """An empty corpus with a known salt, so that two corpora give documents the same ids."""
    path.mkdir(parents=True)
    shards.write_manifest(path, shards.Manifest(SALT, {"name": ENCODER.name, "dim": 384}, []))
    return path


def documents(seed: int, n: int = 60, start: int = 0) -> dict[str, list[dict[str, Any]]]:
    rng = random.Random(seed)
    words = ["sterile", "batch", "record", "deviation", "audit", "cleaning", "water", "mold"]
    return {
        ds: [
            doc(
                f"{ds} letter {i}",
                [" ".join(rng.choice(words) for _ in range(12)) for _ in range(rng.randint(1, 4))],
                key=f"k{i}",
                fields={},
            )
            for i in range(start, start + n)
        ]
        for ds in ("fda_483", "fda_warning_letters")
    }


def contents(corpus: Path) -> dict[tuple[str, int], tuple[dict[str, Any], str, np.ndarray]]:
    """Every page of a corpus by (document id, page number): its document's row, its text
    and its embedding."""
    manifest = shards.Manifest.load(corpus)
    assert manifest is not None
    out = {}
    for entry in manifest.shards:
        docs = shards.read_documents(corpus, entry)
        pages = shards.read_pages(corpus, entry, manifest.dim, docs)
        rows = {r["document_id"]: r for r in docs.to_pylist()}
        vectors = shards.embeddings(pages, manifest.dim)
        for page, vector in zip(pages.select(["document_id", "page_num", "text"]).to_pylist(), vectors, strict=True):  # fmt: skip
            out[(page["document_id"], page["page_num"])] = (
                rows[page["document_id"]],
                page["text"],
                vector.astype(np.float32),
            )
    return out


def assert_same_corpus(a: Path, b: Path) -> None:
    one, two = contents(a), contents(b)
    assert one.keys() == two.keys()
    for key, (row, text, vector) in one.items():
        assert two[key][:2] == (row, text)
        np.testing.assert_allclose(two[key][2], vector, rtol=1e-3, atol=1e-3)
    listed = {p for s in shards.Manifest.load(b).shards for p in (s.documents, s.pages)}  # type: ignore[union-attr]
    assert {p.relative_to(b).as_posix() for p in b.glob("*/*.parquet")} == listed


def write(corpus: Path, docs: dict[str, list[dict[str, Any]]], **ray: Any) -> list[dict[str, Any]]:
    summary = regnb.write_corpus(corpus, docs, encoder=ENCODER, progress=False, **ray)
    return list(summary.to_dict("records"))


# --- embedding and shards --------------------------------------------------------------------


def test_a_ray_write_gives_the_corpus_a_local_write_gives(tmp_path: Path) -> None:
    local, on_ray = new_corpus(tmp_path / "local"), new_corpus(tmp_path / "ray")
    first, again = documents(1), documents(2, n=30, start=45)  # 15 keys replaced, 15 new
    assert write(on_ray, first, runner="ray") == write(local, first)
    summary = write(on_ray, again, runner="ray")
    assert summary == write(local, again)
    assert [r["replaced"] for r in summary] == [15, 15]
    assert len(shards.Manifest.load(on_ray).shards) > 4  # type: ignore[union-attr]
    assert_same_corpus(local, on_ray)
    assert write(on_ray, again, runner="ray")[0]["skipped"] == 30  # nothing new: nothing written


def test_ray_shards_hold_the_pages_that_suit_its_actors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REGNB_RAY_BATCH_PAGES", "1000")  # here: 40 (small_batches)
    local, on_ray = new_corpus(tmp_path / "local"), new_corpus(tmp_path / "ray")
    write(local, documents(5))
    write(on_ray, documents(5), runner="ray")
    assert len(shards.Manifest.load(local).shards) > 4  # type: ignore[union-attr]
    assert len(shards.Manifest.load(on_ray).shards) == 2  # type: ignore[union-attr]
    assert_same_corpus(local, on_ray)


class Interrupted(Exception):
    pass


def test_an_interrupted_ray_write_resumes_from_the_shards_committed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole, broken = new_corpus(tmp_path / "whole"), new_corpus(tmp_path / "broken")
    docs = documents(3)
    write(whole, docs)
    commit = regnb.corpus.write._commit_shard
    calls = []

    def fail_after_two(*args: Any) -> int:
        if len(calls) == 2:
            raise Interrupted
        calls.append(1)
        return commit(*args)

    monkeypatch.setattr("regnb.corpus.write._commit_shard", fail_after_two)
    with pytest.raises(Interrupted):
        write(broken, docs, runner="ray")
    monkeypatch.setattr("regnb.corpus.write._commit_shard", commit)
    manifest = shards.Manifest.load(broken)
    assert manifest is not None and manifest.commits == 2 and len(manifest.shards) == 2
    kept = sum(s.documents_count for s in manifest.shards)
    summary = write(broken, docs, runner="ray")
    assert sum(r["skipped"] for r in summary) == kept
    assert sum(r["written"] for r in summary) == 120 - kept
    assert_same_corpus(whole, broken)


def test_ingest_connectors_and_the_command_line_run_on_ray(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "letters.jsonl"
    rows = [doc(f"letter {i}", [f"sterile batch {i}", "mold"], key=f"l{i}") for i in range(30)]
    source.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    args = ["ingest", "jsonl", str(source), "--dataset", "fda_warning_letters", "--fast-encoder"]
    local, on_ray = new_corpus(tmp_path / "local"), new_corpus(tmp_path / "ray")
    assert main([*args, "--corpus", str(local), "--quiet"]) == 0
    assert main([*args, "--corpus", str(on_ray), "--quiet", "--ray"]) == 0
    assert "60 pages written" in capsys.readouterr().out
    assert_same_corpus(local, on_ray)


@pytest.mark.parametrize(
    ("encoder", "kind"),
    [(regnb.HashingEncoder(), "hashing"), (regnb.HashingEncoder(64), "hashing")],
)
def test_an_encoder_spec_rebuilds_the_encoder(encoder: Any, kind: str) -> None:
    spec = _ray.encoder_spec(encoder)
    rebuilt = pickle.loads(pickle.dumps(spec)).build()
    assert (spec.kind, rebuilt.name, rebuilt.dim) == (kind, encoder.name, encoder.dim)
    texts = ["sterile batch record", "mold"]
    np.testing.assert_array_equal(rebuilt.encode(texts), encoder.encode(texts))


class OwnEncoder(regnb.HashingEncoder):
    """An encoder of the user's own: travels pickled."""

    def __init__(self) -> None:
        super().__init__(16)
        self.name = "own-16"


class LockedEncoder(regnb.HashingEncoder):
    """An encoder that holds what cannot be pickled."""

    def __init__(self) -> None:
        super().__init__(16)
        self.lock = threading.Lock()


def test_another_encoder_travels_pickled_or_is_refused() -> None:
    spec = _ray.encoder_spec(OwnEncoder())
    assert spec.kind == "pickled" and spec.build().name == "own-16"
    with pytest.raises(regnb.InvalidRequest, match="cannot be sent to Ray workers") as info:
        _ray.encoder_spec(LockedEncoder())
    assert info.value.field == "encoder"


@pytest.mark.parametrize(
    ("resources", "more", "expected"),
    [
        ({"CPU": 2.0}, {}, _ray.Placement(2, 0, 1, 2_000, 32)),
        ({"CPU": 16.0}, {"ray_cpus_per_worker": 4}, _ray.Placement(4, 0, 4, 2_000, 32)),
        ({"CPU": 3.0}, {"ray_cpus_per_worker": 4}, _ray.Placement(1, 0, 4, 2_000, 32)),
        ({"CPU": 16.0}, {"ray_actors": 3}, _ray.Placement(3, 0, 1, 2_000, 32)),
        ({"CPU": 16.0, "GPU": 2.0}, {}, _ray.Placement(2, 1, 1, 20_000, 256)),
        (
            {"CPU": 16.0, "GPU": 2.0},
            {"ray_gpu_encode_batch": 512},
            _ray.Placement(2, 1, 1, 20_000, 512),
        ),
    ],
)
def test_placement_puts_gpu_actors_on_gpus_and_cpu_actors_elsewhere(
    resources: dict[str, float], more: dict[str, int], expected: _ray.Placement
) -> None:
    settings = Settings(**{**Settings.from_env({}).__dict__, "ray_batch_pages": 2_000, **more})
    assert _ray.placement(resources, settings) == expected
    assert expected.device == ("cuda" if expected.gpus else "cpu")


def test_without_ray_installed_the_message_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match=r"pip install 'regnb\[ray\]'"), _ray.connected():
        pass
    corpus = new_corpus(tmp_path / "c")
    write(corpus, documents(4, n=2))
    assert main(["index", "--corpus", str(corpus), "--fast-encoder", "--ray"]) == 2
    assert "regnb[ray]" in capsys.readouterr().err


# --- index segments --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("batches", "expected"),
    [
        ([["b", "d"]], [[10, 11]]),  # a first batch: its new terms in term order
        ([["b", "d"], ["a", "d", "e"]], [[10, 11], [12, 11, 13]]),  # earlier ids kept
        ([["c"], ["c"], ["a", "z"]], [[10], [10], [11, 12]]),
        ([[], ["x"]], [[], [10]]),
    ],
)
def test_new_terms_are_numbered_as_a_local_build_numbers_them(
    batches: list[list[str]], expected: list[list[int]]
) -> None:
    terms = index_ray._Terms(10)
    given = []
    for batch in batches:
        ids, fresh = terms.number(pa.table({"term": pa.array(batch, pa.string())}))
        given.append(ids.tolist())
        assert fresh.column("term_id").to_pylist() == [
            i for t, i in zip(batch, ids.tolist(), strict=True) if t in fresh["term"].to_pylist()
        ]
    assert given == expected


def test_renumbering_gives_postings_the_index_ids_in_term_then_page_order() -> None:
    empty = pa.table({"x": pa.array([], pa.int32())})
    data = segments.SegmentData(
        docs=empty, page_doc=np.zeros(3, np.int32), page_num=np.ones(3, np.int32),
        page_dl=np.ones(3, np.int32), texts=pa.chunked_array([["a", "b", "c"]]),
        vectors=np.zeros((3, 2), np.float16),
        post_term=np.array([2, 2, 5, 6, 6, 7], np.int32),  # 2: known; 5, 6, 7: new from 5
        post_page=np.array([0, 2, 1, 0, 1, 2], np.int32),
        post_tf=np.array([1, 2, 3, 4, 5, 6], np.int32),
        fields=empty, identifiers=empty,
    )  # fmt: skip
    out = index_ray.renumber_terms(data, 5, np.array([9, 3, 12]))
    assert out.post_term.tolist() == [2, 2, 3, 3, 9, 12]
    assert out.post_page.tolist() == [0, 2, 0, 1, 1, 2]
    assert out.post_tf.tolist() == [1, 2, 4, 5, 3, 6]


def rare(k: int) -> str:
    """A word of its own (`aaab`): it sorts before every common word, so a batch that has or
    lacks it moves the ids of all the terms after it."""
    return "aa" + chr(97 + k % 26) + chr(97 + k // 26 % 26)


def write_batches(corpus: Path, batches: int, *, seed: int = 3, start: int = 0) -> None:
    """`tests.index.test_segments`' writes, each page with words of its batch's own besides the
    common ones: batches with different vocabularies."""
    rng = random.Random(seed)
    for b in range(batches):
        docs = {
            ds: [_document(rng, ds, start + b * 100 + i) for i in range(rng.randint(5, 15))]
            for ds in DATASETS
        }
        for d in (d for ds in docs.values() for d in ds):
            d["pages"] = [f"{p} {rare(rng.randint(0, 20) + 15 * b)}" for p in d["pages"]]
        regnb.write_corpus(corpus, docs, encoder=ENCODER, progress=False)


def assert_same_search(local: regnb.Engine, on_ray: regnb.Engine) -> None:
    """The same results and scores for the common words (`tests.index.test_segments`) and for rare
    words (each a single term)."""
    assert_same(local, on_ray)
    for k in range(0, 80, 3):
        a, b = local.search([rare(k)], limit=50), on_ray.search([rare(k)], limit=50)
        assert a.total == b.total
        assert [r["document_id"] for r in a.to_dict()["results"]] == [
            r["document_id"] for r in b.to_dict()["results"]
        ]
        for ra, rb in zip(a.to_dict()["results"], b.to_dict()["results"], strict=True):
            assert [p["score"] for p in ra["pages"]] == pytest.approx(
                [p["score"] for p in rb["pages"]], rel=1e-6
            )


def index_files(folder: Path) -> tuple[index_module.IndexState, list[tuple[str, int]], Any]:
    state = index_module.IndexState.load(folder)
    assert state is not None and state.terms and state.df
    terms = index_module._read_terms(folder / state.terms).to_pylist()
    df = np.load(folder / state.df)
    return state, [(t["term"], t["term_id"]) for t in terms], df


def test_a_ray_index_scores_and_counts_as_a_local_one(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_batches(corpus, 3)
    ray_home = tmp_path / "ray"
    settings = Settings(**{**Settings.from_env().__dict__, "home": ray_home})
    files = index_module.ensure_index(
        corpus, load_catalog(corpus), settings.index_dir, batch_pages=1, runner="ray"
    )
    with open_(corpus, tmp_path / "local", 1) as local, open_(corpus, ray_home, 1) as on_ray:
        assert on_ray.store.files == files  # built on Ray, opened as it is
        assert len(on_ray.store.segments) == len(local.store.segments) == 3 * len(DATASETS)
        assert_same_search(local, on_ray)
        a, b = index_files(local.store.files.folder), index_files(files.folder)
    assert a[1] == b[1]  # the same terms under the same ids
    np.testing.assert_array_equal(a[2], b[2])  # and the same document frequencies
    assert (a[0].n_pages, a[0].sum_dl, a[0].next_term_id) == (
        b[0].n_pages,
        b[0].sum_dl,
        b[0].next_term_id,
    )


def test_a_ray_index_takes_in_added_documents_as_a_local_one(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_batches(corpus, 2)
    home = {"local": tmp_path / "local", "ray": tmp_path / "ray"}
    for runner, folder in home.items():
        settings = Settings(**{**Settings.from_env().__dict__, "home": folder})
        index_module.ensure_index(corpus, load_catalog(corpus), settings.index_dir, runner=runner)
    write_batches(corpus, 1, seed=5, start=1000)  # new documents: new terms
    write_batches(corpus, 1, seed=9, start=0)  # the first write's keys: replacements
    assert main(["index", "--corpus", str(corpus), "--fast-encoder", "--ray"]) == 0  # REGNB_HOME
    for runner, folder in home.items():
        settings = Settings(**{**Settings.from_env().__dict__, "home": folder})
        index_module.ensure_index(corpus, load_catalog(corpus), settings.index_dir, runner=runner)
    with open_(corpus, home["local"]) as local, open_(corpus, home["ray"]) as on_ray:
        assert len(on_ray.store.segments) == len(local.store.segments) > 1
        assert_same_search(local, on_ray)
        a, b = index_files(local.store.files.folder), index_files(on_ray.store.files.folder)
    assert a[1] == b[1]
    np.testing.assert_array_equal(a[2], b[2])


def test_a_failed_ray_build_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = tmp_path / "corpus"
    write_batches(corpus, 2)
    folder = tmp_path / "index"
    record = index_module.SegmentWriter.record_segment
    calls = []

    def fail_on_third(self: Any, *args: Any) -> None:
        if len(calls) == 2:
            raise Interrupted
        calls.append(1)
        record(self, *args)

    monkeypatch.setattr(index_module.SegmentWriter, "record_segment", fail_on_third)
    with pytest.raises(Interrupted):
        index_module.update_index(
            corpus, load_catalog(corpus), folder, batch_pages=1, runner="ray", progress=False
        )
    assert index_module.IndexState.load(folder) is None
    assert sorted(p.name for p in folder.iterdir()) == [".lock"]


# --- a corpus on an object store, written and indexed on Ray ---------------------------------


def test_a_corpus_on_s3_is_written_and_indexed_on_ray_as_locally(
    tmp_path: Path, s3_bucket: str, same_ids: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The workers read and write the bucket with the driver's AWS_* settings (a runtime env):
    the same documents as a local write, and a Ray-built index that searches as a local one."""
    docs = documents(5, n=40)
    same_ids.reset()  # the same salt, so the same document ids
    local = tmp_path / "local"
    regnb.write_corpus(local, docs, encoder=ENCODER, progress=False)
    same_ids.reset()
    url = f"{s3_bucket}/corpus"
    summary = write(url, docs, runner="ray")  # type: ignore[arg-type]
    assert summary[0]["written"] == 40
    on_s3 = shards.Manifest.load(url)
    assert on_s3 is not None and len(on_s3.shards) > 2

    def settings(home: str) -> Settings:
        return Settings(**{**Settings.from_env().__dict__, "home": tmp_path / home})

    one, two = contents(local), contents(url)  # type: ignore[arg-type]
    assert one.keys() == two.keys()
    for key, (row, text, vector) in one.items():
        assert two[key][:2] == (row, text)
        np.testing.assert_allclose(two[key][2], vector, rtol=1e-3, atol=1e-3)
    here, on_ray = settings("here"), settings("ray")
    with regnb.Engine(url, encoder=ENCODER, settings=here, progress=False) as built_here:
        built_here.search(["sterile"])  # its index built here
        monkeypatch.setattr(Settings, "from_env", classmethod(lambda cls, environ=None: on_ray))
        regnb.index.build.update(url, runner="ray", progress=False)

        def no_build_here(threads: int) -> Any:
            raise AssertionError("the index of the S3 corpus was built on Ray already")

        monkeypatch.setattr(index_module, "_build_here", no_build_here)
        with regnb.Engine(url, encoder=ENCODER, settings=on_ray, progress=False) as built_on_ray:
            assert_same_search(built_here, built_on_ray)
