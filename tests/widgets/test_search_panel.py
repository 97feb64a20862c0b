"""SearchPanel without a browser: set the inputs, click, read the state and the drawn HTML. Over
a local engine (the sample corpus) and over a double that has only the engine interface."""

from __future__ import annotations

import base64
import datetime as dt
import html
import io
import re
from typing import Any, ClassVar

import pandas as pd
import pytest

pytest.importorskip("ipywidgets", reason="pip install 'regnb[notebook]' for the widget tests")

from regnb.paging import search_all
from regnb.results import SearchResult
from regnb.widgets import SearchPanel
from regnb.widgets._inputs import NEEDS_ENTERPRISE, NOT_AVAILABLE
from regnb.widgets.testing import PROTOCOL_METHODS, ProtocolOnly
from tests.outputs_support import Outputs


@pytest.fixture(params=["local", "protocol-only"])
def api(request: pytest.FixtureRequest, engine: Any) -> Any:
    """The sample corpus's engine, and the same behind a double with only the interface."""
    return engine if request.param == "local" else ProtocolOnly(engine)


def test_search_button_shows_one_row_per_document_and_keeps_the_result(api: Any) -> None:
    panel = SearchPanel(api, keywords=["sterility"], query="sterility assurance failures")
    panel.search_button.click()
    result = panel.result
    assert result is not None and len(result.results) == result.total > 0
    assert len(panel.rows.rows) == len(result.results)
    first = panel.rows.rows[0]
    assert result.results[0]["title"] in html.unescape(first.summary.value)
    assert f"{result.total:,} documents" in panel.summary.value
    assert "FDA Form 483" in panel.status.value  # the statuses by display name
    assert panel.search_button.description == "Search" and not panel.search_button.disabled


def test_a_row_unfolds_to_its_best_pages_with_the_words_marked(engine: Any) -> None:
    panel = SearchPanel(engine, keywords=["aseptic processing"])
    panel.search()
    row = panel.rows.rows[0]
    assert not row.expanded
    row.toggle.click()
    assert row.expanded and len(row.pages.children) == len(row.doc["pages"])
    passage = row.pages.children[0].children[1].value
    assert "<mark>aseptic</mark>" in passage.lower() or "<mark>processing</mark>" in passage
    row.toggle.click()
    assert not row.expanded


def test_a_page_button_opens_the_reader_at_that_page_with_the_passage_marked(engine: Any) -> None:
    panel = SearchPanel(engine, keywords=["sterility review"], limit=50)
    panel.picker.select(["fda_483"])
    panel.search()
    row = next(r for r in panel.rows.rows if r.doc["title"] == "Form 483 long record")
    row.toggle.click()
    page_button = row.pages.children[0].children[0]
    page_num = row.doc["pages"][0]["page_num"]
    page_button.click()
    assert panel.reader.layout.display is None
    assert panel.viewer.document_id == row.doc["document_id"]
    assert panel.viewer.page == page_num and panel.viewer.found is True
    assert "<mark>" in panel.viewer.body.value
    assert row.doc["date"] in panel.viewer.header.value  # from the search result item
    assert "fei_number" in panel.viewer.header.value


def test_the_request_reads_every_input(engine: Any) -> None:
    panel = SearchPanel(engine)
    panel.keywords.set(["sterility", "  ", "aseptic processing"])
    panel.question.value = "  Who failed?  "
    panel.picker.select(["fda_483", "fda_guidance"])
    panel.date_from.value = dt.date(2015, 1, 1)
    panel.filter_forms["fda_guidance"].inputs["center"].value = "CDER"
    assert panel.request() == {
        "keywords": ["sterility", "aseptic processing"],
        "query": "Who failed?",
        "datasets": ["fda_guidance", "fda_483"],  # catalog order
        "filters": {"fda_guidance": {"center": "CDER"}},
        "date_from": "2015-01-01",
        "date_to": None,
    }


def test_keyword_items_are_added_and_removed_and_the_rule_is_shown(engine: Any) -> None:
    panel = SearchPanel(engine, keywords=["sterility"])
    panel.keywords.add_button.click()
    panel.keywords.items[-1].text.value = "media fill"
    assert panel.keywords.values() == ["sterility", "media fill"]
    panel.keywords.items[0].remove.click()
    assert panel.keywords.values() == ["media fill"]
    panel.keywords.items[0].remove.click()  # the last one leaves an empty item
    assert len(panel.keywords.items) == 1 and panel.keywords.values() == []
    assert "every word" in panel.keywords.rule.value


