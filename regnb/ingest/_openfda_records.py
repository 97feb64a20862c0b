"""openFDA records to documents: for each endpoint, its dataset, key, fields and readable text."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from regnb.documents.labels import heading_section, label_pages, section_name
from regnb.ingest._fields import iso_date
from regnb.ingest.normalise import split_pages

__all__ = ["ENDPOINTS", "Endpoint", "endpoint_for_record"]

Record = dict[str, Any]


def _first(value: object) -> str | None:
    """The first non-empty string of a value or list of values."""
    values = value if isinstance(value, list) else [value]
    for item in values:
        if item is not None and str(item).strip():
            return str(item).strip()
    return None


def _join(values: Iterable[object], sep: str = "; ") -> str | None:
    seen: list[str] = []
    for value in values:
        text = str(value).strip() if value is not None else ""
        if text and text not in seen:
            seen.append(text)
    return sep.join(seen) or None


def _lines(pairs: Iterable[tuple[str, object]]) -> str:
    """'Label: value' lines for the values that are there (lists joined)."""
    out = []
    for label, value in pairs:
        text = _join(value) if isinstance(value, list) else _first(value)
        if text:
            out.append(f"{label}: {text}")
    return "\n".join(out)


def _openfda(record: Record, name: str) -> str | None:
    return _first((record.get("openfda") or {}).get(name))


def _short(text: str | None, limit: int = 120) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _content_key(record: Record) -> str:
    digest = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()
    return f"sha256:{digest[:32]}"


@dataclass(frozen=True)
class Endpoint:
    """One openFDA bulk endpoint: where its records go and how they read."""

    name: str
    dataset: str
    key: Callable[[Record], str | None]
    title: Callable[[Record], str]
    date: Callable[[Record], str | None]
    fields: Callable[[Record], dict[str, Any]]
    text: Callable[[Record], str]
    pages: Callable[[Record], list[str]] | None = None  # else the text split at paragraphs

    def document(self, record: Record) -> dict[str, Any]:
        key = self.key(record) or _content_key(record)
        text = self.text(record)
        return {
            "key": f"openfda:{self.name}:{key}",
            "title": self.title(record),
            "date": self.date(record),
            "fields": {k: v for k, v in self.fields(record).items() if v is not None},
            "text": text,
            "pages": self.pages(record) if self.pages else split_pages(text),
        }


LABEL_ORDER = [
    "boxed_warning",
    "indications_and_usage",
    "purpose",
    "active_ingredient",
    "dosage_and_administration",
    "dosage_forms_and_strengths",
    "contraindications",
    "warnings_and_cautions",
    "warnings",
    "precautions",
    "adverse_reactions",
    "drug_interactions",
    "use_in_specific_populations",
    "pregnancy",
    "nursing_mothers",
    "pediatric_use",
    "geriatric_use",
    "overdosage",
    "description",
    "clinical_pharmacology",
    "mechanism_of_action",
    "pharmacodynamics",
    "pharmacokinetics",
    "nonclinical_toxicology",
    "clinical_studies",
    "how_supplied",
    "storage_and_handling",
    "patient_counseling_information",
]
LABEL_SKIP = {"openfda", "set_id", "id", "version", "effective_time", "spl_indexing_data_elements"}


def _label_sections(record: Record) -> list[tuple[str, str]]:
    """The record's sections in label order, each (name, text opening with its heading): the
    heading as written where the text's first line is that section's, else the section's name."""
    rest = [k for k in record if k not in LABEL_ORDER and k not in LABEL_SKIP]
    sections = []
    for key in LABEL_ORDER + rest:
        value = record.get(key)
        if key.endswith("_table") or not isinstance(value, list):
            continue
        text = "\n".join(str(v).strip() for v in value if str(v).strip())
        if not text:
            continue
        name = section_name(key) or key.replace("_", " ")
        if heading_section(text.splitlines()[0]) != name:
            text = f"{name[:1].upper()}{name[1:]}\n{text}"
        sections.append((name, text))
    return sections


def _label_text(record: Record) -> str:
    return "\n\n".join(text for _, text in _label_sections(record))


