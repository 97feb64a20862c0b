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
from docx.oxml.ns import qn
from PIL import Image

from regnb.agent.produce import (
    FORMATS,
    answer_markdown,
    answer_to_docx,
    answer_to_markdown,
    chart_data,
    produce,
    short_title,
)
from regnb.agent.produce._common import statement
from regnb.agent.types import (
    Answer,
    DataRow,
    DataTable,
    Finding,
    KeyDocument,
    Produced,
    SourcedCitation,
    Theme,
)

NOW = dt.datetime(2024, 5, 6, 7, 8, 9, tzinfo=dt.UTC)
QUESTION = (
    "Which sterile drug makers got warning letters for media fill failures since 2018? "
    "Put the letters in an Excel table."
)
FIRST_SENTENCE = "Which sterile drug makers got warning letters for media fill failures since 2018?"
LONG_FINDING = (
    "The investigators observed that the aseptic processing line's media fill simulations did "
    "not include the maximum number of personnel, the longest interventions, or the slowest line "
    "speeds permitted by the batch record, and that failed runs were closed without a root cause "
    "investigation or an assessment of the batches filled since the last successful run"
)
SCOPE = ["FDA Warning Letters and FDA 483, 2018 to 2024.", "3 documents found, 3 shown."]
MARKER = re.compile(r"\[(\d+)\]")
SAFE_FILENAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*\.(docx|xlsx|pptx|png)")
FILE_WORDS = re.compile(r"word report|excel|slides|spreadsheet|powerpoint", re.IGNORECASE)


def citation(index: int, document: str, **extra: Any) -> SourcedCitation:
    """A citation of one of the three documents below; passage citations name their page's."""
    base = {
        "d1": ("Warning Letter: Acme Sterile LLC, page 1", "FDA Warning Letters", "2019-03-04"),
        "d2": ("Form 483: 한미약품 주식회사, page 2", "FDA 483", None),
        "d3": ("Warning Letter: Zürich Pharma AG, page 1", "FDA Warning Letters", "2021-11-15"),
    }[document]
    url = {"d1": "https://www.fda.gov/wl/acme#page=1", "d2": "https://www.fda.gov/483/hanmi"}
    dataset_id = "fda_483" if document == "d2" else "fda_warning_letters"
    page = {"d1": 1, "d2": 2, "d3": 1}[document]
    return SourcedCitation(
        index,
        base[0],
        base[1],
        base[2],
        page,
        url.get(document, ""),
        document_id=document,
        dataset_id=dataset_id,
        **extra,
    )


def make_answer(**changes: Any) -> Answer:
    """A bulleted and a numbered theme, two key documents and one to see also over two datasets,
    page and passage citations 11 to 16."""
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
            cited_for=["Media fills", "Aseptic processing"],
            cfr=["21 CFR 211.113(b)", "21 CFR 211.192"],
            findings=[
                "Media fills: Your media fill runs failed.",
                "Batch records were not reviewed.",
            ],
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
            cited_for=["Observation 1", "Observation 2"],
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
            role="see_also",
        ),
    ]
    media_fills = Finding(
        "Media fill runs failed.",
        [12],
        quote="Your media fill runs failed.",
        heading="Media fills",
        kind="violation",
        cfr=["21 CFR 211.113(b)"],
        document_id="d1",
    )
    observations = [
        Finding(
            "환경 모니터링 기록이 없습니다.", [14], heading="Observation 1", kind="observation"
        ),
        Finding(
            "Personnel monitoring was not done [14].",
            [],
            heading="Observation 2",
            kind="observation",
            cfr=["21 CFR 211.28"],
            short="Personnel monitoring not done.",
            document_id="d2",
        ),
    ]
    answer = Answer(
        question=QUESTION,
        summary=[
            Finding("Acme Sterile LLC and Zürich Pharma AG got warning letters.", [12, 16]),
            Finding("A 483 to 한미약품 noted missing monitoring records.", [14]),
        ],
        themes=[
            Theme("media fill failures", [media_fills, Finding(LONG_FINDING, [16])]),
            Theme("환경 모니터링", observations, numbered=True),
        ],
        documents=documents,
        not_found=["No FDA Recalls matched.", "Letters before 2018 were left out."],
        citations=citations,
        scope=list(SCOPE),
    )
    return dataclasses.replace(answer, **changes)


