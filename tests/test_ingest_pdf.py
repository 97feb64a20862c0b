"""PDF connector: one page per PDF page, titles, sidecar metadata, bad files, re-runs, resumes."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pypdfium2
import pytest

from regnb import ingest
from regnb.catalog import load_catalog
from regnb.encoder import HashingEncoder
from regnb.errors import InvalidRequest
from regnb.ingest import _run
from regnb.ingest.normalise import normalise_pages
from tests.fixtures.ingest.support import FailingEncoder, documents, make_pdf, pages

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def _letters(folder: Path, count: int = 3, pages_each: int = 3) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        body = [
            [
                f"Letter {n} page {p + 1}",
                f"Application NDA 0{n}1234 for Product{n} was reviewed.",
                "The manufac-",
                "turing facility had deficiencies.",
            ]
            for p in range(pages_each)
        ]
        make_pdf(folder / f"letter{n}.pdf", body, title=f"Complete Response Letter {n}")
    return folder


def _pdfium_pages(path: Path) -> list[str]:
    document = pypdfium2.PdfDocument(str(path))
    try:
        return [document[i].get_textpage().get_text_bounded() for i in range(len(document))]
    finally:
        document.close()


def test_one_corpus_page_per_pdf_page(tmp_path: Path) -> None:
    folder = _letters(tmp_path / "pdfs")
    summary = ingest.pdf(
        folder, dataset="fda_crl", corpus=tmp_path / "c", encoder=HashingEncoder(), progress=False
    )
    row = summary.iloc[0]
    assert (row.dataset, row.files, row.written, row.pages, row.files_failed) == (
        "fda_crl",
        3,
        3,
        9,
        0,
    )
    stored = pages(tmp_path / "c")
    for n in range(3):
        path = folder / f"letter{n}.pdf"
        raw = _pdfium_pages(path)
        assert stored[f"pdf:letter{n}.pdf"] == normalise_pages(raw)
        assert len(stored[f"pdf:letter{n}.pdf"]) == len(raw) == 3
        assert "manufacturing facility" in stored[f"pdf:letter{n}.pdf"][0]
    docs = documents(tmp_path / "c").set_index("key")
    assert docs.loc["pdf:letter1.pdf", "title"] == "Complete Response Letter 1"


def test_title_falls_back_to_the_first_line(tmp_path: Path) -> None:
    make_pdf(tmp_path / "a.pdf", [["Microsoft Word", "Guidance on Widgets", "body"]], title="x.doc")
    make_pdf(tmp_path / "b.pdf", [["12", "Report on gadgets"]])
    ingest.pdf(
        tmp_path,
        dataset="fda_guidance",
        corpus=tmp_path / "c",
        encoder=HashingEncoder(),
        progress=False,
    )
    titles = documents(tmp_path / "c").set_index("key")["title"]
    assert titles["pdf:a.pdf"] == "Microsoft Word"
    assert titles["pdf:b.pdf"] == "Report on gadgets"


@pytest.mark.parametrize("kind", ["csv", "json"])
def test_sidecar_metadata_gives_title_date_url_and_fields(tmp_path: Path, kind: str) -> None:
    folder = _letters(tmp_path / "pdfs", count=2)
    rows = [
        {
            "file": "letter0.pdf",
            "title": "CRL for Product0",
            "date": "2019-03",
            "url": "https://example.org/0",
            "application_number": "NDA 001234",
            "company": "Acme",
            "not_a_field": "x",
        }
    ]
    if kind == "csv":
        metadata = tmp_path / "meta.csv"
        with open(metadata, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    else:
        metadata = tmp_path / "meta.json"
        metadata.write_text(json.dumps({r.pop("file"): r for r in rows}))
    summary = ingest.pdf(
        folder,
        dataset="fda_crl",
        corpus=tmp_path / "c",
        metadata=metadata,
        encoder=HashingEncoder(),
        progress=False,
    )
    assert summary.attrs["dropped_fields"] == ["not_a_field"]
    doc = documents(tmp_path / "c").set_index("key").loc["pdf:letter0.pdf"]
    assert doc["title"] == "CRL for Product0"
    assert str(doc["date"]) == "2019-03-01"
    assert doc["url"] == "https://example.org/0"
    assert doc["fields"]["application_number"] == "NDA 001234"
    assert doc["fields"]["company"] == "Acme"
    assert doc["fields"]["letter_date"] == "2019-03-01"


def test_corrupt_and_textless_files_are_reported_and_skipped(tmp_path: Path) -> None:
    folder = _letters(tmp_path / "pdfs", count=2)
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\nthis is not really a pdf")
    (folder / "empty.pdf").write_bytes(b"")
    make_pdf(folder / "scanned.pdf", [[], []])
    summary = ingest.pdf(
        folder, dataset="fda_crl", corpus=tmp_path / "c", encoder=HashingEncoder(), progress=False
    )
    row = summary.iloc[0]
    assert (row.files, row.files_failed, row.written) == (5, 3, 2)
    problems = summary.attrs["problems"].set_index("file")["reason"]
    assert problems[str(folder / "broken.pdf")].startswith("cannot read the PDF")
    assert problems[str(folder / "empty.pdf")].startswith("cannot read the PDF")
    assert "no text layer" in problems[str(folder / "scanned.pdf")]
    assert len(documents(tmp_path / "c")) == 2


def test_rerun_adds_nothing_and_a_changed_file_replaces(tmp_path: Path) -> None:
    folder = _letters(tmp_path / "pdfs")
    args = {"dataset": "fda_crl", "corpus": tmp_path / "c", "encoder": HashingEncoder()}
    ingest.pdf(folder, progress=False, **args)
    again = ingest.pdf(folder, progress=False, **args).iloc[0]
    assert (again.written, again.replaced, again.skipped, again.pages) == (0, 0, 3, 0)
    make_pdf(folder / "letter1.pdf", [["A corrected letter"]], title="Corrected letter")
    third = ingest.pdf(folder, progress=False, **args).iloc[0]
    assert (third.written, third.replaced, third.skipped) == (0, 1, 2)
    docs = documents(tmp_path / "c")
    assert len(docs) == 3
    assert "Corrected letter" in set(docs["title"])


def test_an_interrupted_ingest_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_run, "BATCH_DOCS", 2)
    folder = _letters(tmp_path / "pdfs", count=7, pages_each=1)
    args = {"dataset": "fda_crl", "corpus": tmp_path / "c", "progress": False}
    with pytest.raises(KeyboardInterrupt):
        ingest.pdf(folder, encoder=FailingEncoder(fail_at=3), **args)
    kept = documents(tmp_path / "c")
    assert len(kept) == 4  # two batches of two committed before the third call failed
    resumed = ingest.pdf(folder, encoder=HashingEncoder(), **args)
    assert int(resumed["skipped"].sum()) == 4
    assert int(resumed["written"].sum()) == 3
    assert sorted(documents(tmp_path / "c")["key"]) == [f"pdf:letter{n}.pdf" for n in range(7)]
    assert not list((tmp_path / "c").glob("*/.*.tmp"))


def test_create_dataset_from_sidecar_fields(tmp_path: Path) -> None:
    folder = _letters(tmp_path / "pdfs", count=2)
    metadata = tmp_path / "meta.csv"
    metadata.write_text(
        "file,title,date,sop_number,department\n"
        "letter0.pdf,SOP cleaning,2022-01-05,SOP-001,Quality\n"
        "letter1.pdf,SOP sampling,2023-07-01,SOP-002,Production\n"
    )
    ingest.pdf(
        folder,
        dataset="acme_sops",
        create_dataset="ACME SOPs",
        jurisdiction="Internal",
        metadata=metadata,
        corpus=tmp_path / "c",
        encoder=HashingEncoder(),
        progress=False,
    )
    dataset = load_catalog(tmp_path / "c")["acme_sops"]
    assert (dataset.name, dataset.jurisdiction, dataset.available) == (
        "ACME SOPs",
        "Internal",
        True,
    )
    assert dataset.filter_kind("sop_number") == "exact"
    assert dataset.filter_kind("department") == "keyword"
    assert dataset.filter_kind("date_from") == "date_from"
    assert dataset.date_field == "document_date"
    doc = documents(tmp_path / "c").set_index("key").loc["pdf:letter1.pdf"]
    assert doc["fields"]["sop_number"] == "SOP-002"
    assert doc["fields"]["document_date"] == "2023-07-01"


def test_unknown_dataset_is_an_error(tmp_path: Path) -> None:
    _letters(tmp_path / "pdfs", count=1)
    with pytest.raises(InvalidRequest, match="unknown dataset"):
        ingest.pdf(
            tmp_path / "pdfs",
            dataset="no_such_dataset",
            corpus=tmp_path / "c",
            encoder=HashingEncoder(),
            progress=False,
        )


@pytest.mark.shared_data
@pytest.mark.skipif(not SHARED.exists(), reason=f"shared data not found at {SHARED}")
@pytest.mark.parametrize(("folder", "dataset"), [("crl_pdf", "fda_crl"), ("ema_pdf", "ema_epar")])
def test_real_pdfs_keep_their_own_pages(tmp_path: Path, folder: str, dataset: str) -> None:
    source = SHARED / "raw" / folder
    summary = ingest.pdf(
        source, dataset=dataset, corpus=tmp_path / "c", encoder=HashingEncoder(), progress=False
    )
    files = sorted(source.glob("*.pdf"))
    assert int(summary["files"].sum()) == len(files)
    assert int(summary["files_failed"].sum()) == 0
    stored = pages(tmp_path / "c")
    for path in files:
        raw = _pdfium_pages(path)
        mine = stored[f"pdf:{path.name}"]
        assert len(mine) == len(raw)
        assert mine == normalise_pages(raw)
        raw_words = set(" ".join(raw).replace("\x02", " ").split())
        my_words = " ".join(mine).split()
        inside = sum(w in raw_words for w in my_words) / len(my_words)
        assert inside > 0.97, path.name
    assert load_catalog(tmp_path / "c")[dataset].available