def _label_pages(record: Record) -> list[str]:
    """A page or more per section, each opening with its section's heading
    (`regnb.documents.labels`)."""
    return label_pages(_label_sections(record), split_pages)


def _label_title(record: Record) -> str:
    brand, generic = _openfda(record, "brand_name"), _openfda(record, "generic_name")
    maker = _openfda(record, "manufacturer_name")
    if not brand and not generic:
        return _short(_first(record.get("spl_product_data_elements")) or "", 100)
    name = f"{brand} ({generic.lower()})" if brand and generic else brand or generic
    return f"{name} label" + (f" - {maker}" if maker else "")


DRUG_LABEL = Endpoint(
    name="drug-label",
    dataset="fda_drug",
    key=lambda r: _first(r.get("set_id")) or _first(r.get("id")),
    title=_label_title,
    date=lambda r: iso_date(r.get("effective_time")),
    fields=lambda r: {
        "application_number": _openfda(r, "application_number"),
        "sponsor": _openfda(r, "manufacturer_name"),
        "brand_name": _openfda(r, "brand_name"),
        "active_ingredient": _join((r.get("openfda") or {}).get("substance_name") or []),
        "document_type": "label",
    },
    text=_label_text,
    pages=_label_pages,
)

_SEX = {"0": "unknown", "1": "male", "2": "female"}
_CHARACTER = {"1": "suspect", "2": "concomitant", "3": "interacting"}
_SERIOUS = {
    "seriousnessdeath": "death",
    "seriousnesslifethreatening": "life threatening",
    "seriousnesshospitalization": "hospitalisation",
    "seriousnessdisabling": "disabling",
    "seriousnesscongenitalanomali": "congenital anomaly",
    "seriousnessother": "other serious condition",
}


def _faers_drugs(record: Record, suspect_only: bool = False) -> list[Record]:
    drugs = (record.get("patient") or {}).get("drug") or []
    return [d for d in drugs if not suspect_only or d.get("drugcharacterization") == "1"]


def _faers_reactions(record: Record) -> list[str]:
    reactions = (record.get("patient") or {}).get("reaction") or []
    return [r.get("reactionmeddrapt") for r in reactions if r.get("reactionmeddrapt")]


def _faers_title(record: Record) -> str:
    drugs = _join(d.get("medicinalproduct") for d in _faers_drugs(record, True)) or "drug"
    reactions = _faers_reactions(record)
    more = f" and {len(reactions) - 3} more" if len(reactions) > 3 else ""
    return _short(
        f"FAERS report {record.get('safetyreportid')}: {drugs} - "
        f"{_join(reactions[:3], ', ') or 'no reaction coded'}{more}",
        200,
    )


def _faers_text(record: Record) -> str:
    patient = record.get("patient") or {}
    serious = [label for key, label in _SERIOUS.items() if record.get(key) == "1"]
    head = _lines(
        [
            ("Safety report ID", record.get("safetyreportid")),
            ("Report version", record.get("safetyreportversion")),
            ("Received", iso_date(record.get("receivedate"))),
            (
                "Serious",
                ("yes: " + ", ".join(serious))
                if serious
                else ("yes" if record.get("serious") == "1" else "no"),
            ),
            (
                "Country",
                record.get("occurcountry")
                or (record.get("primarysource") or {}).get("reportercountry"),
            ),
            ("Company report number", record.get("companynumb")),
            ("Patient age", patient.get("patientonsetage")),
            ("Patient sex", _SEX.get(str(patient.get("patientsex")))),
            ("Patient weight (kg)", patient.get("patientweight")),
        ]
    )
    drugs = []
    for drug in _faers_drugs(record):
        details = _join(
            [
                _CHARACTER.get(str(drug.get("drugcharacterization")), ""),
                f"indication {drug['drugindication']}" if drug.get("drugindication") else "",
                f"dose {drug['drugdosagetext']}" if drug.get("drugdosagetext") else "",
                f"from {iso_date(drug.get('drugstartdate'))}" if drug.get("drugstartdate") else "",
                f"to {iso_date(drug.get('drugenddate'))}" if drug.get("drugenddate") else "",
            ],
            ", ",
        )
        drugs.append(f"- {drug.get('medicinalproduct')}" + (f" ({details})" if details else ""))
    reactions = _join(_faers_reactions(record))
    parts = [
        head,
        "Drugs:\n" + "\n".join(drugs) if drugs else "",
        f"Reactions: {reactions}" if reactions else "",
    ]
    narrative = (patient.get("summary") or {}).get("narrativeincludeclinical")
    return "\n\n".join(p for p in [*parts, narrative or ""] if p)


