"""Plots of a search result: labelled axes, one bar per count, figures that show themselves."""

from __future__ import annotations

from typing import Any

import pytest

from regnb.present.plots import dataset_counts, year_counts
from regnb.results import SearchResult
from tests.conftest import doc


def entry(n: int, dataset: str, date: str | None) -> dict[str, Any]:
    return {
        "document_id": f"d{n}",
        "dataset": dataset,
        "title": f"T{n}",
        "date": date,
        "url": None,
        "fields": {},
        "pages": [{"page_num": 1, "score": 0.5, "text": "x"}],
        "matched_pages": 1,
    }


@pytest.fixture
def result() -> SearchResult:
    """A remote-style result (rebuilt from JSON): 483s in 2019 (2) and 2021, a recall in 2021,
    a recall without a date."""
    results = [
        entry(1, "fda_483", "2019-01-05"),
        entry(2, "fda_483", "2019-07-01"),
        entry(3, "fda_483", "2021-02-02"),
        entry(4, "fda_recalls", "2021-03-03"),
        entry(5, "fda_recalls", None),
    ]
    statuses = {
        "fda_483": {"status": "ok", "matches": 40, "pages": 30},
        "fda_recalls": {"status": "ok", "matches": 3, "pages": 7},
        "fda_drug": {"status": "no_match"},
    }
    body = {"results": results, "datasets": statuses, "total": 9, "next_offset": 5}
    return SearchResult.from_dict({**body, "ranking": "similarity"})


def test_year_and_dataset_counts(result):
    assert year_counts(result) == {"fda_483": {2019: 2, 2021: 1}, "fda_recalls": {2021: 1}}
    assert dataset_counts(result) == {"fda_483": (3, 30), "fda_recalls": (2, 7)}


def test_timeline_stacks_documents_per_year_by_dataset(result):
    fig = result.plot.timeline()
    ax = fig.axes[0]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("Year", "Documents")
    assert ax.get_title() == "Documents per year: 5 of 9 documents, 1 without a date"
    first, second = ax.containers
    assert [b.get_x() + b.get_width() / 2 for b in first] == [2019, 2020, 2021]
    assert [b.get_height() for b in first] == [2, 0, 1]
    assert [b.get_height() for b in second] == [0, 0, 1]
    assert [b.get_y() for b in second] == [2, 0, 1]  # stacked on the 483s
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == [
        "FDA Form 483 Inspection\nObservations",
        "FDA Recalls, Market\nWithdrawals and Safety\nAlerts",
    ]
    assert all(float(t).is_integer() for t in ax.get_yticks())


def test_datasets_draws_documents_and_pages_per_dataset(result):
    ax = result.plot.datasets().axes[0]
    docs, pages = ax.containers
    assert [b.get_width() for b in docs] == [3, 2]
    assert [b.get_width() for b in pages] == [30, 7]
    assert len(ax.patches) == 4
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [
        "FDA Form 483 Inspection\nObservations",
        "FDA Recalls, Market\nWithdrawals and Safety\nAlerts",
    ]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("Count", "Dataset")


@pytest.mark.parametrize("kind", ["timeline", "datasets"])
def test_figures_show_themselves_as_png(result, kind):
    fig = getattr(result.plot, kind)()
    assert fig._repr_png_().startswith(b"\x89PNG")


@pytest.mark.parametrize("kind", ["timeline", "datasets"])
def test_empty_result_draws_empty_axes(kind):
    body = {"results": [], "datasets": {}, "total": 0, "next_offset": None, "ranking": "bm25"}
    ax = getattr(SearchResult.from_dict(body).plot, kind)().axes[0]
    assert len(ax.patches) == 0 and ax.get_legend() is None


def test_plot_into_a_given_axes(result):
    from matplotlib.figure import Figure

    fig = Figure()
    ax = fig.add_subplot()
    assert result.plot.timeline(ax=ax) is fig and len(ax.containers) == 2


def test_real_search_plots(make_engine):
    eng = make_engine(
        {"fda_483": [doc("A", ["alpha"], date="2018-02-03"), doc("B", ["alpha"], date=None)]}
    )
    ax = eng.search(["alpha"]).plot.timeline().axes[0]
    assert [b.get_height() for b in ax.containers[0]] == [1]


