"""Ingest connectors: the agencies' own formats into a corpus, resumable and idempotent.

Each connector returns a summary DataFrame (one row per dataset: files, files_failed, documents,
written, replaced, skipped, rejected, pages); `summary.attrs["problems"]` lists each file or
record that could not go in (dataset, file, reason). Documents are keyed by their source, so a
re-run adds nothing; batches are committed as they fill, so an interrupted run resumes.
"""

from __future__ import annotations

from regnb.ingest.clinicaltrials import clinicaltrials
from regnb.ingest.fetch import fetch_openfda
from regnb.ingest.html import html
from regnb.ingest.jsonl import jsonl
from regnb.ingest.openfda import openfda
from regnb.ingest.pdf import pdf

__all__ = ["clinicaltrials", "fetch_openfda", "html", "jsonl", "openfda", "pdf"]
