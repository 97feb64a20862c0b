"""Documents made from an answer (markdown report, Word, Excel, PowerPoint, PNG chart) and a
conversation's export to markdown or Word. Every marker [n] they show is one of the answer's
citations; for the same answer and clock they are the same bytes."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence

from regnb.agent.types import Answer, Produced

from ._chart import ChartData, chart_data, chart_png
from ._conversation import answer_to_docx, answer_to_markdown
from ._excel import excel_workbook
from ._report import answer_markdown, report_markdown
from ._slides import slide_deck
from ._title import answer_title, short_title, slug
from ._word import word_report

__all__ = [
    "FORMATS",
    "ChartData",
    "answer_markdown",
    "answer_title",
    "answer_to_docx",
    "answer_to_markdown",
    "chart_data",
    "produce",
    "short_title",
]

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"

Maker = Callable[[Answer, str, dt.datetime], Produced]


def _text(answer: Answer, title: str, now: dt.datetime) -> Produced:
    content = report_markdown(answer, title)
    return Produced(f"Report: {title}", "text", content=content, media_type="text/markdown")


def _file(kind: str, extension: str, media_type: str, make: Callable[..., bytes]) -> Maker:
    def produce_one(answer: Answer, title: str, now: dt.datetime) -> Produced:
        data = make(answer, title, now)
        name = f"{slug(title)}.{extension}"
        return Produced(f"{kind}: {title}", "file", name, data=data, media_type=media_type)

    return produce_one


def _chart(answer: Answer, title: str, now: dt.datetime) -> Produced:
    data = chart_png(answer.documents, title)
    name = f"{slug(title)}-per-year.png"
    return Produced(f"Chart: {title}", "image", name, data=data, media_type="image/png")


_MAKERS: dict[str, Maker] = {
    "text": _text,
    "docx": _file("Word report", "docx", DOCX, word_report),
    "xlsx": _file("Excel table", "xlsx", XLSX, excel_workbook),
    "pptx": _file("Slides", "pptx", PPTX, slide_deck),
    "png": _chart,
}
FORMATS = tuple(_MAKERS)


def produce(
    answer: Answer, formats: Sequence[str], *, now: dt.datetime | None = None
) -> list[Produced]:
    """One document per format asked for, in that order, titled and named from the answer's topic
    (else its question without the requests for files); `now` stamps the files (default: now)."""
    unknown = [f for f in formats if f not in _MAKERS]
    if unknown:
        raise ValueError(f"unknown format {unknown[0]!r}; expected one of {', '.join(FORMATS)}")
    when = now or dt.datetime.now(dt.UTC)
    title = answer_title(answer)
    return [_MAKERS[f](answer, title, when) for f in dict.fromkeys(formats)]
