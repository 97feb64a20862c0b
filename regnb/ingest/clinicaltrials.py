"""ClinicalTrials.gov study records, API v2 JSON and the classic XML, to fda_clinical_trials.

Reads single-study files, API search responses (`{"studies": [...]}`), JSON Lines, and zip
archives of these (the site's bulk downloads).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pandas as pd

from regnb.encoder import Encoder
from regnb.ingest._docs import build_document
from regnb.ingest._driver import Opened, Reader, ReadError, Record, run_ingest
from regnb.ingest._fields import fit_fields
from regnb.ingest._mapping import trial_phase, trial_status
from regnb.ingest._run import IngestRun, failure_reason
from regnb.ingest.normalise import split_pages

__all__ = ["clinicaltrials", "study_from_v2", "study_from_xml"]

DATASET = "fda_clinical_trials"
SUFFIXES = (".json", ".jsonl", ".xml", ".zip")
STUDY_URL = "https://clinicaltrials.gov/study/{}"


def _section(label: str, value: object) -> str:
    if isinstance(value, list):
        value = "\n".join(f"- {v}" for v in value if v)
    text = str(value).strip() if value else ""
    return f"{label}:\n{text}" if text else ""


def _study(
    nct_id: str | None,
    brief_title: str | None,
    official_title: str | None,
    sponsor: str | None,
    phase: object,
    status: str | None,
    start_date: str | None,
    conditions: list[str],
    sections: list[tuple[str, object]],
) -> dict[str, Any]:
    """One study as a flat record: catalog fields plus the text of its sections."""
    text = "\n\n".join(
        s
        for s in [
            _section("Brief title", brief_title),
            _section("Official title", official_title),
            _section("NCT ID", nct_id),
            _section("Lead sponsor", sponsor),
            _section("Overall status", status),
            _section("Phase", ", ".join(phase) if isinstance(phase, list) else phase),
            _section("Start date", start_date),
            _section("Conditions", conditions),
            *(_section(label, value) for label, value in sections),
        ]
        if s
    )
    return {
        "nct_id": nct_id,
        "title": brief_title or official_title or nct_id,
        "date": start_date,
        "url": STUDY_URL.format(nct_id) if nct_id else None,
        "sponsor": sponsor,
        "phase": trial_phase(phase),
        "overall_status": trial_status(status),
        "conditions": conditions or None,
        "text": text,
    }


def study_from_v2(study: dict[str, Any]) -> dict[str, Any]:
    """An API v2 study (`protocolSection`, ...)."""
    protocol = study.get("protocolSection") or {}

    def module(name: str) -> dict[str, Any]:
        return protocol.get(name) or {}

    ident, status = module("identificationModule"), module("statusModule")
    arms = module("armsInterventionsModule").get("interventions") or []
    outcomes = module("outcomesModule").get("primaryOutcomes") or []
    description = module("descriptionModule")
    return _study(
        nct_id=ident.get("nctId"),
        brief_title=ident.get("briefTitle"),
        official_title=ident.get("officialTitle"),
        sponsor=(module("sponsorCollaboratorsModule").get("leadSponsor") or {}).get("name"),
        phase=module("designModule").get("phases") or [],
        status=status.get("overallStatus"),
        start_date=(status.get("startDateStruct") or {}).get("date"),
        conditions=list(module("conditionsModule").get("conditions") or []),
        sections=[
            ("Study type", module("designModule").get("studyType")),
            (
                "Interventions",
                [f"{i.get('type', '')}: {i.get('name', '')}".strip(": ") for i in arms],
            ),
            ("Brief summary", description.get("briefSummary")),
            ("Detailed description", description.get("detailedDescription")),
            ("Primary outcomes", [o.get("measure") for o in outcomes]),
            ("Eligibility criteria", module("eligibilityModule").get("eligibilityCriteria")),
        ],
    )


def _xml_text(root: ET.Element, path: str) -> str | None:
    node = root.find(path)
    if node is None:
        return None
    text = "".join(node.itertext()).strip()
    return "\n".join(line.strip() for line in text.splitlines()) or None


def study_from_xml(root: ET.Element) -> dict[str, Any]:
    """A classic ClinicalTrials.gov XML study (`<clinical_study>`)."""
    interventions = [
        f"{_xml_text(i, 'intervention_type') or ''}: {_xml_text(i, 'intervention_name') or ''}"
        for i in root.findall("intervention")
    ]
    return _study(
        nct_id=_xml_text(root, "id_info/nct_id"),
        brief_title=_xml_text(root, "brief_title"),
        official_title=_xml_text(root, "official_title"),
        sponsor=_xml_text(root, "sponsors/lead_sponsor/agency"),
        phase=_xml_text(root, "phase"),
        status=_xml_text(root, "overall_status"),
        start_date=_xml_text(root, "start_date"),
        conditions=[c.text.strip() for c in root.findall("condition") if c.text and c.text.strip()],
        sections=[
            ("Study type", _xml_text(root, "study_type")),
            ("Interventions", interventions),
            ("Brief summary", _xml_text(root, "brief_summary/textblock")),
            ("Detailed description", _xml_text(root, "detailed_description/textblock")),
            (
                "Primary outcomes",
                [_xml_text(o, "measure") for o in root.findall("primary_outcome")],
            ),
            ("Eligibility criteria", _xml_text(root, "eligibility/criteria/textblock")),
        ],
    )


def _from_json(body: object) -> Iterator[dict[str, Any]]:
    if isinstance(body, dict) and isinstance(body.get("studies"), list):
        body = body["studies"]
    for study in body if isinstance(body, list) else [body]:
        if not isinstance(study, dict) or "protocolSection" not in study:
            raise ValueError("not a ClinicalTrials.gov API v2 study (no protocolSection)")
        yield study_from_v2(study)


def _from_bytes(name: str, data: bytes) -> list[dict[str, Any]]:
    lower = name.lower()
    if lower.endswith(".xml"):
        root = ET.fromstring(data)
        if root.tag != "clinical_study":
            raise ValueError(f"not a ClinicalTrials.gov study XML (root <{root.tag}>)")
        return [study_from_xml(root)]
    if lower.endswith(".jsonl"):
        lines = data.decode("utf-8").splitlines()
        return [s for line in lines if line.strip() for s in _from_json(json.loads(line))]
    return list(_from_json(json.loads(data)))


def read_studies(path: Path) -> list[dict[str, Any]]:
    """The studies of one file (a zip: of each member)."""
    if path.name.lower().endswith(".zip"):
        with zipfile.ZipFile(path) as archive:
            return [
                s
                for name in archive.namelist()
                if name.lower().endswith((".json", ".jsonl", ".xml"))
                for s in _from_bytes(name, archive.read(name))
            ]
    return _from_bytes(path.name, path.read_bytes())


class TrialsReader(Reader):
    """ClinicalTrials.gov files: a document per study, keyed by its NCT ID."""

    suffixes = SUFFIXES
    empty = "a study without an NCT ID or text"

    def __init__(self, dataset: str) -> None:
        self.dataset = dataset

    def prepare(self, run: IngestRun) -> None:
        run.prepare(self.dataset)

    def open(self, path: Path, run: IngestRun) -> Opened:
        try:
            studies = read_studies(path)
        except Exception as exc:  # XML, JSON, zip and file errors alike
            raise ReadError(f"cannot read the file: {failure_reason(exc)}", self.dataset) from exc
        return Opened(self.dataset, (self._record(run, path, i, s) for i, s in enumerate(studies)))

    def _record(self, run: IngestRun, path: Path, index: int, study: dict[str, Any]) -> Record:
        where = f"{path}#{study.get('nct_id') or index}"
        if not study.get("nct_id"):
            return Record(where, reason=self.empty)
        problems: list[str] = []
        doc = build_document(
            key=f"nct:{study['nct_id']}",
            title=study["title"],
            pages=split_pages(study["text"]),
            date=study["date"],
            url=study["url"],
            fields=fit_fields(run.dataset(self.dataset), study, None, run.dropped_fields),
            headers=False,
            problems=problems,
        )
        return Record(where, doc, problems=tuple(problems))


def clinicaltrials(
    source: str | Path | Iterable[str | Path],
    *,
    corpus: str | Path,
    dataset: str = DATASET,
    encoder: Encoder | None = None,
    device: str | None = None,
    progress: bool = True,
    runner: str = "local",
    ray_address: str | None = None,
) -> pd.DataFrame:
    """Ingest ClinicalTrials.gov studies (API v2 JSON, classic XML, or zips of them).

    Each study is keyed by its NCT ID; its text holds titles, sponsor, status, phase,
    conditions, interventions, summaries, outcomes and eligibility criteria.
    """
    return run_ingest(
        source,
        TrialsReader(dataset),
        corpus=corpus,
        encoder=encoder,
        device=device,
        progress=progress,
        runner=runner,
        ray_address=ray_address,
    )
