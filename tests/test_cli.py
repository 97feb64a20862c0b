"""The `regnb` command over a small corpus."""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys

import pytest

import regnb
import regnb.corpus.write
from regnb.cli import EXIT_PIPE, build_parser, exit_code, main, quote_read_id
from regnb.errors import CorpusError, InvalidRequest, NotFound, SearchTimeout

from . import damage_support as damage
from .conftest import doc


@pytest.fixture
def corpus(tmp_path):
    regnb.write_corpus(
        tmp_path,
        {"fda_483": [doc("Acme sterility 483", ["sterility failure", "second page"])]},
        encoder=regnb.HashingEncoder(),
        progress=False,
    )
    return tmp_path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_search_prints_a_table(corpus, capsys):
    code, out, _ = run(capsys, "search", "sterility", "--corpus", str(corpus), "--fast-encoder")
    assert code == 0
    assert "1 documents, ranking: similarity" in out and "Acme sterility 483" in out
    assert "matches=2 pages=2" in out  # the title matches both pages


def test_search_json_prints_the_envelope(corpus, capsys):
    code, out, _ = run(
        capsys,
        "search",
        "sterility",
        "-d",
        "fda_483",
        "--json",
        "--corpus",
        str(corpus),
        "--fast-encoder",
    )
    body = json.loads(out)
    assert code == 0 and body["ranking"] == "bm25" and body["total"] == 1


def test_read_and_index(corpus, capsys):
    code, out, _ = run(capsys, "index", "--corpus", str(corpus), "--fast-encoder")
    assert code == 0 and "1 documents, 2 pages" in out
    did = (
        regnb.open(corpus, encoder=regnb.HashingEncoder())
        .search(["sterility"])
        .to_dict()["results"][0]["document_id"]
    )
    code, out, _ = run(capsys, "read", did, "--corpus", str(corpus), "--fast-encoder", "--json")
    assert json.loads(out)["total_pages"] == 2


def test_errors_print_code_and_field(corpus, capsys):
    code, _, err = run(capsys, "search", "the", "--corpus", str(corpus), "--fast-encoder")
    assert code == 2 and "invalid_request (keywords[0])" in err


# --- document ids that begin with "-" -----------------------------------------------------

PREFIXES = {"dash": "-", "two-dashes": "--", "help-like": "-h"}


@pytest.fixture(scope="module")
def dashed(tmp_path_factory):
    """A corpus whose document ids begin with "-", "--" and "-h" (ids by key: the prefix names)."""
    folder = tmp_path_factory.mktemp("dashed")
    real = regnb.corpus.write.document_id
    ids: dict[str, str] = {}

    def dashed_id(salt: str, dataset: str, key: str) -> str:
        prefix = PREFIXES[key]
        ids[key] = prefix + real(salt, dataset, key)[len(prefix) :]
        return ids[key]

    docs = [doc(f"Doc {k}", [f"sterility {k}", "page two"], key=k) for k in PREFIXES]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(regnb.corpus.write, "document_id", dashed_id)
        regnb.write_corpus(
            folder, {"fda_483": docs}, encoder=regnb.HashingEncoder(), progress=False
        )
    return folder, ids


READ_FORMS = {
    "id first": lambda i, opts: [i, *opts],
    "id last": lambda i, opts: [*opts, i],
    "after --": lambda i, opts: [*opts, "--", i],
    "--id ID": lambda i, opts: ["--id", i, *opts],
    "--id=ID": lambda i, opts: [*opts, f"--id={i}"],
}


