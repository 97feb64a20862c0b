"""`regnb keys create|list|delete` and `regnb serve`: registered by `regnb.cli`."""

from __future__ import annotations

import argparse
from typing import Any

from regnb.corpus.location import corpus_options
from regnb.errors import NotFound
from regnb.validate import PLANS

__all__ = ["register"]


def _accounts() -> Any:
    from regnb.server.accounts import Accounts

    return Accounts()


def cmd_keys_create(args: argparse.Namespace) -> int:
    with _accounts() as accounts:
        new = accounts.create_key(args.account, args.plan)
    info = new.info
    if new.plan_changed_from:
        print(f"account {info.account}: plan changed from {new.plan_changed_from} to {info.plan}")
    print(f"created key {info.key_id} for account {info.account} (plan {info.plan})")
    print("the key is shown once; store it now:")
    print(new.key)
    return 0


def cmd_keys_list(args: argparse.Namespace) -> int:
    with _accounts() as accounts:
        keys = accounts.list_keys()
    if not keys:
        print("no keys; create one with: regnb keys create --account NAME --plan PLAN")
        return 0
    rows = [("ACCOUNT", "PLAN", "KEY ID", "KEY STARTS", "CREATED")]
    rows += [(k.account, k.plan, k.key_id, k.shown + "…", k.created_at) for k in keys]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    return 0


def cmd_keys_delete(args: argparse.Namespace) -> int:
    with _accounts() as accounts:
        info = accounts.delete_key(args.key)
    if info is None:
        raise NotFound(
            "no such key (give a key id from `regnb keys list`, or the key itself)", field="key"
        )
    print(f"deleted key {info.key_id} of account {info.account}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    import regnb
    from regnb.index.postings import kernels_ready
    from regnb.server import create_app
    from regnb.server._logs import install_log_filter

    install_log_filter()
    install_log_filter("regnb.server")
    encoder = regnb.HashingEncoder() if args.fast_encoder else None
    with regnb.open(args.corpus, encoder=encoder) as engine:
        kernels_ready()  # compiled before the first request, never inside its time budget
        app = create_app(engine)
        print(f"regnb: serving {engine.path} on http://{args.host}:{args.port}", flush=True)
        uvicorn.run(
            app,
            host=args.host,
            port=args.port,
            log_level=args.log_level,
            access_log=not args.no_access_log,
        )
    return 0


def register(subparsers: Any) -> None:
    """Add `keys` and `serve` to the `regnb` command."""
    keys = subparsers.add_parser("keys", help="create, list and delete API keys")
    sub = keys.add_subparsers(dest="keys_command", required=True)

    p = sub.add_parser("create", help="create a key; prints it once, alone on the last line")
    p.add_argument("--account", required=True, help="account name (created if new)")
    p.add_argument(
        "--plan",
        choices=PLANS,
        default=None,
        help="plan of a new account (default enterprise), or the new plan of an existing one",
    )
    p.set_defaults(func=cmd_keys_create)

    p = sub.add_parser("list", help="list keys: account, plan, key id, first characters")
    p.set_defaults(func=cmd_keys_list)

    p = sub.add_parser("delete", help="delete a key; refused at once afterwards")
    p.add_argument(
        "key", metavar="KEY_ID_OR_KEY", help="a key id from `regnb keys list`, or the key"
    )
    p.set_defaults(func=cmd_keys_delete)

    p = subparsers.add_parser("serve", help="serve the HTTP interface with uvicorn")
    p.add_argument(
        "--host", default="127.0.0.1", metavar="ADDRESS", help="address to listen on (0.0.0.0: all)"
    )
    p.add_argument("--port", type=int, default=8000, metavar="N", help="TCP port to listen on")
    corpus_options(p)
    p.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="uvicorn's log level (info and debug log each request)",
    )
    p.add_argument("--no-access-log", action="store_true", help="do not log each request")
    p.set_defaults(func=cmd_serve)