def test_filter_forms_follow_the_ticked_datasets(engine: Any) -> None:
    panel = SearchPanel(engine)
    assert "Tick datasets" in panel.filter_box.children[0].value
    panel.picker.boxes["fda_483"].value = True
    panel.picker.boxes["fda_guidance"].value = True
    forms = panel.filter_forms
    assert list(panel.filter_box.children) == [forms["fda_guidance"], forms["fda_483"]]
    panel.picker.boxes["fda_guidance"].value = False
    assert list(panel.filter_box.children) == [forms["fda_483"]]


def test_datasets_that_cannot_be_searched_are_shown_disabled_with_why(engine: Any) -> None:
    panel = SearchPanel(ProtocolOnly(engine, plan="free"))
    boxes = panel.picker.boxes
    assert boxes["ema_epar"].disabled and NOT_AVAILABLE in boxes["ema_epar"].description
    assert NOT_AVAILABLE in boxes["ema_epar"].tooltip
    assert boxes["fda_crl"].disabled and NEEDS_ENTERPRISE in boxes["fda_crl"].description
    assert not boxes["fda_483"].disabled
    panel.picker.select(["fda_crl", "fda_483"])
    assert panel.picker.selected() == ["fda_483"]
    assert "fda_crl" not in panel.filter_forms


@pytest.mark.parametrize(
    ("setup", "field"),
    [
        (lambda p: p.keywords.set(["sterility", "the"]), "keywords[1]"),
        (lambda p: p.keywords.set(["", "of the", "sterility"]), "keywords[0]"),
        (lambda p: p.keywords.set([]), "keywords"),
        (lambda p: setattr(p.question, "value", "q" * 2001), "query"),
        (
            lambda p: (
                p.picker.select(["fda_483"]),
                setattr(p.filter_forms["fda_483"].inputs["fei_number"], "value", "--"),
            ),
            "filters.fda_483.fei_number",
        ),
        (
            lambda p: (
                setattr(p.date_from, "value", dt.date(2020, 1, 1)),
                setattr(p.date_to, "value", dt.date(2019, 1, 1)),
            ),
            "date_from",
        ),
        (
            lambda p: (
                p.picker.select(["fda_483"]),
                setattr(p.date_from, "value", dt.date(2020, 1, 1)),
                setattr(
                    p.filter_forms["fda_483"].inputs["date_from"], "value", dt.date(2021, 1, 1)
                ),
            ),
            "filters.fda_483.date_from",
        ),
    ],
    ids=["stop-words", "first-sent-item", "no-items", "long-query", "filter", "dates", "twice"],
)
def test_an_error_is_shown_beside_the_field_at_fault(api: Any, setup: Any, field: str) -> None:
    panel = SearchPanel(api, keywords=["sterility"])
    setup(panel)
    assert panel.search() is None and panel.result is None
    with pytest.raises(Exception) as caught:  # the engine's own error for the same search
        api.search(**panel.request())
    assert caught.value.field == field  # type: ignore[attr-defined]
    shown_at = panel.errors.where(field)
    assert shown_at == field
    assert html.escape(caught.value.message) in panel.errors.message(field)  # type: ignore[attr-defined]
    assert panel.errors.general.value == ""


def test_a_keyword_error_shows_beside_the_item_that_caused_it(engine: Any) -> None:
    panel = SearchPanel(engine, keywords=["", "sterility", "the"])
    panel.search()
    assert "&#x27;the&#x27;" in panel.keywords.items[2].error.value
    assert panel.keywords.items[1].error.value == ""
    panel.keywords.items[2].text.value = "aseptic"
    assert panel.search() is not None
    assert panel.keywords.items[2].error.value == ""  # cleared by the next search


def test_more_pages_through_next_offset_without_duplicates(api: Any) -> None:
    panel = SearchPanel(api, keywords=["sterility"], limit=4)
    first = panel.search()
    assert first is not None and first.next_offset == 4 and first.total > 8
    assert panel.more_button.layout.display is None
    seen = [r["document_id"] for r in first.results]
    while panel.more_button.layout.display is None:
        before = len(panel.result.results)  # type: ignore[union-attr]
        panel.more_button.click()
        assert len(panel.rows.rows) == len(panel.result.results) > before  # type: ignore[union-attr]
    ids = [r["document_id"] for r in panel.result.results]  # type: ignore[union-attr]
    assert ids[: len(seen)] == seen and len(ids) == len(set(ids)) == first.total
    assert panel.result.next_offset is None  # type: ignore[union-attr]
    assert f">{first.total}.</span>" in panel.rows.rows[-1].summary.value  # ranks go on


