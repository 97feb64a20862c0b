"""JSON Lines connector: write_corpus-shaped records, realcorpus-style flat records, own datasets."""

from __future__ import annotations

import gzip
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from regnb import ingest
from regnb.catalog import load_catalog
from regnb.encoder import HashingEncoder
from regnb.errors import InvalidRequest
from regnb.ingest.normalise import normalise_pages
from tests import paths
from tests.fixtures.ingest.support import documents, pages

SHARED = paths.SHARED_DATA
REALCORPUS = SHARED / "realcorpus"
PER_FILE = 15


def _write(path: Path, records: list[Any], gz: bool = False) -> Path:
    text = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)
    if gz:
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)
    return path


def _shaped(n: int, **extra: Any) -> dict[str, Any]:
    return {
        "title": f"Guidance {n}",
        "date": "2021-06",
        "url": f"https://example.org/g{n}",
        "fields": {"topic": "sterility", "status": "final"},
        "pages": [f"Page one of guidance {n}.", f"Page two of guidance {n}."],
        **extra,
    }


def _ingest(source: Path, corpus: Path, **kwargs: Any) -> Any:
    return ingest.jsonl(source, corpus=corpus, encoder=HashingEncoder(), progress=False, **kwargs)


@pytest.mark.parametrize("gz", [False, True])
def test_shaped_records_plain_and_gzip(tmp_path: Path, gz: bool) -> None:
    name = "guidance.jsonl.gz" if gz else "guidance.jsonl"
    source = _write(tmp_path / name, [_shaped(n) for n in range(3)], gz=gz)
    summary = _ingest(source, tmp_path / "c", dataset="fda_guidance")
    assert summary.iloc[0][["files", "written", "pages", "rejected"]].tolist() == [1, 3, 6, 0]
    doc = documents(tmp_path / "c").set_index("key").loc["https://example.org/g1"]
    assert str(doc["date"]) == "2021-06-01"
    assert doc["fields"]["issue_date"] == "2021-06-01"
    assert doc["fields"]["status"] == "final"
    again = _ingest(source, tmp_path / "c", dataset="fda_guidance")
    assert again.iloc[0][["written", "skipped"]].tolist() == [0, 3]


def test_bad_lines_are_rejected_and_the_rest_goes_in(tmp_path: Path) -> None:
    records = [
        _shaped(0),
        "{not json",
        "[1, 2]",
        _shaped(1, pages=[]),
        _shaped(2, fields={"no_such_field": "x"}),
        _shaped(3),
        _shaped(4, key="dup"),
        _shaped(5, key="dup"),
    ]
    source = _write(tmp_path / "g.jsonl", records)
    summary = _ingest(source, tmp_path / "c", dataset="fda_guidance")
    row = summary.iloc[0]
    assert (row.documents, row.written, row.rejected, row.files_failed) == (8, 3, 5, 0)
    reasons = summary.attrs["problems"].set_index("file")["reason"]
    assert "invalid JSON" in reasons[f"{source}:2"]
    assert "not a JSON object" in reasons[f"{source}:3"]
    assert "no page text" in reasons[f"{source}:4"]
    assert "no_such_field is not a field of fda_guidance" in reasons[f"{source}:5"]
    assert "already read from" in reasons[f"{source}:8"]


