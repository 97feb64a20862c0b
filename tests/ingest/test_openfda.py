"""openFDA connector: each endpoint to its dataset and fields, zipped files, bad files, re-runs."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from regnb import ingest
from regnb.encoder import HashingEncoder
from tests import paths
from tests.fixtures.ingest.support import documents, pages

SHARED = paths.SHARED_DATA
SAMPLES = SHARED / "raw" / "openfda"

LABEL = {
    "set_id": "00000000-aaaa-4bbb-8ccc-000000000001",
    "id": "11111111-aaaa-4bbb-8ccc-000000000001",
    "effective_time": "20230415",
    "indications_and_usage": ["1 INDICATIONS AND USAGE Zorvex is indicated for moderate pain."],
    "boxed_warning": ["WARNING: RISK OF SEDATION"],
    "dosage_and_administration": ["2 DOSAGE AND ADMINISTRATION Take one tablet daily."],
    "dosage_and_administration_table": ["<table>ignored</table>"],
    "openfda": {
        "brand_name": ["ZORVEX"],
        "generic_name": ["ZORVETAMOL"],
        "manufacturer_name": ["Quillfeather Pharma Inc."],
        "application_number": ["NDA099001"],
        "substance_name": ["ZORVETAMOL HYDROCHLORIDE"],
    },
}
K510 = {
    "k_number": "K990001",
    "applicant": "Larkspur Medical",
    "device_name": "Larkspur Infusion Pump",
    "product_code": "FRN",
    "decision_date": "2019-05-02",
    "decision_description": "Substantially Equivalent",
    "statement_or_summary": "Summary",
    "openfda": {"device_class": "2", "regulation_number": "880.5725"},
}
DENOVO = {**K510, "k_number": "DEN990002", "device_name": "Larkspur Sensor"}
PMA = {
    "pma_number": "P990003",
    "supplement_number": "S012",
    "applicant": "Marrowgate Devices",
    "trade_name": "Marrowgate Heart Valve",
    "generic_name": "valve, aortic",
    "product_code": "LWR",
    "decision_date": "2020-11-30",
    "ao_statement": "Approval for a change in the sterilization site.",
}
RECALL = {
    "cfres_id": "190001",
    "product_res_number": "Z-0001-2021",
    "recalling_firm": "Pelligrane Devices",
    "event_date_initiated": "2021-01-20",
    "product_description": "Pelligrane catheter, 5 Fr",
    "reason_for_recall": "Sterile barrier may be compromised.",
    "product_code": "DQY",
}
DRUG_ENFORCEMENT = {
    "recall_number": "D-0101-2022",
    "event_id": "88001",
    "classification": "Class II",
    "product_type": "Drugs",
    "status": "Terminated",
    "recalling_firm": "Quillfeather Pharma Inc.",
    "report_date": "20220316",
    "product_description": "Zorvex tablets 10 mg, 30 count bottle",
    "reason_for_recall": "Failed dissolution specifications.",
}


def _bulk(path: Path, records: list[dict[str, Any]], zipped: bool = False) -> Path:
    body = json.dumps({"meta": {"results": {"total": len(records)}}, "results": records})
    if zipped:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(path.name.removesuffix(".zip"), body)
    else:
        path.write_text(body)
    return path


def _ingest(source: Any, corpus: Path) -> Any:
    return ingest.openfda(source, corpus=corpus, encoder=HashingEncoder(), progress=False)


def test_each_endpoint_goes_to_its_dataset(tmp_path: Path) -> None:
    folder = tmp_path / "bulk"
    folder.mkdir()
    _bulk(folder / "drug-label-0001-of-0001.json.zip", [LABEL], zipped=True)
    _bulk(folder / "device-510k-0001-of-0001.json.zip", [K510, DENOVO], zipped=True)
    _bulk(folder / "device-pma-0001-of-0001.json", [PMA])
    _bulk(folder / "device-recall-0001-of-0001.json", [RECALL])
    _bulk(folder / "drug-enforcement-0001-of-0001.json.zip", [DRUG_ENFORCEMENT], zipped=True)
    summary = _ingest(folder, tmp_path / "c")
    assert summary.attrs["problems"].empty
    assert dict(zip(summary["dataset"], summary["written"], strict=True)) == {
        "fda_drug": 1,
        "fda_denovo_or_510k": 2,
        "fda_pma": 1,
        "fda_recalls": 1,
        "fda_recall_enforcement": 1,
    }
    docs = documents(tmp_path / "c").set_index("key")
    label = docs.loc[f"openfda:drug-label:{LABEL['set_id']}"]
    assert label["title"] == "ZORVEX (zorvetamol) label - Quillfeather Pharma Inc."
    assert label["fields"]["application_number"] == "NDA099001"
    assert label["fields"]["document_type"] == "label"
    assert label["fields"]["approval_date"] == "2023-04-15"
    label_pages = pages(tmp_path / "c")[f"openfda:drug-label:{LABEL['set_id']}"]
    assert [p.splitlines()[0] for p in label_pages] == [  # a page per section, named
        "WARNING: RISK OF SEDATION",
        "Indications and usage",
        "Dosage and administration",
    ]
    assert label_pages[1].endswith("Zorvex is indicated for moderate pain.")
    assert "ignored" not in "".join(label_pages)
    assert docs.loc["openfda:device-510k:K990001", "fields"]["pathway"] == "510k"
    assert docs.loc["openfda:device-510k:DEN990002", "fields"]["pathway"] == "de_novo"
    pma = docs.loc["openfda:device-pma:P990003/S012"]
    assert pma["fields"]["decision_date"] == "2020-11-30"
    assert pma["fields"]["trade_name"] == "Marrowgate Heart Valve"
    recall = docs.loc["openfda:device-recall:190001", "fields"]
    assert (recall["product_type"], recall["recall_date"]) == ("devices", "2021-01-20")
    enforcement = docs.loc["openfda:enforcement:D-0101-2022", "fields"]
    assert enforcement["classification"] == "Class II" and enforcement["status"] == "Terminated"
    assert enforcement["report_date"] == "2022-03-16"


def test_endpoint_from_records_when_the_name_says_nothing(tmp_path: Path) -> None:
    source = _bulk(tmp_path / "export.json", [PMA])
    summary = _ingest(source, tmp_path / "c")
    assert summary["dataset"].tolist() == ["fda_pma"]


def test_bad_files_are_reported_and_the_rest_goes_in(tmp_path: Path) -> None:
    folder = tmp_path / "bulk"
    folder.mkdir()
    _bulk(folder / "device-pma-0001-of-0001.json", [PMA])
    (folder / "device-510k-0001-of-0002.json.zip").write_bytes(b"PK\x03\x04 truncated zip")
    (folder / "device-udi-0001-of-0001.json").write_text('{"results": []}')
    (folder / "other.json").write_text('{"meta": {}}')
    summary = _ingest(folder, tmp_path / "c")
    assert int(summary["written"].sum()) == 1
    reasons = summary.attrs["problems"].set_index("file")["reason"]
    assert "BadZipFile" in reasons[str(folder / "device-510k-0001-of-0002.json.zip")]
    assert "'device-udi' is not supported" in reasons[str(folder / "device-udi-0001-of-0001.json")]
    assert 'no "results" list' in reasons[str(folder / "other.json")]
    assert int(summary["files_failed"].sum()) == 3


@pytest.mark.shared_data
@pytest.mark.skipif(not SAMPLES.exists(), reason=f"shared data not found at {SAMPLES}")
def test_real_samples(tmp_path: Path) -> None:
    summary = _ingest(SAMPLES, tmp_path / "c")
    assert summary.attrs["problems"].empty  # the schemas beside the samples are passed over
    written = dict(zip(summary["dataset"], summary["written"], strict=True))
    assert written == {"fda_maude": 1, "fda_faers": 1, "fda_recall_enforcement": 72}
    docs = documents(tmp_path / "c")
    faers = docs[docs["dataset"] == "fda_faers"].iloc[0]
    assert faers["fields"]["safety_report_id"] == "4562564-7"
    assert faers["fields"]["serious"] is True
    assert "VIOXX" in faers["fields"]["drug_name"]
    maude = docs[docs["dataset"] == "fda_maude"].iloc[0]
    assert maude["fields"]["event_type"] == "injury"
    assert maude["fields"]["product_code"] == "JPA"
    text = " ".join(pages(tmp_path / "c")[maude["key"]])
    assert "HEMOCHRON" in text and "Description of Event or Problem" in text
    again = _ingest(SAMPLES, tmp_path / "c")
    assert int(again["written"].sum()) == 0 and int(again["skipped"].sum()) == 74