def produced(fmt: str, answer: Answer | None = None) -> Produced:
    (document,) = produce(answer or make_answer(), [fmt], now=NOW)
    return document


def indexes(answer: Answer) -> set[int]:
    return {c.index for c in answer.citations}


def shown_markers(fmt: str, document: Produced) -> set[int]:
    """Every marker a produced document shows, wherever it shows it."""
    if fmt == "text":
        text = document.content or ""
    elif fmt == "docx":
        text = "\n".join(p.text for p in docx_paragraphs(document.data or b""))
    elif fmt == "xlsx":
        book = openpyxl.load_workbook(io.BytesIO(document.data or b""))
        text = "\n".join(
            str(value) for sheet in book for row in sheet.iter_rows(values_only=True)
            for value in row if isinstance(value, str)
        )  # fmt: skip
    else:
        text = "\n".join(deck_texts(pptx.Presentation(io.BytesIO(document.data or b""))))
    return {int(n) for n in MARKER.findall(text)}


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
    ("question", "topic", "title", "filename"),
    [
        (QUESTION, "", FIRST_SENTENCE, "sterile-drug-makers-warning-letters-media.xlsx"),
        (
            QUESTION,
            "Media fill failures in warning letters",
            "Media fill failures in warning letters",
            "media-fill-failures-warning-letters.xlsx",
        ),
        (
            "Why was Barhemsys not approved? Make a Word report, an Excel table and slides.",
            "  Complete response letter:\n Barhemsys ",
            "Complete response letter: Barhemsys",
            "complete-response-letter-barhemsys.xlsx",
        ),
        (
            "What did FDA find at Acme? Make a Word report and an Excel table",
            "",
            "What did FDA find at Acme?",
            "fda-acme.xlsx",
        ),
        (
            "Put the warning letters about media fills in a spreadsheet",
            "",
            "Warning letters about media fills",
            "warning-letters-media-fills.xlsx",
        ),
        (
            "최근 무균 공정 경고 서한은? 엑셀 표로 주세요.",
            "",
            "최근 무균 공정 경고 서한은?",
            "research-answer.xlsx",
        ),
        (
            "K123456 / 21 CFR 211.113(b): who cited it?",
            "",
            "K123456 / 21 CFR 211.113(b): who cited it?",
            "k123456-21-cfr-211-113-b.xlsx",
        ),
        ("Make a chart.", "", "Research answer", "research-answer.xlsx"),
        ("word " * 40, "", ("word " * 19).strip() + "…", "research-answer.xlsx"),
        ("x", "word " * 40, ("word " * 19).strip() + "…", "research-answer.xlsx"),
    ],
)
def test_titles_and_file_names_come_from_the_topic_else_the_question(
    question: str, topic: str, title: str, filename: str
):
    document = produced("xlsx", make_answer(question=question, topic=topic))
    assert document.title == f"Excel table: {title}"
    assert document.filename == filename


@pytest.mark.parametrize(
    ("question", "title"),
    [
        (
            "What did FDA find at Acme? Make a Word report and an Excel table",
            "What did FDA find at Acme?",
        ),
        (
            "Put the warning letters about media fills in a spreadsheet",
            "Warning letters about media fills",
        ),
        ("What did FDA find at Acme, and put it in a spreadsheet?", "What did FDA find at Acme?"),
        (
            "Make a Word report on warning letters to Acme Inc. since 2020",
            "Warning letters to Acme Inc. since 2020",
        ),
        (
            "Create an Excel table of recalls of Class I devices in 2023",
            "Recalls of Class I devices in 2023",
        ),
        ("Summarize the 483s for Acme and put them in slides", "Summarize the 483s for Acme"),
        ("Show 483 observations at Hanmi as a slide deck", "483 observations at Hanmi"),
        ("Give me a table of MDR reports about infusion pumps", "MDR reports about infusion pumps"),
        ("Chart the recalls per year", "Recalls per year"),
        ("Which firms were cited? Please give me slides.", "Which firms were cited?"),
        ("Put the findings into a Word document.", "Research answer"),
        # Reports and tables that are what the question is about stay.
        (
            "What do MDR reports say about pump occlusions?",
            "What do MDR reports say about pump occlusions?",
        ),
        ("Which inspection report mentions Acme?", "Which inspection report mentions Acme?"),
        ("Acme Inc. got a letter. What did it say?", "Acme Inc. got a letter. What did it say?"),
    ],
)
def test_a_title_leaves_out_the_requests_for_files_clause_by_clause(question: str, title: str):
    assert short_title(question) == title


