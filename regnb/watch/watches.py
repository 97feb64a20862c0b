"""An engine's watchlists: saved searches or firms over its corpus (`regnb.watch`)."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Sequence

import pandas as pd

from regnb.request import SearchArgs
from regnb.watch._watchlist import Clock, Watchlist, WatchSource, definition_of, watchlists

__all__ = ["Watches"]


class Watches:
    """Watchlists saved under the engine's REGNB_HOME, read against its corpus; `clock` stamps
    what they save (tests pass a fake)."""

    def __init__(self, engine: WatchSource, clock: Clock = time.time) -> None:
        self.engine, self.clock = engine, clock

    def watch(
        self,
        name: str,
        keywords: Sequence[str] | str | None,
        query: str | None,
        args: SearchArgs,
        *,
        firms: Sequence[str] | str | None,
        since: str | dt.date | None,
    ) -> Watchlist:
        definition = definition_of(keywords, query, args, firms)
        return Watchlist.create(self.engine, name, definition, since=since, clock=self.clock)

    def open(self, name: str) -> Watchlist:
        return Watchlist.open(self.engine, name, clock=self.clock)

    def frame(self) -> pd.DataFrame:
        return watchlists(self.engine.settings, self.engine.path)
