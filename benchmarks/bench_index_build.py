"""Index build throughput on about 20,000 real pages (guidance, trials, complete response
letters, warning letters, 483s, MAUDE, recalls of ../shared/data/realcorpus), ingested once with
a fast encoder, then indexed from scratch `--runs` times: pages per second of the build alone,
by the wall clock and by the CPU time the process used (steadier on a shared machine).

    python benchmarks/bench_index_build.py [--runs 3] [--work /tmp/regnb-bench-build]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import SHARED, RandomEncoder

import regnb.ingest
from regnb import catalog, index
from regnb.corpus import shards

FILES = (
    "fda_guidance__cowork-ra.jsonl.gz",
    "fda_clinical_trials__hint-eligibility.jsonl.gz",
    "fda_crl__gmpkit.jsonl.gz",
    "fda_warning_letters__jev.jsonl.gz",
    "fda_483__ncruickshank.jsonl.gz",
    "fda_maude__narratives.jsonl.gz",
    "fda_recall_enforcement__openfda-fixture.jsonl.gz",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", type=Path, default=Path("/tmp/regnb-bench-build"))
    args = parser.parse_args()
    folder = SHARED / "realcorpus"
    if not folder.is_dir():
        sys.exit(f"{folder} is absent: the benchmark reads the real corpus")
    corpus = args.work / "corpus"
    if not (corpus / shards.MANIFEST).exists():
        regnb.ingest.jsonl([folder / f for f in FILES], corpus=corpus, encoder=RandomEncoder())
    manifest = shards.Manifest.load(corpus)
    assert manifest is not None
    pages = sum(s.pages_count for s in manifest.shards)
    cat = catalog.load_catalog(corpus)
    seconds, cpu = [], []
    for run in range(args.runs):
        target = args.work / f"index-{run}"
        shutil.rmtree(target, ignore_errors=True)
        start, start_cpu = time.perf_counter(), time.process_time()
        index.build_index(corpus, manifest, cat, index.IndexFiles(target), progress=False)
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        shutil.rmtree(target, ignore_errors=True)
    best = min(seconds)
    print(
        f"index build, {pages} pages: best {best:.2f} s of {args.runs} "
        f"({pages / best:,.0f} pages/s); runs {', '.join(f'{s:.2f}' for s in seconds)} s; "
        f"CPU {min(cpu):.2f} s ({pages / min(cpu):,.0f} pages per CPU-second)"
    )


if __name__ == "__main__":
    main()
