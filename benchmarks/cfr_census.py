"""CFR citations in the real corpus: how many pages cite the CFR, per dataset, and the sections
cited most (pages citing each), read with `regnb.documents.cfr` from every page of ../shared/data/realcorpus.

    python benchmarks/cfr_census.py [--top 10]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import Counter

import pyarrow as pa
from common import SHARED, table

from regnb.documents import cfr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()
    folder = SHARED / "realcorpus"
    if not folder.is_dir():
        sys.exit(f"{folder} is absent: the census reads the real corpus")
    pages: list[str] = []
    datasets: list[str] = []
    for path in sorted(folder.glob("*.jsonl.gz")):
        dataset = path.name.split("__")[0]
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for line in f:
                for page in json.loads(line).get("pages") or []:
                    pages.append(page)
                    datasets.append(dataset)
    start = time.perf_counter()
    candidates = cfr.candidates(pa.array(pages, pa.string()))
    found = {int(i): cfr.sections(pages[i]) for i in candidates}
    seconds = time.perf_counter() - start
    citing = {i for i, s in found.items() if s}
    by_dataset = Counter(datasets[i] for i in citing)
    sections = Counter(s for i in citing for s in found[i] if "." in s)
    parts = Counter(s for i in citing for s in found[i] if "." not in s)
    print(
        f"{len(pages)} pages, {len(candidates)} candidates, {len(citing)} cite the CFR "
        f"({len(citing) / len(pages):.1%}); read in {seconds:.2f} s"
    )
    print(table([(d, str(n)) for d, n in by_dataset.most_common()], ("dataset", "pages citing")))
    print(table([(s, str(n)) for s, n in sections.most_common(args.top)], ("section", "pages")))
    print(
        table([(s, str(n)) for s, n in parts.most_common(args.top)], ("part cited alone", "pages"))
    )


if __name__ == "__main__":
    main()
