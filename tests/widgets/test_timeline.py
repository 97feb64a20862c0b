"""FirmTimeline without a browser: a name resolved (several firms offered in a menu), the
firm's documents one row each with findings, CFR sections and links, a row's button opening the
document viewer at its page, errors and a static HTML copy."""

from __future__ import annotations

import html
from collections.abc import Iterator
from typing import Any

import pytest

import regnb
from regnb.settings import Settings

pytest.importorskip("ipywidgets", reason="pip install 'regnb[notebook]' for the widget tests")

from regnb.widgets import FirmTimeline
from regnb.widgets.testing import ProtocolOnly
from tests.firm_corpus import linked_documents
from tests.outputs_support import Outputs

HASHING = regnb.HashingEncoder()


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    root = tmp_path_factory.mktemp("timeline")
    regnb.write_corpus(root / "corpus", linked_documents(), encoder=HASHING, progress=False)
    settings = Settings(**{**Settings.from_env().__dict__, "home": root / "home"})
    with regnb.Engine(root / "corpus", encoder=HASHING, settings=settings, progress=False) as e:
        yield e


@pytest.fixture(params=["local", "protocol-only"])
def api(request: pytest.FixtureRequest, eng: regnb.Engine) -> Any:
    return eng if request.param == "local" else ProtocolOnly(eng)


def test_a_firm_by_name_shows_its_documents_in_date_order(api: Any, eng: regnb.Engine) -> None:
    view = FirmTimeline(api, "Acme Sterile")
    expected = eng.timeline(eng.firm("Acme Sterile").iloc[0])
    assert view.timeline is not None
    assert view.timeline["document_id"].tolist() == expected["document_id"].tolist()
    assert len(view.rows.children) == len(expected)
    assert "Acme Sterile" in view.header.value and "FEI 3005551234" in view.header.value
    html = " ".join(row.children[1].value for row in view.rows.children)
    assert "Observation 1" in html and "21 CFR 211.113" in html
    assert "followed by warning letter" in html and "repeat finding" in html
    assert view.choice.layout.display == "none"  # one firm: nothing to pick


def test_a_rows_button_opens_its_page_with_its_passage_marked(api: Any) -> None:
    view = FirmTimeline(api, "Acme Sterile")
    assert view.timeline is not None
    row = view.timeline.iloc[1]
    view.rows.children[1].children[0].click()
    assert view.viewer.document_id == row["document_id"]
    assert view.viewer.page == int(row["page_num"])
    assert view.viewer.found is (bool(row["passage"]) or None)


def test_a_name_of_several_firms_offers_them_and_shows_the_first(api: Any) -> None:
    view = FirmTimeline(api, "A")  # begins "Acme Sterile Inc." and others
    assert view.candidates is not None and len(view.candidates) >= 2
    assert view.choice.layout.display is None
    assert len(view.choice.options) == len(view.candidates)
    second = view.choice.options[1][1]
    view.choice.value = second
    assert view.timeline is not None
    assert view.timeline.firm["id"] == view.candidates.loc[second, "id"]


def test_a_name_of_no_firm_and_a_bad_id_are_said(api: Any) -> None:
    view = FirmTimeline(api, "Zzyzx Nonesuch")
    assert "No firm of the corpus matches" in view.errors.general.value
    view.show("no-such-firm-000000")
    assert "no firm" in view.errors.general.value.lower()


def test_it_has_a_static_copy(api: Any) -> None:
    html = FirmTimeline(api, "Acme Sterile").to_html()
    assert "Acme Sterile" in html and "<script" not in html


def test_a_displayed_timeline_keeps_the_firm_shown_and_the_page_opened(
    api: Any, outputs: Outputs
) -> None:
    view = FirmTimeline(api)
    view._ipython_display_()
    view.find("Acme Sterile")
    assert view.timeline is not None
    page = html.unescape(outputs.html())
    assert all(title in page for title in view.timeline["title"])
    view.open_event(0)
    assert html.unescape(view.viewer.header.value) in html.unescape(outputs.html())
