"""The chart (PNG): cited documents per year, stacked by dataset, or by firm when the answer is
about a few firms. Drawn on a `Figure` with the Agg canvas, so no pyplot state is touched."""

from __future__ import annotations

import io
import textwrap
import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Literal

from regnb.agent.types import KeyDocument

from ._common import as_date, shorten

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.font_manager import FontProperties

MAX_FIRMS = 8
MAX_YEAR_TICKS = 15
MIN_YEARS_SHOWN = 5
SIZE_INCHES, DPI = (8.0, 4.5), 100
NO_FIRM = "Other"
NO_DATES = "No cited document has a date,\nso none can be placed on a timeline."
_CJK_FAMILIES = ("Noto Sans CJK KR", "Noto Sans KR", "NanumGothic", "Malgun Gothic",
                 "Apple SD Gothic Neo", "Noto Sans CJK JP", "Noto Sans CJK SC")  # fmt: skip


@dataclass(frozen=True)
class ChartData:
    """What the chart shows: documents per year (`years`, one count per year in each series)."""

    by: Literal["dataset", "firm"]
    years: list[int]
    series: dict[str, list[int]]
    undated: int


def chart_data(documents: Sequence[KeyDocument]) -> ChartData:
    """Counts per year per dataset, or per firm when most documents name one of at most 8 firms."""
    unique = list({d.document_id: d for d in documents}.values())
    firms = [d.firm_or_product for d in unique if d.firm_or_product]
    by_firm = 2 * len(firms) > len(unique) and 2 <= len(set(firms)) <= MAX_FIRMS
    dated: list[tuple[int, str]] = []
    for document in unique:
        day = as_date(document.date)
        if day is not None:
            label = (document.firm_or_product or NO_FIRM) if by_firm else document.dataset
            dated.append((day.year, label))
    if not dated:
        return ChartData("firm" if by_firm else "dataset", [], {}, len(unique))
    years = list(range(min(y for y, _ in dated), max(y for y, _ in dated) + 1))
    totals = Counter(label for _, label in dated)
    counts = Counter(dated)
    order = sorted(totals, key=lambda label: (label == NO_FIRM, -totals[label], label))
    series = {label: [counts[(year, label)] for year in years] for label in order}
    return ChartData("firm" if by_firm else "dataset", years, series, len(unique) - len(dated))


def chart_png(documents: Sequence[KeyDocument], title: str) -> bytes:
    """The chart of `chart_data(documents)` as PNG bytes, titled from the question."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties

    data = chart_data(documents)
    font = FontProperties(family=font_families())
    figure = Figure(figsize=SIZE_INCHES, dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.set_title(textwrap.fill(f"Documents per year: {title}", 70), fontproperties=font)
    axes.set_xlabel("Year")
    axes.set_ylabel("Documents")
    if data.years:
        _draw_bars(axes, data, font)
    else:
        axes.set_xticks([])
        axes.set_yticks([])
        axes.text(0.5, 0.5, NO_DATES, ha="center", va="center", transform=axes.transAxes)
    if data.years and data.undated:
        note = f"{data.undated} document{'s' if data.undated > 1 else ''} without a date not shown"
        figure.text(0.01, 0.01, note, fontsize=8)
    out = io.BytesIO()
    with warnings.catch_warnings():
        # Without a font for a script (Korean on a bare machine) a glyph is drawn as a box.
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from font")
        figure.savefig(out, format="png", metadata={"Software": None})
    return out.getvalue()


def _draw_bars(axes: Axes, data: ChartData, font: FontProperties) -> None:
    from matplotlib.ticker import MaxNLocator

    bottoms = [0] * len(data.years)
    colors = _colors(len(data.series))
    for (label, counts), color in zip(data.series.items(), colors, strict=True):
        axes.bar(data.years, counts, bottom=bottoms, label=shorten(label, 40), color=color)
        bottoms = [b + c for b, c in zip(bottoms, counts, strict=True)]
    axes.set_ylim(0, max(bottoms) * 1.1)
    pad = 0.6 + max(0, MIN_YEARS_SHOWN - len(data.years)) / 2  # one year is not one wide bar
    axes.set_xlim(data.years[0] - pad, data.years[-1] + pad)
    if len(data.years) <= MAX_YEAR_TICKS:
        axes.set_xticks(data.years)
    else:
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    legend_font = font.copy()
    legend_font.set_size("small")
    title = "Firm" if data.by == "firm" else "Dataset"
    axes.legend(
        title=title, prop=legend_font, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1)
    )


def _colors(count: int) -> list[tuple[float, ...]]:
    from matplotlib import colormaps

    palette = colormaps["tab10" if count <= 10 else "tab20"]
    return [palette(index % palette.N) for index in range(count)]


@cache
def font_families() -> tuple[str, ...]:
    """DejaVu Sans, then any installed font for Korean, Japanese or Chinese text as a fallback."""
    from matplotlib.font_manager import fontManager

    installed = {entry.name for entry in fontManager.ttflist}
    return ("DejaVu Sans", *(name for name in _CJK_FAMILIES if name in installed))
