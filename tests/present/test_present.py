"""Presentation in one place (`regnb.present`): results show their own engine's dataset names
(a dataset a corpus adds shows by its name in HTML, Excel and plots, locally and over HTTP); one
Excel writer; one citation-marker parser; the old module names still import."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import openpyxl
import pytest

import regnb
from regnb.client import connect
from regnb.client.testing import AppTransport, Unclosed
from regnb.present import html
from regnb.present.markers import marker_numbers, markers, strip_markers, used_markers
from regnb.present.names import DatasetNames, package_names
from regnb.server import create_app
from regnb.server.accounts import Accounts
from regnb.server.testing import make_keys
from tests.conftest import doc

PACKAGE = Path(regnb.__file__).parent
ACME = {
    "id": "acme_sops",
    "name": "ACME Standard Operating Procedures",
    "jurisdiction": "US · ACME",
    "date_field": "effective",
    "fields": ["owner", "effective"],
    "filters": {"owner": {"type": "string", "description": "keyword match on owner"}},
}
NAME = ACME["name"]


@pytest.fixture
def acme(make_engine: Callable[..., regnb.Engine]) -> regnb.Engine:
    """A corpus that adds a dataset of its own, unknown to the package catalog."""
    docs = {
        "acme_sops": [
            doc("Gowning SOP", ["aseptic gowning steps"], fields={"owner": "QA"}),
            doc("Cleaning SOP", ["aseptic cleaning"], date="2021-03-04", fields={"owner": "QC"}),
        ]
    }
    return make_engine(docs, catalog=[ACME])


def test_the_package_catalog_does_not_know_the_corpus_dataset() -> None:
    assert package_names()("acme_sops") == "acme_sops"


def test_search_html_names_a_corpus_dataset_by_its_catalog_name(acme: regnb.Engine) -> None:
    result = acme.search(["aseptic"])
    shown = result._repr_html_()
    assert f"{NAME} (" in shown  # the statuses line
    assert shown.count(f">{NAME}</span>") == 2  # one badge per document


def test_read_and_legacy_html_name_a_corpus_dataset(acme: regnb.Engine) -> None:
    document_id = acme.search(["gowning"]).results[0]["document_id"]
    assert f">{NAME}</span>" in acme.read(document_id)._repr_html_()
    legacy = acme.legacy_search("aseptic")
    assert f">{NAME}</span>" in legacy._repr_html_()
    doc_id = legacy.rows[0]["doc_id"]
    assert f">{NAME}</span>" in acme.legacy_contents(doc_id)._repr_html_()


def test_excel_names_a_corpus_dataset(acme: regnb.Engine, tmp_path: Path) -> None:
    book = openpyxl.load_workbook(acme.search(["aseptic"]).to_excel(tmp_path / "r.xlsx"))
    for sheet in ("Documents", "Pages"):
        rows = list(book[sheet].iter_rows(values_only=True))
        column = rows[0].index("dataset_name")
        assert {r[column] for r in rows[1:]} == {NAME}


def test_csv_names_a_corpus_dataset(acme: regnb.Engine, tmp_path: Path) -> None:
    text = acme.search(["aseptic"]).to_csv(tmp_path / "r.csv").read_text(encoding="utf-8")
    assert NAME in text


def test_plots_name_a_corpus_dataset(acme: regnb.Engine) -> None:
    plots = acme.search(["aseptic"]).plot
    labels = [t.get_text() for t in plots.datasets().axes[0].get_yticklabels()]
    assert labels == ["ACME Standard Operating\nProcedures"]
    legend = plots.timeline().axes[0].get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["ACME Standard Operating\nProcedures"]


def test_a_result_of_all_pages_keeps_its_engines_names(acme: regnb.Engine) -> None:
    result = acme.search_all(["aseptic"], limit=1)
    assert f">{NAME}</span>" in result._repr_html_()


@pytest.fixture
def remote(acme: regnb.Engine, tmp_path: Path) -> Iterator[regnb.Client]:
    accounts = Accounts(tmp_path / "accounts.sqlite3")
    settings = dataclasses.replace(acme.settings, rate_limit_per_minute=0)
    app = create_app(acme, settings=settings, accounts=accounts)
    transport = AppTransport(app)
    try:
        with connect(
            "http://regnb.test", make_keys(accounts)["ent"], transport=Unclosed(transport)
        ) as client:
            yield client
    finally:
        transport.close()
        app.state.regnb.conversations.close()
        accounts.close()


def test_a_remote_result_shows_the_servers_dataset_names(
    remote: regnb.Client, tmp_path: Path
) -> None:
    result = remote.search(["aseptic"])
    assert f">{NAME}</span>" in result._repr_html_()
    document_id = result.results[0]["document_id"]
    assert f">{NAME}</span>" in remote.read(document_id)._repr_html_()
    rows = list(openpyxl.load_workbook(result.to_excel(tmp_path / "r.xlsx"))["Documents"].values)
    assert {r[rows[0].index("dataset_name")] for r in rows[1:]} == {NAME}


def test_names_given_explicitly_win() -> None:
    body = {
        "results": [],
        "datasets": {"fda_483": {"status": "ok", "matches": 0, "pages": 0}},
        "total": 0,
        "next_offset": None,
        "ranking": "bm25",
    }
    result = regnb.SearchResult.from_dict(body, names=DatasetNames({"fda_483": "Form 483s"}))
    assert "Form 483s (" in result._repr_html_()
    assert "Other name (" in html.search_html(result, DatasetNames({"fda_483": "Other name"}))
    plain = regnb.SearchResult.from_dict(body)  # made by no engine: the package catalog's
    assert "FDA Form 483 Inspection Observations (" in plain._repr_html_()


def test_dataset_names_load_once_and_fall_back_to_the_id() -> None:
    calls: list[int] = []

    def load() -> dict[str, str]:
        calls.append(1)
        return {"a": "Alpha"}

    names = DatasetNames(load=load)
    assert (names("a"), names("b"), names("a")) == ("Alpha", "b", "Alpha")
    assert calls == [1]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("regnb.display", "regnb.present.html"),
        ("regnb.export", "regnb.present.export"),
        ("regnb.plot", "regnb.present.plots"),
        ("regnb.markdown", "regnb.present.markdown"),
    ],
)
def test_the_old_module_names_still_import_the_same_objects_with_a_warning(
    old: str, new: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in (old, old.replace("regnb.", "regnb._compat.")):
        monkeypatch.delitem(sys.modules, name, raising=False)
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated and goes in regnb 0.3"):
        before = importlib.import_module(old)
    after = importlib.import_module(new)
    assert before.__all__ == sorted(before.__all__)
    for name in after.__all__:
        assert getattr(before, name) is getattr(after, name)


def _sources() -> Iterator[tuple[str, str]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(PACKAGE.parent).as_posix(), path.read_text(encoding="utf-8")


def _imported_modules(source: str) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_one_excel_writer() -> None:
    writers = [
        path
        for path, source in _sources()
        if any(m.split(".")[0] in ("openpyxl", "xlsxwriter") for m in _imported_modules(source))
        or "ExcelWriter(" in source
    ]
    assert writers == ["regnb/present/excel.py"]


def test_one_citation_marker_parser() -> None:
    pattern = re.compile(r"\\\[\\d\+?\\\]|\\\[\(\\d\+\)\\\]")  # \[\d+\] or \[(\d+)\] in a regex
    parsers = [path for path, source in _sources() if pattern.search(source)]
    not_markers = ["regnb/widgets/_common.py"]  # `keywords[1]`: a field path's index
    assert parsers == ["regnb/present/markers.py", *not_markers]


@pytest.mark.parametrize(
    ("text", "numbers", "stripped"),
    [
        ("Runs failed [3][5]. Again [3].", [3, 5, 3], "Runs failed. Again."),
        ("See [2](https://example.com) and [4].", [4], "See [2](https://example.com) and."),
        ("No markers here.", [], "No markers here."),
        ("Year [2021] cited [12]", [2021, 12], "Year cited"),
    ],
)
def test_markers_are_read_one_way(text: str, numbers: list[int], stripped: str) -> None:
    assert marker_numbers(text) == numbers
    assert used_markers(text) == list(dict.fromkeys(numbers))
    assert strip_markers(text) == stripped
    assert markers([1, 2]) == "[1][2]"


def test_the_words_that_name_a_file_are_listed_once() -> None:
    from regnb.agent import _plan as plan
    from regnb.agent import _vocab as vocab
    from regnb.agent.produce import _title

    assert vocab.FILE_WORDS <= plan.FORMAT_STOP
    assert vocab.FILE_WORDS <= _title._SLUG_STOPWORDS
    lists = [
        path
        for path, source in _sources()
        if re.search(r"\bspreadsheets?\s+(?:slides?|deck)", source)  # a word list, not a regex
    ]
    assert lists == []
