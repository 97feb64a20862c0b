"""The "Code" button's text: the exact `eng.search(...)` and `eng.facets(...)` calls of a panel's
state, valid Python that runs against an engine and makes the same calls."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("ipywidgets", reason="pip install 'regnb[notebook]' for the widget tests")

from regnb.widgets._code import SearchState, search_code

LONG_QUERY = "Which firms failed to validate the aseptic filling of sterile injectables?"


@pytest.mark.parametrize(
    ("state", "code"),
    [
        (SearchState(("sterility",)), "res = eng.search(['sterility'])\n"),
        (
            SearchState(("media fill", '"fill media"'), "Who failed?"),
            "res = eng.search(['media fill', '\"fill media\"'], 'Who failed?')\n",
        ),
        (
            SearchState(("x",), datasets=("fda_483",), sort="date", limit=50),
            "res = eng.search(['x'], datasets=['fda_483'], sort='date', limit=50)\n",
        ),
        (
            SearchState(("x",), date_from="2015-01-01", facets=("dataset", "year")),
            "res = eng.search(['x'], date_from='2015-01-01')\n"
            "counts = eng.facets(['x'], by=['dataset', 'year'], date_from='2015-01-01')\n",
        ),
        (
            SearchState(("x",), facets=({"name": "year", "size": 50}, {"name": "cfr", "size": 50})),
            "res = eng.search(['x'])\ncounts = eng.facets(['x'], by=['year', 'cfr'], size=50)\n",
        ),
        (
            SearchState(
                ("sterility",),
                LONG_QUERY,
                datasets=("fda_483",),
                filters={"fda_483": {"fei_number": "3001"}},
            ),
            "res = eng.search(\n"
            "    ['sterility'],\n"
            f"    {LONG_QUERY!r},\n"
            "    datasets=['fda_483'],\n"
            "    filters={'fda_483': {'fei_number': '3001'}},\n"
            ")\n",
        ),
    ],
    ids=["keywords", "query-quotes", "sort-limit", "facets", "sized-facets", "long"],
)
def test_the_code_of_a_state_reads_as_a_user_would_write_it(state: SearchState, code: str):
    assert search_code(state) == code


class Recorder:
    """An engine that records the calls made on it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def search(self, *args: Any, **kwargs: Any) -> str:
        self.calls.append(("search", args, kwargs))
        return "result"

    def facets(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(("facets", args, kwargs))
        return {}


def test_the_code_runs_and_makes_the_calls_of_the_state():
    state = SearchState(
        ("sterility", "media fill"),
        "Who failed?",
        datasets=("fda_483", "fda_warning_letters"),
        filters={"fda_483": {"fei_number": "3001"}},
        date_from="2015-01-01",
        date_to="2019-12-31",
        sort="date_asc",
        limit=5,
        facets=({"name": "dataset", "size": 50}, {"name": "year", "size": 50}),
    )
    eng = Recorder()
    namespace: dict[str, Any] = {"eng": eng}
    exec(search_code(state), namespace)
    where = {
        "datasets": ["fda_483", "fda_warning_letters"],
        "filters": {"fda_483": {"fei_number": "3001"}},
        "date_from": "2015-01-01",
        "date_to": "2019-12-31",
    }
    words = (["sterility", "media fill"], "Who failed?")
    assert eng.calls == [
        ("search", words, {**where, "sort": "date_asc", "limit": 5}),
        ("facets", words, {"by": ["dataset", "year"], **where, "size": 50}),
    ]
    assert namespace["res"] == "result" and namespace["counts"] == {}


def test_a_state_is_made_from_a_panels_request():
    request = {"keywords": ["x"], "query": None, "datasets": ["fda_483"], "filters": None}
    request |= {"date_from": None, "date_to": "2020-01-01"}
    state = SearchState.of(request, sort="date", limit=7, facets=["year"])
    assert state == SearchState(
        ("x",), None, ("fda_483",), None, None, "2020-01-01", "date", 7, ("year",)
    )
