"""The `regnb` command: a thin layer over the public Python API.

Exit status: 0 done; 1 a failure on regnb's side or the corpus's (unreadable files, a timeout);
2 a usage or input error (bad options, an invalid request, a missing corpus or document);
141 the output pipe was closed early (`regnb search ... | head`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import regnb
from regnb.corpus.location import corpus_options
from regnb.documents.passages import best_passage
from regnb.errors import InvalidFilter, RegnbError
from regnb.index import health as index_health
from regnb.index.postings import kernels_ready
from regnb.present.html import status_reason
from regnb.query import QuerySyntaxWarning

__all__ = ["build_parser", "exit_code", "main", "quote_read_id", "shown_line"]

EXIT_FAILURE, EXIT_USAGE, EXIT_PIPE = 1, 2, 141
ENCODER_HINT = {True: "drop --fast-encoder", False: "add --fast-encoder"}


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows `(default: ...)` after an option's help, except for unset values and flags."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if any(action.default is v for v in (None, False, argparse.SUPPRESS)):
            return action.help
        return super()._get_help_string(action)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose help shows defaults; subcommands (also those registered by other
    modules) are built with it too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)


def _engine(args: argparse.Namespace) -> Any:
    """The engine a command reads from: `--server` (else REGNB_SERVER) or the local corpus."""
    from regnb.client import engine_from_args

    return engine_from_args(
        getattr(args, "server", ""),  # commands without --server (index) stay local
        args.corpus,
        plan=args.plan,
        fast_encoder=getattr(args, "fast_encoder", False),
    )


def parse_filters(text: str | None) -> dict[str, Any] | None:
    """The `--filters` JSON object, or InvalidFilter with a one-line reason."""
    if text is None:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidFilter(f"--filters is not valid JSON: {exc}", field="filters") from None
    if not isinstance(value, dict):
        raise InvalidFilter(
            f"--filters must be a JSON object keyed by dataset id, not {type(value).__name__}",
            field="filters",
        )
    return value


def cmd_search(args: argparse.Namespace) -> int:
    filters = parse_filters(args.filters)
    with _engine(args) as eng, warnings.catch_warnings():
        warnings.simplefilter("ignore", QuerySyntaxWarning)  # --plain says so itself
        res = eng.search(
            args.keywords,
            args.query,
            datasets=args.dataset or None,
            filters=filters,
            date_from=args.date_from,
            date_to=args.date_to,
            limit=args.limit,
            offset=args.offset,
            syntax="plain" if args.plain else "query",
        )
    failed = _all_timed_out(res.dataset_statuses)
    if args.json:
        print(json.dumps(res.to_dict(), indent=2, ensure_ascii=False))
        if failed:
            print(f"error: {failed}", file=sys.stderr)
        return 1 if failed else 0
    print(f"{res.total} documents, ranking: {res.ranking}")
    for notice in res.notices:
        print(f"notice: {notice}")
    for i, doc in enumerate(res.to_dict()["results"], start=args.offset + 1):
        page = doc["pages"][0]
        snippet = best_passage(page["text"], args.keywords, args.query, max_chars=240).terminal()
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
        elif status_reason(st):
            extra = f" ({status_reason(st)})"
        print(f"  {ds:<24} {st['status']}{extra}")
    if res.results:
        print(f"\n{shown_line(args.offset, len(res.results), res.total, res.next_offset)}")
    if failed:
        print(f"error: {failed}", file=sys.stderr)
        return 1
    return 0


def _all_timed_out(statuses: dict[str, dict[str, Any]]) -> str:
    """Why the search failed when every dataset it searched ran out of time ("" otherwise): its
    0 documents are not an answer (exit status 1)."""
    said = [st.get("status") for st in statuses.values()]
    if "timeout" not in said or "ok" in said or "no_match" in said:
        return ""
    n = said.count("timeout")
    return (
        f"every dataset searched ran out of time ({n} timeout); try again, or raise "
        "REGNB_SEARCH_TIMEOUT_S"
    )


def shown_line(offset: int, shown: int, total: int, next_offset: int | None) -> str:
    """`1–20 of 361; `--offset 20` for more`: which documents were printed, and how to go on."""
    line = f"{offset + 1}–{offset + shown} of {total:,}"
    return line + (f"; `--offset {next_offset}` for more" if next_offset is not None else "")


def cmd_export(args: argparse.Namespace) -> int:
    from regnb.present.export import match_file, matches_to_file

    target = match_file(args.to)  # a bad destination fails before the corpus is opened
    filters = parse_filters(args.filters)
    with _engine(args) as eng:
        batches = eng.matches(
            args.keywords,
            args.query,
            datasets=args.dataset or None,
            filters=filters,
            date_from=args.date_from,
            date_to=args.date_to,
            order=args.order,
            batch_size=args.batch_size,
        )
        written = matches_to_file(batches, target, progress=True)
    print(f"{written:,} documents written to {args.to}")
    return 0


def cmd_index(args: argparse.Namespace) -> int:
    if args.check:
        return _check_index(args)
    for segment in index_health.repair_index(args.corpus):
        print(f"segment {segment} was damaged: rebuilt from the corpus shards")
    if args.ray is not None:
        try:
            regnb.index.build.update(args.corpus, runner="ray", ray_address=args.ray or None)
        except ImportError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_USAGE
    if args.merge:
        regnb.index.build.merge(args.corpus)
    if args.publish:
        print(f"index published: {regnb.index.build.publish(args.corpus)}")
    with _engine(args) as eng:
        counts = eng.counts()
        kernels_ready()  # the search kernels compiled now, not by the first search
        print(f"index ready: {eng.index_path}")
        print(
            f"{counts.documents.sum()} documents, {counts.pages.sum()} pages "
            f"in {len(counts)} datasets"
        )
    return 0


def _check_index(args: argparse.Namespace) -> int:
    """`regnb index --check`: every segment file hashed, the damaged ones printed; exit 1 when
    there are any (or no index), 0 when the index is sound. Changes nothing."""
    folder = index_health.corpus_index(args.corpus)
    if folder is None:
        print(
            "no index of this corpus yet (or no corpus): `regnb index` builds it", file=sys.stderr
        )
        return 1
    damaged = index_health.check_index(folder, progress=True)
    for damage in damaged:
        held = ", ".join(damage.datasets) if damage.datasets is not None else "unknown datasets"
        print(f"damaged: segment {damage.segment} ({held}): {', '.join(damage.problems)}")
    if damaged:
        print(f"{len(damaged)} damaged segments in {folder}; `regnb index` rebuilds them")
        return 1
    print(f"index sound: {folder}")
    return 0


def cmd_read(args: argparse.Namespace) -> int:
    with _engine(args) as eng:
        doc = eng.read(args.document_id or args.id, args.page_from, args.page_to)
    if args.json:
        print(json.dumps(doc.to_dict(), indent=2, ensure_ascii=False))
    else:
        print(f"{doc.title} ({doc.total_pages} pages)")
        for page in doc.page_list:
            print(f"\n--- {doc.page_label(int(page['page_num']))} ---\n{page['text']}")
    return 0


def _common(parser: argparse.ArgumentParser) -> None:
    corpus_options(parser)
    parser.add_argument(
        "--plan",
        default=None,
        choices=["free", "paid", "enterprise"],
        help="plan to search as (default enterprise); free and paid cannot see the enterprise "
        "datasets; with --server the key's plan applies",
    )


def _server(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--server",
        metavar="URL",
        default=None,
        help="read from a regnb server or the hosted service instead of a corpus (default: "
        "$REGNB_SERVER; '' for the local corpus); the key comes from REGNB_API_KEY",
    )


def _search_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("keywords", nargs="+", help="keyword items; all words of one item must match")
    p.add_argument(
        "-q", "--query", metavar="TEXT", help="plain-language question that ranks the results"
    )
    p.add_argument(
        "-d", "--dataset", action="append", metavar="ID", help="dataset id (repeat for several)"
    )
    p.add_argument(
        "--filters",
        metavar="JSON",
        help='per-dataset filters, e.g. \'{"fda_483": {"fei_number": "3000975914"}}\'',
    )
    p.add_argument("--date-from", metavar="YYYY-MM-DD", help="earliest document date (inclusive)")
    p.add_argument("--date-to", metavar="YYYY-MM-DD", help="latest document date (inclusive)")
    p.add_argument("--limit", type=int, default=20, metavar="N", help="documents to show, 1 to 50")
    p.add_argument("--offset", type=int, default=0, metavar="N", help="documents to skip, 0 to 500")
    p.add_argument("--json", action="store_true", help="print the spec's response envelope")
    p.add_argument(
        "--plain",
        action="store_true",
        help='read keywords as plain words (no "phrases", -exclusions, OR, field:value, prefix*)',
    )
    _common(p)
    _server(p)


def _export_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("keywords", nargs="+", help="keyword items; all words of one item must match")
    p.add_argument(
        "--to", required=True, type=Path, metavar="FILE", help="output: .parquet, .csv or .xlsx"
    )
    p.add_argument(
        "-q", "--query", metavar="TEXT", help="the search's question (matching does not use it)"
    )
    p.add_argument(
        "-d", "--dataset", action="append", metavar="ID", help="dataset id (repeat for several)"
    )
    p.add_argument("--filters", metavar="JSON", help="per-dataset filters, as for search")
    p.add_argument("--date-from", metavar="YYYY-MM-DD", help="earliest document date (inclusive)")
    p.add_argument("--date-to", metavar="YYYY-MM-DD", help="latest document date (inclusive)")
    p.add_argument(
        "--order",
        default="date",
        choices=["date", "date_asc", "bm25"],
        help="newest first, oldest first, or best page BM25 first",
    )
    p.add_argument(
        "--batch-size", type=int, default=10_000, metavar="N", help="documents read at a time"
    )
    _common(p)
    _server(p)


def _read_arguments(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "document_id", nargs="?", help="the document's id (one starting with - works too)"
    )
    where.add_argument("--id", metavar="ID", help="the document's id, as an option: --id=-AbC")
    p.add_argument(
        "--page-from", type=int, default=1, metavar="N", help="first page to print (1-based)"
    )
    p.add_argument(
        "--page-to", type=int, default=None, metavar="N", help="last page (default: up to 100)"
    )
    p.add_argument("--json", action="store_true", help="print the spec's document read response")
    _common(p)
    _server(p)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="regnb", description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument(
        "--version", action="version", version=regnb.__version__, help="print the version"
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    p = sub.add_parser("search", help="v3 search; prints a table (or the JSON envelope)")
    _search_arguments(p)
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("read", help="read a document's pages", allow_abbrev=False)
    _read_arguments(p)
    p.set_defaults(func=cmd_read)

    p = sub.add_parser(
        "export", help="write every matching document to a .parquet, .csv or .xlsx file"
    )
    _export_arguments(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("index", help="build (or check) the index of a corpus")
    _common(p)
    p.add_argument("--merge", action="store_true", help="merge small or partly deleted segments")
    p.add_argument(
        "--check",
        action="store_true",
        help="verify every index file's checksum and print the damaged segments (exit 1 when "
        "any is, 0 when none); changes nothing. Without --check, `regnb index` rebuilds them",
    )
    p.add_argument(
        "--publish",
        action="store_true",
        help="copy the index into the corpus (<corpus>/_index/), so that replicas and notebooks "
        "opening it download the index rather than build it",
    )
    p.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="build the segments on Ray: the cluster at ADDRESS (ray://host:10001 or host:6379), "
        "else $RAY_ADDRESS or a local Ray; needs regnb[ray]",
    )
    p.set_defaults(func=cmd_index)

    for module in ("regnb.ingest.cli", "regnb.server._cli", "regnb.watch._cli", "regnb.mcp._cli"):
        try:
            register = __import__(module, fromlist=["register"]).register
        except ImportError:
            continue
        register(sub)
    return parser


def _read_options() -> dict[str, bool]:
    """Option strings of `regnb read`, each with whether it takes a value.

    argparse has no public list of a parser's options; `_actions` is stable since Python 2.7.
    """
    parser = Parser(add_help=True)
    _read_arguments(parser)
    return {s: a.nargs != 0 for a in parser._actions for s in a.option_strings}


def quote_read_id(argv: Sequence[str]) -> list[str]:
    """`regnb read` arguments with a document id that starts with `-` written as `--id=ID`.

    Ids are URL-safe base64, so some begin with `-`, which argparse takes for an option. When
    no other id is given, the first token that is neither an option of `read` nor an option's
    value is the id; an option's value is joined to it (`--corpus=DIR`); after `--` everything
    is left to argparse.
    """
    argv = list(argv)
    start = next((i for i, t in enumerate(argv) if not t.startswith("-")), None)
    if start is None or argv[start] != "read":
        return argv
    options = _read_options()
    tokens: list[str] = []
    rest = iter(argv[start + 1 :])
    for token in rest:
        if token == "--":
            tokens += [token, *rest]
            break
        value = next(rest, None) if options.get(token, False) else None
        tokens.append(token if value is None else f"{token}={value}")
    if any(not t.startswith("-") for t in tokens) or "--" in tokens:
        return [*argv[: start + 1], *tokens]
    for i, token in enumerate(tokens):
        if token.split("=", 1)[0] not in options:
            tokens[i] = f"--id={token}"
            break
    return [*argv[: start + 1], *tokens]


def exit_code(exc: RegnbError) -> int:
    """2 when the input is at fault (a 4xx error of the spec), 1 for other failures."""
    from regnb.server.errors import http_status

    return EXIT_USAGE if http_status(exc) < 500 else EXIT_FAILURE


def error_line(exc: RegnbError, args: argparse.Namespace) -> str:
    """`error: CODE (FIELD): MESSAGE`, with the command-line fix for an encoder mismatch."""
    where = f" ({exc.field})" if exc.field else ""
    line = f"error: {exc.code}{where}: {exc.message}"
    if exc.field == "encoder" and hasattr(args, "fast_encoder"):
        line += f"; {ENCODER_HINT[bool(args.fast_encoder)]}"
    return line


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(quote_read_id(sys.argv[1:] if argv is None else argv))
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_PIPE
    except RegnbError as exc:
        print(error_line(exc, args), file=sys.stderr)
        return exit_code(exc)
    except OSError as exc:
        where = f": {exc.filename}" if exc.filename else ""
        print(f"error: {exc.strerror or exc}{where}", file=sys.stderr)
        return EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
