"""`regnb ingest` and `regnb fetch openfda`: arguments, printed summary, exit codes."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import pytest

from regnb.catalog import load_catalog
from regnb.cli import main
from regnb.ingest.cli import register
from tests import paths
from tests.fixtures.ingest.support import documents, make_pdf

FIXTURES = paths.FIXTURES / "ingest"


def test_register_adds_both_commands() -> None:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(
        ["ingest", "pdf", "x.pdf", "--dataset", "fda_crl", "--corpus", "c", "--device", "cuda"]
    )
    assert (args.kind, args.source, args.dataset, args.device) == (
        "pdf",
        ["x.pdf"],
        "fda_crl",
        "cuda",
    )
    assert callable(args.func)
    args = parser.parse_args(["fetch", "openfda", "device/event", "--dest", "d"])
    assert (args.endpoint, args.dest, args.index_url) == ("device/event", "d", None)
    with pytest.raises(SystemExit):
        parser.parse_args(["ingest", "docx", "x", "--corpus", "c"])


def test_ingest_pdf_prints_a_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_pdf(tmp_path / "a.pdf", [["Complete response letter for Zorvex", "body"]])
    code = main(
        [
            "ingest",
            "pdf",
            str(tmp_path / "a.pdf"),
            "--dataset",
            "fda_crl",
            "--corpus",
            str(tmp_path / "c"),
            "--fast-encoder",
            "--quiet",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "fda_crl" in out and "pages written in" in out and "FAILED" not in out
    assert len(documents(tmp_path / "c")) == 1


def test_a_failed_file_sets_the_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "pdfs"
    folder.mkdir()
    make_pdf(folder / "good.pdf", [["A good letter"]])
    (folder / "bad.pdf").write_bytes(b"not a pdf")
    code = main(
        [
            "ingest",
            "pdf",
            str(folder),
            "--dataset",
            "fda_crl",
            "--corpus",
            str(tmp_path / "c"),
            "--fast-encoder",
            "--quiet",
        ]
    )
    out = capsys.readouterr().out
    assert code == 1
    assert "FAILED: 1 file(s) could not be read" in out
    assert f"{folder / 'bad.pdf'}: cannot read the PDF" in out


def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ingest", "pdf", "x.pdf", "--corpus", str(tmp_path / "c")]) == 2
    assert "--dataset is required" in capsys.readouterr().err
    code = main(
        [
            "ingest",
            "jsonl",
            str(tmp_path),
            "--dataset",
            "nope",
            "--corpus",
            str(tmp_path / "c"),
            "--fast-encoder",
            "--quiet",
        ]
    )
    assert code == 2
    assert "unknown dataset 'nope'" in capsys.readouterr().err


def test_create_dataset_from_the_command_line(tmp_path: Path) -> None:
    records = [
        {"title": "SOP 1", "date": "2020-02-02", "pages": ["Cleaning steps."], "sop_number": "S-1"},
        {"title": "SOP 2", "date": "2021-03-03", "pages": ["Sampling steps."], "sop_number": "S-2"},
    ]
    source = tmp_path / "sops.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    code = main(
        [
            "ingest",
            "jsonl",
            str(source),
            "--dataset",
            "acme_sops",
            "--create-dataset",
            "ACME SOPs",
            "--corpus",
            str(tmp_path / "c"),
            "--fast-encoder",
            "--quiet",
        ]
    )
    assert code == 0
    dataset = load_catalog(tmp_path / "c")["acme_sops"]
    assert dataset.name == "ACME SOPs" and dataset.filter_kind("sop_number") == "exact"


def test_ingest_clinicaltrials_and_openfda_kinds(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "study_v2.json", tmp_path)
    code = main(
        [
            "ingest",
            "clinicaltrials",
            str(tmp_path / "study_v2.json"),
            "--corpus",
            str(tmp_path / "c"),
            "--fast-encoder",
            "--quiet",
        ]
    )
    assert code == 0
    bulk = tmp_path / "device-pma-0001-of-0001.json"
    bulk.write_text(
        json.dumps(
            {
                "results": [
                    {
                        "pma_number": "P1",
                        "supplement_number": "",
                        "trade_name": "Valve",
                        "applicant": "A",
                    }
                ]
            }
        )
    )
    code = main(
        [
            "ingest",
            "openfda",
            str(bulk),
            "--corpus",
            str(tmp_path / "c"),
            "--fast-encoder",
            "--quiet",
        ]
    )
    assert code == 0
    assert set(documents(tmp_path / "c")["dataset"]) == {"fda_clinical_trials", "fda_pma"}


def test_cuda_without_the_cuda_provider_says_what_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import onnxruntime

    if "CUDAExecutionProvider" in onnxruntime.get_available_providers():
        pytest.skip("this onnxruntime has the CUDA provider")
    make_pdf(tmp_path / "a.pdf", [["A letter"]])
    code = main(
        [
            "ingest",
            "pdf",
            str(tmp_path / "a.pdf"),
            "--dataset",
            "fda_crl",
            "--corpus",
            str(tmp_path / "c"),
            "--device",
            "cuda",
            "--quiet",
        ]
    )
    assert code == 2
    assert "onnxruntime-gpu" in capsys.readouterr().err


def test_ingest_into_a_corpus_on_s3_then_search_it(
    tmp_path: Path, s3_bucket: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A corpus on object storage (a moto S3 server on loopback): the catalog addition, the
    shards and the manifest go to the bucket; `regnb search --corpus URL` finds them."""
    records = [{"title": "SOP 1", "date": "2020-02-02", "pages": ["Cleaning steps."]}]
    source = tmp_path / "sops.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    url = f"{s3_bucket}/corpus"
    args = ["--dataset", "acme_sops", "--create-dataset", "ACME SOPs", "--corpus", url]
    assert main(["ingest", "jsonl", str(source), *args, "--fast-encoder", "--quiet"]) == 0
    assert load_catalog(url)["acme_sops"].name == "ACME SOPs"
    capsys.readouterr()
    assert main(["search", "cleaning", "--corpus", url, "--fast-encoder", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [r["title"] for r in found["results"]] == ["SOP 1"]
    assert not (tmp_path / "corpus").exists() and not Path(url).exists()