DRUG_EVENT = Endpoint(
    name="drug-event",
    dataset="fda_faers",
    key=lambda r: _first(r.get("safetyreportid")),
    title=_faers_title,
    date=lambda r: iso_date(r.get("receivedate")),
    fields=lambda r: {
        "safety_report_id": _first(r.get("safetyreportid")),
        "drug_name": _join(d.get("medicinalproduct") for d in _faers_drugs(r, True)),
        "reaction": _join(_faers_reactions(r)),
        "serious": None if r.get("serious") is None else str(r.get("serious")) == "1",
    },
    text=_faers_text,
)


def _device(record: Record) -> Record:
    devices = record.get("device") or [{}]
    return devices[0] if isinstance(devices[0], dict) else {}


def _maude_event_type(record: Record) -> str | None:
    value = str(record.get("event_type") or "").strip().lower()
    if not value:
        return None
    return value if value in ("death", "injury", "malfunction") else "other"


def _maude_text(record: Record) -> str:
    device = _device(record)
    head = _lines(
        [
            ("MDR report key", record.get("mdr_report_key")),
            ("Report number", record.get("report_number")),
            ("Event type", record.get("event_type")),
            ("Date received", iso_date(record.get("date_received"))),
            ("Date of event", iso_date(record.get("date_of_event"))),
            ("Brand name", device.get("brand_name")),
            ("Generic name", device.get("generic_name")),
            ("Model number", device.get("model_number")),
            ("Product code", device.get("device_report_product_code")),
            ("Manufacturer", device.get("manufacturer_d_name") or record.get("manufacturer_name")),
            ("Report source", record.get("report_source_code")),
            ("Reporter occupation", record.get("reporter_occupation_code")),
            ("Device problems", record.get("product_problems")),
            (
                "Patient outcomes",
                [
                    o
                    for p in record.get("patient") or []
                    for o in p.get("sequence_number_outcome") or []
                ],
            ),
        ]
    )
    texts = [
        f"{t.get('text_type_code') or 'Text'}:\n{t['text'].strip()}"
        for t in record.get("mdr_text") or []
        if isinstance(t, dict) and (t.get("text") or "").strip()
    ]
    return "\n\n".join([head, *texts])


DEVICE_EVENT = Endpoint(
    name="device-event",
    dataset="fda_maude",
    key=lambda r: _first(r.get("mdr_report_key")) or _first(r.get("report_number")),
    title=lambda r: _short(
        f"MAUDE report {r.get('report_number') or r.get('mdr_report_key')}: "
        f"{_device(r).get('brand_name') or _device(r).get('generic_name') or 'device'}"
        + (f" - {r['event_type']}" if r.get("event_type") else ""),
        200,
    ),
    date=lambda r: iso_date(r.get("date_received")),
    fields=lambda r: {
        "report_number": _first(r.get("report_number")),
        "brand_name": _first(_device(r).get("brand_name")),
        "manufacturer": _first(_device(r).get("manufacturer_d_name"))
        or _first(r.get("manufacturer_name")),
        "product_code": _first(_device(r).get("device_report_product_code")),
        "event_type": _maude_event_type(r),
    },
    text=_maude_text,
)


def _record_lines(record: Record, labels: list[tuple[str, str]]) -> str:
    pairs: list[tuple[str, object]] = []
    for label, name in labels:
        value = record.get(name)
        if name.startswith("openfda."):
            value = (record.get("openfda") or {}).get(name.removeprefix("openfda."))
        if name.endswith("date"):
            value = iso_date(value) or value
        pairs.append((label, value))
    return _lines(pairs)


