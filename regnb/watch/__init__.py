"""Watchlists: a saved search or set of firms, and what entered the corpus since it was last seen.

    wl = eng.watch("sterility", keywords=["media fill"], datasets=["fda_483"])
    wl = eng.watch("suppliers", firms=["Hospira", "FEI 3002806560"])
    wl.new()          # documents that entered since the last mark_seen(): timeline columns + ingested
    wl.mark_seen()    # what new() showed is seen
    eng.watchlists()  # the saved watchlists
    lines, frame = regnb.watch.summary(eng, "sterility")   # the research agent's "what's new?"

A document enters the corpus with the write (`regnb.write_corpus`, an ingest connector) that
commits its shard; a replaced document enters again. Watchlists are saved as JSON under
`REGNB_HOME/watchlists/`, one file per name; each remembers, per corpus, the last commit it saw.
`regnb watch list|add|run|remove` is the command line (`regnb.watch._cli`).
"""

from __future__ import annotations

import pandas as pd

from regnb.settings import Settings
from regnb.watch._saved import WatchDefinition
from regnb.watch._watchlist import COLUMNS, Watchlist, WatchSource, report_lines, store_of

__all__ = ["COLUMNS", "WatchDefinition", "WatchSource", "Watchlist", "remove", "summary"]


def summary(engine: WatchSource, name: str, *, limit: int = 10) -> tuple[list[str], pd.DataFrame]:
    """What is new for watchlist `name` in the engine's corpus, as lines of text (a headline,
    then up to `limit` documents with their passages) and the frame of `Watchlist.new()`.
    Nothing is marked seen: asking what is new changes nothing."""
    frame = Watchlist.open(engine, name).new()
    return report_lines(name, frame, limit), frame


def remove(name: str, *, settings: Settings | None = None) -> None:
    """Delete a saved watchlist (NotFound when there is none of that name)."""
    store_of(settings or Settings.from_env()).remove(name)
