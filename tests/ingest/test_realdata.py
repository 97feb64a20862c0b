"""Ingest the real documents of ../shared/data (PDFs, openFDA samples, a realcorpus subset),
then search them for facts an analyst knows; and one ingest with the real MiniLM encoder."""

from __future__ import annotations

import csv
import gzip
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import regnb
from regnb import ingest
from regnb.encoder import HashingEncoder, MiniLMEncoder
from tests import paths
from tests.fixtures.ingest.support import make_pdf

SHARED = paths.SHARED_DATA
PER_FILE = 10

pytestmark = [
    pytest.mark.shared_data,
    pytest.mark.skipif(not SHARED.exists(), reason=f"shared data not found at {SHARED}"),
]


def _crl_sidecar(path: Path) -> Path:
    """Title, date, application number and company of each CRL PDF, from the realcorpus export."""
    names = {p.name for p in (SHARED / "raw" / "crl_pdf").glob("*.pdf")}
    rows = []
    with gzip.open(SHARED / "realcorpus" / "fda_crl__gmpkit.jsonl.gz", "rt") as handle:
        for line in handle:
            record = json.loads(line)
            name = (record.get("pdf_path") or "").rsplit("/", 1)[-1]
            if name in names:
                rows.append(
                    {
                        "file": name,
                        "title": record["title"],
                        "date": record["date"] or "",
                        "application_number": record["application_number"],
                        "company": record["company"],
                    }
                )
    with open(path, "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def _realcorpus_subset(folder: Path) -> Path:
    folder.mkdir()
    for source in sorted((SHARED / "realcorpus").glob("*.jsonl.gz")):
        with gzip.open(source, "rt") as handle:
            lines = [line for _, line in zip(range(PER_FILE), handle, strict=False)]
        (folder / source.name).write_bytes(gzip.compress("".join(lines).encode()))
    return folder


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    root = tmp_path_factory.mktemp("realdata")
    corpus = root / "corpus"
    common = {"corpus": corpus, "encoder": HashingEncoder(), "progress": False}
    summaries = [
        ingest.pdf(
            SHARED / "raw" / "crl_pdf",
            dataset="fda_crl",
            metadata=_crl_sidecar(root / "crl.csv"),
            **common,
        ),
        ingest.pdf(SHARED / "raw" / "ema_pdf", dataset="ema_epar", **common),
        ingest.openfda(SHARED / "raw" / "openfda", **common),
        ingest.jsonl(_realcorpus_subset(root / "realcorpus"), **common),
    ]
    for summary in summaries:
        problems = summary.attrs["problems"]
        if shutil.which("tesseract") is None:  # scanned pages are reported, not read
            problems = problems[~problems["reason"].str.startswith("image-only")]
        assert problems.empty, problems
    opened = regnb.open(corpus, encoder=HashingEncoder())
    yield opened
    opened.close()


def _titles(result: regnb.SearchResult) -> list[str]:
    return result.documents["title"].tolist()


def test_a_complete_response_letter_by_product_and_application_number(
    engine: regnb.Engine,
) -> None:
    by_product = engine.search(["DSUVIA"], datasets=["fda_crl"])
    assert "DSUVIA" in _titles(by_product)[0]
    by_number = engine.search(["209128"], query="complete response letter", datasets=["fda_crl"])
    assert "DSUVIA" in _titles(by_number)[0]
    by_filter = engine.search(
        ["complete response"],
        datasets=["fda_crl"],
        filters={"fda_crl": {"application_number": "209128Orig1s000"}},
    )
    assert len(by_filter.documents) >= 1
    assert all("209128" in t for t in _titles(by_filter))


def test_ema_annexes_and_openfda_records_are_found(engine: regnb.Engine) -> None:
    epar = engine.search(["brinzolamide"], datasets=["ema_epar"])
    assert len(epar.documents) >= 10
    maude = engine.search(["HEMOCHRON"], datasets=["fda_maude"])
    assert "HEMOCHRON" in _titles(maude)[0]
    faers = engine.search(["VIOXX"], datasets=["fda_faers"])
    assert _titles(faers)[0].startswith("FAERS report 4562564-7")
    recalls = engine.search(["Listeria monocytogenes"], datasets=["fda_recall_enforcement"])
    assert len(recalls.documents) > 0


def test_realcorpus_documents_are_found(engine: regnb.Engine) -> None:
    letters = engine.search(["Abbott Diabetes Care"], datasets=["fda_warning_letters"])
    assert "Abbott Diabetes Care" in _titles(letters)[0]
    korean = engine.search(["의료기기"], datasets=["custom_mfds_korea"])
    assert len(korean.documents) > 0
    ich = engine.search(["drug substance"], datasets=["ich_guidelines"])
    assert len(ich.documents) > 0


@pytest.mark.slow
def test_ingest_with_the_real_minilm_encoder(tmp_path: Path) -> None:
    folder = tmp_path / "pdfs"
    folder.mkdir()
    make_pdf(folder / "a.pdf", [["The tablets failed dissolution testing at release."]])
    make_pdf(folder / "b.pdf", [["The sterile injectable showed particulate contamination."]])
    make_pdf(folder / "c.pdf", [["The inhaler dose counter was inaccurate."]])
    summary = ingest.pdf(
        folder, dataset="fda_crl", corpus=tmp_path / "c", encoder=MiniLMEncoder(), progress=False
    )
    assert int(summary["written"].sum()) == 3
    engine = regnb.open(tmp_path / "c")
    try:
        result = engine.search(
            ["dissolution", "particulate", "inhaler"],
            query="foreign particles found in an injection",
            datasets=["fda_crl"],
        )
        assert "particulate" in result.pages["text"].iloc[0]
    finally:
        engine.close()
