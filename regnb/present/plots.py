"""Plots of a search result with matplotlib's object API (no pyplot state): documents per year
by dataset, and documents and pages per dataset. Each returns a `Figure` that shows itself in a
notebook (as a PNG); `fig.axes[0]` is the Axes to adjust. Datasets are named by the catalog of
the engine that made the result.

    res.plot.timeline()        # stacked bars: documents per year, one colour per dataset
    res.plot.datasets()        # horizontal bars: documents shown and pages ranked per dataset
    res.plot.facet("year")     # a facet's documents: bars per year or month, else per value
    facet_figure(eng.facets(["sterility"], by=["company"])["company"], "company")
    eng.timeline(firm).plot()  # a firm's documents on a date axis, one row per dataset
"""

from __future__ import annotations

import functools
import io
import textwrap
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

from regnb.present.names import DatasetNames, names_or_package
from regnb.results import FACET_OTHER

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from regnb.results import SearchResult

__all__ = [
    "ResultPlots",
    "dataset_counts",
    "facet_figure",
    "timeline_figure",
    "wrap",
    "year_counts",
]

LABEL_CHARS = 26  # characters per line of a dataset's name; a longer one wraps, never cut
TITLE_CHARS_PER_INCH = 10  # at the title's size, so that a title wraps within its axes


def year_counts(result: SearchResult) -> dict[str, Counter[int]]:
    """Documents of the result per dataset and year (documents without a date left out)."""
    out: dict[str, Counter[int]] = {}
    for doc in result.results:
        date = doc.get("date")
        if isinstance(date, str) and date[:4].isdigit():
            out.setdefault(doc["dataset"], Counter())[int(date[:4])] += 1
    return out


def dataset_counts(result: SearchResult) -> dict[str, tuple[int, int]]:
    """Per dataset of the result or searched with success: (documents in the result, pages
    ranked), in the envelope's order."""
    docs = Counter(doc["dataset"] for doc in result.results)
    names = [ds for ds, st in result.dataset_statuses.items() if st.get("status") == "ok"]
    names += [ds for ds in docs if ds not in names]
    return {
        ds: (docs.get(ds, 0), int(result.dataset_statuses.get(ds, {}).get("pages") or 0))
        for ds in names
    }


@functools.cache
def _figure_class() -> type[Figure]:
    from matplotlib.figure import Figure

    class ResultFigure(Figure):
        """A Figure that shows itself in a notebook as a PNG, without pyplot."""

        def _repr_png_(self) -> bytes:
            buffer = io.BytesIO()
            self.savefig(buffer, format="png", bbox_inches="tight")
            return buffer.getvalue()

    return ResultFigure


def _figure(width: float, height: float) -> Figure:
    """A figure that pyplot does not keep (nothing shows twice) and a notebook displays."""
    return _figure_class()(figsize=(width, height), layout="constrained")


def _axes(ax: Axes | None, width: float, height: float) -> Axes:
    return ax if ax is not None else _figure(width, height).add_subplot()


def wrap(text: str, width: int) -> str:
    """`text` on lines of at most `width` characters (a longer word keeps its own line)."""
    return "\n".join(textwrap.wrap(" ".join(text.split()), width, break_long_words=False))


def _label(dataset: str, dataset_name: Callable[[str], str]) -> str:
    return wrap(dataset_name(dataset), LABEL_CHARS)


def _title(ax: Axes, title: str) -> None:
    """The title, wrapped to the axes' width so that no word is cut off."""
    inches = _owner(ax).get_figwidth() * ax.get_position().width
    ax.set_title(wrap(title, max(int(inches * TITLE_CHARS_PER_INCH), 20)))


def _legend(ax: Axes) -> None:
    """The legend beside the axes, right of the plot, where it covers no bar."""
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)


class ResultPlots:
    """`res.plot`: the plots of one search result."""

    def __init__(self, result: SearchResult, names: DatasetNames | None = None) -> None:
        self.result = result
        self.names = names or names_or_package(result.names)

    def timeline(self, ax: Axes | None = None) -> Figure:
        """Documents per year, stacked by dataset (display names in the legend)."""
        from matplotlib.ticker import MaxNLocator

        counts = year_counts(self.result)
        ax = _axes(ax, 8, 4)
        years = sorted({y for c in counts.values() for y in c})
        span = list(range(years[0], years[-1] + 1)) if years else []
        bottom = [0] * len(span)
        for ds, by_year in counts.items():
            heights = [by_year.get(y, 0) for y in span]
            ax.bar(span, heights, bottom=bottom, label=_label(ds, self.names))
            bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
        shown = len(self.result.results)
        undated = shown - sum(bottom)
        title = f"Documents per year: {shown} of {self.result.total} documents"
        title += f", {undated} without a date" if undated else ""
        ax.set(xlabel="Year", ylabel="Documents")
        _title(ax, title)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        if counts:
            _legend(ax)
        return _owner(ax)

    def facet(self, name: str, ax: Axes | None = None) -> Figure:
        """One facet of the result (asked for with `facets=`) as bars of documents."""
        facets = self.result.facets
        if name not in facets:
            raise KeyError(f"{name!r} is not a facet of this result (facets: {list(facets)})")
        return facet_figure(facets[name], name, ax, self.names)

    def datasets(self, ax: Axes | None = None) -> Figure:
        """Horizontal bars per dataset: documents in this result and pages it ranked."""
        from matplotlib.ticker import MaxNLocator

        counts = dataset_counts(self.result)
        ax = _axes(ax, 8, 1.2 + 0.45 * max(len(counts), 1))
        names = [_label(ds, self.names) for ds in counts]
        rows = list(range(len(counts)))
        height = 0.4
        docs = [d for d, _ in counts.values()]
        pages = [p for _, p in counts.values()]
        ax.barh([r - height / 2 for r in rows], docs, height, label="Documents in this result")
        ax.barh([r + height / 2 for r in rows], pages, height, label="Pages ranked")
        ax.set_yticks(rows, names)
        ax.invert_yaxis()
        ax.set(xlabel="Count", ylabel="Dataset")
        _title(ax, "Documents and pages per dataset")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if counts:
            _legend(ax)
        return _owner(ax)


