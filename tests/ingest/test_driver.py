"""The one ingest loop: readers yield records, the driver counts, reports and validates once."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from regnb import corpus as corpus_module
from regnb import ingest
from regnb.encoder import HashingEncoder
from regnb.ingest._driver import Opened, Reader, ReadError, Record, run_ingest
from regnb.ingest._run import IngestRun
from tests.fixtures.ingest.support import documents


def _doc(title: str, text: str = "some text", date: str | None = None) -> dict[str, Any]:
    return {"key": title, "title": title, "pages": [text], "date": date, "fields": {}}


class FakeReader(Reader):
    """Files named after what they do: good, broken, midway, rejects, empty."""

    suffixes = (".txt",)
    empty = "nothing to read"

    def prepare(self, run: IngestRun) -> None:
        run.prepare("fda_483")

    def open(self, path: Path, run: IngestRun) -> Opened:
        if path.stem == "broken":
            raise ReadError("cannot read the file: broken on purpose", "fda_483")
        return Opened("fda_483", self._records(path))

    def _records(self, path: Path) -> Iterator[Record]:
        where = str(path)
        yield Record(where, _doc(f"{path.stem} 1"), problems=("a note",))
        if path.stem == "midway":
            raise ReadError("cannot read the file after record 1: truncated")
        if path.stem == "rejects":
            yield Record(f"{where}:2", reason="no title")
            yield Record(f"{where}:3", _doc("bad date", date="2019-13-01"))
        if path.stem == "empty":
            yield Record(f"{where}:2", _doc("blank", text="  "))


def _files(folder: Path, *names: str) -> Path:
    folder.mkdir()
    for name in names:
        (folder / f"{name}.txt").write_text("x")
    (folder / "ignored.md").write_text("not a .txt file")
    return folder


def test_the_driver_counts_reports_and_goes_on_after_a_bad_file(tmp_path: Path) -> None:
    folder = _files(tmp_path / "in", "good", "broken", "midway", "rejects", "empty")
    summary = run_ingest(
        folder, FakeReader(), corpus=tmp_path / "c", encoder=HashingEncoder(), progress=False
    )
    row = summary.set_index("dataset").loc["fda_483"]
    assert (row.files, row.files_failed, row.documents, row.written, row.rejected) == (
        5,
        2,
        7,
        4,
        3,
    )
    problems = {(p["file"], p["reason"]) for p in summary.attrs["problems"].to_dict("records")}
    assert problems == {
        *((str(folder / f"{n}.txt"), "a note") for n in ("good", "midway", "rejects", "empty")),
        (str(folder / "broken.txt"), "cannot read the file: broken on purpose"),
        (str(folder / "midway.txt"), "cannot read the file after record 1: truncated"),
        (f"{folder / 'rejects.txt'}:2", "record rejected: no title"),
        (
            f"{folder / 'rejects.txt'}:3",
            "record rejected: fda_483.date must be an ISO date YYYY-MM-DD or None, "
            "got '2019-13-01'",
        ),
        (f"{folder / 'empty.txt'}:2", "record rejected: nothing to read"),
    }
    titles = sorted(documents(tmp_path / "c")["title"])
    assert titles == ["empty 1", "good 1", "midway 1", "rejects 1"]


def test_an_error_outside_reading_a_file_ends_the_run(tmp_path: Path) -> None:
    class Buggy(FakeReader):
        def open(self, path: Path, run: IngestRun) -> Opened:
            raise KeyError("a bug, not a bad file")

    folder = _files(tmp_path / "in", "good")
    with pytest.raises(KeyError):
        run_ingest(folder, Buggy(), corpus=tmp_path / "c", encoder=HashingEncoder(), progress=False)


def test_each_document_is_validated_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    original = corpus_module.validate_document

    def counting(dataset: Any, doc: Any, where: str) -> dict[str, Any]:
        calls.append(where)
        return original(dataset, doc, where)

    monkeypatch.setattr(corpus_module, "validate_document", counting)
    monkeypatch.setattr("regnb.ingest._run.validate_document", counting)
    folder = _files(tmp_path / "in", "good", "rejects")
    summary = run_ingest(
        folder, FakeReader(), corpus=tmp_path / "c", encoder=HashingEncoder(), progress=False
    )
    assert int(summary["written"].sum()) == 2
    assert len(calls) == 3  # two good documents and the one with a bad date


def _parameters(function: Any) -> list[tuple[str, str, Any]]:
    return [
        (p.name, p.kind.name, p.default) for p in inspect.signature(function).parameters.values()
    ]


COMMON = [
    ("encoder", "KEYWORD_ONLY", None),
    ("device", "KEYWORD_ONLY", None),
    ("progress", "KEYWORD_ONLY", True),
    ("runner", "KEYWORD_ONLY", "local"),  # "ray": embedded on Ray (tests/test_ray.py)
    ("ray_address", "KEYWORD_ONLY", None),
]
FILES = [
    ("source", "POSITIONAL_OR_KEYWORD", inspect.Parameter.empty),
    ("dataset", "KEYWORD_ONLY", inspect.Parameter.empty),
    ("corpus", "KEYWORD_ONLY", inspect.Parameter.empty),
    ("metadata", "KEYWORD_ONLY", None),
    ("create_dataset", "KEYWORD_ONLY", None),
    ("jurisdiction", "KEYWORD_ONLY", None),
    *COMMON,
]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("pdf", FILES),
        ("html", FILES),
        (
            "jsonl",
            [
                ("source", "POSITIONAL_OR_KEYWORD", inspect.Parameter.empty),
                ("corpus", "KEYWORD_ONLY", inspect.Parameter.empty),
                ("dataset", "KEYWORD_ONLY", None),
                ("create_dataset", "KEYWORD_ONLY", None),
                ("jurisdiction", "KEYWORD_ONLY", None),
                *COMMON,
            ],
        ),
        (
            "openfda",
            [
                ("source", "POSITIONAL_OR_KEYWORD", inspect.Parameter.empty),
                ("corpus", "KEYWORD_ONLY", inspect.Parameter.empty),
                *COMMON,
            ],
        ),
        (
            "clinicaltrials",
            [
                ("source", "POSITIONAL_OR_KEYWORD", inspect.Parameter.empty),
                ("corpus", "KEYWORD_ONLY", inspect.Parameter.empty),
                ("dataset", "KEYWORD_ONLY", "fda_clinical_trials"),
                *COMMON,
            ],
        ),
    ],
)
def test_the_connectors_keep_their_signatures(name: str, expected: list[Any]) -> None:
    assert _parameters(getattr(ingest, name)) == expected


def test_the_public_connectors_are_listed() -> None:
    assert ingest.__all__ == ["clinicaltrials", "fetch_openfda", "html", "jsonl", "openfda", "pdf"]
