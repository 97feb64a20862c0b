"""Identifiers and firm names in the real corpus: how many pages and documents hold each kind of
identifier (read with `regnb.ids` from every page and from the catalog fields), the values seen
most, and how many firms the `company` field names once its variants are grouped by `firm_key`.

    python benchmarks/ids_census.py [--top 5]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import Counter, defaultdict

from common import SHARED, table

from regnb import ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--top", type=int, default=5)
    args = parser.parse_args()
    folder = SHARED / "realcorpus"
    if not folder.is_dir():
        sys.exit(f"{folder} is absent: the census reads the real corpus")
    pages = Counter[str]()
    documents = Counter[str]()
    from_fields = Counter[str]()
    values: dict[str, Counter[str]] = defaultdict(Counter)
    companies: list[str] = []
    n_pages = n_documents = 0
    seconds = 0.0
    for path in sorted(folder.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for line in f:
                record = json.loads(line)
                n_documents += 1
                start = time.perf_counter()
                found: set[tuple[str, str]] = set()
                for page in record.get("pages") or []:
                    n_pages += 1
                    on_page = {(i.kind, i.value) for i in ids.identifiers(page)}
                    pages.update({kind for kind, _ in on_page})
                    found |= on_page
                fields = {(i.kind, i.value) for i in ids.field_identifiers(record)}
                seconds += time.perf_counter() - start
                from_fields.update({kind for kind, _ in fields})
                documents.update({kind for kind, _ in found | fields})
                for kind, value in found | fields:
                    values[kind][value] += 1
                if isinstance(record.get("company"), str) and record["company"].strip():
                    companies.append(record["company"])
    print(f"{n_pages} pages, {n_documents} documents; read in {seconds:.2f} s")
    rows = [
        (
            kind,
            str(pages[kind]),
            str(documents[kind]),
            str(from_fields[kind]),
            str(len(values[kind])),
            ", ".join(f"{v} ({n})" for v, n in values[kind].most_common(args.top)),
        )
        for kind in ids.KINDS
    ]
    print(table(rows, ("kind", "pages", "documents", "from fields", "distinct", "top (documents)")))
    raw = set(companies)
    stripped = {c.strip() for c in companies}
    keys: dict[str, set[str]] = defaultdict(set)
    for name in stripped:
        keys[ids.firm_key(name)].add(name)
    addresses = sorted(c for c in stripped if ids.looks_like_address(c))
    print(
        f"company field: {len(companies)} documents, {len(raw)} distinct strings, "
        f"{len(keys)} firm keys; {len(addresses)} address lines: {', '.join(addresses)}"
    )
    merged = sorted(keys.items(), key=lambda kv: (-len(kv[1]), kv[0]))[: args.top * 2]
    shown = [(k, " | ".join(n[:30] for n in sorted(v))[:110]) for k, v in merged if len(v) > 1]
    print(table(shown, ("key", "names grouped (first 30 characters)")))


if __name__ == "__main__":
    main()
