"""A malformed or truncated shard names the file, the column and the problem; nothing half-loads."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import regnb
from regnb.corpus import shards
from regnb.corpus.location import file_sha256
from tests.conftest import doc


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    regnb.write_corpus(
        tmp_path,
        {"fda_483": [doc("A", ["alpha", "beta"]), doc("B", ["gamma"])]},
        encoder=regnb.HashingEncoder(),
        progress=False,
    )
    return tmp_path


def entry(corpus: Path) -> shards.ShardEntry:
    manifest = shards.Manifest.load(corpus)
    assert manifest is not None
    return manifest.shards[0]


def rewrite(corpus: Path, which: str, table: pa.Table) -> Path:
    """Replace a shard file and make the manifest agree, as a buggy writer would."""
    e = entry(corpus)
    path = corpus / getattr(e, which)
    pq.write_table(table, path)
    raw = json.loads((corpus / "manifest.json").read_text())
    raw["shards"][0]["checksums"][which] = file_sha256(path)
    raw["shards"][0]["sizes"][which] = path.stat().st_size
    (corpus / "manifest.json").write_text(json.dumps(raw))
    return path


def open_fails(corpus: Path, *needles: str) -> None:
    with pytest.raises(regnb.CorpusError) as info:
        regnb.Engine(corpus, encoder=regnb.HashingEncoder(), progress=False)
    for needle in needles:
        assert needle in info.value.message


def test_truncated_file(corpus):
    path = corpus / entry(corpus).pages
    path.write_bytes(path.read_bytes()[:-100])
    open_fails(corpus, str(path), "truncated")


def test_corrupted_bytes(corpus):
    path = corpus / entry(corpus).documents
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    open_fails(corpus, str(path), "checksum")


def test_missing_file(corpus):
    path = corpus / entry(corpus).pages
    path.unlink()
    open_fails(corpus, str(path), "missing")


def test_not_parquet(corpus):
    path = rewrite(corpus, "documents", pa.table({"x": [1]}))
    path.write_bytes(b"not parquet at all")
    raw = json.loads((corpus / "manifest.json").read_text())
    raw["shards"][0]["checksums"]["documents"] = file_sha256(path)
    raw["shards"][0]["sizes"]["documents"] = path.stat().st_size
    (corpus / "manifest.json").write_text(json.dumps(raw))
    open_fails(corpus, str(path), "Parquet")


def test_missing_column(corpus):
    e = entry(corpus)
    table = pq.read_table(corpus / e.documents).drop_columns(["title"])
    path = rewrite(corpus, "documents", table)
    open_fails(corpus, str(path), "'title'", "missing")


def test_wrong_type(corpus):
    e = entry(corpus)
    table = pq.read_table(corpus / e.pages)
    table = table.set_column(
        1, "page_num", pa.array([str(v) for v in table.column("page_num").to_pylist()])
    )
    path = rewrite(corpus, "pages", table)
    open_fails(corpus, str(path), "'page_num'", "type")


def test_page_numbers_out_of_order(corpus):
    e = entry(corpus)
    table = pq.read_table(corpus / e.pages)
    nums = table.column("page_num").to_pylist()
    nums[0], nums[1] = nums[1], nums[0]
    table = table.set_column(1, "page_num", pa.array(nums, pa.int32()))
    path = rewrite(corpus, "pages", table)
    open_fails(corpus, str(path), "'page_num'")


def test_bad_fields_json(corpus):
    e = entry(corpus)
    table = pq.read_table(corpus / e.documents)
    idx = table.column_names.index("fields")
    table = table.set_column(idx, "fields", pa.array(["{not json", "{}"]))
    path = rewrite(corpus, "documents", table)
    open_fails(corpus, str(path), "'fields'")


def test_bad_manifest(corpus):
    (corpus / "manifest.json").write_text("{")
    open_fails(corpus, "manifest.json")


def test_a_failed_open_leaves_no_half_built_index(corpus, regnb_home):
    path = corpus / entry(corpus).pages
    path.write_bytes(path.read_bytes()[:-10])
    open_fails(corpus, "truncated")
    assert not list((regnb_home / "index").glob("*/*/index.duckdb"))


def _manifest_with(corpus: Path, change: Any) -> None:
    raw = json.loads((corpus / "manifest.json").read_text())
    (corpus / "manifest.json").write_text(json.dumps(change(raw)))


def _drop(where: dict[str, Any], key: str) -> dict[str, Any]:
    del where[key]
    return where


def _set(where: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    where[key] = value
    return where


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda raw: [], "expected a JSON object, got a list"),
        (lambda raw: None, "expected a JSON object, got null"),
        (lambda raw: "manifest", "expected a JSON object, got a string"),
        (lambda raw: _drop(raw, "format_version"), "format_version is missing"),
        (lambda raw: _set(raw, "format_version", 99), "format_version 99 is not supported"),
        (lambda raw: _drop(raw, "salt"), "salt is missing"),
        (lambda raw: _set(raw, "salt", "not hex"), "salt must be 1 to 64 bytes in hex"),
        (lambda raw: _set(raw, "salt", 12), "salt must be a string, got an integer"),
        (lambda raw: _drop(raw, "encoder"), "encoder is missing"),
        (lambda raw: _set(raw, "encoder", "minilm"), "encoder must be an object"),
        (lambda raw: _drop(raw["encoder"], "dim") and raw, "encoder.dim is missing"),
        (lambda raw: _set(raw["encoder"], "dim", "384") and raw, "encoder.dim must be an integer"),
        (lambda raw: _set(raw["encoder"], "dim", True) and raw, "got a boolean"),
        (lambda raw: _set(raw["encoder"], "dim", 0) and raw, "encoder.dim must be positive"),
        (lambda raw: _drop(raw, "shards"), "shards is missing"),
        (lambda raw: _set(raw, "shards", {}), "shards must be a list, got an object"),
        (lambda raw: _set(raw, "shards", [[]]), "shards[0] must be an object, got a list"),
        (lambda raw: _drop(raw["shards"][0], "pages") and raw, "shards[0].pages is missing"),
        (
            lambda raw: _set(raw["shards"][0], "pages_count", "3") and raw,
            "shards[0].pages_count must be an integer, got a string",
        ),
        (
            lambda raw: _set(raw["shards"][0], "documents_count", -1) and raw,
            "shards[0].documents_count is negative",
        ),
        (
            lambda raw: _drop(raw["shards"][0]["sizes"], "pages") and raw,
            "shards[0].sizes.pages is missing",
        ),
        (
            lambda raw: _set(raw["shards"][0], "checksums", None) and raw,
            "shards[0].checksums must be an object, got null",
        ),
        (
            lambda raw: _set(raw["shards"][0], "documents", "../../elsewhere.parquet") and raw,
            "is not a Parquet file inside the corpus",
        ),
        (lambda raw: _set(raw["shards"][0], "color", "red") and raw, "unknown keys ['color']"),
        (
            lambda raw: _set(raw["shards"][0], "commit", -1) and raw,
            "shards[0].commit is negative",
        ),
        (
            lambda raw: _set(raw["shards"][0], "commit", "1") and raw,
            "shards[0].commit must be an integer, got a string",
        ),
        (
            lambda raw: _set(raw["shards"][0], "committed", "yesterday") and raw,
            "shards[0].committed 'yesterday' is not an ISO 8601 time",
        ),
        (
            lambda raw: _set(raw["shards"][0], "committed", "2026-01-02T03:04:05") and raw,
            "has no time zone",
        ),
        (lambda raw: _set(raw, "commits", "2"), "commits must be an integer, got a string"),
        (lambda raw: _set(raw, "commits", 0), "commits is 0, below a shard's commit 1"),
    ],
)
def test_a_malformed_manifest_names_the_file_and_the_problem(
    corpus: Path, change: Any, problem: str
) -> None:
    _manifest_with(corpus, change)
    with pytest.raises(regnb.CorpusError) as info:
        shards.Manifest.load(corpus)
    assert str(corpus / "manifest.json") in info.value.message
    assert problem in info.value.message
    open_fails(corpus, "manifest.json", problem)


def test_verify_accepts_a_sound_corpus_and_names_a_corrupted_file(corpus: Path) -> None:
    manifest = shards.Manifest.load(corpus)
    assert manifest is not None
    shards.verify(corpus, manifest)
    path = corpus / entry(corpus).pages
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(regnb.CorpusError, match="checksum") as info:
        shards.verify(corpus, manifest)
    assert str(path) in info.value.message


def _without_commits(raw: dict[str, Any]) -> dict[str, Any]:
    """The manifest as regnb wrote it before commits were recorded."""
    del raw["commits"]
    for shard in raw["shards"]:
        del shard["commit"], shard["committed"]
    return raw


def test_a_manifest_without_commits_reads_as_commit_0_at_an_unknown_time(corpus: Path) -> None:
    _manifest_with(corpus, _without_commits)
    manifest = shards.Manifest.load(corpus)
    assert manifest is not None and manifest.commits == 0
    assert [(s.commit, s.committed) for s in manifest.shards] == [(0, None)]
    with regnb.Engine(corpus, encoder=regnb.HashingEncoder(), progress=False) as eng:
        assert eng.search(["alpha"]).total == 1


def test_a_write_on_a_manifest_without_commits_numbers_its_commit_1(corpus: Path) -> None:
    _manifest_with(corpus, _without_commits)
    regnb.write_corpus(
        corpus, {"fda_483": [doc("C", ["delta"])]}, encoder=regnb.HashingEncoder(), progress=False
    )
    raw = json.loads((corpus / "manifest.json").read_text())
    assert raw["commits"] == 1
    assert [(s["commit"], "committed" in s) for s in raw["shards"]] == [(0, False), (1, True)]
    manifest = shards.Manifest.load(corpus)
    assert manifest is not None
    assert [s.commit for s in manifest.shards] == [0, 1]


def test_the_read_of_document_ids_is_checked_against_the_manifest(corpus: Path) -> None:
    e = entry(corpus)
    assert len(shards.read_document_ids(corpus, e)) == 2
    with pytest.raises(regnb.CorpusError, match="2 rows, the manifest says 3"):
        shards.read_document_ids(corpus, replace(e, documents_count=3))
    (corpus / e.documents).unlink()
    with pytest.raises(regnb.CorpusError, match="cannot read column 'document_id'"):
        shards.read_document_ids(corpus, e)


@pytest.mark.parametrize(
    ("seconds", "stamp"),
    [
        (0.0, "1970-01-01T00:00:00.000+00:00"),
        (1_790_000_000.25, "2026-09-21T14:13:20.250+00:00"),
    ],
)
def test_a_commit_is_stamped_in_utc_to_the_millisecond(seconds: float, stamp: str) -> None:
    assert shards.commit_stamp(seconds) == stamp


# --- shards on an object store (a moto S3 server on loopback) -----------------------------------


def _flip_last_byte(loc: Any, rel: str) -> None:
    data = bytearray(loc.read_bytes(rel))
    data[-1] ^= 0xFF
    loc.write_bytes(rel, bytes(data))


def test_a_corrupted_shard_object_is_refused_as_a_corrupted_shard_file_is(tmp_path, s3_bucket):
    from regnb.corpus.location import location

    problems = []
    for where in (location(tmp_path / "local"), location(f"{s3_bucket}/corpus")):
        regnb.write_corpus(
            where,
            {"fda_483": [doc("A", ["alpha"])]},
            encoder=regnb.HashingEncoder(),
            progress=False,
        )
        e = entry(where)
        _flip_last_byte(where, e.pages)
        with pytest.raises(regnb.errors.CorpusError) as err:
            regnb.open(where)
        problems.append(str(err.value).replace(where.where(e.pages), "<file>"))
        with pytest.raises(regnb.errors.CorpusError, match="checksum does not match"):
            shards.read_pages(where, e, 384, shards.read_documents(where, e))
    assert (
        problems[0]
        == problems[1]
        == "<file>: checksum does not match the manifest (file corrupted)"
    )


def test_a_truncated_or_missing_shard_object_is_named(s3_bucket):
    from regnb.corpus.location import location

    loc = location(f"{s3_bucket}/corpus")
    regnb.write_corpus(
        loc, {"fda_483": [doc("A", ["alpha"])]}, encoder=regnb.HashingEncoder(), progress=False
    )
    e = entry(loc)
    loc.write_bytes(e.documents, loc.read_bytes(e.documents)[:-10])
    with pytest.raises(regnb.errors.CorpusError, match=r"bytes, the manifest says \d+ \(truncated"):
        shards.verify(loc, shards.Manifest.load(loc))
    loc.delete(e.documents)
    with pytest.raises(
        regnb.errors.CorpusError,
        match=r"corpus/fda_483/documents-\w+\.parquet: shard file is missing",
    ):
        shards.read_documents(loc, e)


def test_a_manifest_is_not_replaced_when_the_commit_it_started_from_is_gone(tmp_path):
    regnb.write_corpus(
        tmp_path, {"fda_483": [doc("A", ["alpha"])]}, encoder=regnb.HashingEncoder(), progress=False
    )
    manifest = shards.Manifest.load(tmp_path)
    assert manifest is not None and manifest.commits == 1
    with pytest.raises(
        regnb.errors.CorpusError, match=r"commit 1; this write started from commit 0"
    ):
        shards.write_manifest(tmp_path, manifest, previous=0)
    shards.write_manifest(tmp_path, manifest, previous=1)
