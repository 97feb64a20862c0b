"""Identifiers and firms measured on the real documents of ../shared/data/realcorpus.

    python benchmarks/firms_census.py ids            # precision and recall per identifier kind
    python benchmarks/firms_census.py timeline [--pages 200000] [--work DIR]

`ids`: `regnb.ids` against a hand-labelled sample (benchmarks/ids_labels.json: for each
document, `file:line` of its record, the pages read and the identifiers a reader finds there
and in its catalog fields, forms only). Stratum 1 is 103 documents drawn at random per file
(483s, warning letters, complete response letters, trials, guidance, recalls, MAUDE, labels;
their first 3 pages); stratum 2 is 27 documents whose pages hold a K, P, DEN or NCT number
(the pages that do), for the kinds stratum 1 hardly holds. Applications are compared by
number (the type is reported apart), PMA and application supplements are dropped.

`timeline`: a corpus of about `--pages` pages (the real 483s, warning letters and complete
response letters, copied under the names of 200 firms, one of them given 300 documents across
the three datasets under variants of its name and one FEI; the rest real guidance and trial
pages copied), then the latency of `Engine.firm` and `Engine.timeline` for that firm beside
a reference: DuckDB scanning the same documents' firm field with ILIKE and ordering by date.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import shutil
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import SHARED, RandomEncoder, table

from regnb import ids
from regnb.firms.entities import identifier_label

HERE = Path(__file__).resolve().parent
LABELS = HERE / "ids_labels.json"
REAL = SHARED / "realcorpus"
KINDS = ("fei", "application", "510k", "pma", "denovo", "nct", "product_code")


def _key(label: str) -> tuple[str, str]:
    """(kind, value) of a labelled form: `FEI 3002806560`, `NDA 021164` (by number),
    `K123456`, `P123456`, `DEN200031`, `NCT01234567`, `Product code LLZ`."""
    if label.startswith("FEI "):
        return "fei", label[4:]
    if label.startswith("Product code "):
        return "product_code", label[13:]
    if label.split()[0] in ("NDA", "ANDA", "BLA", "Application"):
        return "application", label.split()[-1]
    prefix = {"K": "510k", "P": "pma", "DEN": "denovo", "NCT": "nct"}
    for start, kind in sorted(prefix.items(), key=lambda p: -len(p[0])):
        if label.startswith(start):
            return kind, label
    raise ValueError(f"not a labelled form: {label!r}")


def _found(found: list[ids.Identifier]) -> set[tuple[str, str]]:
    out = set()
    for i in found:
        if i.kind == "product_code":
            out.add(("product_code", i.value))
        else:
            label = identifier_label(i.kind, i.value)
            if label:
                out.add(_key(label))
    return out


def _records(wanted: set[str]) -> dict[str, dict[str, Any]]:
    """The records named `file:line`, read from the real corpus."""
    out: dict[str, dict[str, Any]] = {}
    for name in sorted({w.split(":")[0] for w in wanted}):
        with gzip.open(REAL / f"{name}.jsonl.gz", "rt", encoding="utf-8") as f:
            for line_no, line in enumerate(f, 1):
                if f"{name}:{line_no}" in wanted:
                    out[f"{name}:{line_no}"] = json.loads(line)
    return out


def _types(labels: dict[str, Any], records: dict[str, dict[str, Any]]) -> tuple[int, int]:
    """Applications found in the text whose type (NDA, ANDA, BLA) is the labelled one."""
    right = total = 0
    for doc, label in labels.items():
        typed = {
            (t.split()[-1], t.split()[0])
            for t in label["text"]
            if t.split()[0] in ("NDA", "ANDA", "BLA")
        }
        pages = records[doc].get("pages") or []
        text = "\n\n".join(pages[p - 1] for p in label["pages"] if p <= len(pages))
        for i in ids.identifiers(text):
            if i.kind == "application" and " " in i.value:
                kind, number = i.value.split()[0], i.value.split()[1][:6]
                if any(n == number for n, _ in typed):
                    total += 1
                    right += (number, kind) in typed
    return right, total


def ids_census() -> None:
    labels = json.loads(LABELS.read_text(encoding="utf-8"))
    records = _records(set(labels))
    counts = {where: {k: Counter[str]() for k in KINDS} for where in ("text", "document")}
    misses: list[str] = []
    for doc, label in sorted(labels.items()):
        record = records[doc]
        pages = record.get("pages") or []
        text = {
            key
            for p in label["pages"]
            if p <= len(pages)
            for key in _found(ids.identifiers(pages[p - 1]))
        }
        fields = _found(ids.field_identifiers(record))
        truth_text = {_key(t) for t in label["text"]}
        truth_all = truth_text | {_key(f) for f in label["fields"]}
        for where, got, truth in (
            ("text", text, truth_text),
            ("document", text | fields, truth_all),
        ):
            for kind, value in got | truth:
                outcome = (
                    "tp" if (kind, value) in got & truth else "fp" if (kind, value) in got else "fn"
                )
                counts[where][kind][outcome] += 1
                if where == "text" and outcome != "tp":
                    misses.append(f"{doc}: {outcome} {kind} {value}")
    print(f"{len(labels)} documents labelled ({LABELS.name})")
    for where, title in (
        ("text", "read from the pages' text"),
        ("document", "text and catalog fields"),
    ):
        rows = []
        for kind in KINDS:
            c = counts[where][kind]
            tp, fp, fn = c["tp"], c["fp"], c["fn"]
            precision = f"{tp / (tp + fp):.3f}" if tp + fp else "-"
            recall = f"{tp / (tp + fn):.3f}" if tp + fn else "-"
            rows.append((kind, str(tp + fn), str(tp), str(fp), str(fn), precision, recall))
        total = {o: sum(counts[where][k][o] for k in KINDS) for o in ("tp", "fp", "fn")}
        rows.append(
            (
                "all",
                str(total["tp"] + total["fn"]),
                str(total["tp"]),
                str(total["fp"]),
                str(total["fn"]),
                f"{total['tp'] / (total['tp'] + total['fp']):.3f}",
                f"{total['tp'] / (total['tp'] + total['fn']):.3f}",
            )
        )
        print(f"\nIdentifiers {title}:")
        print(table(rows, ("kind", "labelled", "found", "false", "missed", "precision", "recall")))
    right, total = _types(labels, records)
    print(f"\napplication type (NDA/ANDA/BLA) right in {right} of {total} typed applications")
    print("\nerrors in the text:\n  " + "\n  ".join(misses or ["none"]))


# --- timeline latency at scale -----------------------------------------------------------

BIG = "Northfield Sterile Products"  # the firm given many documents (a name not in the corpus)
BIG_FEI = "3099990001"
BIG_VARIANTS = (
    "Northfield Sterile Products, Inc.",
    "NORTHFIELD STERILE PRODUCTS INC",
    "Northfield Sterile Products Inc., Lake Forest, IL 60045",
    "Northfield Sterile Products LLC",
)
FIRM_FILES = {
    "fda_483__ncruickshank": ("fda_483", "facility_name"),
    "fda_warning_letters__jev": ("fda_warning_letters", "company"),
    "fda_crl__gmpkit": ("fda_crl", "company"),
}
_FEI = re.compile(r"(FEI\D{0,20}?)\d{7,10}")
FILLER = ("fda_guidance__cowork-ra", "fda_clinical_trials__hint-eligibility")


def _read(name: str) -> list[dict[str, Any]]:
    with gzip.open(REAL / f"{name}.jsonl.gz", "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def _documents(pages: int, big_docs: int, seed: int = 18) -> Iterator[tuple[str, dict[str, Any]]]:
    """(dataset, write_corpus document) until about `pages` pages: firm documents first (the big
    firm's `big_docs` among them), then filler."""
    rng = random.Random(seed)
    firms = [f"Firm {i:03d} Pharma" for i in range(199)]
    firm_docs = [(ds, field, r) for f, (ds, field) in FIRM_FILES.items() for r in _read(f)]
    # every copy of a record is one firm's (a copy under another firm would tie the two by the
    # FEI its text names); the big firm's records are spread over the three datasets
    stride = max(len(firm_docs) * 3 // big_docs, 1)
    owner = [-1 if r % stride == 0 else rng.randrange(len(firms)) for r in range(len(firm_docs))]
    made = 0
    for n in range(3 * len(firm_docs)):
        r = n % len(firm_docs)
        dataset, field, record = firm_docs[r]
        big = owner[r] < 0
        name = rng.choice(BIG_VARIANTS) if big else firms[owner[r]]
        fei = BIG_FEI if big else f"31{owner[r]:08d}"
        fields: dict[str, Any] = {field: name}
        if dataset == "fda_483":
            fields["fei_number"] = fei
        year = rng.randint(2012, 2025)
        doc = {
            "title": f"{record['title']} ({n})",
            "date": f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            "url": None,
            "pages": [_FEI.sub(rf"\g<1>{fei}", p) for p in record["pages"]],  # the firm's own
            "fields": fields,
            "key": f"firm-{n}",
        }
        made += len(record["pages"])
        yield dataset, doc
    fillers = [(f.split("__")[0], r) for f in FILLER for r in _read(f)]
    n = 0
    while made < pages:
        dataset, record = fillers[n % len(fillers)]
        doc = {
            "title": record.get("title") or "untitled",
            "date": None,
            "url": None,
            "pages": record["pages"],
            "fields": {},
            "key": f"filler-{n}",
        }
        made += len(record["pages"])
        n += 1
        yield dataset, doc


def _median_ms(fn: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def timeline_census(pages: int, work: Path, big_docs: int, runs: int) -> None:
    import duckdb

    import regnb
    from regnb.firms import timeline as firms
    from regnb.settings import Settings

    corpus = work / "corpus"
    if not (corpus / "manifest.json").exists():
        shutil.rmtree(work, ignore_errors=True)
        batch: dict[str, list[dict[str, Any]]] = {}
        size = 0
        start = time.perf_counter()
        for dataset, doc in _documents(pages, big_docs):
            batch.setdefault(dataset, []).append(doc)
            size += len(doc["pages"])
            if size > 20_000:
                regnb.write_corpus(corpus, batch, encoder=RandomEncoder(), progress=False)
                batch, size = {}, 0
        if batch:
            regnb.write_corpus(corpus, batch, encoder=RandomEncoder(), progress=False)
        print(f"corpus written in {time.perf_counter() - start:.0f} s")
    settings = Settings(**{**Settings.from_env().__dict__, "home": work / "home"})
    start = time.perf_counter()
    eng = regnb.Engine(corpus, encoder=RandomEncoder(), settings=settings, progress=False)
    print(f"engine open (index built if needed) in {time.perf_counter() - start:.0f} s")
    counts = eng.counts()
    print(f"{int(counts['pages'].sum()):,} pages, {int(counts['documents'].sum()):,} documents")
    start = time.perf_counter()
    first = eng.firm("Northfield")
    grouped = (time.perf_counter() - start) * 1000
    row = first.iloc[0]
    print(f"firm: {row['name']!r} {row['documents']} documents {row['datasets']}")
    firm_ms = _median_ms(lambda: eng.firm("Northfield"), runs)
    fei_ms = _median_ms(lambda: eng.firm(f"FEI {BIG_FEI}"), runs)
    start = time.perf_counter()
    timeline = eng.timeline(row["id"])
    timeline_first = (time.perf_counter() - start) * 1000
    timeline_ms = _median_ms(lambda: eng.timeline(row["id"]), runs)
    with_findings = int(sum(bool(f) for f in timeline["findings"]))
    links = firms.links_frame(timeline)
    print(f"links: {links.groupby(['relation', 'kind']).size().to_dict()}")
    print(f"483s with a repeat finding: {int(timeline['repeat'].sum())}")
    # the reference: DuckDB over the same documents' firm fields, as a table in memory
    store = eng.store
    fields = store.fields.live_field_values(["company", "facility_name"])
    docs = store.rows.documents(range(int(store.doc_base[-1])))
    con = duckdb.connect()
    con.register("fields", fields)
    con.register(
        "docs",
        __import__("pyarrow").table(
            {
                "doc_row": [d["doc_row"] for d in docs],
                "document_id": [d["document_id"] for d in docs],
                "dataset": [d["dataset"] for d in docs],
                "date": [d["date"] for d in docs],
                "title": [d["title"] for d in docs],
            }
        ),
    )
    sql = (
        "SELECT d.dataset, d.date, d.title, d.document_id FROM fields f JOIN docs d USING (doc_row) "
        "WHERE f.value ILIKE '%northfield%' ORDER BY d.date"
    )
    listed = len(con.execute(sql).fetchall())
    duck_ms = _median_ms(lambda: con.execute(sql).fetchall(), runs)
    print(
        table(
            [
                ("firm('Northfield'), first call (groups the entities)", f"{grouped:,.0f}"),
                ("firm('Northfield')", f"{firm_ms:,.1f}"),
                (f"firm('FEI {BIG_FEI}')", f"{fei_ms:,.1f}"),
                (
                    f"timeline, first call: {len(timeline)} events, {with_findings} with findings",
                    f"{timeline_first:,.0f}",
                ),
                ("timeline again (the documents' rows kept, links made)", f"{timeline_ms:,.0f}"),
                (
                    f"DuckDB ILIKE over the firm field + ORDER BY date ({listed} rows)",
                    f"{duck_ms:,.1f}",
                ),
            ],
            ("operation (median of runs)", "ms"),
        )
    )
    eng.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("ids")
    scale = sub.add_parser("timeline")
    scale.add_argument("--pages", type=int, default=200_000)
    scale.add_argument("--big", type=int, default=300)
    scale.add_argument("--runs", type=int, default=5)
    scale.add_argument("--work", type=Path, default=Path("/tmp/regnb-bench-firms"))
    args = parser.parse_args()
    if not REAL.is_dir():
        sys.exit(f"{REAL} is absent: the census reads the real corpus")
    if args.what == "ids":
        ids_census()
    else:
        timeline_census(args.pages, args.work, args.big, args.runs)


if __name__ == "__main__":
    main()