K510_LINES = [
    ("510(k) number", "k_number"),
    ("Device name", "device_name"),
    ("Applicant", "applicant"),
    ("Contact", "contact"),
    ("City", "city"),
    ("State", "state"),
    ("Country", "country_code"),
    ("Date received", "date_received"),
    ("Decision date", "decision_date"),
    ("Decision", "decision_description"),
    ("Clearance type", "clearance_type"),
    ("Product code", "product_code"),
    ("Review panel", "advisory_committee_description"),
    ("Regulation number", "openfda.regulation_number"),
    ("Device class", "openfda.device_class"),
    ("Third-party review", "third_party_flag"),
    ("Expedited review", "expedited_review_flag"),
    ("Statement or summary", "statement_or_summary"),
]


def _pathway(record: Record) -> str:
    number = str(record.get("k_number") or "").upper()
    kind = str(record.get("clearance_type") or "").lower()
    return "de_novo" if number.startswith("DEN") or "de novo" in kind else "510k"


DEVICE_510K = Endpoint(
    name="device-510k",
    dataset="fda_denovo_or_510k",
    key=lambda r: _first(r.get("k_number")),
    title=lambda r: _short(
        f"{'De Novo' if _pathway(r) == 'de_novo' else '510(k)'} {r.get('k_number')}: "
        f"{r.get('device_name') or 'device'} - {r.get('applicant') or 'applicant'}",
        200,
    ),
    date=lambda r: iso_date(r.get("decision_date")),
    fields=lambda r: {
        "submission_number": _first(r.get("k_number")),
        "applicant": _first(r.get("applicant")),
        "device_name": _first(r.get("device_name")),
        "product_code": _first(r.get("product_code")),
        "pathway": _pathway(r),
        "decision": _first(r.get("decision_description")) or _first(r.get("decision_code")),
    },
    text=lambda r: _record_lines(r, K510_LINES),
)

PMA_LINES = [
    ("PMA number", "pma_number"),
    ("Supplement", "supplement_number"),
    ("Supplement type", "supplement_type"),
    ("Supplement reason", "supplement_reason"),
    ("Trade name", "trade_name"),
    ("Generic name", "generic_name"),
    ("Applicant", "applicant"),
    ("City", "city"),
    ("State", "state"),
    ("Date received", "date_received"),
    ("Decision date", "decision_date"),
    ("Decision code", "decision_code"),
    ("Product code", "product_code"),
    ("Review panel", "advisory_committee_description"),
    ("Docket number", "docket_number"),
    ("Expedited review", "expedited_review_flag"),
    ("Device class", "openfda.device_class"),
    ("Regulation number", "openfda.regulation_number"),
    ("Approval order statement", "ao_statement"),
]


def _pma_id(record: Record) -> str | None:
    number = _first(record.get("pma_number"))
    supplement = _first(record.get("supplement_number"))
    return f"{number}/{supplement}" if number and supplement else number


DEVICE_PMA = Endpoint(
    name="device-pma",
    dataset="fda_pma",
    key=_pma_id,
    title=lambda r: _short(
        f"PMA {_pma_id(r)}: {r.get('trade_name') or r.get('generic_name') or 'device'}"
        f" - {r.get('applicant') or 'applicant'}",
        200,
    ),
    date=lambda r: iso_date(r.get("decision_date")),
    fields=lambda r: {
        "pma_number": _first(r.get("pma_number")),
        "applicant": _first(r.get("applicant")),
        "trade_name": _first(r.get("trade_name")),
        "product_code": _first(r.get("product_code")),
    },
    text=lambda r: _record_lines(r, PMA_LINES),
)

RECALL_LINES = [
    ("Recall number", "product_res_number"),
    ("Recall event", "res_event_number"),
    ("Status", "recall_status"),
    ("Recalling firm", "recalling_firm"),
    ("Firm FEI number", "firm_fei_number"),
    ("City", "city"),
    ("State", "state"),
    ("Country", "country"),
    ("Initiated", "event_date_initiated"),
    ("Posted", "event_date_posted"),
    ("Terminated", "event_date_terminated"),
    ("Product code", "product_code"),
    ("Device name", "openfda.device_name"),
    ("510(k) numbers", "k_numbers"),
    ("PMA numbers", "pma_numbers"),
    ("Product", "product_description"),
    ("Code information", "code_info"),
    ("Quantity", "product_quantity"),
    ("Distribution", "distribution_pattern"),
    ("Reason for recall", "reason_for_recall"),
    ("Root cause", "root_cause_description"),
    ("Action", "action"),
]

