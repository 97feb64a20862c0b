"""HTML connector: main content only, page metadata, long texts split, unreadable files reported."""

from __future__ import annotations

import shutil
from pathlib import Path

from regnb import ingest
from regnb.encoder import HashingEncoder
from regnb.ingest.html import extract_html
from tests import paths
from tests.fixtures.ingest.support import documents, pages

FIXTURES = paths.FIXTURES / "ingest"


def test_extract_keeps_the_main_content_only() -> None:
    page = extract_html((FIXTURES / "warning_letter.html").read_text())
    text = "\n\n".join(page["paragraphs"])
    assert page["title"] == "Pelligrane Laboratories LLC - 654321 - 02/14/2024"
    assert page["date"] == "2024-02-20"
    assert page["url"] == "https://example.org/warning-letters/pelligrane-laboratories-llc-654321"
    assert "Pelligrane Laboratories LLC\n12 Quarry Road\nMillbrook, ST 00000" in page["paragraphs"]
    assert "21 CFR 211.100(a)" in text
    assert "Assay failure for lot L-2231" in page["paragraphs"]
    assert "L-2231 Out of specification" in text
    for noise in ("Home", "Site-wide banner", "Privacy", "analytics", "color: red"):
        assert noise not in text


def test_html_ingest_with_metadata_and_korean(tmp_path: Path) -> None:
    folder = tmp_path / "pages"
    folder.mkdir()
    shutil.copy(FIXTURES / "warning_letter.html", folder)
    shutil.copy(FIXTURES / "mfds_notice.html", folder)
    metadata = tmp_path / "meta.json"
    metadata.write_text(
        '[{"file": "warning_letter.html", "company": "Pelligrane Laboratories LLC",'
        ' "issuing_office": "CDER", "date": "2024-02-14"}]'
    )
    summary = ingest.html(
        folder,
        dataset="fda_warning_letters",
        metadata=metadata,
        corpus=tmp_path / "c",
        encoder=HashingEncoder(),
        progress=False,
    )
    assert int(summary["written"].sum()) == 2
    docs = documents(tmp_path / "c").set_index("key")
    letter = docs.loc["html:warning_letter.html"]
    assert str(letter["date"]) == "2024-02-14"
    assert letter["fields"]["company"] == "Pelligrane Laboratories LLC"
    assert letter["fields"]["letter_date"] == "2024-02-14"
    korean = pages(tmp_path / "c")["html:mfds_notice.html"]
    assert docs.loc["html:mfds_notice.html", "title"] == "의료기기 허가 심사 안내"
    assert "제조업자는 품목허가를 받기 전에 시험성적서를 제출하여야 한다." in korean[0]


def test_long_pages_split_at_paragraph_breaks(tmp_path: Path) -> None:
    paragraphs = "".join(f"<p>Paragraph {i}. {'finding ' * 80}</p>" for i in range(40))
    (tmp_path / "long.html").write_text(f"<html><body><main>{paragraphs}</main></body></html>")
    ingest.html(
        tmp_path / "long.html",
        dataset="fda_warning_letters",
        corpus=tmp_path / "c",
        encoder=HashingEncoder(),
        progress=False,
    )
    stored = pages(tmp_path / "c")["html:long.html"]
    assert len(stored) > 5
    assert all(len(p) <= 3_000 and p.startswith("Paragraph ") for p in stored)


def test_unreadable_and_empty_pages_are_reported(tmp_path: Path) -> None:
    folder = tmp_path / "pages"
    folder.mkdir()
    shutil.copy(FIXTURES / "warning_letter.html", folder)
    (folder / "gone.html").symlink_to(folder / "missing-target.html")
    (folder / "blank.html").write_text("<html><body><nav>menu</nav></body></html>")
    summary = ingest.html(
        folder,
        dataset="fda_warning_letters",
        corpus=tmp_path / "c",
        encoder=HashingEncoder(),
        progress=False,
    )
    row = summary.iloc[0]
    assert (row.files, row.files_failed, row.written) == (3, 2, 1)
    reasons = summary.attrs["problems"].set_index("file")["reason"]
    assert "FileNotFoundError" in reasons[str(folder / "gone.html")]
    assert reasons[str(folder / "blank.html")] == "no text in the page"