def document_title(fmt: str, document: Produced) -> str:
    """The title a produced document shows on its first page, slide or sheet properties."""
    if fmt == "text":
        return (document.content or "").split("\n", 1)[0].removeprefix("# ")
    if fmt == "docx":
        return docx.Document(io.BytesIO(document.data or b"")).paragraphs[0].text
    if fmt == "xlsx":
        return openpyxl.load_workbook(io.BytesIO(document.data or b"")).properties.title
    return pptx.Presentation(io.BytesIO(document.data or b"")).slides[0].shapes.title.text


@pytest.mark.parametrize("fmt", ["text", "docx", "xlsx", "pptx"])
@pytest.mark.parametrize(
    ("question", "topic", "title"),
    [
        (QUESTION, "Media fill failures", "Media fill failures"),
        (
            "What did FDA find at Acme? Make a Word report, an Excel table and slides.",
            "",
            "What did FDA find at Acme?",
        ),
        ("Put the warning letters in a spreadsheet and slides", "", "Warning letters"),
    ],
)
def test_each_document_is_titled_by_its_topic_and_never_by_the_request_for_files(
    fmt: str, question: str, topic: str, title: str
):
    document = produced(fmt, make_answer(question=question, topic=topic))
    assert document_title(fmt, document) == title
    assert not FILE_WORDS.search(document.title.split(": ", 1)[1])


@pytest.mark.parametrize("fmt", ["text", "docx", "xlsx", "pptx"])
def test_every_marker_shown_is_one_of_the_answers_citations(fmt: str):
    answer = make_answer()
    assert shown_markers(fmt, produced(fmt, answer)) <= indexes(answer)


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