class Overlapping:
    """An engine whose pages overlap: offset 2 returns d1 again (the ranking moved between
    calls)."""

    plan = "enterprise"
    docs: ClassVar[list[dict[str, Any]]] = [
        {"document_id": f"d{i}", "dataset": "fda_483", "title": f"T{i}", "pages": []}
        for i in range(4)
    ]

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    def datasets(self) -> Any:
        return self.engine.datasets()

    def search(self, keywords: Any, query: Any = None, *, offset: int = 0, **_: Any) -> Any:
        chunk = self.docs[:2] if offset == 0 else self.docs[1:]
        return SearchResult(chunk, {}, 4, 2 if offset == 0 else None, "bm25")


def test_more_keeps_each_document_once_when_pages_overlap(engine: Any) -> None:
    panel = SearchPanel(Overlapping(engine), keywords=["x"], limit=2)  # type: ignore[arg-type]
    panel.search()
    combined = panel.more()
    assert combined is panel.result and combined is not None
    assert [r["document_id"] for r in combined.results] == ["d0", "d1", "d2", "d3"]
    assert len(panel.rows.rows) == 4 and panel.more_button.layout.display == "none"
    assert combined.keywords == ["x"]  # kept for the passages, though the engine left it out


def test_the_panel_calls_only_the_engine_interface(engine: Any) -> None:
    api = ProtocolOnly(engine)
    panel = SearchPanel(api, keywords=["sterility"], limit=4)
    panel.search()
    panel.more()
    panel.rows.rows[0].toggle.click()
    panel.rows.rows[0].pages.children[0].children[0].click()
    assert set(api.calls) <= set(PROTOCOL_METHODS)
    assert {"datasets", "search", "read"} <= set(api.calls)
    with pytest.raises(AttributeError):
        _ = api.store


def test_the_panel_displays_as_its_widget_tree(engine: Any) -> None:
    panel = SearchPanel(engine)
    bundle = panel._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == panel.widget.model_id


def test_a_plan_the_engine_does_not_know_disables_no_dataset():
    from regnb.catalog import load_catalog
    from regnb.widgets._inputs import NEEDS_ENTERPRISE, unavailable_reason

    crl = load_catalog()["fda_crl"]
    assert unavailable_reason(crl, "free") == NEEDS_ENTERPRISE
    assert unavailable_reason(crl, "unknown") is None  # a remote client: the server decides


def _open_page(panel: SearchPanel, index: int) -> Any:
    row = panel.rows.rows[index]
    row.toggle.click()
    row.pages.children[0].children[0].click()
    return row


def test_a_page_button_keeps_its_label_whole(engine: Any) -> None:
    panel = SearchPanel(engine, keywords=["sterility"])
    panel.search()
    row = panel.rows.rows[0]
    row.toggle.click()
    button = row.pages.children[0].children[0]
    assert button.description.startswith("p. ")
    # a flex item shrinks beside a long passage unless told not to: "p. 4" became "p…"
    assert button.layout.flex == "0 0 auto"
    assert button.layout.min_width == button.layout.width
    assert row.toggle.layout.flex == "0 0 auto"


def test_the_reader_opens_just_under_the_result_it_reads(engine: Any) -> None:
    panel = SearchPanel(engine, keywords=["sterility"])
    panel.search()
    assert len(panel.rows.rows) > 3
    row = _open_page(panel, 2)
    children = list(panel.rows.children)
    assert children.index(panel.reader) == children.index(row) + 1
    assert panel.reader not in panel.widget.children  # not after every result and "More"
    assert panel.reader.layout.display is None
    other = _open_page(panel, 0)  # another page moves it
    children = list(panel.rows.children)
    assert children.index(panel.reader) == children.index(other) + 1
    assert children.count(panel.reader) == 1