@pytest.mark.parametrize("form", READ_FORMS)
@pytest.mark.parametrize("key", PREFIXES)
def test_read_takes_a_document_id_that_begins_with_a_dash(dashed, capsys, key, form):
    folder, ids = dashed
    assert ids[key].startswith(PREFIXES[key])
    opts = ["--corpus", str(folder), "--fast-encoder", "--json", "--page-to", "1"]
    code, out, err = run(capsys, "read", *READ_FORMS[form](ids[key], opts))
    assert code == 0, err
    body = json.loads(out)
    assert body["document_id"] == ids[key] and body["title"] == f"Doc {key}"
    assert [p["page_num"] for p in body["pages"]] == [1]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["read", "-AbC"], ["read", "--id=-AbC"]),
        (["read", "--AbC", "--json"], ["read", "--id=--AbC", "--json"]),
        (["read", "--json", "-hAbC"], ["read", "--json", "--id=-hAbC"]),
        (["read", "--corpus", "-dir", "-AbC"], ["read", "--corpus=-dir", "--id=-AbC"]),
        (["read", "--id", "-AbC"], ["read", "--id=-AbC"]),
        (["read", "--", "-AbC"], ["read", "--", "-AbC"]),
        (["read", "AbC", "--jsn"], ["read", "AbC", "--jsn"]),
        (["read", "-AbC", "--page-from", "2"], ["read", "--id=-AbC", "--page-from=2"]),
        (["read", "-AbC", "-h"], ["read", "--id=-AbC", "-h"]),
        (["read", "--corpus"], ["read", "--corpus"]),
        (["search", "-AbC"], ["search", "-AbC"]),
        (["--version"], ["--version"]),
    ],
)
def test_quote_read_id_marks_the_id_and_nothing_else(argv, expected):
    assert quote_read_id(argv) == expected


def test_read_without_an_id_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as info:
        main(["read", "--json"])
    assert info.value.code == 2
    assert "document_id" in capsys.readouterr().err


# --- --filters ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{bad", "--filters is not valid JSON: Expecting property name"),
        ("", "--filters is not valid JSON: Expecting value"),
        ('["fda_483"]', "--filters must be a JSON object keyed by dataset id, not list"),
        ('"fda_483"', "--filters must be a JSON object keyed by dataset id, not str"),
    ],
)
def test_bad_filters_are_one_line_and_exit_2(corpus, capsys, text, reason):
    argv = ["search", "sterility", "--filters", text, "--corpus", str(corpus), "--fast-encoder"]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"error: invalid_filter (filters): {reason}")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_good_filters_are_used(corpus, capsys):
    filters = json.dumps({"fda_483": {"title": "nothing like it"}})
    argv = ["search", "sterility", "--filters", filters, "--json"]
    code, out, _ = run(capsys, *argv, "--corpus", str(corpus), "--fast-encoder")
    assert code == 0 and json.loads(out)["total"] == 0


# --- a closed output pipe -----------------------------------------------------------------


COMMAND = [sys.executable, "-m", "regnb.cli"]


