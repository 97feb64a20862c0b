"""How flat metadata records (the exports in `shared/data/realcorpus/`) map onto catalog fields.

A file's name up to `__` names its dataset (`fda_crl__gmpkit.jsonl.gz` -> `fda_crl`), except
the prefixes in PREFIX_DATASET; `custom_*` files go to a dataset of the user's own. A record's
key becomes the field of the same name when the dataset has it, or the field ALIASES names;
everything else is left out (and listed in the summary's `dropped_fields`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = [
    "ALIASES",
    "CUSTOM_NAMES",
    "PREFIX_CONSTANTS",
    "PREFIX_DATASET",
    "dataset_for_file",
    "fixer",
    "record_key",
]

PREFIX_DATASET = {
    "fda_drug_labels": "fda_drug",
    "fda_483_observation_catalog": "fda_483",
    "fda_recall": "fda_recalls",
}
CUSTOM_NAMES = {
    "custom_us_fdca_cfr": "US FD&C Act and 21 CFR 800-898",
    "custom_eu_mdr_ivdr": "EU MDR and IVDR",
    "custom_mfds_korea": "Korea MFDS laws and guidelines (in Korean)",
}
PREFIX_CONSTANTS: dict[str, dict[str, Any]] = {
    "fda_drug_labels": {"document_type": "label"},
}
ALIASES: dict[str, dict[str, str]] = {
    "fda_483": {"company": "facility_name", "firm_name": "facility_name"},
    "fda_clinical_trials": {
        "company": "sponsor",
        "lead_sponsor": "sponsor",
        "diseases": "conditions",
        "condition": "conditions",
    },
    "fda_drug": {"company": "sponsor", "substance_name": "active_ingredient"},
    "fda_faers": {"safetyreportid": "safety_report_id", "receivedate": "receive_date"},
    "fda_guidance": {"docket": "docket_number"},
    "fda_maude": {"company": "manufacturer", "device_name": "brand_name"},
    "fda_recall_enforcement": {"company": "recalling_firm"},
    "fda_biologic": {"company": "applicant", "application_number": "bla_number"},
    "fda_denovo_or_510k": {"company": "applicant", "k_number": "submission_number"},
    "fda_pma": {"company": "applicant"},
    "fda_inspections": {"company": "firm_name"},
    "ema_epar": {"ema_doc_type": "document_type"},
    "ema_mdcg_guidance": {"topic_folder": "topic", "doc_type": "document_type"},
}

_SUFFIXES = re.compile(r"(\.(jsonl|ndjson|json|gz))+$", re.IGNORECASE)


def file_prefix(path: Path) -> str:
    """`fda_crl__gmpkit.jsonl.gz` -> `fda_crl`."""
    return _SUFFIXES.sub("", path.name).split("__")[0]


def dataset_for_file(path: Path) -> str:
    """The dataset a realcorpus-style file name names (a `custom_*` prefix is its own id)."""
    prefix = file_prefix(path)
    return PREFIX_DATASET.get(prefix, prefix)


def record_key(record: dict[str, Any], file: Path, line: int) -> str:
    """A stable key: the record's `key`, its source repository and path, its URL, or file:line."""
    key = record.get("key")
    if isinstance(key, str) and key:
        return key
    if record.get("source_path"):
        repo = record.get("source_repo") or ""
        return f"{repo}:{record['source_path']}"
    url = record.get("url")
    if isinstance(url, str) and url:
        return url
    return f"{file.name}:{line}"


def trial_phase(value: object) -> str | None:
    """ClinicalTrials.gov phases ('Phase 1/Phase 2', ['PHASE2', 'PHASE3'], 'N/A') -> the highest,
    as the catalog's enum value."""
    text = " ".join(map(str, value)) if isinstance(value, list | tuple) else str(value or "")
    text = text.lower().replace("_", " ")
    numbers = [int(n) for n in re.findall(r"phase\s*([1-4])", text)]
    if "early" in text and (not numbers or max(numbers) == 1):
        return "early_phase1"
    if numbers:
        return f"phase{max(numbers)}"
    return "na" if re.sub(r"[^a-z]", "", text) in ("na", "notapplicable") else None


_STATUS = {
    "recruiting": "recruiting",
    "notyetrecruiting": "recruiting",
    "enrollingbyinvitation": "recruiting",
    "activenotrecruiting": "active_not_recruiting",
    "completed": "completed",
    "terminated": "terminated",
    "withdrawn": "withdrawn",
    "suspended": "suspended",
}


def trial_status(value: object) -> str | None:
    """ClinicalTrials.gov overall status -> the catalog's enum ('unknown' for the others)."""
    if value is None or not str(value).strip():
        return None
    return _STATUS.get(re.sub(r"[^a-z]", "", str(value).lower()), "unknown")


def event_type(value: object) -> str | None:
    """MAUDE event type -> death, injury, malfunction or other."""
    if value is None or not str(value).strip():
        return None
    text = str(value).strip().lower()
    return text if text in ("death", "injury", "malfunction") else "other"


FIXERS = {
    ("fda_clinical_trials", "phase"): trial_phase,
    ("fda_clinical_trials", "overall_status"): trial_status,
    ("fda_maude", "event_type"): event_type,
}


def fixer(dataset: str) -> Callable[[str, object], object]:
    """The value fixer of a dataset's fields (identity for fields without one)."""

    def fix(name: str, value: object) -> object:
        found = FIXERS.get((dataset, name))
        return found(value) if found is not None else value

    return fix