def test_the_reader_stays_under_its_result_after_more(api: Any) -> None:
    panel = SearchPanel(api, keywords=["sterility"], limit=4)
    panel.search()
    row = _open_page(panel, 1)
    panel.more()
    children = list(panel.rows.children)
    assert children.index(panel.reader) == children.index(row) + 1
    panel.search()  # a new search: the reader goes with the old results
    assert panel.reader not in panel.rows.children


def test_an_error_clears_the_results_of_the_search_before(api: Any) -> None:
    panel = SearchPanel(api, keywords=["sterility"], limit=4)
    panel.search()
    _open_page(panel, 0)
    assert panel.rows.children and panel.summary.value
    panel.keywords.set(["the"])
    assert panel.search() is None
    assert panel.rows.children == () and panel.rows.rows == []
    assert panel.summary.value == "" and panel.status.value == ""
    assert panel.more_button.layout.display == "none"
    assert panel.reader.layout.display == "none"
    assert panel.result is None and panel.more() is None
    assert "no searchable word" in panel.keywords.items[0].error.value


def test_the_panel_has_a_static_html_fallback_of_its_state(engine: Any) -> None:
    panel = SearchPanel(engine, keywords=["sterility"], query="sterility failures", limit=3)
    before = panel._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in before  # the live widget still
    assert "sterility failures" in before["text/html"]  # the question typed in
    assert "documents" not in before["text/html"]  # nothing searched yet
    result = panel.search()
    assert result is not None
    page = panel._repr_mimebundle_()["text/html"]
    assert f"{result.total:,} documents" in page
    assert html.escape(result.results[0]["title"]) in page
    assert "<script" not in page and "More" in page
    _open_page(panel, 0)
    assert "Reading" in panel.to_html() and panel.viewer.body.value in panel.to_html()


# facets, sort and the code of what is on screen (issue 17), over the double's own sort and
# facets: it counts every document of the search, so the numbers are known


def test_the_facets_of_every_match_show_beside_the_results(engine: Any) -> None:
    api = ProtocolOnly(engine)
    panel = SearchPanel(api, keywords=["sterility"], limit=4)
    result = panel.search()
    assert result is not None and set(result.facets) == {"dataset", "year", "cfr"}
    every = search_all(engine, ["sterility"]).results
    assert result.facets["dataset"].documents.sum() == len(every) > 4  # not only the 4 shown
    buttons = panel.facets.buttons["dataset"]
    top = result.facets["dataset"].iloc[0]
    assert buttons[0].description == f"{panel.names[top.value]} · {top.documents:,}"
    assert panel.facets.years.slider.layout.display is None
    assert api.sent[-1]["facets"] == [{"name": n, "size": 50} for n in ("dataset", "year", "cfr")]
    panel.more()
    assert panel.result.facets["dataset"].equals(result.facets["dataset"])  # type: ignore[union-attr]
    assert api.sent[-1]["facets"] is None  # "More" does not count again


def test_clicking_a_dataset_narrows_the_search_to_it_and_shows_its_fields(engine: Any) -> None:
    api = ProtocolOnly(engine)
    panel = SearchPanel(api, keywords=["sterility"])
    panel.search()
    button = next(
        b
        for b in panel.facets.buttons["dataset"]
        if b.description.startswith("FDA Warning Letters")
    )
    button.click()
    assert panel.picker.selected() == ["fda_warning_letters"]
    assert {r["dataset"] for r in panel.result.results} == {"fda_warning_letters"}  # type: ignore[union-attr]
    assert "company" in panel.facets.buttons and "issuing_office" in panel.facets.buttons


def test_clicking_a_field_value_sets_the_datasets_filter(engine: Any) -> None:
    api = ProtocolOnly(engine)
    panel = SearchPanel(api, keywords=["sterility"])
    panel.picker.select(["fda_warning_letters"])
    panel.search()
    company = panel.result.facets["company"].value.iloc[0]  # type: ignore[union-attr]
    panel.facets.buttons["company"][0].click()
    assert panel.filter_forms["fda_warning_letters"].value() == {"company": company}
    assert api.sent[-1]["filters"] == {"fda_warning_letters": {"company": company}}


def test_picking_a_field_no_dataset_filters_by_adds_a_term_to_every_item(engine: Any) -> None:
    panel = SearchPanel(ProtocolOnly(engine), keywords=["sterility", "media fill"])
    panel.pick("cfr", "21 CFR 211.113")
    assert panel.keywords.values() == ["sterility cfr:211.113", "media fill cfr:211.113"]
    panel.pick("cfr", "21 CFR 211.113")  # once only
    assert panel.keywords.values() == ["sterility cfr:211.113", "media fill cfr:211.113"]


