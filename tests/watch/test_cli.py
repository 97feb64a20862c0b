"""`regnb watch list|add|run|remove`: a scheduled job's view of watchlists."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

import regnb
from regnb.cli import main
from regnb.watch import COLUMNS

from ..conftest import doc

NOTHING_NEW = re.compile(r"^watchlist 'fills': nothing new since \d{4}-\d\d-\d\d \d\d:\d\d UTC$")


def write(path: Path, *docs: dict[str, Any]) -> None:
    regnb.write_corpus(
        path, {"fda_483": list(docs)}, encoder=regnb.HashingEncoder(), progress=False
    )


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    write(tmp_path / "c", doc("First 483", ["The media fill failed."], url="u/1"))
    return tmp_path / "c"


def run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def on(corpus: Path, *argv: str) -> list[str]:
    return [*argv, "--corpus", str(corpus), "--fast-encoder"]


def test_add_then_run_reports_new_documents_once(corpus, capsys):
    code, out, _ = run(capsys, *on(corpus, "watch", "add", "fills", "media fill", "-d", "fda_483"))
    assert (code, out) == (
        0,
        "watchlist 'fills' saved (from now): keywords \"media fill\" | datasets fda_483\n",
    )
    code, out, _ = run(capsys, *on(corpus, "watch", "run", "fills"))
    assert code == 0 and NOTHING_NEW.match(out.strip())
    write(corpus, doc("Second 483", ["cover", "Another media fill failed."], url="u/2"))
    code, out, _ = run(capsys, *on(corpus, "watch", "run", "fills"))
    lines = out.splitlines()
    assert code == 0 and re.match(r"watchlist 'fills': 1 new document since ", lines[0])
    assert lines[1:] == [
        "- 2020-01-01 fda_483: Second 483 (page 2)",
        "  Another media fill failed.",
    ]
    code, out, _ = run(capsys, *on(corpus, "watch", "run", "fills"))  # run marked it seen
    assert code == 0 and NOTHING_NEW.match(out.strip())


def test_no_mark_leaves_documents_new_and_json_prints_one_object_a_line(corpus, capsys):
    run(capsys, *on(corpus, "watch", "add", "fills", "media fill"))
    write(
        corpus,
        doc("Second 483", ["Media fill."], url="u/2", date="2024-03-05"),
        doc("Third 483", ["Media fill again."], url="u/3", date=None),
    )
    for _ in range(2):
        code, out, err = run(capsys, *on(corpus, "watch", "run", "fills", "--json", "--no-mark"))
        records = [json.loads(line) for line in out.splitlines()]
        assert code == 0 and [r["title"] for r in records] == ["Second 483", "Third 483"]
        assert err.splitlines()[-1].startswith("watchlist 'fills': 2 new documents since ")
    assert list(records[0]) == list(COLUMNS)
    assert (records[0]["date"], records[1]["date"]) == ("2024-03-05", None)
    assert records[0]["page_num"] == 1 and records[0]["findings"] == []
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+\+00:00", records[0]["ingested"])
    run(capsys, *on(corpus, "watch", "run", "fills", "--json"))
    code, out, err = run(capsys, *on(corpus, "watch", "run", "fills", "--json"))
    assert (code, out) == (0, "") and NOTHING_NEW.match(err.splitlines()[-1])


def test_excel_writes_the_new_documents(corpus, capsys, tmp_path):
    run(capsys, *on(corpus, "watch", "add", "fills", "media fill"))
    write(corpus, doc("Second 483", ["Media fill."], url="https://example.org/2"))
    target = tmp_path / "new.xlsx"
    code, out, _ = run(capsys, *on(corpus, "watch", "run", "fills", "--excel", str(target)))
    assert code == 0 and out.strip().endswith(f"; written to {target}")
    sheet = load_workbook(target)["New"]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == COLUMNS and rows[1][2] == "Second 483"
    assert sheet.cell(2, 3).hyperlink.target == "https://example.org/2"


def test_list_and_remove(corpus, capsys):
    code, out, _ = run(capsys, "watch", "list")
    assert (code, out) == (0, "no watchlists; save one with: regnb watch add NAME KEYWORDS...\n")
    run(capsys, *on(corpus, "watch", "add", "fills", "media fill"))
    run(
        capsys,
        *on(corpus, "watch", "add", "acme", "--firm", "Acme Sterile", "--firm", "FEI 3001234567"),
    )
    code, out, _ = run(capsys, "watch", "list", "--corpus", str(corpus))
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["NAME", "LAST", "SEEN", "(UTC)", "WATCHES"]
    assert [line.split()[0] for line in lines[1:]] == ["acme", "fills"]
    assert lines[1].endswith("firms Acme Sterile, FEI 3001234567")
    code, out, _ = run(capsys, "watch", "remove", "acme")
    assert (code, out) == (0, "watchlist 'acme' removed\n")
    assert len(run(capsys, "watch", "list")[1].splitlines()) == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["watch", "run", "nope"],
            "error: not_found (name): no watchlist 'nope'; none is saved yet",
        ),
        (["watch", "remove", "nope"], "error: not_found (name): no watchlist 'nope'"),
        (["watch", "add", "a b", "x"], "error: invalid_request (name): a watchlist name is"),
        (
            ["watch", "add", "x"],
            "error: invalid_request (keywords): a watchlist needs keywords or firms",
        ),
        (
            ["watch", "add", "x", "y", "--since", "soon"],
            "error: invalid_request (since): since must be",
        ),
        (["watch", "add", "x", "y", "--filters", "[]"], "error: invalid_filter (filters)"),
    ],
)
def test_errors_exit_2_with_one_line(corpus, capsys, argv, message):
    code, _, err = run(capsys, *on(corpus, *argv) if argv[1] != "remove" else argv)
    assert code == 2 and err.splitlines()[-1].startswith(message)


def test_run_and_json_are_exclusive_with_excel(corpus, capsys):
    with pytest.raises(SystemExit) as info:
        main(on(corpus, "watch", "run", "fills", "--json", "--excel", "x.xlsx"))
    assert info.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