DEVICE_RECALL = Endpoint(
    name="device-recall",
    dataset="fda_recalls",
    key=lambda r: _first(r.get("cfres_id")) or _first(r.get("product_res_number")),
    title=lambda r: _short(
        f"Device recall {r.get('product_res_number') or r.get('cfres_id') or ''}: "
        f"{r.get('product_description') or ''}",
        200,
    ),
    date=lambda r: iso_date(r.get("event_date_initiated") or r.get("event_date_posted")),
    fields=lambda r: {
        "company": _first(r.get("recalling_firm")),
        "product_type": "devices",
        "reason": _first(r.get("reason_for_recall")),
    },
    text=lambda r: _record_lines(r, RECALL_LINES),
)

ENFORCEMENT_LINES = [
    ("Recall number", "recall_number"),
    ("Event ID", "event_id"),
    ("Classification", "classification"),
    ("Product type", "product_type"),
    ("Status", "status"),
    ("Recalling firm", "recalling_firm"),
    ("Address", "address_1"),
    ("City", "city"),
    ("State", "state"),
    ("Country", "country"),
    ("Voluntary or mandated", "voluntary_mandated"),
    ("Initial firm notification", "initial_firm_notification"),
    ("Recall initiated", "recall_initiation_date"),
    ("Classified", "center_classification_date"),
    ("Report date", "report_date"),
    ("Terminated", "termination_date"),
    ("Product", "product_description"),
    ("Code information", "code_info"),
    ("More code information", "more_code_info"),
    ("Quantity", "product_quantity"),
    ("Distribution", "distribution_pattern"),
    ("Reason for recall", "reason_for_recall"),
    ("Brand name", "openfda.brand_name"),
    ("Application number", "openfda.application_number"),
]


def _enforcement_title(record: Record) -> str:
    number = record.get("recall_number")
    kind = record.get("product_type") or "Product"
    head = f"{kind} recall {number}" if number else f"{kind} enforcement report"
    firm = (record.get("recalling_firm") or "").split(",")[0]
    return _short(f"{head}: {record.get('product_description') or ''}", 160) + (
        f" ({_short(firm, 60)})" if firm else ""
    )


ENFORCEMENT = Endpoint(
    name="enforcement",
    dataset="fda_recall_enforcement",
    key=lambda r: _first(r.get("recall_number")),
    title=_enforcement_title,
    date=lambda r: iso_date(r.get("report_date")),
    fields=lambda r: {
        "recall_number": _first(r.get("recall_number")),
        "recalling_firm": _first(r.get("recalling_firm")),
        "classification": _first(r.get("classification")),
        "product_type": _first(r.get("product_type")),
        "status": _first(r.get("status")),
    },
    text=lambda r: _record_lines(r, ENFORCEMENT_LINES),
)

ENDPOINTS: dict[str, Endpoint] = {
    "drug-label": DRUG_LABEL,
    "drug-event": DRUG_EVENT,
    "device-event": DEVICE_EVENT,
    "device-510k": DEVICE_510K,
    "device-pma": DEVICE_PMA,
    "device-recall": DEVICE_RECALL,
    "drug-enforcement": ENFORCEMENT,
    "device-enforcement": ENFORCEMENT,
    "food-enforcement": ENFORCEMENT,
}


def endpoint_for_record(record: Record) -> Endpoint | None:
    """The endpoint a record comes from, told by the fields only it has."""
    if "safetyreportid" in record:
        return DRUG_EVENT
    if "mdr_report_key" in record or "mdr_text" in record:
        return DEVICE_EVENT
    if "k_number" in record:
        return DEVICE_510K
    if "pma_number" in record and "supplement_number" in record:
        return DEVICE_PMA
    if "res_event_number" in record or "cfres_id" in record:
        return DEVICE_RECALL
    if "reason_for_recall" in record and "classification" in record:
        return ENFORCEMENT
    if "set_id" in record and ("effective_time" in record or "openfda" in record):
        return DRUG_LABEL
    return None
