"""`regnb ingest KIND SOURCE ...` and `regnb fetch openfda ENDPOINT ...`: thin layers over
regnb.ingest. `register(subparsers)` adds both commands to the main parser."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import pandas as pd

from regnb.errors import RegnbError

__all__ = ["KINDS", "register"]

KINDS = ("pdf", "html", "jsonl", "openfda", "clinicaltrials")
NEEDS_DATASET = ("pdf", "html")


def register(subparsers: Any) -> None:
    """Add `ingest` and `fetch` to an argparse subparsers object."""
    ingest = subparsers.add_parser(
        "ingest",
        help="add documents to a corpus from PDFs, web pages, JSON Lines, openFDA or trials",
        description="Ingest files into a corpus. Re-running adds nothing new; an interrupted "
        "run resumes; unreadable files are reported and skipped (exit code 1).",
    )
    ingest.add_argument("kind", choices=KINDS, help="the source format")
    ingest.add_argument("source", nargs="+", help="files or folders")
    ingest.add_argument(
        "--corpus",
        required=True,
        help="corpus folder (created if needed) or s3://bucket/prefix",
    )
    ingest.add_argument(
        "--dataset",
        help="dataset id (pdf and html need it; jsonl infers it "
        "from file names like fda_crl__x.jsonl.gz; openfda from the records)",
    )
    ingest.add_argument(
        "--create-dataset",
        metavar="NAME",
        help="add --dataset to the corpus catalog under this name, fields "
        "inferred from the records or the metadata file",
    )
    ingest.add_argument("--jurisdiction", help="jurisdiction of a created dataset")
    ingest.add_argument("--metadata", help="CSV or JSON of title/date/url/fields per file name")
    ingest.add_argument(
        "--device",
        choices=("cpu", "cuda"),
        default="cpu",
        help="where MiniLM embeds (cuda needs onnxruntime-gpu)",
    )
    ingest.add_argument(
        "--fast-encoder",
        action="store_true",
        help="hashing encoder instead of MiniLM (tests, quick looks)",
    )
    ingest.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="embed and write the shards on Ray: the cluster at ADDRESS, else $RAY_ADDRESS or a "
        "local Ray (GPU actors where it has GPUs; --device is then the cluster's); needs regnb[ray]",
    )
    ingest.add_argument("--quiet", action="store_true", help="no progress bar")
    ingest.set_defaults(func=run_ingest)

    fetch = subparsers.add_parser("fetch", help="download source files")
    sources = fetch.add_subparsers(dest="fetch_source", required=True)
    openfda = sources.add_parser("openfda", help="openFDA bulk files of one endpoint")
    openfda.add_argument("endpoint", help="e.g. device/event, drug/label, food/enforcement")
    openfda.add_argument("--dest", required=True, help="folder to download into")
    openfda.add_argument("--index-url", default=None, help="openFDA's download index URL")
    openfda.add_argument("--quiet", action="store_true", help="no progress bar")
    openfda.set_defaults(func=run_fetch)


def _call(args: argparse.Namespace) -> pd.DataFrame:
    from regnb import ingest
    from regnb.encoder import HashingEncoder

    common: dict[str, Any] = {
        "corpus": args.corpus,
        "encoder": HashingEncoder() if args.fast_encoder else None,
        "device": args.device,
        "progress": not args.quiet,
        "runner": "local" if args.ray is None else "ray",
        "ray_address": args.ray or None,
    }
    source = args.source[0] if len(args.source) == 1 else args.source
    own = {"create_dataset": args.create_dataset, "jurisdiction": args.jurisdiction}
    if args.kind == "pdf":
        return ingest.pdf(source, dataset=args.dataset, metadata=args.metadata, **own, **common)
    if args.kind == "html":
        return ingest.html(source, dataset=args.dataset, metadata=args.metadata, **own, **common)
    if args.kind == "jsonl":
        return ingest.jsonl(source, dataset=args.dataset, **own, **common)
    if args.kind == "openfda":
        return ingest.openfda(source, **common)
    return ingest.clinicaltrials(source, dataset=args.dataset or "fda_clinical_trials", **common)


def report(summary: pd.DataFrame) -> str:
    """The summary as the command prints it, problems last."""
    lines = [summary.to_string(index=False) if len(summary) else "nothing to ingest"]
    seconds, rate = summary.attrs.get("seconds"), summary.attrs.get("pages_per_second")
    if seconds is not None:
        lines.append(
            f"{int(summary['pages'].sum())} pages written in {seconds:.1f} s ({rate} pages/s)"
        )
    dropped = summary.attrs.get("dropped_fields") or []
    if dropped:
        lines.append("metadata left out (not fields of the dataset): " + ", ".join(dropped))
    problems = summary.attrs.get("problems")
    if problems is not None and len(problems):
        failed = int(summary["files_failed"].sum())
        rejected = int(summary["rejected"].sum())
        lines.append(f"FAILED: {failed} file(s) could not be read, {rejected} record(s) rejected:")
        lines += [f"  {p.file}: {p.reason}" for p in problems.itertuples()]
    return "\n".join(lines)


def run_ingest(args: argparse.Namespace) -> int:
    """Exit code 0 when everything went in, 1 when a file or record failed, 2 on bad usage."""
    if args.kind in NEEDS_DATASET and not args.dataset:
        print(f"regnb ingest {args.kind}: --dataset is required", file=sys.stderr)
        return 2
    if args.create_dataset and not args.dataset:
        print(
            "regnb ingest: --create-dataset needs --dataset (the new dataset's id)", file=sys.stderr
        )
        return 2
    try:
        summary = _call(args)
    except (RegnbError, ImportError, RuntimeError) as exc:
        print(f"regnb ingest: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 2
    print(report(summary))
    problems = summary.attrs.get("problems")
    return 1 if problems is not None and len(problems) else 0


def run_fetch(args: argparse.Namespace) -> int:
    """Exit code 0 when every file is there, 1 when one failed, 2 when the index failed."""
    from regnb.ingest.fetch import INDEX_URL, fetch_openfda

    try:
        result = fetch_openfda(
            args.endpoint,
            args.dest,
            index_url=args.index_url or INDEX_URL,
            progress=not args.quiet,
        )
    except RegnbError as exc:
        print(f"regnb fetch: {exc.message}", file=sys.stderr)
        return 2
    print(result.drop(columns=["url"]).to_string(index=False) if len(result) else "no files")
    failed = result[result["status"] == "failed"]
    if len(failed):
        print(
            f"FAILED: {len(failed)} file(s) did not download; run again to resume", file=sys.stderr
        )
        return 1
    return 0