def test_a_year_click_and_a_brush_set_the_date_range_and_rerun(engine: Any) -> None:
    api = ProtocolOnly(engine)
    panel = SearchPanel(api, keywords=["sterility"])
    panel.search()
    panel.pick("year", "2019")
    assert (panel.date_from.value, panel.date_to.value) == (
        dt.date(2019, 1, 1),
        dt.date(2019, 12, 31),
    )
    assert panel.facets.years.slider.value == (2019, 2019)
    panel.date_from.value = panel.date_to.value = None
    panel.search()
    lo = panel.facets.years.slider.min
    panel.facets.years.slider.value = (lo, lo + 3)  # the user drags the slider
    assert (api.sent[-1]["date_from"], api.sent[-1]["date_to"]) == (
        f"{lo}-01-01",
        f"{lo + 3}-12-31",
    )
    years = {int(y) for y in panel.result.facets["year"].value}  # type: ignore[union-attr]
    assert years and years <= set(range(lo, lo + 4))


@pytest.mark.parametrize(("label", "sort"), [("newest", "date"), ("oldest", "date_asc")])
def test_the_sort_toggle_reruns_the_search_in_date_order(
    engine: Any, label: str, sort: str
) -> None:
    api = ProtocolOnly(engine)
    panel = SearchPanel(api, keywords=["sterility"], limit=10)
    panel.search()
    panel.sort.label = label
    assert api.sent[-1]["sort"] == sort
    dates = [r["date"] for r in panel.result.results if r.get("date")]  # type: ignore[union-attr]
    assert dates == sorted(dates, reverse=sort == "date") and len(dates) > 2
    panel.more()
    assert api.sent[-1]["sort"] == sort and api.sent[-1]["offset"] == 10


def test_the_code_button_shows_the_calls_of_what_is_on_screen(engine: Any) -> None:
    panel = SearchPanel(ProtocolOnly(engine), keywords=["sterility"], query="Who failed?")
    panel.picker.select(["fda_483"])
    panel.search()
    panel.sort.value = "date"
    panel.question.value = "typed after the search"  # not on screen until searched
    panel.code_button.click()
    assert panel.code.layout.display is None
    code = html.unescape(panel.code.value)
    assert (
        "res = eng.search(['sterility'], 'Who failed?', datasets=['fda_483'], sort='date')" in code
    )
    assert (
        "counts = eng.facets(\n    ['sterility'],\n    'Who failed?',\n"
        "    by=['dataset', 'year', 'facility_name', 'cfr'],\n"
    ) in code
    namespace: dict[str, Any] = {"eng": ProtocolOnly(engine)}
    exec(panel.show_code(), namespace)
    assert namespace["res"].to_dict()["results"] == panel.result.to_dict()["results"]  # type: ignore[union-attr]
    assert set(namespace["counts"]) == {"dataset", "year", "facility_name", "cfr"}
    panel.code_button.click()
    assert panel.code.layout.display == "none"


def test_an_engine_without_facets_searches_without_them_and_says_so(engine: Any) -> None:
    api = ProtocolOnly(engine, extensions=False)
    panel = SearchPanel(api, keywords=["sterility"])
    assert panel.search() is not None and panel.result.facet_counts is None  # type: ignore[union-attr]
    assert "not offered" in panel.facets.note.value and not panel.offers_facets
    panel.search()
    assert [s["facets"] for s in api.sent] == [panel_specs(), None, None]
    assert "counts = " not in panel.show_code()
    panel.sort.value = "date"  # asked for: the engine's error is shown
    assert panel.result is None and "does not offer sort" in panel.errors.general.value


def panel_specs() -> list[dict[str, Any]]:
    return [{"name": n, "size": 50} for n in ("dataset", "year", "cfr")]


def test_the_static_copy_shows_the_facets_and_the_brushed_years(engine: Any) -> None:
    panel = SearchPanel(ProtocolOnly(engine), keywords=["sterility"])
    panel.search()
    panel.pick("year", 2019)
    page = panel.to_html()
    assert "Counts over every match" in page and "2019 – 2019" in page
    assert "relevance" in page and "Code" in page