@pytest.mark.parametrize(
    ("markdown", "body"),
    [
        (
            "**In short:** Acme failed [12].",
            "**In short:** Acme failed [12].\n\n### Scope\n- FDA Warning Letters and FDA 483, "
            "2018 to 2024.\n- 3 documents found, 3 shown.\n\n### Sources",
        ),
        (
            "**In short:** Acme failed [12].\n\n**Scope:** 3 documents found, 3 shown.",
            "**In short:** Acme failed [12].\n\n**Scope:** 3 documents found, 3 shown.\n\n"
            "### Sources",
        ),
    ],
    ids=["scope-added", "scope-kept-as-written"],
)
def test_the_report_follows_the_answers_own_markdown_with_its_scope(
    markdown: str, body: str, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(Answer, "markdown", property(lambda answer: markdown))  # as written
    content = produced("text", make_answer()).content or ""
    assert content.startswith(f"# {FIRST_SENTENCE}\n\n*Question:* ")
    assert body in content
    assert "### media fill failures" not in content


def test_the_answer_markdown_made_from_its_parts_has_the_agents_shape():
    markdown = answer_markdown(make_answer())
    assert markdown.startswith(
        "**In short:** Acme Sterile LLC and Zürich Pharma AG got warning letters [12][16]. "
    )
    assert "### media fill failures\n- **Media fills**: Media fill runs failed [12].\n" in markdown
    assert (
        "### 환경 모니터링\n1. **Observation 1**: 환경 모니터링 기록이 없습니다 [14].\n"
        "2. **Observation 2**: Personnel monitoring was not done [14].\n\n"
    ) in markdown
    assert (
        "| Warning Letter: Acme Sterile LLC [11] | FDA Warning Letters | 2019-03-04 "
        "| Acme Sterile LLC | Media fills; Aseptic processing "
        "| 21 CFR 211.113(b); 21 CFR 211.192 |"
    ) in markdown
    assert "| Form 483: 한미약품 주식회사 [13] | FDA 483 |  | 한미약품 주식회사 |" in markdown
    assert "Zürich Pharma AG [15] |" not in markdown
    assert (
        "### See also\n- Warning Letter: Zürich Pharma AG [15] — FDA Warning Letters, 2021-11-15, "
        "Zürich Pharma AG\n\n### Scope\n- FDA Warning Letters and FDA 483, 2018 to 2024.\n"
    ) in markdown
    assert markdown.endswith(
        "### Not found\n- No FDA Recalls matched.\n- Letters before 2018 were left out."
    )


def test_passage_brackets_do_not_read_as_markers():
    answer = make_answer()
    answer.citations[1] = dataclasses.replace(
        answer.citations[1], passage="See footnote [3] and *emphasis*."
    )
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


def word(answer: Answer | None = None) -> Any:
    return docx.Document(io.BytesIO(produced("docx", answer).data or b""))


def section(document: Any, heading: str) -> list[Any]:
    """The paragraphs under a level-1 heading, up to the next one."""
    paragraphs = list(document.paragraphs)
    start = next(n for n, p in enumerate(paragraphs) if p.text == heading) + 1
    end = next(
        (n for n in range(start, len(paragraphs)) if paragraphs[n].style.name == "Heading 1"),
        len(paragraphs),
    )
    return paragraphs[start:end]


def test_the_word_report_is_the_answer_with_its_sections_in_order():
    document = word()
    headings = [
        (p.style.name, p.text)
        for p in document.paragraphs
        if p.style.name.startswith(("Heading", "Title"))
    ]
    assert headings == [
        ("Title", FIRST_SENTENCE),
        ("Heading 1", "In short"),
        ("Heading 1", "media fill failures"),
        ("Heading 1", "환경 모니터링"),
        ("Heading 1", "Key documents"),
        ("Heading 1", "See also"),
        ("Heading 1", "Scope"),
        ("Heading 1", "Not found"),
        ("Heading 1", "Sources"),
    ]
    assert document.paragraphs[1].text == f"Question: {QUESTION}"
    assert [p.text for p in section(document, "In short")] == [
        "Acme Sterile LLC and Zürich Pharma AG got warning letters [12][16]. "
        "A 483 to 한미약품 noted missing monitoring records [14]."
    ]
    assert [p.text for p in section(document, "Scope")] == SCOPE
    assert [p.text for p in section(document, "Not found")] == make_answer().not_found
    assert document.core_properties.created == NOW
    assert document.core_properties.title == FIRST_SENTENCE


def test_a_finding_in_word_is_its_heading_in_bold_then_its_text_and_markers():
    paragraphs = section(word(), "media fill failures")
    assert [(p.style.name, p.text) for p in paragraphs] == [
        ("List Bullet", "Media fills: Media fill runs failed [12]."),
        ("List Bullet", f"{LONG_FINDING} [16]"),
    ]
    assert [(r.text, r.bold) for r in paragraphs[0].runs] == [
        ("Media fills:", True),
        (" ", None),
        ("Media fill runs failed [12].", None),
    ]


def numbering(paragraph: Any) -> tuple[int, int] | None:
    """(numId, start) of a paragraph in a numbered list, None where it is in none."""
    num_pr = paragraph._p.pPr.numPr if paragraph._p.pPr is not None else None
    if num_pr is None:
        return None
    num_id = num_pr.numId.val
    num = paragraph.part.numbering_part.element.num_having_numId(num_id)
    start = num.find(f"{qn('w:lvlOverride')}/{qn('w:startOverride')}")
    return num_id, int(start.get(qn("w:val")))


@pytest.mark.parametrize("themes", [1, 2, 3])
def test_numbered_themes_are_numbered_lists_in_word_each_from_1(themes: int):
    observations = make_answer().themes[1]
    answer = make_answer(
        themes=[dataclasses.replace(observations, label=f"Letter {n}") for n in range(themes)]
    )
    document = word(answer)
    lists = []
    for n in range(themes):
        paragraphs = section(document, f"Letter {n}")
        assert [(p.style.name, p.text) for p in paragraphs] == [
            ("List Number", "Observation 1: 환경 모니터링 기록이 없습니다 [14]."),
            ("List Number", "Observation 2: Personnel monitoring was not done [14]."),
        ]
        numbers = {numbering(p) for p in paragraphs}
        assert len(numbers) == 1
        ((num_id, start),) = numbers  # type: ignore[misc]
        assert start == 1
        lists.append(num_id)
    assert len(set(lists)) == themes  # each theme's list starts again at 1


def test_the_word_documents_table_has_the_key_documents_what_they_are_cited_for_and_cfr():
    table = word().tables[0]
    rows = [[cell.text for cell in row.cells] for row in table.rows]
    assert rows == [
        ["Document", "Dataset", "Date", "Firm or product", "Cited for", "CFR sections"],
        [
            "Warning Letter: Acme Sterile LLC [11]",
            "FDA Warning Letters",
            "2019-03-04",
            "Acme Sterile LLC",
            "Media fills; Aseptic processing",
            "21 CFR 211.113(b); 21 CFR 211.192",
        ],
        ["Form 483: 한미약품 주식회사 [13]", "FDA 483", "", "한미약품 주식회사", "Observation 1; Observation 2", ""],
    ]  # fmt: skip
    assert sum(column.width.inches for column in table.columns) == pytest.approx(6.5)
    links = [[link.address for link in row.cells[0].paragraphs[0].hyperlinks] for row in table.rows]
    assert links == [[], ["https://www.fda.gov/wl/acme"], ["https://www.fda.gov/483/hanmi"]]


def test_documents_to_see_also_are_listed_apart_in_word():
    assert [(p.style.name, p.text) for p in section(word(), "See also")] == [
        (
            "List Bullet",
            "Warning Letter: Zürich Pharma AG [15] — FDA Warning Letters, 2021-11-15, "
            "Zürich Pharma AG",
        )
    ]


def test_the_word_report_markers_and_numbered_sources_match_the_citations():
    answer = make_answer()
    data = produced("docx", answer).data or b""
    text = "\n".join(p.text for p in docx_paragraphs(data))
    assert set(map(int, MARKER.findall(text))) == indexes(answer)
    sources = section(docx.Document(io.BytesIO(data)), "Sources")
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


def test_the_documents_sheet_has_a_row_per_document_its_findings_cfr_and_fields():
    sheet = workbook()["Documents"]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == (
        "Document",
        "Dataset",
        "Date",
        "Firm or product",
        "Role",
        "Cited for",
        "Key findings",
        "CFR sections cited",
        "SourcedCitation",
        "URL",
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
        "Key",
        "Media fills; Aseptic processing",
        "Media fills: Your media fill runs failed.\nBatch records were not reviewed.",
        "21 CFR 211.113(b); 21 CFR 211.192",
        11,
        "https://www.fda.gov/wl/acme",
        "Acme Sterile LLC",
        "3001234567",
        None,
        None,
        None,
        None,
    )
    assert rows[2][2:9] == (
        None,
        "한미약품 주식회사",
        "Key",
        "Observation 1; Observation 2",
        None,
        None,
        13,
    )
    assert rows[2][13] == dt.datetime(2021, 6, 30) and rows[2][14] == "media fill; EM"
    assert rows[3][4:10] == ("See also", None, None, None, 15, None)
    assert rows[3][-1] == "=SUM(A1:A2)" and sheet["P4"].data_type == "s"
    assert len(rows) == 4


def test_the_findings_sheet_has_a_row_per_finding():
    answer = make_answer()
    rows = list(workbook(answer)["Findings"].iter_rows(values_only=True))
    assert rows[0] == (
        "Theme", "No.", "Heading", "Kind", "Document", "Firm or product", "Date", "CFR sections",
        "Finding", "Short statement", "Citations", "Passage",
    )  # fmt: skip
    assert len(rows) - 1 == sum(len(theme.findings) for theme in answer.themes)
    assert rows[1] == (
        "media fill failures", None, "Media fills", "violation", "Warning Letter: Acme Sterile LLC",
        "Acme Sterile LLC", dt.datetime(2019, 3, 4), "21 CFR 211.113(b)",
        "Media fill runs failed.", "Your media fill runs failed.", "[12]",
        "Your media fill runs failed.",
    )  # fmt: skip
    assert rows[2][4:7] == (
        "Warning Letter: Zürich Pharma AG",
        "Zürich Pharma AG",
        dt.datetime(2021, 11, 15),
    )
    assert rows[2][8] == LONG_FINDING and rows[2][11] == LONG_FINDING
    assert rows[2][9] == " ".join(LONG_FINDING.split()[:18]) + "…"
    assert [row[1:4] for row in rows[3:]] == [
        (1, "Observation 1", "observation"),
        (2, "Observation 2", "observation"),
    ]
    assert rows[4][4:] == (
        "Form 483: 한미약품 주식회사", "한미약품 주식회사", None, "21 CFR 211.28",
        "Personnel monitoring was not done.", "Personnel monitoring not done.", "[14]",
        "환경 모니터링 기록이 없습니다.",
    )  # fmt: skip


def test_the_sources_sheet_lists_every_citation_with_its_passage_and_link():
    sheet = workbook()["Sources"]
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


@pytest.mark.parametrize(
    ("name", "ref", "wrapped"),
    [("Documents", "A1:P4", {"G"}), ("Findings", "A1:L5", {"I", "J", "L"}), ("Sources", "A1:I7", {"H"})],
)  # fmt: skip
def test_every_sheet_is_frozen_filtered_bold_fitted_and_wraps_long_text(
    name: str, ref: str, wrapped: set[str]
):
    sheet = workbook()[name]
    assert (sheet.freeze_panes, sheet.auto_filter.ref) == ("A2", ref)
    assert all(cell.font.bold for cell in sheet[1])
    widths = {
        cell.column_letter: sheet.column_dimensions[cell.column_letter].width for cell in sheet[1]
    }
    assert all(8 <= width <= 60 for width in widths.values())
    wraps = {
        cell.column_letter
        for row in sheet.iter_rows(min_row=2)
        for cell in row
        if cell.alignment.wrap_text
    }
    assert wraps == wrapped
    assert {width for letter, width in widths.items() if letter in wrapped} <= {60}


def test_the_documents_sheet_links_titles_and_dates_are_dates():
    sheet = workbook()["Documents"]
    assert [
        sheet[f"A{row}"].hyperlink and sheet[f"A{row}"].hyperlink.target for row in (2, 3, 4)
    ] == [
        "https://www.fda.gov/wl/acme",
        "https://www.fda.gov/483/hanmi",
        None,
    ]
    assert sheet["C2"].is_date and sheet["C2"].number_format == "yyyy-mm-dd"
    assert sheet.column_dimensions["A"].width > sheet.column_dimensions["C"].width


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


def listed(*rows: DataRow) -> DataTable:
    header = ("Firm or product", "Date", "Document", "CFR sections its matching pages cite")
    return DataTable("Every matching document (3 found)", header, rows, kind="matches")


def test_a_which_answer_gets_a_matches_sheet_with_every_document_listed():
    table = listed(
        DataRow(("Acme Sterile LLC", "2019-03-04", "Warning Letter: Acme Sterile LLC",
                 "21 CFR 211.113"), "d1", "https://www.fda.gov/wl/acme"),
        DataRow(("Borealis Inc", "2018-01-02", "Warning Letter: Borealis Inc", ""), "d9", None),
        DataRow(("", "", "Warning Letter: Unknown", ""), "d10", "https://www.fda.gov/wl/u"),
    )  # fmt: skip
    book = workbook(make_answer(tables=[table]))
    assert book.sheetnames == ["Documents", "Findings", "Matches", "Sources"]
    sheet = book["Matches"]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows == [
        ("Firm or product", "Date", "Document", "CFR sections cited", "Cited as", "URL"),
        ("Acme Sterile LLC", dt.datetime(2019, 3, 4), "Warning Letter: Acme Sterile LLC",
         "21 CFR 211.113", "[11]", "https://www.fda.gov/wl/acme"),
        ("Borealis Inc", dt.datetime(2018, 1, 2), "Warning Letter: Borealis Inc", None, None, None),
        (None, None, "Warning Letter: Unknown", None, None, "https://www.fda.gov/wl/u"),
    ]  # fmt: skip
    assert sheet["C2"].hyperlink.target == "https://www.fda.gov/wl/acme"
    assert sheet["C3"].hyperlink is None


def test_counts_alone_give_no_matches_sheet():
    counts = DataTable(
        "Matching documents per year", ("Year", "Documents"), (DataRow(("2021", "2")),)
    )
    assert "Matches" not in workbook(make_answer(tables=[counts])).sheetnames


def test_an_answer_without_documents_or_themes_still_gives_every_sheet_with_headers():
    book = workbook(make_answer(documents=[], themes=[], citations=[]))
    assert book.sheetnames == ["Documents", "Findings", "Sources"]
    assert [book[name].auto_filter.ref for name in book.sheetnames] == ["A1:J1", "A1:L1", "A1:I1"]
    assert all(book[name].max_row == 1 for name in book.sheetnames)


# -- PowerPoint -----------------------------------------------------------------------------------


def deck(answer: Answer | None = None) -> Any:
    return pptx.Presentation(io.BytesIO(produced("pptx", answer).data or b""))


def deck_texts(presentation: Any) -> Iterator[str]:
    """Every text of a deck: shapes, table cells and speaker notes."""
    for slide in presentation.slides:
        for shape in slide.shapes:
            if shape.has_text_frame:
                yield shape.text_frame.text
            if shape.has_table:
                yield from (cell.text for row in shape.table.rows for cell in row.cells)
        if slide.has_notes_slide:
            yield slide.notes_slide.notes_text_frame.text


def body_lines(slide: Any) -> list[str]:
    return [p.text for p in slide.placeholders[1].text_frame.paragraphs]


def test_the_deck_has_title_short_answer_themes_documents_and_sources_slides():
    slides = list(deck(make_answer(topic="Media fill failures")).slides)
    assert [s.shapes.title.text for s in slides] == [
        "Media fill failures",
        "In short",
        "media fill failures",
        "환경 모니터링",
        "Documents",
        "Sources",
    ]
    assert slides[0].placeholders[1].text == "Produced 2024-05-06 by regnb"
    assert body_lines(slides[1]) == [
        "Acme Sterile LLC and Zürich Pharma AG got warning letters [12][16].",
        "A 483 to 한미약품 noted missing monitoring records [14].",
    ]


def test_a_theme_slide_bullet_is_the_heading_in_bold_then_the_finding_in_one_line():
    slides = list(deck().slides)
    assert body_lines(slides[2]) == [
        "Media fills: Your media fill runs failed [12].",
        "Zürich Pharma AG: " + " ".join(LONG_FINDING.split()[:18]) + "… [16]",
    ]
    runs = slides[2].placeholders[1].text_frame.paragraphs[0].runs
    assert [(r.text, r.font.bold) for r in runs] == [
        ("Media fills:", True),
        (" ", None),
        ("Your media fill runs failed [12].", None),
    ]
    assert body_lines(slides[3]) == [
        "1. Observation 1: 환경 모니터링 기록이 없습니다 [14].",
        "2. Observation 2: Personnel monitoring not done [14].",
    ]


def test_a_theme_slide_has_at_most_five_bullets_and_every_finding_in_its_notes():
    findings = [Finding(f"Finding number {n}.", [12], heading=f"Item {n}") for n in range(1, 8)]
    slide = list(deck(make_answer(themes=[Theme("Many", findings)])).slides)[2]
    assert body_lines(slide) == [f"Item {n}: Finding number {n} [12]." for n in range(1, 6)]
    notes = slide.notes_slide.notes_text_frame.text.split("\n")
    assert notes == [f"Item {n}: Finding number {n} [12]." for n in range(1, 8)]


LONG_HEADING = "Failure to establish and follow written procedures for aseptic processing lines"
LONG_SHORT = " ".join(["Media fills were not representative of the worst case"] * 5)


def cut_cleanly(shown: str, source: str) -> bool:
    """Whether `shown` is the start of `source` up to a whole word: with "…" where it was cut,
    else up to the end of a sentence or of the source."""
    source = " ".join(source.split())
    if shown.endswith("…"):
        head = shown.removesuffix("…").removesuffix("”").removesuffix("…")
        return source.startswith(head) and source[len(head) : len(head) + 1] in ("", *" ,;:-")
    return source.startswith(shown) and (shown == source or shown[-1] in ".!?”")


@pytest.mark.parametrize(
    "finding",
    [
        Finding(LONG_FINDING, [16]),
        Finding(LONG_FINDING, [16], heading=LONG_HEADING),
        Finding(f"{LONG_FINDING}. Another sentence.", [16], heading="Observation 12"),
        Finding("Acme (2019): “x”", [12, 14, 16], quote=LONG_FINDING, heading=LONG_HEADING),
        Finding("Text", [12], short=LONG_SHORT, heading=LONG_HEADING),
        Finding("Text", [12], short=" ".join(LONG_FINDING.split()[:16]) + " …", heading="Item 3"),
        Finding(" ".join(["Supercalifragilistic"] * 30), [12]),
    ],
)
@pytest.mark.parametrize("numbered", [False, True])
def test_no_slide_bullet_is_longer_than_25_words_or_cut_inside_a_word(
    finding: Finding, numbered: bool
):
    summary = [dataclasses.replace(finding, text=f"{LONG_FINDING} [16]. Then more.")] * 2
    answer = make_answer(summary=summary, themes=[Theme("Long", [finding] * 6, numbered=numbered)])
    slides = list(deck(answer).slides)
    for slide in slides[1:3]:
        paragraphs = slide.placeholders[1].text_frame.paragraphs
        assert 1 <= len(paragraphs) <= 5
        for paragraph in paragraphs:
            assert len(paragraph.text.split()) <= 25, paragraph.text
            line = MARKER.sub("", paragraph.runs[-1].text).replace(" .", ".").strip()
            source = finding.short or finding.quote or finding.text
            if slide is slides[1]:  # the short answer is said in the text's own words
                source = finding.short or f"{LONG_FINDING}."
            assert cut_cleanly(line, source), line


TWENTY = " ".join(f"w{n}" for n in range(1, 21))


@pytest.mark.parametrize(
    ("finding", "quoted", "line"),
    [
        (Finding("Runs failed [3]. More followed.", [3]), True, "Runs failed."),
        (Finding("Text. More.", [3], short="Short one."), True, "Short one."),
        (Finding("Text. More.", [3], quote="The quote. More."), True, "The quote."),
        (Finding("Text. More.", [3], quote="The quote. More."), False, "Text."),
        (Finding("Acme Inc. failed. Then more.", [3]), True, "Acme Inc. failed."),
        (Finding("J. Smith of the U.S. firm signed. Then.", [3]), True, "J. Smith of the U.S. firm signed."),
        (
            Finding("Acme (2021): “1. Your firm failed. It did.”", [3]),
            False,
            "Acme (2021): “1. Your firm failed.”",
        ),
        (Finding(f"{TWENTY}.", [3]), True, " ".join(TWENTY.split()[:18]) + "…"),
        (Finding(f"“{TWENTY}”", [3]), True, "“" + " ".join(TWENTY.split()[:18]) + "…”"),
        (Finding("Cut here, at a comma " + TWENTY, [3]), True, "Cut here, at a comma " + " ".join(TWENTY.split()[:13]) + "…"),
        (Finding("최근 경고 서한입니다. 다음 문장.", [3]), True, "최근 경고 서한입니다."),
        (Finding("Text.", [3], short="The firm failed to …"), True, "The firm failed to…"),
    ],
)  # fmt: skip
def test_a_finding_in_one_line_is_its_short_else_its_first_sentence_cut_at_a_word(
    finding: Finding, quoted: bool, line: str
):
    assert statement(finding, quoted=quoted) == line


def test_the_documents_slide_is_a_table_of_firms_dates_and_what_they_are_cited_for():
    slide = list(deck().slides)[4]
    table = next(shape.table for shape in slide.shapes if shape.has_table)
    rows = [[cell.text for cell in row.cells] for row in table.rows]
    assert rows == [
        ["Document", "Firm or product", "Date", "Cited for"],
        ["Warning Letter: Acme Sterile LLC [11]", "Acme Sterile LLC", "2019-03-04", "Media fills; Aseptic processing"],
        ["Form 483: 한미약품 주식회사 [13]", "한미약품 주식회사", "", "Observation 1; Observation 2"],
        ["Warning Letter: Zürich Pharma AG [15]", "Zürich Pharma AG", "2021-11-15", "See also"],
    ]  # fmt: skip
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


def test_a_source_slide_quotes_a_passage_cut_at_a_word():
    (slide,) = list(deck().slides)[5:]
    line = body_lines(slide)[-1]
    assert line.endswith(" “" + " ".join(LONG_FINDING.split()[:15]) + "…”")


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
