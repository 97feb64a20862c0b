"""A damaged index heals: a segment whose files were truncated, deleted or overwritten is left
out (its datasets answer `error` with a reason, the others as before), `check_index` reports
it, and `repair_index` rebuilds it from the shards."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from regnb.errors import CorpusError, NotFound
from regnb.index import health
from regnb.index.build import IndexState
from tests import damage_support as damage


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    damage.write_corpus(tmp_path / "corpus")
    return tmp_path / "corpus"


def assert_damaged(result: dict, segment: str) -> None:
    """FIRST answer `error` with a reason naming the segment and the repair; SECOND is `ok`."""
    statuses = result["datasets"]
    for ds in damage.FIRST:
        assert statuses[ds]["status"] == "error", statuses
        assert segment in statuses[ds]["reason"] and "regnb index" in statuses[ds]["reason"]
    assert statuses[damage.SECOND]["status"] == "ok"
    assert {r["dataset"] for r in result["results"]} == {damage.SECOND}
    assert result["total"] == 12


def test_segments_record_each_file_size_and_checksum(corpus: Path) -> None:
    folder = damage.first_segment()
    files = json.loads((folder / "segment.json").read_text())["files"]
    assert set(files) == {p.name for p in folder.iterdir()} - {"segment.json"}
    assert files["texts.bin"]["size"] == (folder / "texts.bin").stat().st_size
    assert health.check_segment(folder, full=True) == []


def test_searches_leave_the_checksummed_files_as_written(corpus: Path) -> None:
    with damage.open_engine(corpus) as eng:
        damage.search(eng)
        eng.read(damage.search(eng)["results"][0]["document_id"])
    assert health.check_index(damage.index_folder()) == []


@pytest.mark.parametrize("name", ["texts.bin", "docs.arrow", "post_gaps.npy", "meta.duckdb"])
def test_a_truncated_file_leaves_its_segment_out(corpus: Path, name: str) -> None:
    folder = damage.first_segment()
    damage.truncate(folder / name)
    with damage.open_engine(corpus) as eng:
        result = damage.search(eng)
    assert_damaged(result, folder.name)
    assert f"{name} truncated" in result["datasets"]["fda_483"]["reason"]


@pytest.mark.parametrize("name", ["embeddings.npy", "meta.duckdb", "pages.npz", "segment.json"])
def test_a_deleted_file_leaves_its_segment_out(corpus: Path, name: str) -> None:
    folder = damage.first_segment()
    (folder / name).unlink()
    with damage.open_engine(corpus) as eng:
        result = damage.search(eng)
    assert_damaged(result, folder.name)
    assert f"{name} missing" in result["datasets"]["fda_483"]["reason"]


def test_the_engine_logs_the_damaged_segment_when_it_opens(
    corpus: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = damage.first_segment()
    (folder / "docs.arrow").unlink()
    with caplog.at_level(logging.WARNING), damage.open_engine(corpus):
        pass
    assert folder.name in caplog.text and "regnb index" in caplog.text


def test_overwritten_page_texts_fail_only_their_datasets(corpus: Path) -> None:
    folder = damage.first_segment()
    damage.overwrite(folder / "texts.bin")
    with damage.open_engine(corpus) as eng:
        result = damage.search(eng)  # the segment opens: its texts fail as they are read
        assert_damaged(result, folder.name)
        assert "texts.bin corrupted" in result["datasets"]["fda_483"]["reason"]
        assert_damaged(damage.search(eng), folder.name)  # and again, without reading


def test_reading_a_damaged_document_says_so(corpus: Path) -> None:
    with damage.open_engine(corpus) as eng:  # its first record's pages: the first texts
        ids = {r["title"]: r["document_id"] for r in damage.search(eng)["results"]}
    folder = damage.first_segment()
    damage.overwrite(folder / "texts.bin")
    with damage.open_engine(corpus) as eng:
        with pytest.raises(CorpusError, match="regnb index"):
            eng.read(ids["fda_warning_letters record 0"])  # before fda_483 in the catalog
        assert eng.read(ids[f"{damage.SECOND} record 0"]).total_pages == 3


def test_a_document_of_a_segment_left_out_is_not_said_missing(corpus: Path) -> None:
    with damage.open_engine(corpus) as eng:
        ids = {r["dataset"]: r["document_id"] for r in damage.search(eng)["results"]}
    (damage.first_segment() / "texts.bin").unlink()
    with damage.open_engine(corpus) as eng:
        with pytest.raises(CorpusError, match=r"texts\.bin missing"):
            eng.read(ids["fda_483"])
        with pytest.raises(NotFound):
            eng.read("no-such-document")


def test_check_index_reports_each_damaged_file(corpus: Path) -> None:
    folder = damage.first_segment()
    damage.truncate(folder / "docs.arrow")
    (folder / "embeddings.npy").unlink()
    damage.overwrite(folder / "texts.bin")
    found = health.check_index(damage.index_folder())
    assert [d.segment for d in found] == [folder.name]
    assert sorted(found[0].problems) == [
        "docs.arrow truncated",
        "embeddings.npy missing",
        "texts.bin corrupted",
    ]
    assert sorted(found[0].datasets or []) == sorted(damage.FIRST)


@pytest.mark.parametrize(
    "harm",
    [
        lambda folder: damage.overwrite(folder / "texts.bin"),
        lambda folder: (folder / "segment.json").unlink(),
        lambda folder: damage.truncate(folder / "post_gaps.npy"),
    ],
    ids=["texts-overwritten", "summary-deleted", "postings-truncated"],
)
def test_repair_rebuilds_the_damaged_segment_and_nothing_else(corpus: Path, harm) -> None:
    with damage.open_engine(corpus) as eng:
        before = damage.search(eng)
        counts = eng.counts()
    folder = damage.first_segment()
    state = IndexState.load(damage.index_folder())
    assert state is not None
    kept = state.segments[1].id
    harm(folder)
    repaired = health.repair_index(corpus, progress=False)
    assert repaired == [folder.name]
    assert health.check_index(damage.index_folder()) == []
    after_state = IndexState.load(damage.index_folder())
    assert after_state is not None
    assert kept in [s.id for s in after_state.segments]  # the sound segment is not rebuilt
    assert (after_state.n_pages, after_state.sum_dl) == (state.n_pages, state.sum_dl)
    with damage.open_engine(corpus) as eng:
        assert damage.search(eng) == before
        assert eng.counts().equals(counts)
    assert health.repair_index(corpus, progress=False) == []


def test_repair_gives_older_segments_checksums(corpus: Path) -> None:
    folder = damage.first_segment()
    summary = json.loads((folder / "segment.json").read_text())
    del summary["files"]
    (folder / "segment.json").write_text(json.dumps(summary))
    assert health.check_segment(folder, full=True) == []  # nothing to compare: opened as before
    assert health.repair_index(corpus, progress=False) == []
    assert "files" in json.loads((folder / "segment.json").read_text())
    assert health.check_segment(folder, full=True) == []
