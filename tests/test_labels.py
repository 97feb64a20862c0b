"""Drug labels by section, over a generated set of openFDA label records (`tests.fixtures
.labels`) and, where ../shared/data is here, the six real labels of its openFDA fixture:
`section:"boxed warning"` keeps the matches inside that section, the reader and citations name
each page's section, and facets count by section."""

from __future__ import annotations

import gzip
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import regnb
from regnb import ingest
from regnb.agent._citations import CitationBook
from regnb.agent._stages import Found
from regnb.encoder import HashingEncoder
from regnb.ingest.openfda import read_bulk_file
from tests import paths
from tests.fixtures.labels import COUNT, write_bulk

FIXTURE = paths.SHARED_DATA / "realcorpus" / "fda_drug_labels__openfda-fixture.jsonl.gz"
BOXED = {f"ZORVEX{i:02d}" for i in range(COUNT) if i % 3 == 0}
AMONG_REACTIONS = {f"ZORVEX{i:02d}" for i in range(COUNT) if i % 3 and i % 2 == 0}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    root = tmp_path_factory.mktemp("labels")
    common = {"corpus": root / "corpus", "encoder": HashingEncoder(), "progress": False}
    summary = ingest.openfda(write_bulk(root / "bulk"), **common)
    assert summary.attrs["problems"].empty
    if FIXTURE.exists():
        (root / "real").mkdir()
        shutil.copy(FIXTURE, root / "real" / FIXTURE.name)
        assert ingest.jsonl(root / "real", **common).attrs["problems"].empty
    opened = regnb.open(root / "corpus", encoder=HashingEncoder())
    yield opened
    opened.close()


def brands(res: regnb.SearchResult) -> set[str]:
    return {r["title"].split(" ")[0] for r in res.results if r["title"].startswith("ZORVEX")}


def test_a_section_item_keeps_the_matches_inside_the_section(eng: regnb.Engine) -> None:
    assert brands(eng.search_all(["hepatotoxicity"])) == BOXED | AMONG_REACTIONS
    boxed = eng.search_all(['hepatotoxicity section:"boxed warning"'])
    assert brands(boxed) == BOXED
    reactions = eng.search_all(['hepatotoxicity section:"adverse reactions"'])
    assert brands(reactions) == AMONG_REACTIONS
    assert brands(eng.search_all(['hepatotoxicity -section:"boxed warning"'])) == AMONG_REACTIONS


def test_a_section_alone_finds_its_pages(eng: regnb.Engine) -> None:
    res = eng.search_all(['section:"boxed warning"'], datasets=["fda_drug"])
    found = brands(res)
    assert found == BOXED
    if FIXTURE.exists():  # HUMIRA's and the haloperidol label's boxes too
        assert len(res.results) == len(BOXED) + 2


def test_facets_count_the_matches_by_section(eng: regnb.Engine) -> None:
    counts = eng.facets(["hepatotoxicity"], by=["section"], datasets=["fda_drug"])["section"]
    rows = {r["value"]: r["documents"] for r in counts.to_dict("records")}
    assert rows["boxed warning"] >= len(BOXED)
    assert rows["adverse reactions"] >= len(AMONG_REACTIONS)
    generated = eng.facets(['"tablets contain"'], by=["section"], datasets=["fda_drug"])
    assert generated["section"].to_dict("records") == [
        {"value": "description", "documents": COUNT, "pages": COUNT}
    ]


def _label(eng: regnb.Engine, brand: str) -> str:
    res = eng.search([f"{brand} section:description"], datasets=["fda_drug"])
    return str(res.results[0]["document_id"])


def test_the_reader_names_each_page_s_section(eng: regnb.Engine) -> None:
    read = eng.read_all(_label(eng, "ZORVEX01"))
    sections = read.pages["section"].tolist()
    assert sections[:3] == [
        "indications and usage",
        "dosage and administration",
        "adverse reactions",
    ]
    assert sections.count("clinical studies") > 1  # a long section: its pages all say so
    continued = read.pages[read.pages["section"] == "clinical studies"]["text"].tolist()
    assert continued[1].startswith("Clinical studies (continued)\n")
    assert read.page_label(1) == "page 1 (indications and usage)"
    assert "section" not in read.to_dict()["pages"][0]  # the spec's response is unchanged
    boxed = eng.read(_label(eng, "ZORVEX03"), 1, 1)
    assert boxed.pages["section"].tolist() == ["boxed warning"]


def test_a_citation_names_the_section_of_a_label_s_page(eng: regnb.Engine) -> None:
    doc_id = _label(eng, "ZORVEX03")
    read = eng.read(doc_id, 1, 2)
    found = Found(
        doc_id, "fda_drug", read.title, None, None, {"document_type": "label"}, 1.0, (1,), False
    )
    pages = {(doc_id, int(p["page_num"])): p["text"] for p in read.page_list}
    book = CitationBook(1, str, pages)
    book.page(found, 1)
    book.page(found, 2)
    other = CitationBook(1, str, pages)
    other.page(Found(doc_id, "fda_drug", read.title, None, None, {}, 1.0, (1,), False), 1)
    names = [c.name for c in book.citations]
    assert names == [
        f"{read.title}, boxed warning, page 1",
        f"{read.title}, indications and usage, page 2",
    ]
    assert other.citations[0].name == f"{read.title}, page 1"  # not a label: no section


def test_openfda_label_sections_each_start_a_page(tmp_path: Path) -> None:
    records = read_bulk_file(write_bulk(tmp_path))
    assert len(records) == COUNT and "boxed_warning" in records[0]


@pytest.mark.skipif(not FIXTURE.exists(), reason="../shared/data is not here")
def test_the_real_labels_are_searched_by_section(eng: regnb.Engine) -> None:
    with gzip.open(FIXTURE, "rt") as handle:
        assert sum(1 for _ in handle) == 6
    infections = eng.search_all(['infections section:"boxed warning"'], datasets=["fda_drug"])
    assert [r["title"][:60] for r in infections.results] == [
        r["title"][:60] for r in eng.search_all(['humira section:"boxed warning"']).results
    ]
    statins = eng.search_all(['myopathy section:"warnings and precautions"'], datasets=["fda_drug"])
    assert len(statins.results) == 2  # the two LIPITOR labels
    read = eng.read_all(statins.results[0]["document_id"])
    assert "warnings and precautions" in read.pages["section"].tolist()
