"""The `regnb` command: a thin layer over the public Python API."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import regnb
from regnb.errors import RegnbError

__all__ = ["main"]


def _engine(args: argparse.Namespace) -> regnb.Engine:
    encoder = regnb.HashingEncoder() if getattr(args, "fast_encoder", False) else None
    return regnb.open(args.corpus, plan=args.plan, encoder=encoder)


def cmd_search(args: argparse.Namespace) -> int:
    filters = json.loads(args.filters) if args.filters else None
    with _engine(args) as eng:
        res = eng.search(
            args.keywords,
            args.query,
            datasets=args.dataset or None,
            filters=filters,
            date_from=args.date_from,
            date_to=args.date_to,
            limit=args.limit,
            offset=args.offset,
        )
    if args.json:
        print(json.dumps(res.to_dict(), indent=2, ensure_ascii=False))
        return 0
    print(f"{res.total} documents, ranking: {res.ranking}")
    for i, doc in enumerate(res.to_dict()["results"], start=args.offset + 1):
        page = doc["pages"][0]
        snippet = " ".join(page["text"].split())[:160]
        print(f"\n{i:>3}. {doc['title']}  [{doc['dataset']}, {doc['date'] or 'no date'}]")
        print(
            f"     score {page['score']:.3f}  page {page['page_num']}  "
            f"matched pages {doc['matched_pages']}  id {doc['document_id']}"
        )
        print(f"     {snippet}")
    print("\ndatasets:")
    for ds, st in res.to_dict()["datasets"].items():
        extra = ""
        if st["status"] == "ok":
            extra = f" matches={st['matches']} pages={st['pages']}"
            extra += " loosened" if st.get("loosened") else ""
        elif "reason" in st:
            extra = f" ({st['reason']})"
        print(f"  {ds:<24} {st['status']}{extra}")
    return 0


def cmd_index(args: argparse.Namespace) -> int:
    with _engine(args) as eng:
        counts = eng.store.counts()
        docs = sum(c[0] for c in counts.values())
        pages = sum(c[1] for c in counts.values())
        print(f"index ready: {eng.store.files.folder}")
        print(f"{docs} documents, {pages} pages in {len(counts)} datasets")
    return 0


def cmd_read(args: argparse.Namespace) -> int:
    with _engine(args) as eng:
        doc = eng.read(args.document_id, args.page_from, args.page_to)
    if args.json:
        print(json.dumps(doc.to_dict(), indent=2, ensure_ascii=False))
    else:
        print(f"{doc.title} ({doc.total_pages} pages)")
        for page in doc.page_list:
            print(f"\n--- page {page['page_num']} ---\n{page['text']}")
    return 0


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--corpus", type=Path, default=None, help="corpus folder (default: demo)")
    parser.add_argument("--plan", default="enterprise", choices=["free", "paid", "enterprise"])
    parser.add_argument(
        "--fast-encoder", action="store_true", help="corpus embedded with the hashing encoder"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="regnb", description=__doc__)
    parser.add_argument("--version", action="version", version=regnb.__version__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("search", help="v3 search; prints a table (or the JSON envelope)")
    p.add_argument("keywords", nargs="+", help="keyword items; all words of one item must match")
    p.add_argument("-q", "--query", help="plain-language question that ranks the results")
    p.add_argument("-d", "--dataset", action="append", help="dataset id (repeat for several)")
    p.add_argument("--filters", help='JSON, e.g. \'{"fda_483": {"fei_number": "3001234567"}}\'')
    p.add_argument("--date-from")
    p.add_argument("--date-to")
    p.add_argument("--limit", type=int, default=20)
    p.add_argument("--offset", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the spec's response envelope")
    _common(p)
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("read", help="read a document's pages")
    p.add_argument("document_id")
    p.add_argument("--page-from", type=int, default=1)
    p.add_argument("--page-to", type=int, default=None)
    p.add_argument("--json", action="store_true")
    _common(p)
    p.set_defaults(func=cmd_read)

    p = sub.add_parser("index", help="build (or check) the index of a corpus")
    _common(p)
    p.set_defaults(func=cmd_index)

    for module in ("regnb.ingest.cli", "regnb.server.cli"):
        try:
            register = __import__(module, fromlist=["register"]).register
        except ImportError:
            continue
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except RegnbError as exc:
        where = f" ({exc.field})" if exc.field else ""
        print(f"error: {exc.code}{where}: {exc.message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