def test_closed_output_pipe_exits_quietly(corpus):
    read_end, write_end = os.pipe()
    os.close(read_end)  # like `| head -1` after its line: every write now fails with EPIPE
    try:
        proc = subprocess.run(
            [*COMMAND, "search", "sterility", "--json", "--corpus", str(corpus), "--fast-encoder"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    finally:
        os.close(write_end)
    assert "Traceback" not in proc.stderr and "Error" not in proc.stderr, proc.stderr
    assert proc.returncode == EXIT_PIPE


# --- help ---------------------------------------------------------------------------------


def _parsers(parser, name="regnb"):
    """(command, parser) for the main parser and every subcommand, nested ones too."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub, subparser in action.choices.items():
                yield from _parsers(subparser, f"{name} {sub}")


PARSERS = dict(_parsers(build_parser()))


@pytest.mark.parametrize("command", PARSERS)
def test_every_option_has_help_and_shows_its_default(command):
    parser = PARSERS[command]
    text = " ".join(parser.format_help().split())
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            continue
        name = "/".join(action.option_strings) or action.dest
        assert action.help, f"{command} {name} has no help"
        if not any(action.default is v for v in (None, False, argparse.SUPPRESS)):
            assert f"(default: {action.default})" in text, f"{command} {name}"


def test_help_shows_defaults_of_search_and_serve(capsys):
    for argv, shown in [
        (["search", "--help"], ["--limit N documents to show, 1 to 50 (default: 20)"]),
        (["serve", "--help"], ["(default: 127.0.0.1)", "(default: 8000)"]),
    ]:
        with pytest.raises(SystemExit):
            main(argv)
        text = " ".join(capsys.readouterr().out.split())
        assert all(s in text for s in shown), text


# --- errors -------------------------------------------------------------------------------

NEUTRAL = "the corpus was embedded with hashing-256; the encoder given is minilm"


@pytest.mark.parametrize(
    ("error", "fast", "code", "line"),
    [
        (
            NotFound("no corpus at /x (no manifest.json)", field="corpus"),
            False,
            2,
            "error: not_found (corpus): no corpus at /x (no manifest.json)",
        ),
        (
            InvalidRequest(NEUTRAL, field="encoder"),
            False,
            2,
            f"error: invalid_request (encoder): {NEUTRAL}; add --fast-encoder",
        ),
        (
            InvalidRequest(NEUTRAL, field="encoder"),
            True,
            2,
            f"error: invalid_request (encoder): {NEUTRAL}; drop --fast-encoder",
        ),
        (
            CorpusError("/x/fda_483/pages-1.parquet: column text is missing"),
            False,
            1,
            "error: internal_error: /x/fda_483/pages-1.parquet: column text is missing",
        ),
        (
            PermissionError(13, "Permission denied", "/x/manifest.json"),
            False,
            1,
            "error: Permission denied: /x/manifest.json",
        ),
    ],
)
@pytest.mark.parametrize("command", ["search", "read", "index"])
def test_errors_opening_a_corpus_are_one_line(
    monkeypatch, capsys, command, error, fast, code, line
):
    def refuse(*args, **kwargs):
        raise error

    monkeypatch.setattr("regnb.engine.Engine", refuse)  # what the command line opens
    argv = {"search": ["search", "x"], "read": ["read", "-AbC"], "index": ["index"]}[command]
    argv += ["--corpus", "/x"] + (["--fast-encoder"] if fast else [])
    got, out, err = run(capsys, *argv)
    assert (got, out, err) == (code, "", line + "\n")
    assert "regnb.open" not in err


@pytest.mark.parametrize(
    ("error", "code"),
    [(InvalidRequest("x"), 2), (NotFound("x"), 2), (CorpusError("x"), 1), (SearchTimeout("x"), 1)],
)
def test_exit_code_is_2_for_input_errors_and_1_for_failures(error, code):
    assert exit_code(error) == code


def test_missing_corpus_is_not_found_end_to_end(tmp_path, capsys):
    code, _, err = run(capsys, "search", "x", "--corpus", str(tmp_path / "nope"), "--fast-encoder")
    assert code == 2
    assert err.startswith("error: not_found (corpus): ") and err.count("\n") == 1


def test_encoder_mismatch_says_which_option_end_to_end(corpus, capsys):
    regnb.open(corpus, encoder=regnb.HashingEncoder()).close()  # the index, built beforehand
    capsys.readouterr()
    code, _, err = run(capsys, "search", "sterility", "--corpus", str(corpus))
    assert code == 2
    assert err.startswith("error: invalid_request (encoder): ") and err.count("\n") == 1
    assert err.endswith("; add --fast-encoder\n") and "regnb.open" not in err


# --- paging hint ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def five(tmp_path_factory):
    folder = tmp_path_factory.mktemp("five")
    docs = [doc(f"Acme sterility {i}", [f"sterility failure {i}"], key=str(i)) for i in range(5)]
    regnb.write_corpus(folder, {"fda_483": docs}, encoder=regnb.HashingEncoder(), progress=False)
    return folder


@pytest.mark.parametrize(
    ("options", "last_line"),
    [
        (["--limit", "2"], "1–2 of 5; `--offset 2` for more"),
        (["--limit", "2", "--offset", "2"], "3–4 of 5; `--offset 4` for more"),
        (["--limit", "2", "--offset", "4"], "5–5 of 5"),
        ([], "1–5 of 5"),
    ],
)
def test_search_says_which_documents_it_printed_and_how_to_see_more(
    five, capsys, options, last_line
):
    argv = ["search", "sterility", "--corpus", str(five), "--fast-encoder", *options]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert out.rstrip().splitlines()[-1] == last_line


def test_a_search_past_the_last_document_prints_no_range(five, capsys):
    argv = ["search", "sterility", "--corpus", str(five), "--fast-encoder", "--offset", "10"]
    code, out, _ = run(capsys, *argv)
    assert code == 0 and " of 5" not in out


def test_shown_line_groups_thousands():
    from regnb.cli import shown_line

    assert shown_line(0, 20, 1361, 20) == "1–20 of 1,361; `--offset 20` for more"


# --- export -------------------------------------------------------------------------------


@pytest.fixture
def many(tmp_path):
    """Seven matching documents of two datasets, dated, one undated."""
    docs = {
        "fda_483": [
            doc(f"483 {i}", ["sterility failure", "other page"], date=f"2020-0{i + 1}-01")
            for i in range(4)
        ],
        "fda_warning_letters": [
            doc(f"letter {i}", ["sterility letter"], date=None if i == 0 else f"2021-0{i}-01")
            for i in range(3)
        ]
        + [doc("unrelated", ["water"])],
    }
    regnb.write_corpus(tmp_path, docs, encoder=regnb.HashingEncoder(), progress=False)
    return tmp_path


def _export(capsys, corpus, out, *extra):
    args = ["export", "sterility", "--to", str(out), "--corpus", str(corpus), "--fast-encoder"]
    return run(capsys, *args, *extra)


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".xlsx"])
def test_export_writes_every_match_in_batches_and_reads_back(many, tmp_path, capsys, suffix):
    import pandas as pd

    out = tmp_path / f"matches{suffix}"
    code, printed, _ = _export(capsys, many, out, "--batch-size", "3")
    assert code == 0 and "7 documents written" in printed
    read = {
        ".parquet": pd.read_parquet,
        ".csv": pd.read_csv,
        ".xlsx": lambda p: pd.read_excel(p, engine="openpyxl"),
    }[suffix](out)
    assert len(read) == 7
    assert read["title"].tolist()[:2] == ["letter 2", "letter 1"]  # newest first
    assert read["title"].tolist()[-1] == "letter 0"  # undated last
    assert {"document_id", "dataset", "date", "cfr", "bm25", "pages", "company"} <= set(read)


def test_export_orders_and_narrows(many, tmp_path, capsys):
    import pandas as pd

    out = tmp_path / "m.parquet"
    code, printed, _ = _export(capsys, many, out, "--order", "date_asc", "-d", "fda_483")
    assert code == 0 and "4 documents written" in printed
    assert pd.read_parquet(out)["title"].tolist() == ["483 0", "483 1", "483 2", "483 3"]


def test_export_refuses_an_unknown_file_kind(many, tmp_path, capsys):
    code, _, err = _export(capsys, many, tmp_path / "m.json")
    assert code == 2 and "error: invalid_request (to)" in err and ".parquet" in err


def test_export_stops_before_passing_excels_row_limit(many, tmp_path, capsys, monkeypatch):
    import regnb.present.export as export

    monkeypatch.setattr(export, "EXCEL_ROWS", 5)
    out = tmp_path / "m.xlsx"
    code, _, err = _export(capsys, many, out)
    assert code == 2 and "7 documents match" in err and ".parquet or .csv" in err
    assert not out.exists()


def test_export_of_no_match_writes_an_empty_file(many, tmp_path, capsys):
    out = tmp_path / "none.csv"
    args = ["export", "zulu", "--to", str(out), "--corpus", str(many), "--fast-encoder"]
    code, printed, _ = run(capsys, *args)
    assert code == 0 and "0 documents written" in printed and out.exists()


@pytest.mark.parametrize(
    "command",
    [
        ["search", "x"],
        ["read", "ID"],
        ["export", "x", "--to", "x.csv"],
        ["index"],
        ["serve"],
        ["watch", "list"],
    ],
)
def test_a_corpus_url_reaches_the_command_whole(command: list[str]) -> None:
    args = build_parser().parse_args([*command, "--corpus", "s3://bucket/prefix/corpus"])
    assert args.corpus == "s3://bucket/prefix/corpus"  # not a Path, which folds the `//`
    folder = build_parser().parse_args([*command, "--corpus", "data/corpus"])
    assert folder.corpus == pathlib.Path("data/corpus")


# --- a search that ran out of time everywhere -----------------------------------------------


@pytest.mark.parametrize("as_json", [False, True])
def test_a_search_whose_every_dataset_timed_out_exits_1(corpus, capsys, monkeypatch, as_json):
    """0 documents because every dataset ran out of time is a failure, not an answer."""
    from regnb.search.procedure import Searcher

    real = Searcher.run

    def out_of_time(self, req):  # the budget is spent before the first segment is read
        monkeypatch.setattr(self, "timeout_s", -1.0)
        return real(self, req)

    monkeypatch.setattr(Searcher, "run", out_of_time)
    argv = ["search", "sterility", "--corpus", str(corpus), "--fast-encoder"]
    code, out, err = run(capsys, *argv, *(["--json"] if as_json else []))
    assert code == 1
    assert "every dataset searched ran out of time" in err and "REGNB_SEARCH_TIMEOUT_S" in err
    statuses = json.loads(out)["datasets"] if as_json else {}
    assert not as_json or {s["status"] for s in statuses.values()} >= {"timeout"}


def test_a_search_with_some_datasets_answered_exits_0(corpus, capsys):
    code, _, err = run(capsys, "search", "sterility", "--corpus", str(corpus), "--fast-encoder")
    assert code == 0 and "error" not in err


@pytest.mark.parametrize(
    ("harm", "problem"),
    [
        (lambda folder: damage.truncate(folder / "docs.arrow"), "docs.arrow truncated"),
        (lambda folder: (folder / "meta.duckdb").unlink(), "meta.duckdb missing"),
        (lambda folder: damage.overwrite(folder / "texts.bin"), "texts.bin corrupted"),
    ],
    ids=["truncated", "deleted", "overwritten"],
)
def test_index_check_reports_damage_and_index_repairs_it(tmp_path, capsys, harm, problem):
    corpus = tmp_path / "corpus"
    damage.write_corpus(corpus)
    with damage.open_engine(corpus) as eng:
        before = damage.search(eng)
    code, out, _ = run(capsys, "index", "--check", "--corpus", str(corpus))
    assert code == 0 and "index sound" in out
    folder = damage.first_segment()
    harm(folder)
    code, out, _ = run(capsys, "index", "--check", "--corpus", str(corpus))
    assert code == 1 and f"segment {folder.name}" in out and problem in out
    assert "fda_483" in out and damage.first_segment() == folder  # --check changes nothing
    code, out, _ = run(capsys, "index", "--corpus", str(corpus), "--fast-encoder")
    assert code == 0 and f"segment {folder.name} was damaged" in out
    code, out, _ = run(capsys, "index", "--check", "--corpus", str(corpus))
    assert code == 0
    with damage.open_engine(corpus) as eng:
        assert damage.search(eng) == before


def test_index_check_without_an_index_says_so(corpus, capsys):
    code, _, err = run(capsys, "index", "--check", "--corpus", str(corpus))
    assert code == 1 and "regnb index" in err


@pytest.mark.parametrize(
    ("where", "said"),
    [
        ("missing/m.xlsx", "does not exist: create it first"),
        ("missing/deeper/m.csv", "does not exist: create it first"),
        ("", "is a folder: name a file in it"),
    ],
)
def test_export_to_a_place_it_cannot_write_fails_at_once_in_one_line(
    many, tmp_path, capsys, monkeypatch, where, said
):
    import regnb.cli

    def never(*args, **kwargs):
        raise AssertionError("the corpus was opened before the destination was checked")

    monkeypatch.setattr(regnb.cli, "_engine", never)
    target = tmp_path / where if where else tmp_path / "folder.csv"
    if not where:
        target.mkdir()
    code, printed, err = _export(capsys, many, target)
    assert code == 2 and printed == ""
    assert err.count("\n") == 1 and err.startswith("error: invalid_request (to): ")
    assert said in err and "Traceback" not in err