def _drawn(fig: Any) -> Any:
    """The figure laid out and drawn (constrained layout runs at draw time); its renderer."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


def _inside(inner: Any, outer: Any) -> bool:
    return (
        inner.x0 >= outer.x0 - 1
        and inner.y0 >= outer.y0 - 1
        and inner.x1 <= outer.x1 + 1
        and inner.y1 <= outer.y1 + 1
    )


@pytest.fixture
def dense() -> SearchResult:
    """Bars that fill their axes: every year 2010-2020 of two datasets, each dataset with pages
    ranked; no corner is free for a legend inside the axes."""
    names = ["fda_483", "fda_recalls", "fda_warning_letters", "fda_guidance"]
    results = [
        entry(i * 10 + k, names[k % 2], f"{2010 + i}-05-05") for i in range(11) for k in range(4)
    ]
    statuses = {ds: {"status": "ok", "matches": 50, "pages": 50} for ds in names}
    body = {"results": results, "datasets": statuses, "total": 44, "next_offset": None}
    return SearchResult.from_dict({**body, "ranking": "similarity"})


@pytest.mark.parametrize("kind", ["timeline", "datasets"])
def test_the_legend_covers_no_bar_and_stays_in_the_figure(dense, kind):
    fig = getattr(dense.plot, kind)()
    renderer = _drawn(fig)
    ax = fig.axes[0]
    legend = ax.get_legend().get_window_extent(renderer)
    bars = [p.get_window_extent(renderer) for p in ax.patches if p.get_height() and p.get_width()]
    assert bars and not any(legend.overlaps(bar) for bar in bars)
    assert _inside(legend, fig.bbox)


@pytest.mark.parametrize("kind", ["timeline", "datasets"])
def test_no_title_or_label_is_cut(result, kind):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5, 3.5), layout="constrained")
    getattr(result.plot, kind)(ax=fig.add_subplot())
    renderer = _drawn(fig)
    ax = fig.axes[0]
    texts = [ax.title, *ax.get_yticklabels(), *ax.get_legend().get_texts()]
    assert not any("…" in t.get_text() for t in texts)
    if kind == "timeline":  # "Documents per year: 5 of 9 documents, 1 without a date"
        assert "\n" in ax.title.get_text()  # wrapped to the narrow axes
    assert all(_inside(t.get_window_extent(renderer), fig.bbox) for t in texts)


def test_wrap_breaks_at_spaces_and_keeps_every_word():
    from regnb.present.plots import wrap

    text = "FDA User Fee Act Documents (PDUFA, GDUFA, BsUFA, MDUFA)"
    assert wrap(text, 26) == "FDA User Fee Act Documents\n(PDUFA, GDUFA, BsUFA,\nMDUFA)"
    assert wrap("Supercalifragilistic", 5) == "Supercalifragilistic"


def _with_facets(result: SearchResult) -> SearchResult:
    result.facet_counts = {
        "year": [
            {"value": "2019", "documents": 2, "pages": 3},
            {"value": "2020", "documents": 0, "pages": 0},
            {"value": "2021", "documents": 2, "pages": 2},
            {"value": None, "documents": 1, "pages": 1},
        ],
        "dataset": [
            {"value": "fda_483", "documents": 3, "pages": 4},
            {"value": "fda_recalls", "documents": 2, "pages": 2},
        ],
    }
    return result


def test_facet_of_years_is_one_bar_per_year_with_the_undated_in_the_title(result):
    fig = _with_facets(result).plot.facet("year")
    ax = fig.axes[0]
    assert [int(p.get_height()) for p in ax.patches] == [2, 0, 2]
    assert "1 without a date" in ax.get_title()
    assert ax.get_xlabel() == "Year"


def test_facet_of_values_is_one_named_bar_each(result):
    ax = _with_facets(result).plot.facet("dataset").axes[0]
    assert [int(p.get_width()) for p in ax.patches] == [3, 2]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[0] != "fda_483" and len(labels) == 2  # display names


def test_a_facet_not_asked_for_is_a_key_error(result):
    with pytest.raises(KeyError, match="company"):
        _with_facets(result).plot.facet("company")


def test_the_values_past_a_facets_size_are_said_not_drawn(result):
    result.facet_counts = {
        "cfr": [
            {"value": "21 CFR 211.113", "documents": 3, "pages": 4},
            {"value": "21 CFR 211.192", "documents": 2, "pages": 2},
            {"value": "(other)", "documents": 9, "pages": 9},
        ]
    }
    ax = result.plot.facet("cfr").axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["21 CFR 211.113", "21 CFR 211.192"]
    assert [p.get_width() for p in ax.patches] == [3, 2]
    assert "CFR section cited" in ax.get_title() and "(+9 in other values)" in ax.get_title()
