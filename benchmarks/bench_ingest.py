"""Ingest throughput on the real documents of ../shared/data: PDF extraction, text normalisation,
the jsonl ingest of the whole real corpus, index build and embedding, each measured on its own,
then search latency over the ingested corpus.

    python benchmarks/bench_ingest.py [--embed-sample 256] [--device cpu|cuda]

Embedding with the real MiniLM model is measured on a sample of real pages (the whole corpus would
take hours on 2 cores) and extrapolated; the ingest itself runs with a random encoder.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import OUT, PEAK_GB, SHARED, RandomEncoder, percentiles, run_child, table, timed

import regnb
import regnb.ingest
from regnb.ingest.normalise import normalise_pages
from regnb.ingest.pdf import extract_pdf
from regnb.settings import Settings

QUERIES = [
    (["sterility", "aseptic processing"], "sterility assurance failures in aseptic processing"),
    (["data integrity"], "audit trails disabled and data integrity lapses in the laboratory"),
    (["complete response"], "reasons for a complete response letter"),
    (["bioequivalence"], "bioequivalence study deficiencies"),
    (["listeria", "salmonella"], "food recalls for bacterial contamination"),
    (["malfunction", "death"], "device malfunctions that led to a death"),
    (["cybersecurity"], "premarket cybersecurity expectations for medical devices"),
    (["clinical evaluation"], "clinical evaluation requirements under the MDR"),
    (["risk management"], "quality risk management principles"),
    (["21 CFR 211.113"], "control of microbiological contamination"),
    (["CAPA", "corrective and preventive action"], "inadequate corrective and preventive actions"),
    (["hepatotoxicity"], "liver injury adverse events"),
    (["pediatric"], "pediatric study requirements"),
    (["software validation"], "validation of software used in device manufacturing"),
    (["labeling", "misbranded"], "misbranded products with false labeling claims"),
    (["process validation"], "process validation lifecycle"),
    (["의료기기"], "Korean medical device regulation"),
    (["stability testing"], "stability program deficiencies"),
    (["out of specification", "OOS"], "out-of-specification results not investigated"),
    (["biocompatibility"], "biocompatibility evaluation of devices"),
]

INDEX_CHILD = f"""
import json, sys, time
from pathlib import Path
from regnb import catalog, index
from regnb.corpus import shards
corpus, folder = Path(sys.argv[1]), Path(sys.argv[2])
folder.mkdir(parents=True)
start = time.perf_counter()
index.build_index(corpus, shards.Manifest.load(corpus), catalog.load_catalog(corpus),
                  index.IndexFiles(folder), progress=False)
seconds = time.perf_counter() - start
{PEAK_GB}
print(json.dumps({{"seconds": seconds, "peak_gb": peak_gb}}))
"""


def real_pages() -> list[str]:
    pages = []
    for path in sorted((SHARED / "realcorpus").glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for line in f:
                pages += [p for p in json.loads(line).get("pages") or [] if isinstance(p, str)]
    return pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--embed-sample", type=int, default=256)
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    args = parser.parse_args()
    if not (SHARED / "realcorpus").exists():
        sys.exit(f"real corpus not found at {SHARED / 'realcorpus'}")
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []

    pdfs = sorted((SHARED / "raw").glob("*_pdf/*.pdf"))
    start = time.perf_counter()
    n = sum(len(extract_pdf(p)[0]) for p in pdfs)
    secs = time.perf_counter() - start
    rows.append(
        (
            "PDF extraction (pypdfium2)",
            f"{len(pdfs)} PDFs, {n} pages",
            f"{secs:.1f}",
            f"{n / secs:.0f}",
        )
    )

    pages = real_pages()
    docs = [pages[i : i + 8] for i in range(0, len(pages), 8)]
    start = time.perf_counter()
    for group in docs:
        normalise_pages(group)
    secs = time.perf_counter() - start
    rows.append(
        ("text normalisation", f"{len(pages)} pages", f"{secs:.1f}", f"{len(pages) / secs:.0f}")
    )

    corpus = OUT / "realcorpus-ingested"
    shutil.rmtree(corpus, ignore_errors=True)
    start = time.perf_counter()
    summary = regnb.ingest.jsonl(
        SHARED / "realcorpus", corpus=corpus, encoder=RandomEncoder(), progress=False
    )
    secs = time.perf_counter() - start
    n_pages = int(summary["pages"].sum())
    rows.append(
        (
            "ingest jsonl, whole real corpus (no embedding)",
            f"{int(summary['documents'].sum())} docs, {n_pages} pages",
            f"{secs:.1f}",
            f"{n_pages / secs:.0f}",
        )
    )

    folder = OUT / "realcorpus-index"
    shutil.rmtree(folder, ignore_errors=True)
    built = json.loads(run_child(INDEX_CHILD, str(corpus), str(folder)).splitlines()[-1])
    rows.append(
        (
            "index build",
            f"{n_pages} pages, peak {built['peak_gb']:.2f} GB",
            f"{built['seconds']:.1f}",
            f"{n_pages / built['seconds']:.0f}",
        )
    )

    sample = random.Random(3).sample(pages, args.embed_sample)
    encoder = regnb.MiniLMEncoder(device=args.device)
    encoder.encode(sample[:8])
    start = time.perf_counter()
    encoder.encode(sample)
    secs = time.perf_counter() - start
    rate = len(sample) / secs
    rows.append(
        (
            f"embedding, MiniLM int8 ({args.device})",
            f"{len(sample)} sampled pages; whole corpus ~{n_pages / rate / 3600:.1f} h",
            f"{secs:.1f}",
            f"{rate:.1f}",
        )
    )

    home = OUT / "home-real"
    shutil.rmtree(home, ignore_errors=True)
    settings = Settings(**{**Settings.from_env().__dict__, "home": home})
    with regnb.Engine(corpus, encoder=RandomEncoder(), settings=settings, progress=False) as eng:
        for items, q in QUERIES:
            eng.search(items, q)
        ms = [timed(lambda items=items, q=q: eng.search(items, q)) for items, q in QUERIES * 3]
        top = {q: eng.search(items, q).to_dict()["total"] for items, q in QUERIES[:3]}
    p50, p95 = percentiles(ms)
    print(table(rows, ("step", "size", "seconds", "pages/s")))
    print(
        f"\nv3 search over the ingested real corpus ({n_pages} pages, all datasets, similarity "
        f"ranking, query embedding excluded): p50 {p50:.1f} ms, p95 {p95:.1f} ms "
        f"over {len(ms)} searches"
    )
    print("documents found for the first queries:", top)


if __name__ == "__main__":
    main()
