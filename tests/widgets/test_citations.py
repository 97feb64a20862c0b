"""The document behind a spec citation, found through the engine interface only."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("ipywidgets", reason="pip install 'regnb[notebook]' for the widget tests")

from regnb.widgets._citations import find_document, resolve_citation, title_of
from regnb.widgets.testing import ProtocolOnly

IDS = {"FDA Form 483": "fda_483", "FDA Warning Letters": "fda_warning_letters"}


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("Form 483 long record, page 3", "Form 483 long record"),
        ("A title, with a comma, page 12", "A title, with a comma"),
        ("No page here", "No page here"),
    ],
)
def test_the_title_is_the_name_without_its_page(name: str, title: str) -> None:
    assert title_of({"name": name}) == title


@pytest.fixture(scope="module")
def plants(engine: Any) -> list[dict[str, Any]]:
    """The sample corpus's five Form 483s "for Acme Sterile plant i", best first."""
    found = engine.search(["acme sterile plant"], datasets=["fda_483"]).results
    return sorted(found, key=lambda d: d["title"])


def test_a_reader_url_names_the_document_without_a_search(engine: Any) -> None:
    api = ProtocolOnly(engine)
    cite = {
        "name": "x, page 1",
        "dataset": "FDA Form 483",
        "url": "/api/v3/documents/ab%2Fc?page_from=1",
    }
    assert find_document(api, cite, IDS) == "ab/c"
    assert api.calls == []


@pytest.mark.parametrize("plant", [0, 3])
def test_a_source_url_picks_its_document_among_those_the_title_finds(
    engine: Any, plants: list[dict[str, Any]], plant: int
) -> None:
    doc = plants[plant]
    cite = {
        "name": f"{doc['title']}, page 2",
        "dataset": "FDA Form 483",
        "url": f"{doc['url']}#page=2",
    }
    assert find_document(ProtocolOnly(engine), cite, IDS) == doc["document_id"]


def test_without_a_matching_url_the_title_decides(
    engine: Any, plants: list[dict[str, Any]]
) -> None:
    doc = plants[2]
    cite = {
        "name": f"{doc['title']}, page 1",
        "dataset": "FDA Form 483",
        "url": "https://elsewhere.test/",
    }
    assert find_document(ProtocolOnly(engine), cite, IDS) == doc["document_id"]


@pytest.mark.parametrize(
    "cite",
    [
        {"name": "Nothing like this exists, page 1", "dataset": "FDA Form 483", "url": ""},
        {"name": "the of, page 1", "dataset": "FDA Form 483", "url": ""},  # no searchable word
        {"name": ", page 1", "dataset": "FDA Form 483", "url": ""},
    ],
)
def test_a_document_that_cannot_be_found_is_none(engine: Any, cite: dict[str, Any]) -> None:
    assert find_document(ProtocolOnly(engine), cite, IDS) is None


def test_a_known_document_id_is_used_without_searching():
    class NoCalls:
        def __getattr__(self, name):
            raise AssertionError(f"the engine was asked: {name}")

    cite = {"index": 4, "name": "Some letter, page 2", "dataset": "FDA Warning Letters",
            "page_num": 2, "url": "https://x.invalid/wl#page=2", "block_id": "¶3",
            "parent_index": 3}  # fmt: skip
    cited = resolve_citation(NoCalls(), cite, [cite], {4: "the passage"}, {4: "doc-4"})
    assert (cited.document_id, cited.page, cited.passage) == ("doc-4", 2, "the passage")
