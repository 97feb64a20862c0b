"""The facets beside the search panel's results: which are shown for which datasets, what a
click on a value does to the search (a table), the year histogram and its slider."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

pytest.importorskip("ipywidgets", reason="pip install 'regnb[notebook]' for the widget tests")

from regnb.catalog import load_catalog
from regnb.widgets._facets import (
    FacetBox,
    Narrowing,
    YearHistogram,
    cfr_term,
    facet_names,
    field_term,
    narrowing,
)
from regnb.widgets._static import static_html

CATALOG = load_catalog()


def counts(rows: list[tuple[Any, int]]) -> pd.DataFrame:
    return pd.DataFrame(
        [{"value": v, "documents": n, "pages": 2 * n} for v, n in rows],
        columns=["value", "documents", "pages"],
    )


@pytest.mark.parametrize(
    ("datasets", "names"),
    [
        ([], ["dataset", "year", "cfr"]),
        (["fda_warning_letters"], ["dataset", "year", "company", "issuing_office", "cfr"]),
        (["fda_guidance"], ["dataset", "year", "center", "status", "cfr"]),
        (["fda_recalls", "fda_warning_letters"], ["dataset", "year", "company", "cfr"]),
        (["fda_483"], ["dataset", "year", "facility_name", "cfr"]),  # not fei_number: many values
    ],
)
def test_the_facets_shown_are_the_small_valued_fields_every_dataset_has(datasets, names):
    assert facet_names([CATALOG[d] for d in datasets]) == names


@pytest.mark.parametrize(
    ("name", "value", "selected", "expected"),
    [
        ("dataset", "fda_483", [], Narrowing(datasets=("fda_483",))),
        ("year", "2019", [], Narrowing(date_from="2019-01-01", date_to="2019-12-31")),
        ("year", 2020, [], Narrowing(date_from="2020-01-01", date_to="2020-12-31")),
        ("month", "2024-02", [], Narrowing(date_from="2024-02-01", date_to="2024-02-29")),
        ("month", "2023-04", [], Narrowing(date_from="2023-04-01", date_to="2023-04-30")),
        ("cfr", "21 CFR 211.113", [], Narrowing(term="cfr:211.113")),
        ("cfr", "21 CFR 820", [], Narrowing(term="cfr:820")),
        ("cfr", "42 CFR 493.1253", [], Narrowing(term="cfr:42/493.1253")),
        (
            "company",
            "Hospira",
            ["fda_warning_letters", "fda_recalls"],
            Narrowing(
                filters={
                    "fda_warning_letters": {"company": "Hospira"},
                    "fda_recalls": {"company": "Hospira"},
                }
            ),
        ),
        ("company", "Hospira", [], Narrowing(term="company:Hospira")),
        ("company", "Acme Labs, Inc.", [], Narrowing(term='company:"Acme Labs, Inc."')),
        ("fei_number", "3000975914", ["fda_guidance"], Narrowing(term="fei_number:3000975914")),
    ],
)
def test_a_picked_value_narrows_the_search(name, value, selected, expected):
    assert narrowing(name, value, [CATALOG[d] for d in selected]) == expected


@pytest.mark.parametrize("value", ["", "Part eight", "§"])
def test_a_cfr_value_that_names_no_section_is_refused(value: str):
    with pytest.raises(ValueError, match="CFR"):
        cfr_term(value)


def test_a_field_term_quotes_values_of_more_than_one_word():
    assert field_term("product_code", "LZA") == "product_code:LZA"
    assert field_term("company", 'Say "no" Inc') == 'company:"Say  no  Inc"'


def test_the_year_histogram_draws_every_year_and_brushes_on_release():
    brushed: list[tuple[int, int]] = []
    hist = YearHistogram(lambda a, b: brushed.append((a, b)))
    hist.show(counts([(2019, 4), ("2015", 1), (2021, 2)]))
    assert hist.slider.continuous_update is False
    assert (hist.slider.min, hist.slider.max, hist.slider.value) == (2015, 2021, (2015, 2021))
    assert hist.bars.value.count("<div title=") == 7  # 2015..2021, the empty years too
    assert 'title="2019: 4 documents"' in hist.bars.value and "height:60px" in hist.bars.value
    assert brushed == []  # drawing is not brushing
    hist.slider.value = (2017, 2019)
    assert brushed == [(2017, 2019)]
    hist.show(counts([(1990, 1), (1995, 3)]), brushed=(1992, 2001))
    assert (hist.slider.min, hist.slider.max, hist.slider.value) == (1990, 1995, (1992, 1995))
    assert "years" in static_html(hist) and "1992 – 1995" in static_html(hist)


def test_a_year_facet_without_years_hides_the_slider():
    hist = YearHistogram(lambda a, b: None)
    hist.show(counts([]))
    assert hist.slider.layout.display == "none" and "no dated documents" in hist.bars.value


def test_the_facet_box_shows_values_as_buttons_that_pick_them():
    picked: list[tuple[str, Any]] = []
    box = FacetBox(lambda n, v: picked.append((n, v)), lambda a, b: None)
    box.show(
        {
            "dataset": counts([("fda_483", 5), ("fda_recalls", 2)]),
            "year": counts([(2019, 4)]),
            "company": counts([(f"firm {i}", 20 - i) for i in range(12)]),
            "cfr": counts([]),
        },
        None,
    )
    assert [b.description for b in box.buttons["dataset"]] == ["fda_483 · 5", "fda_recalls · 2"]
    assert len(box.buttons["company"]) == 8 and box.buttons["cfr"] == []
    assert box.years in box.sections.children
    box.buttons["company"][1].click()
    assert picked == [("company", "firm 1")]
    assert "none" in static_html(box) and "fda_483 · 5" in static_html(box)
    box.unavailable("not here")
    assert box.sections.children == () and "not here" in box.note.value