FACET_TITLES = {"cfr": "CFR section cited", "dataset": "dataset"}


def facet_figure(
    frame: pd.DataFrame,
    name: str,
    ax: Axes | None = None,
    names: DatasetNames | None = None,
) -> Figure:
    """A facet's documents per value: vertical bars over time for `year` and `month` (undated
    documents said in the title), horizontal bars best first for any other facet."""
    from matplotlib.ticker import MaxNLocator

    dated = frame[frame["value"].notna()]
    undated = int(frame.loc[frame["value"].isna(), "documents"].sum())
    total = int(frame["documents"].sum())
    if name in ("year", "month"):
        ax = _axes(ax, 8, 4)
        ax.bar(list(dated["value"]), list(dated["documents"]))
        ax.set(xlabel=name.capitalize(), ylabel="Documents")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.tick_params(axis="x", labelrotation=90 if name == "month" or len(dated) > 12 else 0)
        title = f"Matching documents per {name}: {total}"
        title += f", {undated} without a date" if undated else ""
    else:
        rest = frame["value"] == FACET_OTHER  # the values past `size`, summed: said, not drawn
        others, frame = int(frame.loc[rest, "documents"].sum()), frame[~rest]
        ax = _axes(ax, 8, 1.2 + 0.3 * max(len(frame), 1))
        label = names_or_package(names)
        shown = [
            _label(v, label) if name == "dataset" else wrap(str(v), LABEL_CHARS)
            for v in frame["value"]
        ]
        ax.barh(range(len(frame)), list(frame["documents"]))
        ax.set_yticks(range(len(frame)), shown)
        ax.invert_yaxis()
        ax.set(xlabel="Documents", ylabel=name)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        title = f"Matching documents by {FACET_TITLES.get(name, name)}"
        title += f" (+{others} in other values)" if others else ""
    _title(ax, title)
    return _owner(ax)


def timeline_figure(
    frame: pd.DataFrame,
    ax: Axes | None = None,
    *,
    title: str | None = None,
    names: DatasetNames | None = None,
    links: Sequence[tuple[str, str, bool]] = (),
) -> Figure:
    """A timeline's events (`regnb.firms.timeline.TIMELINE_COLUMNS`) on a date axis, one row per
    dataset in order of first appearance; an event with a repeat finding drawn as a cross,
    undated events said in the title."""
    label = names_or_package(names)
    datasets = list(dict.fromkeys(str(d) for d in frame["dataset"]))
    ax = _axes(ax, 9, 1.4 + 0.5 * max(len(datasets), 1))
    dated = frame[frame["date"].notna()]
    for row, dataset in enumerate(datasets):
        events = dated[dated["dataset"] == dataset]
        for repeat, marker in ((False, "o"), (True, "X")):
            chosen = events[events["repeat"] == repeat]
            if len(chosen):
                ax.scatter(
                    list(chosen["date"]),
                    [row] * len(chosen),
                    marker=marker,
                    s=60 if repeat else 36,
                    label="repeat finding" if repeat else None,
                )
    ax.set_yticks(range(len(datasets)), [_label(d, label) for d in datasets])
    ax.set_ylim(-0.5, len(datasets) - 0.5)
    ax.invert_yaxis()
    ax.set(xlabel="Date")
    lines = _link_lines(ax, dated, datasets, links)
    undated = len(frame) - len(dated)
    heading = f"{title}: " if title else ""
    heading += f"{len(frame)} documents" + (f", {undated} without a date" if undated else "")
    _title(ax, heading)
    if dated["repeat"].any() or lines:
        _legend(ax)
    return _owner(ax)


def _link_lines(
    ax: Axes, dated: pd.DataFrame, datasets: list[str], links: Sequence[tuple[str, str, bool]]
) -> int:
    """A line between each pair of dated events the timeline links (`links`: a document, the
    document it links to, and whether a finding repeats): grey for a letter or approval that
    follows another, dashed red for a repeat finding; the lines drawn, once a pair."""
    where = {
        str(doc): (date, datasets.index(str(ds)))
        for doc, date, ds in zip(dated["document_id"], dated["date"], dated["dataset"], strict=True)
    }
    pairs = {
        (one, other): repeat for one, other, repeat in links if one in where and other in where
    }
    labels: set[str] = set()
    for (one, other), repeat in pairs.items():
        (x0, y0), (x1, y1) = where[one], where[other]
        label = "repeat of" if repeat else "link"
        ax.plot(
            [x0, x1], [y0, y1], gid="link", zorder=0.5, linewidth=1,
            color="tab:red" if repeat else "0.6", linestyle="--" if repeat else "-",
            label=None if label in labels else label,
        )  # fmt: skip
        labels.add(label)
    return len(pairs)


def _owner(ax: Axes) -> Figure:
    return cast("Figure", ax.figure)
