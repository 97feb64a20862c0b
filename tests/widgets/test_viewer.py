"""DocumentViewer without a browser: open at a page, move and jump, the header, a marked passage,
and errors from the engine."""

from __future__ import annotations

import html
import inspect
from typing import Any

import pytest

import regnb

pytest.importorskip("ipywidgets", reason="pip install 'regnb[notebook]' for the widget tests")

from regnb.widgets import DocumentViewer
from regnb.widgets._viewer import NOT_ON_PAGE
from regnb.widgets.testing import ProtocolOnly


@pytest.fixture(scope="module")
def long_record(engine: Any) -> dict[str, Any]:
    """The sample corpus's seven-page Form 483, as a search result item."""
    found = engine.search(["long record"], datasets=["fda_483"]).results
    return next(d for d in found if d["title"] == "Form 483 long record")


@pytest.fixture(params=["local", "protocol-only"])
def api(request: pytest.FixtureRequest, engine: Any) -> Any:
    return engine if request.param == "local" else ProtocolOnly(engine)


def test_it_opens_at_the_page_asked_with_the_document_header(
    api: Any, long_record: dict[str, Any]
) -> None:
    viewer = DocumentViewer(api, long_record["document_id"], page=3, document=long_record)
    assert viewer.page == 3 and viewer.total_pages == 7
    assert "Page 3 of the long record" in viewer.body.value
    head = viewer.header.value
    assert "Form 483 long record" in head and "FDA Form 483" in head  # display name
    assert "2019-05-01" in head and "3999999" in head and "Long Works" in head
    assert 'href="https://example.test/483/long"' in head
    assert (viewer.page_input.value, viewer.page_input.max) == (3, 7)


@pytest.mark.parametrize(
    ("moves", "page"),
    [
        (["next"], 4),
        (["prev", "prev"], 1),
        (["prev", "prev", "prev"], 1),  # the button is disabled on page 1
        (["jump 7", "next"], 7),
        (["jump 5", "prev"], 4),
    ],
)
def test_it_moves_page_by_page_and_jumps(
    engine: Any, long_record: dict[str, Any], moves: list[str], page: int
) -> None:
    viewer = DocumentViewer(engine, long_record["document_id"], page=3)
    for move in moves:
        if move.startswith("jump"):
            viewer.page_input.value = int(move.split()[1])
        elif move == "next" and not viewer.next_button.disabled:
            viewer.next_button.click()
        elif move == "prev" and not viewer.prev_button.disabled:
            viewer.prev_button.click()
    assert viewer.page == page and f"Page {page} of the long record" in viewer.body.value
    assert viewer.page_input.value == page
    assert viewer.prev_button.disabled is (page == 1)
    assert viewer.next_button.disabled is (page == 7)


def test_a_highlight_is_marked_on_every_page_that_holds_it(
    engine: Any, long_record: dict[str, Any]
) -> None:
    viewer = DocumentViewer(
        engine, long_record["document_id"], page=2, highlight="sterility\n review 2"
    )
    assert viewer.found is True
    assert "<mark>sterility review 2</mark>" in viewer.body.value
    assert viewer.note.layout.display == "none"
    viewer.next_button.click()
    assert viewer.found is False and "<mark>" not in viewer.body.value
    assert NOT_ON_PAGE in viewer.note.value


def test_open_shows_another_document(engine: Any, long_record: dict[str, Any]) -> None:
    viewer = DocumentViewer(engine=engine)
    assert viewer.read_result is None and viewer.next_button.disabled
    guidance = engine.search(["aseptic"], datasets=["fda_guidance"]).results[0]
    viewer.open(long_record["document_id"], page=6)
    read = viewer.open(guidance["document_id"], page=1, highlight="aseptic processing")
    assert read is not None and viewer.document_id == guidance["document_id"]
    assert viewer.total_pages == 2 and "<mark>aseptic processing</mark>" in viewer.body.value


def test_a_page_past_the_end_shows_the_last_page(engine: Any, long_record: dict[str, Any]) -> None:
    viewer = DocumentViewer(engine, long_record["document_id"], page=40)
    assert viewer.page == 7


@pytest.mark.parametrize(
    ("document_id", "plan", "message"),
    [("no-such-document", "enterprise", "no document"), (None, "free", "enterprise plan")],
)
def test_an_engine_error_is_shown(
    engine: Any, document_id: str | None, plan: str, message: str
) -> None:
    crl = engine.search(["sterility"], datasets=["fda_crl"]).results[0]["document_id"]

    class PlanEngine(ProtocolOnly):
        def __getattr__(self, name: str) -> Any:
            if name == "read":
                return lambda *a, **k: engine.read(*a, **k, plan=plan)
            return super().__getattr__(name)

    viewer = DocumentViewer(PlanEngine(engine), document_id or crl)
    assert viewer.read_result is None
    assert message in html.unescape(viewer.errors.general.value)


def test_the_engine_comes_first_as_in_the_other_widgets(engine: Any) -> None:
    from regnb.widgets import ResearchChat, SearchPanel

    for widget in (DocumentViewer, SearchPanel, ResearchChat):
        first = next(iter(inspect.signature(widget).parameters))
        assert first == "engine", widget


def test_the_old_order_still_works_with_a_deprecation_warning(
    engine: Any, long_record: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.warns(DeprecationWarning, match="the engine comes first"):
        viewer = DocumentViewer(long_record["document_id"], engine, page=3)
    assert viewer.engine is engine and viewer.page == 3
    monkeypatch.setattr(regnb, "default_engine", lambda: engine)
    with pytest.warns(DeprecationWarning):
        viewer = DocumentViewer(long_record["document_id"], page=2)  # the default engine
    assert viewer.engine is engine and viewer.page == 2


def test_the_viewer_has_a_static_html_fallback_of_its_state(
    engine: Any, long_record: dict[str, Any]
) -> None:
    viewer = DocumentViewer(engine, long_record["document_id"], page=3, highlight="review 3")
    bundle = viewer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    page = bundle["text/html"]
    assert "Page 3 of the long record" in page and "<mark>" in page
    assert "Form 483 long record" in page and "of 7" in page
    viewer.next_button.click()
    assert "Page 4 of the long record" in viewer._repr_mimebundle_()["text/html"]
