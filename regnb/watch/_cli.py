"""`regnb watch list|add|run|remove`: watchlists from the command line, for a scheduled job.

`regnb watch run NAME` prints what entered the corpus since the last run (a line per document,
its passage under it; `--json`: one JSON object a line; `--excel FILE`: a workbook) and marks it
seen (`--no-mark`: leaves it new). Nothing new is exit status 0 and one line:
`watchlist 'x': nothing new since 2026-11-20 14:03 UTC`. Registered by `regnb.cli`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import pandas as pd

from regnb.corpus.location import corpus_argument
from regnb.settings import Settings
from regnb.validate import date_text

__all__ = ["json_records", "register"]


def _engine(args: argparse.Namespace) -> Any:
    from regnb.cli import _engine

    return _engine(args)


def cmd_list(args: argparse.Namespace) -> int:
    from regnb.watch._watchlist import watchlists

    frame = watchlists(Settings.from_env(), args.corpus)
    if frame.empty:
        print("no watchlists; save one with: regnb watch add NAME KEYWORDS...")
        return 0
    rows = [("NAME", "LAST SEEN (UTC)", "WATCHES")]
    rows += [
        (r["name"], pd.Timestamp(r["last_seen"]).strftime("%Y-%m-%d %H:%M"), r["definition"])
        for r in frame.to_dict("records")
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(2)]
    for name, seen, watches in rows:
        print(f"{name.ljust(widths[0])}  {seen.ljust(widths[1])}  {watches}")
    return 0


def cmd_add(args: argparse.Namespace) -> int:
    from regnb.cli import parse_filters
    from regnb.watch._saved import check_name

    check_name(args.name)  # before the corpus is opened (and perhaps indexed)
    filters = parse_filters(args.filters)
    with _engine(args) as eng:
        wl = eng.watch(
            args.name,
            args.keywords or None,
            args.query,
            datasets=args.dataset or None,
            filters=filters,
            firms=args.firm or None,
            date_from=args.date_from,
            date_to=args.date_to,
            since=args.since,
        )
    start = f"from {args.since}" if args.since else "from now"
    print(f"watchlist {wl.name!r} saved ({start}): {wl.definition.describe()}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from regnb.watch._watchlist import report_lines, store_of

    store_of(Settings.from_env()).load(args.name)  # before the corpus is opened
    with _engine(args) as eng:
        wl = eng.watchlist(args.name)
        frame = wl.new()
        lines = report_lines(wl.name, frame, limit=len(frame))
        if args.json:
            for record in json_records(frame):
                print(json.dumps(record, ensure_ascii=False))
            print(lines[0], file=sys.stderr)
        elif args.excel:
            from regnb.present.excel import frame_to_excel

            frame_to_excel({"New": frame}, args.excel, links={"New": {"title": "url"}})
            print(f"{lines[0]}; written to {args.excel}")
        else:
            print("\n".join(lines))
        if not args.no_mark:
            wl.mark_seen()
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    from regnb.watch import remove

    remove(args.name)
    print(f"watchlist {args.name!r} removed")
    return 0


def json_records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The rows of `Watchlist.new()` as JSON values: `date` as YYYY-MM-DD, `ingested` as ISO
    8601 UTC, a missing value as null."""
    out = []
    for row in frame.to_dict("records"):
        record: dict[str, Any] = {}
        for name, value in row.items():
            if isinstance(value, list):
                record[str(name)] = value
            elif pd.isna(value):
                record[str(name)] = None
            elif name == "ingested":
                record[str(name)] = pd.Timestamp(value).isoformat()
            else:
                record[str(name)] = date_text(value.item() if hasattr(value, "item") else value)
        out.append(record)
    return out


def register(subparsers: Any) -> None:
    """Add `watch` and its commands to an argparse subparsers object."""
    from regnb.cli import _common

    watch = subparsers.add_parser(
        "watch",
        help="watchlists: saved searches or firms, and what entered the corpus since last time",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = watch.add_subparsers(dest="watch_command", required=True)

    p = commands.add_parser("list", help="the saved watchlists and when each was last run")
    p.add_argument(
        "--corpus",
        type=corpus_argument,
        metavar="DIR|URL",
        help="show when this corpus was last seen",
    )
    p.set_defaults(func=cmd_list)

    p = commands.add_parser("add", help="save a watchlist (what the corpus holds now is seen)")
    p.add_argument("name", help="the watchlist's name (letters, digits, _ - .)")
    p.add_argument("keywords", nargs="*", help="keyword items, as for search (or give --firm)")
    p.add_argument("-q", "--query", metavar="TEXT", help="question that picks the passages")
    p.add_argument("-d", "--dataset", action="append", metavar="ID", help="dataset id (repeat)")
    p.add_argument("--firm", action="append", metavar="NAME", help="firm name or FEI (repeat)")
    p.add_argument("--filters", metavar="JSON", help="per-dataset filters, as for search")
    p.add_argument("--date-from", metavar="YYYY-MM-DD", help="earliest document date")
    p.add_argument("--date-to", metavar="YYYY-MM-DD", help="latest document date")
    p.add_argument(
        "--since", metavar="TIME", help="report what entered from this ISO date or time (UTC)"
    )
    _common(p)
    p.set_defaults(func=cmd_add)

    p = commands.add_parser("run", help="print what is new and mark it seen")
    p.add_argument("name", help="the watchlist's name")
    output = p.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="one JSON object a line")
    output.add_argument("--excel", type=Path, metavar="FILE", help="write an .xlsx workbook")
    p.add_argument("--no-mark", action="store_true", help="leave what is new unseen")
    _common(p)
    p.set_defaults(func=cmd_run)

    p = commands.add_parser("remove", help="delete a saved watchlist")
    p.add_argument("name", help="the watchlist's name")
    p.set_defaults(func=cmd_remove)
