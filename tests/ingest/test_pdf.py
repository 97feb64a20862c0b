"""PDF connector: one page per PDF page, titles, sidecar metadata, bad files, re-runs, resumes."""

from __future__ import annotations

import csv
import functools
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pandas as pd
import pypdfium2
import pytest

from regnb import ingest
from regnb.catalog import load_catalog
from regnb.encoder import HashingEncoder
from regnb.errors import InvalidRequest
from regnb.ingest import _ocr, _run
from regnb.ingest.normalise import normalise_pages
from tests import paths
from tests.fixtures.ingest.support import (
    FailingEncoder,
    documents,
    make_pdf,
    make_scanned_pdf,
    pages,
)

SHARED = paths.SHARED_DATA


def shared_data(test: Any) -> Any:
    """Marks a test that reads ../shared/data and skips it where the folder is absent."""
    test = pytest.mark.shared_data(test)
    return pytest.mark.skipif(not SHARED.exists(), reason=f"shared data not found at {SHARED}")(
        test
    )


TESSERACT_MISSING = "the tesseract program is not installed (apt-get install tesseract-ocr)"


def needs_tesseract(test: Any) -> Any:
    """Skipped where tesseract is not installed, with what to install; under CI=true (where
    `.ci/run` installs it) a missing tesseract fails the test instead."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> Any:
        if shutil.which("tesseract") is None:
            if os.environ.get("CI") == "true":
                pytest.fail(TESSERACT_MISSING)
            pytest.skip(TESSERACT_MISSING)
        return test(*args, **kwargs)

    return run


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


COVER = [
    "CENTER FOR DRUG EVALUATION AND",
    "RESEARCH",
    "APPLICATION NUMBER:",
    "123456Orig1s000",
    "OTHER ACTION LETTERS",
]
LETTER = [
    [
        "DEPARTMENT OF HEALTH AND HUMAN SERVICES",
        "Food and Drug Administration",
        "Silver Spring MD 20993",
        "NDA 123456",
        "COMPLETE RESPONSE",
        "Acme Pharma, Inc.",
        "Attention: Jane Roe",
        "1 Main Street",
        "Springfield, IL 60601",
        "Dear Dr. Roe:",
        "Please refer to your New Drug Application (NDA) dated and received May 1, 2018, and",
        "your amendments, submitted pursuant to section 505(b)(2) of the Federal Food, Drug,",
        "and Cosmetic Act for Widgetol (widgetamab) tablets, 10 mg.",
        "We have completed our review of this application, as amended, and have determined",
        "that we cannot approve this application in its present form.",
        "Reference ID: 4123456",
    ],
    [
        "NDA 123456",
        "Page 2",
        "PRODUCT QUALITY",
        "The tablets failed dissolution testing.",
        "Sincerely,",
        "{See appended electronic signature page}",
        "Reference ID: 4123456",
    ],
    [
        "This is a representation of an electronic record that was signed",
        "electronically.",
        "/s/",
        "JOHN Q DOE",
        "03/04/2019",
        "Reference ID: 4123456",
    ],
]


def _ingest(source: Path, corpus: Path, **args: Any) -> pd.DataFrame:
    args.setdefault("dataset", "fda_crl")
    return ingest.pdf(source, corpus=corpus, encoder=HashingEncoder(), progress=False, **args)


def _problems(summary: pd.DataFrame) -> dict[str, list[str]]:
    problems: dict[str, list[str]] = {}
    for row in summary.attrs["problems"].to_dict("records"):
        problems.setdefault(Path(row["file"]).name, []).append(row["reason"])
    return problems


LENIENT = "2019-03-03, 2019-03, 2019 or March 3, 2019"


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("27/08/2015", f"'27/08/2015' is not a date like {LENIENT}"),
        ("2015-02-30", "'2015-02-30' is not a day of the calendar"),
        ("next spring", f"'next spring' is not a date like {LENIENT}"),
    ],
)
def test_an_unreadable_metadata_date_is_reported_and_the_document_goes_in(
    tmp_path: Path, value: str, why: str
) -> None:
    folder = _letters(tmp_path / "pdfs", count=2)
    metadata = tmp_path / "meta.csv"
    metadata.write_text(f"file,title,date\nletter0.pdf,Letter zero,{value}\n")
    summary = _ingest(folder, tmp_path / "c", metadata=metadata)
    assert int(summary["written"].sum()) == 2
    assert _problems(summary) == {"letter0.pdf": [f"metadata date left out: {why}"]}
    doc = documents(tmp_path / "c").set_index("key").loc["pdf:letter0.pdf"]
    assert doc["title"] == "Letter zero"
    assert pd.isna(doc["date"])
    assert doc["fields"]["letter_date"] is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [("2019-03-04", "2019-03-04"), ("2019-03", "2019-03-01"), ("March 4, 2019", "2019-03-04")],
)
def test_readable_metadata_dates_go_in_without_a_problem(
    tmp_path: Path, value: str, expected: str
) -> None:
    folder = _letters(tmp_path / "pdfs", count=1)
    metadata = tmp_path / "meta.json"
    metadata.write_text(json.dumps({"letter0.pdf": {"date": value}}))
    summary = _ingest(folder, tmp_path / "c", metadata=metadata)
    assert summary.attrs["problems"].empty
    assert str(documents(tmp_path / "c")["date"].iloc[0]) == expected


def test_an_unreadable_date_field_in_the_metadata_is_reported(tmp_path: Path) -> None:
    folder = _letters(tmp_path / "pdfs", count=1)
    metadata = tmp_path / "meta.csv"
    metadata.write_text("file,letter_date\nletter0.pdf,31.12.2019\n")
    summary = _ingest(folder, tmp_path / "c", metadata=metadata)
    assert _problems(summary) == {
        "letter0.pdf": [f"letter_date: date left out: '31.12.2019' is not a date like {LENIENT}"]
    }
    assert documents(tmp_path / "c")["fields"].iloc[0]["letter_date"] is None


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("meta.csv", "title,date\nLetter zero,2019-01-01\n", "has no `file` column"),
        ("meta.csv", "title,date\n", "has no `file` column"),
        ("meta.csv", "", "has no `file` column naming each row's file"),
        ("meta.csv", "file,title\nletter0.pdf,A\n,B\n", "row 2 has no file name"),
        ("meta.json", '[{"title": "A"}]', "row 1 has no file name"),
        ("meta.json", '"letter0.pdf"', "must be an object keyed by file name or a list of rows"),
        ("meta.json", "{not json", "cannot read the metadata file"),
    ],
)
def test_metadata_without_file_names_is_an_error_naming_the_file(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    folder = _letters(tmp_path / "pdfs", count=1)
    metadata = tmp_path / name
    metadata.write_text(text)
    with pytest.raises(InvalidRequest) as info:
        _ingest(folder, tmp_path / "c", metadata=metadata)
    assert info.value.field == "metadata"
    assert str(metadata) in info.value.message and message in info.value.message
    assert not (tmp_path / "c" / "manifest.json").exists()


@pytest.mark.parametrize("column", ["file", "File", " FILENAME ", "path"])
def test_the_file_column_may_have_another_accepted_name_or_case(
    tmp_path: Path, column: str
) -> None:
    folder = _letters(tmp_path / "pdfs", count=1)
    metadata = tmp_path / "meta.csv"
    metadata.write_text(f"{column},title\nletter0.pdf,Titled from the sidecar\n")
    _ingest(folder, tmp_path / "c", metadata=metadata)
    assert documents(tmp_path / "c")["title"].tolist() == ["Titled from the sidecar"]


def test_running_headers_and_reference_ids_are_removed(tmp_path: Path) -> None:
    make_pdf(tmp_path / "letter.pdf", [COVER, *LETTER], title="Other Action Letters")
    _ingest(tmp_path / "letter.pdf", tmp_path / "c")
    stored = pages(tmp_path / "c")["pdf:letter.pdf"]
    assert not any("Reference ID" in page for page in stored)
    assert stored[2].startswith("PRODUCT QUALITY")
    assert "NDA 123456\nCOMPLETE RESPONSE" in stored[1]  # the letter's own heading stays


def test_a_letter_without_metadata_is_titled_and_dated_from_its_text(tmp_path: Path) -> None:
    make_pdf(tmp_path / "letter.pdf", [COVER, *LETTER], title="Other Action Letters")
    summary = _ingest(tmp_path / "letter.pdf", tmp_path / "c")
    assert summary.attrs["problems"].empty
    doc = documents(tmp_path / "c").iloc[0]
    assert doc["title"] == (
        "Complete Response Letter — Widgetol (widgetamab) tablets, 10 mg, Acme Pharma, Inc. "
        "(NDA 123456)"
    )
    assert str(doc["date"]) == "2019-03-04"
    assert doc["fields"]["letter_date"] == "2019-03-04"


def test_sidecar_title_and_date_win_over_the_letter_s_own(tmp_path: Path) -> None:
    make_pdf(tmp_path / "letter.pdf", [COVER, *LETTER])
    metadata = tmp_path / "meta.csv"
    metadata.write_text("file,title,date\nletter.pdf,My title,2020-01-02\n")
    _ingest(tmp_path / "letter.pdf", tmp_path / "c", metadata=metadata)
    doc = documents(tmp_path / "c").iloc[0]
    assert (doc["title"], str(doc["date"])) == ("My title", "2020-01-02")


def test_a_cut_heading_is_joined_into_the_title(tmp_path: Path) -> None:
    make_pdf(tmp_path / "memo.pdf", [COVER, ["Some memorandum text."]], title="Review")
    _ingest(tmp_path / "memo.pdf", tmp_path / "c", dataset="fda_guidance")
    assert documents(tmp_path / "c")["title"].tolist() == [
        "CENTER FOR DRUG EVALUATION AND RESEARCH"
    ]


def test_a_date_line_near_the_top_dates_any_pdf(tmp_path: Path) -> None:
    make_pdf(tmp_path / "notice.pdf", [["Notice to industry", "Dated: March 3, 2019", "Body."]])
    _ingest(tmp_path / "notice.pdf", tmp_path / "c", dataset="fda_guidance")
    assert str(documents(tmp_path / "c")["date"].iloc[0]) == "2019-03-03"


SCANNED_LETTER = ["COMPLETE RESPONSE", "Scanned letter about widgets", "Dear Dr. Smith:"]


def test_scanned_pages_without_tesseract_are_reported_as_image_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_ocr, "find_tesseract", lambda: None)
    make_scanned_pdf(tmp_path / "part.pdf", [SCANNED_LETTER, None, SCANNED_LETTER])
    make_scanned_pdf(tmp_path / "all.pdf", [SCANNED_LETTER])
    summary = _ingest(tmp_path, tmp_path / "c")
    row = summary.iloc[0]
    assert (row.files, row.files_failed, row.written) == (2, 1, 1)
    hint = "install Tesseract to read them (apt-get install tesseract-ocr)"
    assert _problems(summary) == {
        "part.pdf": [f"image-only pages 1, 3 (no text layer) went in without text: {hint}"],
        "all.pdf": [
            f"no text layer; image-only page 1 (no text layer) went in without text: {hint}"
        ],
    }
    assert pages(tmp_path / "c")["pdf:part.pdf"] == ["", "A page with a text layer.", ""]


def test_a_failed_ocr_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(page: Any, tesseract: str, **_: Any) -> str:
        raise _ocr.OcrError("tesseract failed (exit code 1): no language data")

    monkeypatch.setattr(_ocr, "find_tesseract", lambda: "/usr/bin/tesseract")
    monkeypatch.setattr(_ocr, "ocr_page", fail)
    make_scanned_pdf(tmp_path / "part.pdf", [None, SCANNED_LETTER])
    summary = _ingest(tmp_path, tmp_path / "c")
    assert _problems(summary) == {
        "part.pdf": ["OCR of page 2 failed: tesseract failed (exit code 1): no language data"]
    }


@needs_tesseract
def test_scanned_pages_are_read_by_tesseract(tmp_path: Path) -> None:
    make_scanned_pdf(tmp_path / "scan.pdf", [SCANNED_LETTER, None])
    summary = _ingest(tmp_path / "scan.pdf", tmp_path / "c")
    assert summary.attrs["problems"].empty
    assert int(summary["written"].sum()) == 1
    first, second = pages(tmp_path / "c")["pdf:scan.pdf"]
    assert "Scanned letter about widgets" in first
    assert second == "A page with a text layer."


@pytest.fixture(scope="module")
def crl_corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    """The 30 real complete response letter PDFs, ingested once for the tests below."""
    corpus = tmp_path_factory.mktemp("crl") / "c"
    summary = ingest.pdf(
        SHARED / "raw" / "crl_pdf",
        dataset="fda_crl",
        corpus=corpus,
        encoder=HashingEncoder(),
        progress=False,
    )
    return corpus, summary


def _check_own_pages(source: Path, corpus: Path, summary: pd.DataFrame) -> None:
    """Every PDF page is a corpus page; a page with a text layer is that layer, normalised."""
    files = sorted(source.glob("*.pdf"))
    assert int(summary["files"].sum()) == len(files)
    assert int(summary["files_failed"].sum()) == 0
    stored = pages(corpus)
    for path in files:
        raw = _pdfium_pages(path)
        mine = stored[f"pdf:{path.name}"]
        assert len(mine) == len(raw)
        expected = normalise_pages(raw)
        layered = [n for n, layer in enumerate(raw) if layer.strip()]
        assert [mine[n] for n in layered] == [expected[n] for n in layered], path.name
        raw_words = set(" ".join(raw).replace("\x02", " ").split())
        my_words = " ".join(mine[n] for n in layered).split()
        inside = sum(w in raw_words for w in my_words) / len(my_words)
        assert inside > 0.97, path.name
        assert not any("Reference ID" in page for page in mine), path.name


@shared_data
def test_real_crl_pdfs_keep_their_own_pages(crl_corpus: tuple[Path, pd.DataFrame]) -> None:
    corpus, summary = crl_corpus
    _check_own_pages(SHARED / "raw" / "crl_pdf", corpus, summary)
    assert load_catalog(corpus)["fda_crl"].available


@shared_data
def test_real_ema_pdfs_keep_their_own_pages(tmp_path: Path) -> None:
    source = SHARED / "raw" / "ema_pdf"
    summary = ingest.pdf(
        source, dataset="ema_epar", corpus=tmp_path / "c", encoder=HashingEncoder(), progress=False
    )
    _check_own_pages(source, tmp_path / "c", summary)
    assert load_catalog(tmp_path / "c")["ema_epar"].available


ACTIONS = ("Complete Response Letter — ", "Not Approvable Letter — ", "Rescission of ")


@shared_data
def test_real_letters_are_titled_and_dated_from_their_own_text(
    crl_corpus: tuple[Path, pd.DataFrame],
) -> None:
    corpus, summary = crl_corpus
    unread = {n for n, reasons in _problems(summary).items() if "image-only" in reasons[0]}
    docs = documents(corpus).set_index("key")
    assert len(docs) == 30
    for key, doc in docs.iterrows():
        if key.removeprefix("pdf:") in unread:  # scanned letter heads need tesseract
            continue
        number = re.match(r"\d+", key.removeprefix("pdf:"))[0].lstrip("0")  # type: ignore[index]
        assert doc["title"].startswith(ACTIONS), doc["title"]
        assert re.sub(r"\D", "", doc["title"]).find(number) >= 0, (key, doc["title"])
        assert not pd.isna(doc["date"]), key
    known = {
        "209128Orig1s000OtherActionLtr.pdf": (
            "Complete Response Letter — DSUVIA (sufentanil sublingual tablet), "
            "AcelRx Pharmaceuticals, Inc. (NDA 209128)",
            "2017-10-11",
        ),
        "125522Orig2s000OtherActionLtrs.pdf": (
            "Complete Response Letter — Repatha (evolocumab), 140 mg/mL, Amgen, Inc. "
            "(BLA 125522/Original 2)",
            "2015-08-27",
        ),
    }
    for name, (title, date) in known.items():
        assert (docs.loc[f"pdf:{name}", "title"], str(docs.loc[f"pdf:{name}", "date"])) == (
            title,
            date,
        )
    # a package of three letters is dated by its first (the latest action)
    assert str(docs.loc["pdf:022517Orig1s000OtherActionLtrs.pdf", "date"]) == "2015-01-30"


@shared_data
@needs_tesseract
def test_real_scanned_pages_are_read_by_tesseract(crl_corpus: tuple[Path, pd.DataFrame]) -> None:
    corpus, summary = crl_corpus
    assert summary.attrs["problems"].empty, summary.attrs["problems"]
    first, second = pages(corpus)["pdf:212097-s012_OtherActionLtrs.pdf"][:2]
    assert "COMPLETE RESPONSE" in first and "Xeris Pharmaceuticals" in first
    assert len(first) > 1_000 and len(second) > 1_000
    doc = documents(corpus).set_index("key").loc["pdf:212097-s012_OtherActionLtrs.pdf"]
    assert doc["title"].startswith("Complete Response Letter — Gvoke (glucagon) injection")