def test_a_truncated_gzip_keeps_the_records_before_the_break(tmp_path: Path) -> None:
    full = _write(tmp_path / "full.jsonl.gz", [_shaped(n) for n in range(200)], gz=True)
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(full.read_bytes()[: len(full.read_bytes()) // 2])
    summary = _ingest(broken, tmp_path / "c", dataset="fda_guidance")
    row = summary.iloc[0]
    assert row.files_failed == 1
    assert 0 < row.written < 200
    reason = summary.attrs["problems"]["reason"].iloc[0]
    assert reason.startswith("cannot read the file after line")


def test_file_prefix_names_the_dataset(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    _write(folder / "fda_guidance__mine.jsonl", [_shaped(0)])
    _write(folder / "nonsense__x.jsonl", [_shaped(1)])
    summary = _ingest(folder, tmp_path / "c")
    assert summary.set_index("dataset").loc["fda_guidance", "written"] == 1
    problems = summary.attrs["problems"]
    assert "names no catalog dataset ('nonsense')" in problems["reason"].iloc[0]
    with pytest.raises(InvalidRequest, match="unknown dataset"):
        _ingest(folder / "nonsense__x.jsonl", tmp_path / "c", dataset="nonsense")


def test_create_dataset_infers_fields_and_filters(tmp_path: Path) -> None:
    records = [
        {
            "title": f"SOP {n}",
            "date": "2020-01-0" + str(n + 1),
            "pages": [f"Procedure {n} text."],
            "sop_number": f"SOP-{n:03d}",
            "owner_id": f"u{n}",
            "department": "Quality",
            "effective": n % 2 == 0,
            "revision": n + 1,
            "tags": ["cleaning", "validation"],
            "summary": "long " * 100,
            "source_repo": "dropped",
        }
        for n in range(3)
    ]
    source = _write(tmp_path / "sops.jsonl", records)
    _ingest(source, tmp_path / "c", dataset="acme_sops", create_dataset="ACME SOPs")
    dataset = load_catalog(tmp_path / "c")["acme_sops"]
    assert dataset.name == "ACME SOPs" and dataset.available and dataset.jurisdiction == "Own"
    kinds = {name: dataset.filter_kind(name) for name in dataset.filters}
    assert kinds == {
        "sop_number": "exact",
        "owner_id": "exact",
        "department": "keyword",
        "effective": "boolean",
        "revision": "number",
        "tags": "keyword",
        "title": "keyword",
        "date_from": "date_from",
        "date_to": "date_to",
    }
    assert "summary" in dataset.fields and "source_repo" not in dataset.fields
    doc = documents(tmp_path / "c").set_index("key").loc["sops.jsonl:2"]
    assert doc["fields"]["effective"] is False and doc["fields"]["tags"] == [
        "cleaning",
        "validation",
    ]
    with pytest.raises(InvalidRequest, match="catalog dataset already"):
        _ingest(source, tmp_path / "c", dataset="fda_crl", create_dataset="Mine")


def _subset(folder: Path, per_file: int = PER_FILE) -> list[Path]:
    """The first records of each realcorpus file, under the same file names."""
    folder.mkdir()
    out = []
    for source in sorted(REALCORPUS.glob("*.jsonl.gz")):
        with gzip.open(source, "rt", encoding="utf-8") as handle:
            lines = [line for _, line in zip(range(per_file), handle, strict=False)]
        target = folder / source.name
        target.write_bytes(gzip.compress("".join(lines).encode()))
        out.append(target)
    return out


@pytest.fixture(scope="module")
def realcorpus_subset(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Any]:
    if not REALCORPUS.exists():
        pytest.skip(f"shared data not found at {REALCORPUS}")
    root = tmp_path_factory.mktemp("real")
    _subset(root / "in")
    summary = _ingest(root / "in", root / "c")
    return root / "in", root / "c", summary


@pytest.mark.shared_data
def test_realcorpus_subset_ingests_without_problems(
    realcorpus_subset: tuple[Path, Path, Any],
) -> None:
    _, corpus, summary = realcorpus_subset
    assert summary.attrs["problems"].empty
    assert set(summary["dataset"]) == {
        "custom_eu_mdr_ivdr",
        "custom_mfds_korea",
        "custom_us_fdca_cfr",
        "ema_epar",
        "ema_mdcg_guidance",
        "fda_483",
        "fda_clinical_trials",
        "fda_crl",
        "fda_drug",
        "fda_faers",
        "fda_guidance",
        "fda_maude",
        "fda_recall_enforcement",
        "fda_warning_letters",
        "ich_guidelines",
    }
    assert int(summary["written"].sum()) > 200
    catalog = load_catalog(corpus)
    for dataset in ("ema_epar", "ema_mdcg_guidance", "ich_guidelines", "custom_mfds_korea"):
        assert catalog[dataset].available and catalog[dataset].fields
    assert catalog["custom_eu_mdr_ivdr"].name == "EU MDR and IVDR"
    assert catalog["ema_epar"].filter_kind("eu_number") == "exact"


@pytest.mark.shared_data
def test_realcorpus_fields_are_mapped(realcorpus_subset: tuple[Path, Path, Any]) -> None:
    _, corpus, _ = realcorpus_subset
    docs = documents(corpus)
    by = {name: group for name, group in docs.groupby("dataset")}
    crl = by["fda_crl"]["fields"].iloc[0]
    assert re.match(r"^\d{6}", crl["application_number"]) and crl["company"]
    inspections = by["fda_483"]["fields"].tolist()
    assert any(f.get("fei_number") and f.get("facility_name") for f in inspections)
    maude = by["fda_maude"]["fields"].iloc[0]
    assert maude["brand_name"] and maude["date_received"].endswith("-01-01")
    trials = by["fda_clinical_trials"]["fields"].tolist()
    assert {f.get("phase") for f in trials} <= {
        None,
        "early_phase1",
        "phase1",
        "phase2",
        "phase3",
        "phase4",
        "na",
    }
    assert all(isinstance(f.get("conditions", []), list) for f in trials)
    labels = by["fda_drug"]["fields"].tolist()
    assert all(f["document_type"] == "label" and f.get("sponsor") for f in labels)
    faers = by["fda_faers"]["fields"].iloc[0]
    assert faers["safety_report_id"] and "company" not in faers
    epar = by["ema_epar"]["fields"].tolist()
    assert any(f.get("eu_number", "").startswith("EU/1/") for f in epar)


@pytest.mark.shared_data
def test_realcorpus_korean_documents_are_intact(realcorpus_subset: tuple[Path, Path, Any]) -> None:
    folder, corpus, _ = realcorpus_subset
    stored = pages(corpus)
    hangul = re.compile(r"[^\uac00-\ud7a3]")
    with gzip.open(folder / "custom_mfds_korea__cowork-ra.jsonl.gz", "rt") as handle:
        records = [json.loads(line) for line in handle]
    for record in records:
        mine = stored[f"{record['source_repo']}:{record['source_path']}"]
        full = normalise_pages(record["pages"], headers=False)
        original = unicodedata.normalize("NFC", "".join(record["pages"]))
        assert hangul.sub("", "".join(full)) == hangul.sub("", original)
        assert len(mine) == len(full)
        all_lines = [line for page in full for line in page.split("\n")]
        for kept, page in zip(mine, full, strict=True):
            lines = page.split("\n")
            rest = iter(lines)
            assert all(line in rest for line in kept.split("\n") if line)
            for line in set(lines) - set(kept.split("\n")):
                assert all_lines.count(line) >= 3 or re.fullmatch(r"[-– ]*\d{1,4}[-– ]*", line)
    titles = set(documents(corpus)["title"])
    assert any(re.search(r"[\uac00-\ud7a3]", t) for t in titles)


@pytest.mark.shared_data
def test_realcorpus_rerun_adds_nothing(realcorpus_subset: tuple[Path, Path, Any]) -> None:
    folder, corpus, first = realcorpus_subset
    again = _ingest(folder, corpus)
    assert int(again["written"].sum()) == 0 and int(again["replaced"].sum()) == 0
    assert int(again["skipped"].sum()) == int(first["written"].sum())


def test_an_unavailable_catalog_dataset_becomes_available(tmp_path: Path) -> None:
    records = [
        {"title": "Notice 1", "date": "2022", "pages": ["Text."], "notice_number": "N-1"},
        {"title": "Notice 2", "date": None, "pages": ["More text."], "notice_number": "N-2"},
    ]
    assert not load_catalog(None)["canada_guidance"].available
    _ingest(_write(tmp_path / "canada_guidance__x.jsonl", records), tmp_path / "c")
    dataset = load_catalog(tmp_path / "c")["canada_guidance"]
    assert dataset.available and dataset.name == load_catalog(None)["canada_guidance"].name
    assert dataset.date_field == "document_date"
    assert dataset.filter_kind("notice_number") == "exact"
    doc = documents(tmp_path / "c").set_index("title").loc["Notice 1"]
    assert doc["fields"]["document_date"] == "2022-01-01"
    assert doc["fields"]["notice_number"] == "N-1"
