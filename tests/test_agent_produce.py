"""Produced documents: every file opened again by its reader library, every marker checked."""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import math
import re
import time
from collections.abc import Iterator
from typing import Any

import docx
import openpyxl
import pptx
import pytest
from PIL import Image

from regnb.agent.produce import (
    FORMATS,
    answer_markdown,
    answer_to_docx,
    answer_to_markdown,
    chart_data,
    produce,
)
from regnb.agent.types import Answer, Citation, Finding, KeyDocument, Produced, Theme

NOW = dt.datetime(2024, 5, 6, 7, 8, 9, tzinfo=dt.UTC)
QUESTION = (
    "Which sterile drug makers got warning letters for media fill failures since 2018? "
    "Put the letters in an Excel table."
)
LONG_FINDING = (
    "The investigators observed that the aseptic processing line's media fill simulations did "
    "not include the maximum number of personnel, the longest interventions, or the slowest line "
    "speeds permitted by the batch record, and that failed runs were closed without a root cause "
    "investigation or an assessment of the batches filled since the last successful run"
)
MARKER = re.compile(r"\[(\d+)\]")
SAFE_FILENAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*\.(docx|xlsx|pptx|png)")


def citation(index: int, document: str, **extra: Any) -> Citation:
    """A citation of one of the three documents below; passage citations name their page's."""
    base = {
        "d1": ("Warning Letter: Acme Sterile LLC, page 1", "FDA Warning Letters", "2019-03-04"),
        "d2": ("Form 483: 한미약품 주식회사, page 2", "FDA 483", None),
        "d3": ("Warning Letter: Zürich Pharma AG, page 1", "FDA Warning Letters", "2021-11-15"),
    }[document]
    url = {"d1": "https://www.fda.gov/wl/acme#page=1", "d2": "https://www.fda.gov/483/hanmi"}
    dataset_id = "fda_483" if document == "d2" else "fda_warning_letters"
    page = {"d1": 1, "d2": 2, "d3": 1}[document]
    return Citation(
        index, base[0], base[1], base[2], page, url.get(document, ""), document, dataset_id, **extra
    )


def make_answer(**changes: Any) -> Answer:
    """Two themes, three documents over two datasets, page and passage citations 11 to 16."""
    citations = [
        citation(11, "d1"),
        citation(12, "d1", block_id="¶3", parent_index=11, passage="Your media fill  runs failed."),
        citation(13, "d2"),
        citation(
            14, "d2", block_id="¶2-4", parent_index=13, passage="환경 모니터링 기록이 없습니다."
        ),
        citation(15, "d3"),
        citation(16, "d3", block_id="¶1", parent_index=15, passage=LONG_FINDING),
    ]
    documents = [
        KeyDocument(
            "Warning Letter: Acme Sterile LLC",
            "FDA Warning Letters",
            "fda_warning_letters",
            "2019-03-04",
            "Acme Sterile LLC",
            "https://www.fda.gov/wl/acme",
            "d1",
            11,
            {"company": "Acme Sterile LLC", "fei_number": "3001234567"},
        ),
        KeyDocument(
            "Form 483: 한미약품 주식회사",
            "FDA 483",
            "fda_483",
            None,
            "한미약품 주식회사",
            "https://www.fda.gov/483/hanmi",
            "d2",
            13,
            {
                "facility_name": "한미약품",
                "inspection_end": "2021-06-30",
                "observations": ["media fill", "EM"],
            },
        ),
        KeyDocument(
            "Warning Letter: Zürich Pharma AG",
            "FDA Warning Letters",
            "fda_warning_letters",
            "2021-11-15",
            "Zürich Pharma AG",
            None,
            "d3",
            15,
            {"company": "Zürich Pharma AG", "subject": "=SUM(A1:A2)"},
        ),
    ]
    answer = Answer(
        question=QUESTION,
        summary=[
            Finding("Acme Sterile LLC and Zürich Pharma AG got warning letters.", [12, 16]),
            Finding("A 483 to 한미약품 noted missing monitoring records.", [14]),
        ],
        themes=[
            Theme(
                "media fill failures",
                [Finding("Media fill runs failed.", [12]), Finding(LONG_FINDING, [16])],
            ),
            Theme("환경 모니터링", [Finding("환경 모니터링 기록이 없습니다.", [14])]),
        ],
        documents=documents,
        not_found=["No FDA Recalls matched.", "Letters before 2018 were left out."],
        citations=citations,
    )
    return dataclasses.replace(answer, **changes)