# what was chosen comes back (issue 31): ticked rows as a DataFrame, the view as a file to
# download, datasets named as the catalog names them; a saved notebook keeps what was on screen


def test_ticked_rows_come_back_as_a_dataframe_in_the_order_shown(engine: Any) -> None:
    panel = SearchPanel(engine, keywords=["sterility"])
    assert panel.selected.empty and panel.view.empty  # nothing searched yet
    result = panel.search()
    assert result is not None and len(panel.rows.rows) >= 3
    assert panel.selected.empty
    panel.rows.rows[2].pick.value = True
    panel.rows.rows[0].pick.value = True
    chosen = panel.selected
    ids = [result.results[0]["document_id"], result.results[2]["document_id"]]
    assert list(chosen["document_id"]) == ids
    assert list(chosen.columns) == list(result.documents.columns)
    assert list(chosen["title"]) == [result.results[0]["title"], result.results[2]["title"]]
    panel.rows.select([ids[0]], False)
    assert list(panel.selected["document_id"]) == ids[1:]


def test_a_new_search_clears_the_selection(engine: Any) -> None:
    panel = SearchPanel(engine, keywords=["sterility"])
    panel.search()
    panel.rows.rows[0].pick.value = True
    panel.search()
    assert panel.selected.empty


def _link(value: str) -> tuple[str, bytes]:
    found = re.search(r'<a download="([^"]+)" href="data:[^;]+;base64,([^"]+)"', value)
    assert found, value
    return found.group(1), base64.b64decode(found.group(2))


def test_the_view_downloads_as_csv_and_excel_from_the_widget(engine: Any) -> None:
    panel = SearchPanel(engine, keywords=["media fill", "sterility"], limit=5)
    assert panel.downloads.layout.display == "none"  # nothing to download before a search
    result = panel.search()
    assert result is not None and panel.downloads.layout.display is None
    panel.more()
    shown = panel.result
    assert shown is not None and len(shown.results) > 5
    panel.csv_button.click()
    name, data = _link(panel.download.value)
    assert name == "search-media-fill.csv"
    frame = pd.read_csv(io.BytesIO(data))
    assert list(frame["document_id"]) == [r["document_id"] for r in shown.results]
    assert "dataset_name" in frame.columns
    panel.excel_button.click()
    name, data = _link(panel.download.value)
    assert name == "search-media-fill.xlsx"
    sheets = pd.read_excel(io.BytesIO(data), sheet_name=None)
    assert list(sheets) == ["Documents", "Pages"]
    assert list(sheets["Documents"]["title"]) == [r["title"] for r in shown.results]
    panel.search()
    assert panel.download.value == ""  # the file of the last view is gone with it


def test_export_says_what_it_cannot_do(engine: Any) -> None:
    panel = SearchPanel(engine, keywords=["sterility"])
    with pytest.raises(ValueError, match="run a search first"):
        panel.export("csv")
    panel.search()
    with pytest.raises(ValueError, match="csv, xlsx"):
        panel.export("pdf")


def test_facet_buttons_name_datasets_as_the_catalog_does(engine: Any) -> None:
    panel = SearchPanel(ProtocolOnly(engine), keywords=["sterility"])
    result = panel.search()
    assert result is not None
    labels = [b.description.split(" · ")[0] for b in panel.facets.buttons["dataset"]]
    names = {d.id: d.name for d in engine.datasets()}
    assert labels == [names[v] for v in result.facets["dataset"]["value"].head(len(labels))]
    assert not set(labels) & set(names)  # no id shown


def test_a_displayed_panel_keeps_its_results_and_facets_in_its_static_html(
    engine: Any, outputs: Outputs
) -> None:
    panel = SearchPanel(engine, keywords=["sterility"])
    panel._ipython_display_()
    assert "documents</b>" not in outputs.html()
    result = panel.search()
    assert result is not None
    page = html.unescape(outputs.html())
    assert f"{result.total:,} documents" in page
    assert all(r["title"] in page for r in result.results)
    assert "Counts over every match" in page and "FDA Form 483" in page
    row = panel.rows.rows[0]
    row.toggle.click()  # its best pages unfold: the output too
    assert row.doc["pages"][0]["page_num"] and "p. " in html.unescape(outputs.html())
    row.pages.children[0].children[0].click()  # the reader opens under the row
    assert html.unescape(panel.viewer.header.value) in html.unescape(outputs.html())