def produced(fmt: str, answer: Answer | None = None) -> Produced:
    (document,) = produce(answer or make_answer(), [fmt], now=NOW)
    return document


def indexes(answer: Answer) -> set[int]:
    return {c.index for c in answer.citations}


# -- all formats ----------------------------------------------------------------------------------


def test_produce_makes_one_document_per_format_in_the_order_asked():
    documents = produce(make_answer(), ["png", "text", "docx", "xlsx", "pptx", "png"], now=NOW)
    assert [(d.type, d.media_type) for d in documents] == [
        ("image", "image/png"),
        ("text", "text/markdown"),
        ("file", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
        ("file", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        ("file", "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
    ]
    assert documents[1].content and documents[1].data is None and documents[1].filename is None
    for document in documents[:1] + documents[2:]:
        assert document.data and document.content is None
        assert SAFE_FILENAME.fullmatch(document.filename or "")
        assert "media fill failures since 2018?" in document.title


@pytest.mark.parametrize("fmt", ["pdf", "DOCX", "", "csv"])
def test_an_unknown_format_is_a_value_error(fmt: str):
    with pytest.raises(ValueError, match="unknown format"):
        produce(make_answer(), ["text", fmt])


@pytest.mark.parametrize(
    ("question", "title", "filename"),
    [
        (
            QUESTION,
            "Which sterile drug makers got warning letters for media fill failures since 2018?",
            "sterile-drug-makers-warning-letters-media.xlsx",
        ),
        (
            "최근 무균 공정 경고 서한은? 엑셀 표로 주세요.",
            "최근 무균 공정 경고 서한은? 엑셀 표로 주세요.",
            "research-answer.xlsx",
        ),
        (
            "K123456 / 21 CFR 211.113(b): who cited it?",
            "K123456 / 21 CFR 211.113(b): who cited it?",
            "k123456-21-cfr-211-113-b.xlsx",
        ),
        ("Make a chart.", "Make a chart.", "make.xlsx"),
        ("word " * 40, ("word " * 19).strip() + "…", "research-answer.xlsx"),
    ],
)
def test_titles_and_file_names_come_from_the_question(question: str, title: str, filename: str):
    document = produced("xlsx", make_answer(question=question))
    assert document.title == f"Excel table: {title}"
    assert document.filename == filename


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_same_answer_and_clock_give_the_same_bytes(fmt: str, monkeypatch: pytest.MonkeyPatch):
    first = produced(fmt)
    monkeypatch.setattr(time, "time", lambda: 2_000_000_000.0)  # zip members stamped another day
    second = produced(fmt)
    assert (first.data, first.content) == (second.data, second.content)


@pytest.mark.parametrize(
    "when", [dt.datetime(1970, 1, 1, tzinfo=dt.UTC), dt.datetime(2031, 12, 31, 23, 59)]
)
def test_files_carry_the_clock_they_are_given(when: dt.datetime):
    (document,) = produce(make_answer(), ["docx"], now=when)
    created = docx.Document(io.BytesIO(document.data or b"")).core_properties.created
    assert created.replace(tzinfo=None) == when.replace(tzinfo=None)


# -- text -----------------------------------------------------------------------------------------


def test_the_report_markers_are_the_citations_and_every_citation_is_listed():
    answer = make_answer()
    content = produced("text", answer).content or ""
    assert set(map(int, MARKER.findall(content))) == indexes(answer)
    sources = content.split("### Sources", 1)[1]
    listed = [int(n) for n in re.findall(r"^\[(\d+)\] ", sources, re.M)]
    assert listed == sorted(indexes(answer))
    assert "[12] Warning Letter: Acme Sterile LLC, page 1, ¶3 (on the page of [11]) — " in sources
    assert "FDA Warning Letters, 2019-03-04, <https://www.fda.gov/wl/acme#page=1>" in sources
    assert "> Your media fill runs failed." in sources
    assert "[15] Warning Letter: Zürich Pharma AG, page 1 — FDA Warning Letters, 2021-11-15\n" in (
        sources
    )
    assert "> 환경 모니터링 기록이 없습니다." in sources


def test_the_report_keeps_the_answers_own_markdown():
    answer = make_answer(markdown="**In short:** Acme failed [12].")
    content = produced("text", answer).content or ""
    assert content.startswith("# Which sterile drug makers")
    assert "**In short:** Acme failed [12].\n\n### Sources" in content
    assert "### media fill failures" not in content


def test_the_answer_markdown_made_from_its_parts_has_the_agents_shape():
    markdown = answer_markdown(make_answer())
    assert markdown.startswith(
        "**In short:** Acme Sterile LLC and Zürich Pharma AG got warning letters [12][16]. "
    )
    assert "### media fill failures\n- Media fill runs failed [12].\n" in markdown
    assert "| Form 483: 한미약품 주식회사 [13] | FDA 483 |  | 한미약품 주식회사 |" in markdown
    assert markdown.endswith(
        "### Not found\n- No FDA Recalls matched.\n- Letters before 2018 were left out."
    )


def test_passage_brackets_do_not_read_as_markers():
    answer = make_answer()
    answer.citations[1].passage = "See footnote [3] and *emphasis*."
    content = produced("text", answer).content or ""
    assert r"> See footnote \[3\] and \*emphasis\*." in content
    assert set(map(int, MARKER.findall(content))) == indexes(answer)


# -- Word -----------------------------------------------------------------------------------------


def docx_paragraphs(data: bytes) -> Iterator[Any]:
    document = docx.Document(io.BytesIO(data))
    yield from document.paragraphs
    for table in document.tables:
        for row in table.rows:
            for cell in row.cells:
                yield from cell.paragraphs


def test_the_word_report_has_its_headings_in_order():
    document = docx.Document(io.BytesIO(produced("docx").data or b""))
    headings = [
        (p.style.name, p.text)
        for p in document.paragraphs
        if p.style.name.startswith(("Heading", "Title"))
    ]
    assert headings == [
        (
            "Title",
            "Which sterile drug makers got warning letters for media fill failures since 2018?",
        ),
        ("Heading 1", "In short"),
        ("Heading 1", "media fill failures"),
        ("Heading 1", "환경 모니터링"),
        ("Heading 1", "Key documents"),
        ("Heading 1", "Not found"),
        ("Heading 1", "Sources"),
    ]
    assert document.paragraphs[1].text == f"Question: {QUESTION}"
    bullets = [p.text for p in document.paragraphs if p.style.name == "List Bullet"]
    assert bullets[:2] == ["Media fill runs failed [12].", f"{LONG_FINDING} [16]"]
    assert document.core_properties.created == NOW
    assert document.core_properties.title.startswith("Which sterile drug makers")


def test_the_word_documents_table_links_each_title_to_its_url():
    answer = make_answer()
    table = docx.Document(io.BytesIO(produced("docx", answer).data or b"")).tables[0]
    rows = [[cell.text for cell in row.cells] for row in table.rows]
    assert rows == [
        ["Document", "Dataset", "Date", "Firm or product"],
        [
            "Warning Letter: Acme Sterile LLC [11]",
            "FDA Warning Letters",
            "2019-03-04",
            "Acme Sterile LLC",
        ],
        ["Form 483: 한미약품 주식회사 [13]", "FDA 483", "", "한미약품 주식회사"],
        [
            "Warning Letter: Zürich Pharma AG [15]",
            "FDA Warning Letters",
            "2021-11-15",
            "Zürich Pharma AG",
        ],
    ]
    assert [column.width.inches for column in table.columns] == [2.25, 1.2, 1.15, 1.4]
    links = [[link.address for link in row.cells[0].paragraphs[0].hyperlinks] for row in table.rows]
    assert links == [[], ["https://www.fda.gov/wl/acme"], ["https://www.fda.gov/483/hanmi"], []]


def test_the_word_report_markers_and_numbered_sources_match_the_citations():
    answer = make_answer()
    data = produced("docx", answer).data or b""
    text = "\n".join(p.text for p in docx_paragraphs(data))
    assert set(map(int, MARKER.findall(text))) == indexes(answer)
    paragraphs = list(docx.Document(io.BytesIO(data)).paragraphs)
    start = next(n for n, p in enumerate(paragraphs) if p.text == "Sources") + 1
    sources = paragraphs[start:]
    assert [p.text.split("]")[0] + "]" for p in sources if p.style.name != "Quote"] == [
        f"[{n}]" for n in range(11, 17)
    ]
    assert sources[0].text == (
        "[11] Warning Letter: Acme Sterile LLC, page 1 — FDA Warning Letters, 2019-03-04, "
        "page 1, https://www.fda.gov/wl/acme#page=1"
    )
    assert [link.address for link in sources[0].hyperlinks] == [
        "https://www.fda.gov/wl/acme#page=1"
    ]
    quotes = [p.text for p in sources if p.style.name == "Quote"]
    assert quotes == [
        "Your media fill runs failed.",
        "환경 모니터링 기록이 없습니다.",
        LONG_FINDING,
    ]


# -- Excel ----------------------------------------------------------------------------------------


def workbook(answer: Answer | None = None) -> Any:
    return openpyxl.load_workbook(io.BytesIO(produced("xlsx", answer).data or b""))


def test_the_documents_sheet_has_a_row_per_document_and_the_union_of_their_fields():
    sheet = workbook()["Documents"]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == (
        "Document",
        "Dataset",
        "Date",
        "Firm or product",
        "Citation",
        "company",
        "fei_number",
        "facility_name",
        "inspection_end",
        "observations",
        "subject",
    )
    assert rows[1] == (
        "Warning Letter: Acme Sterile LLC",
        "FDA Warning Letters",
        dt.datetime(2019, 3, 4),
        "Acme Sterile LLC",
        11,
        "Acme Sterile LLC",
        "3001234567",
        None,
        None,
        None,
        None,
    )
    assert rows[2][2] is None and rows[2][8] == dt.datetime(2021, 6, 30)
    assert rows[2][9] == "media fill; EM"
    assert rows[3][-1] == "=SUM(A1:A2)" and sheet["K4"].data_type == "s"
    assert len(rows) == 4


def test_the_documents_sheet_is_frozen_filtered_linked_and_fitted():
    sheet = workbook()["Documents"]
    assert sheet.freeze_panes == "A2"
    assert sheet.auto_filter.ref == "A1:K4"
    assert all(cell.font.bold for cell in sheet[1])
    assert [
        sheet[f"A{row}"].hyperlink and sheet[f"A{row}"].hyperlink.target for row in (2, 3, 4)
    ] == [
        "https://www.fda.gov/wl/acme",
        "https://www.fda.gov/483/hanmi",
        None,
    ]
    assert sheet["C2"].is_date and sheet["C2"].number_format == "yyyy-mm-dd"
    widths = {letter: sheet.column_dimensions[letter].width for letter in "ABCDEFGHIJK"}
    assert all(8 <= width <= 60 for width in widths.values())
    assert widths["A"] > widths["C"]


def test_the_citations_sheet_lists_every_citation_with_its_passage_and_link():
    sheet = workbook()["Citations"]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == (
        "index",
        "name",
        "dataset",
        "date",
        "page",
        "block_id",
        "parent_index",
        "passage",
        "url",
    )
    assert [row[0] for row in rows[1:]] == list(range(11, 17))
    assert rows[2] == (
        12,
        "Warning Letter: Acme Sterile LLC, page 1",
        "FDA Warning Letters",
        dt.datetime(2019, 3, 4),
        1,
        "¶3",
        11,
        "Your media fill runs failed.",
        "https://www.fda.gov/wl/acme#page=1",
    )
    assert sheet["I3"].hyperlink.target == "https://www.fda.gov/wl/acme#page=1"
    assert rows[5][8] is None and sheet["I6"].hyperlink is None
    assert (sheet.freeze_panes, sheet.auto_filter.ref) == ("A2", "A1:I7")


@pytest.mark.parametrize(
    ("firm", "width"), [("Acme", 17), ("가" * 20, 42), ("x" * 200, 60), ("가나다", 17)]
)
def test_column_widths_fit_the_text_counting_wide_characters_twice(firm: str, width: int):
    documents = [dataclasses.replace(make_answer().documents[0], firm_or_product=firm)]
    sheet = workbook(make_answer(documents=documents))["Documents"]
    assert sheet.column_dimensions["D"].width == width  # "Firm or product" is 15 wide, +2


def test_a_link_too_long_for_excel_is_left_as_text():
    url = "https://www.fda.gov/" + "a" * 2100
    documents = [dataclasses.replace(make_answer().documents[0], url=url)]
    sheet = workbook(make_answer(documents=documents))["Documents"]
    assert sheet["A2"].value == "Warning Letter: Acme Sterile LLC" and sheet["A2"].hyperlink is None


def test_an_answer_without_documents_still_gives_both_sheets_with_headers():
    book = workbook(make_answer(documents=[], citations=[]))
    assert book.sheetnames == ["Documents", "Citations"]
    assert book["Documents"].max_row == 1 and book["Documents"].auto_filter.ref == "A1:E1"


# -- PowerPoint -----------------------------------------------------------------------------------


def deck(answer: Answer | None = None) -> Any:
    return pptx.Presentation(io.BytesIO(produced("pptx", answer).data or b""))


def body_lines(slide: Any) -> list[str]:
    return [p.text for p in slide.placeholders[1].text_frame.paragraphs]


def test_the_deck_has_title_short_answer_themes_documents_and_sources_slides():
    slides = list(deck().slides)
    assert len(slides) == 1 + 1 + 2 + 1 + 1
    assert [s.shapes.title.text for s in slides] == [
        " ".join(QUESTION.split()),
        "In short",
        "media fill failures",
        "환경 모니터링",
        "Key documents",
        "Sources",
    ]
    assert slides[0].placeholders[1].text == "Produced 2024-05-06 by regnb"
    assert body_lines(slides[1])[1] == "A 483 to 한미약품 noted missing monitoring records [14]."


def test_a_long_finding_is_shortened_with_an_ellipsis_and_keeps_its_markers():
    short, long = body_lines(list(deck().slides)[2])
    assert short == "Media fill runs failed [12]."
    assert long.endswith("… [16]") and len(long) < len(LONG_FINDING)
    assert LONG_FINDING.startswith(long.removesuffix("… [16]"))


def test_the_key_documents_slide_is_a_table_linking_titles():
    slide = list(deck().slides)[4]
    table = next(shape.table for shape in slide.shapes if shape.has_table)
    rows = [[cell.text for cell in row.cells] for row in table.rows]
    assert rows[0] == ["Document", "Dataset", "Date", "Firm or product"]
    assert rows[2] == ["Form 483: 한미약품 주식회사 [13]", "FDA 483", "", "한미약품 주식회사"]
    runs = [row.cells[0].text_frame.paragraphs[0].runs[0] for row in list(table.rows)[1:]]
    assert [run.hyperlink.address for run in runs] == [
        "https://www.fda.gov/wl/acme",
        "https://www.fda.gov/483/hanmi",
        None,
    ]


@pytest.mark.parametrize(
    ("count", "titles"),
    [
        (1, ["Sources"]),
        (6, ["Sources"]),
        (7, ["Sources (1 of 2)", "Sources (2 of 2)"]),
        (13, ["Sources (1 of 3)", "Sources (2 of 3)", "Sources (3 of 3)"]),
    ],
)
def test_sources_run_over_as_many_slides_as_they_need(count: int, titles: list[str]):
    citations = [citation(n, "d1") for n in range(1, count + 1)]
    slides = list(deck(make_answer(citations=citations)).slides)
    assert len(slides) == 1 + 1 + 2 + 1 + math.ceil(count / 6)
    assert [s.shapes.title.text for s in slides[5:]] == titles
    lines = [line for slide in slides[5:] for line in body_lines(slide)]
    assert [line.split("]")[0] + "]" for line in lines] == [f"[{n}]" for n in range(1, count + 1)]


# -- chart ----------------------------------------------------------------------------------------


def key_document(n: int, dataset: str, date: str | None, firm: str | None = None) -> KeyDocument:
    return KeyDocument(f"doc {n}", dataset, dataset, date, firm, None, f"d{n}", n)


@pytest.mark.parametrize(
    ("documents", "by", "years", "series", "undated"),
    [
        pytest.param(
            make_answer().documents,
            "firm",
            [2019, 2020, 2021],
            {"Acme Sterile LLC": [1, 0, 0], "Zürich Pharma AG": [0, 0, 1]},
            1,
            id="firms-when-most-documents-name-one",
        ),
        pytest.param(
            [
                key_document(1, "WL", "2018-01-01"),
                key_document(2, "483", "2018-05-01"),
                key_document(3, "WL", "2020-12-31"),
                key_document(4, "WL", "2020-01-01"),
            ],
            "dataset",
            [2018, 2019, 2020],
            {"WL": [1, 0, 2], "483": [1, 0, 0]},
            0,
            id="datasets-without-firms",
        ),
        pytest.param(
            [key_document(n, "WL", "2019-01-01", f"Firm {n}") for n in range(9)],
            "dataset",
            [2019],
            {"WL": [9]},
            0,
            id="datasets-when-too-many-firms",
        ),
        pytest.param(
            [key_document(1, "WL", "2019-01-01", "Acme")] * 3
            + [key_document(2, "WL", "2019-01-01", "Acme")],
            "dataset",
            [2019],
            {"WL": [2]},
            0,
            id="one-firm-is-not-about-firms-and-dedup",
        ),
        pytest.param(
            [
                key_document(1, "WL", "2019-01-01", "Acme"),
                key_document(2, "WL", "2021-01-01", "Beta"),
                key_document(3, "R", "2021-01-01"),
            ],
            "firm",
            [2019, 2020, 2021],
            {"Acme": [1, 0, 0], "Beta": [0, 0, 1], "Other": [0, 0, 1]},
            0,
            id="documents-without-a-firm-are-other",
        ),
        pytest.param(
            [key_document(1, "WL", None), key_document(2, "WL", "not a date")],
            "dataset",
            [],
            {},
            2,
            id="nothing-dated",
        ),
    ],
)
def test_chart_data_counts_documents_per_year(
    documents: list[KeyDocument],
    by: str,
    years: list[int],
    series: dict[str, list[int]],
    undated: int,
):
    data = chart_data(documents)
    assert (data.by, data.years, data.series, data.undated) == (by, years, series, undated)


@pytest.mark.parametrize("documents", [make_answer().documents, [key_document(1, "WL", None)], []])
def test_the_chart_is_a_png_of_a_fixed_size(documents: list[KeyDocument]):
    data = produced("png", make_answer(documents=documents)).data or b""
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(io.BytesIO(data)) as image:
        assert (image.format, image.size) == ("PNG", (800, 450))


# -- conversation exports -------------------------------------------------------------------------


def conversation() -> dict[str, Any]:
    """The spec's conversation read: a completed turn, then a clarifying question."""
    answer = make_answer()
    first = [c.to_dict() for c in answer.citations[:2]]
    first[1]["passage"] = "Your media fill runs failed."
    return {
        "conversation_id": "c1",
        "status": "needs_input",
        "turns": [
            {
                "turn_index": 0,
                "message": QUESTION,
                "status": "completed",
                "answer": "**In short:** Acme *failed* [12].\n\n### Media fill\n- Runs failed [12].\n"
                "- See [the letter](https://www.fda.gov/wl/acme).\n\n"
                "| Document | Date |\n|---|---|\n| Acme [11] | 2019-03-04 |\n\n"
                "1. first\n2. second\n\n> quoted `code`",
                "citations": first,
            },
            {
                "turn_index": 1,
                "message": "And recalls?",
                "status": "needs_input",
                "answer": None,
                "citations": [],
                "question": {"question": "Which years?", "options": ["since 2020", "all years"]},
            },
        ],
        "documents": [],
        "error": None,
    }


def test_a_conversation_exports_to_markdown_turn_by_turn():
    markdown = answer_to_markdown(conversation())
    assert markdown.startswith("# Which sterile drug makers got warning letters")
    assert f"\n## {QUESTION}\n\n**In short:** Acme *failed* [12]." in markdown
    assert "### Sources\n\n[11] Warning Letter: Acme Sterile LLC, page 1 — " in markdown
    assert "[12] Warning Letter: Acme Sterile LLC, page 1, ¶3 (on the page of [11])" in markdown
    assert "> Your media fill runs failed." in markdown
    assert markdown.endswith("## And recalls?\n\n*Which years?*\n\n- since 2020\n- all years\n")
    assert set(map(int, MARKER.findall(markdown))) == {11, 12}


def test_a_conversation_exports_to_word_with_headings_lists_tables_and_links():
    document = docx.Document(io.BytesIO(answer_to_docx(conversation(), now=NOW)))
    paragraphs = [(p.style.name, p.text) for p in document.paragraphs]
    assert paragraphs[0] == (
        "Title",
        "Which sterile drug makers got warning letters for media fill failures since 2018?",
    )
    assert ("Heading 2", QUESTION) in paragraphs and ("Heading 2", "And recalls?") in paragraphs
    assert ("Heading 3", "Media fill") in paragraphs and ("Heading 3", "Sources") in paragraphs
    assert ("List Bullet", "Runs failed [12].") in paragraphs
    assert ("List", "1. first") in paragraphs and ("List", "2. second") in paragraphs
    assert ("Quote", "quoted code") in paragraphs
    assert ("List Bullet", "since 2020") in paragraphs
    short = next(p for p in document.paragraphs if p.text.startswith("In short"))
    assert [(r.text, r.bold, r.italic) for r in short.runs] == [
        ("In short:", True, None),
        (" Acme ", None, None),
        ("failed", None, True),
        (" [12].", None, None),
    ]
    assert [[c.text for c in row.cells] for row in document.tables[0].rows] == [
        ["Document", "Date"],
        ["Acme [11]", "2019-03-04"],
    ]
    assert document.tables[0].rows[0].cells[0].paragraphs[0].runs[0].bold
    links = [link.address for p in document.paragraphs for link in p.hyperlinks]
    assert links == [
        "https://www.fda.gov/wl/acme",
        "https://www.fda.gov/wl/acme#page=1",
        "https://www.fda.gov/wl/acme#page=1",
    ]
    assert document.core_properties.created == NOW


def test_an_empty_conversation_exports_to_a_titled_document():
    assert answer_to_markdown({"turns": []}) == "# Research conversation\n\n*No messages.*\n"
    document = docx.Document(io.BytesIO(answer_to_docx({"turns": []}, now=NOW)))
    assert [p.text for p in document.paragraphs] == ["Research conversation", "No messages."]
