"""Which shards entered after a mark: by commit number where the corpus was marked, by time
where it was not, never a shard of unknown time."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from regnb.corpus.shards import ShardEntry
from regnb.errors import CorpusError
from regnb.watch._ingested import CorpusState, entered_after, parse_time


def shard(name: str, commit: int, committed: str | None) -> ShardEntry:
    return ShardEntry("fda_483", name, "d", "p", 1, 1, {}, {}, commit, committed)


SHARDS = [
    shard("old", 0, None),
    shard("a", 1, "2026-01-01T10:00:00.000+00:00"),
    shard("b", 2, "2026-01-02T10:00:00.000+00:00"),
    shard("skewed", 3, "2025-12-31T23:00:00.000+00:00"),  # a writer whose clock was behind
]
NOON = dt.datetime(2026, 1, 1, 12, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("mark", "since", "expected"),
    [
        (0, NOON, ["a", "b", "skewed"]),
        (1, NOON, ["b", "skewed"]),  # by number: a clock behind loses nothing
        (3, NOON, []),
        (None, NOON, ["b"]),
        (None, dt.datetime(2026, 1, 1, 10, tzinfo=dt.UTC), ["a", "b"]),  # at `since` counts
        (None, dt.datetime(1970, 1, 1, tzinfo=dt.UTC), ["a", "b", "skewed"]),  # never "old"
    ],
)
def test_entered_after(mark, since, expected):
    assert [s.shard_id for s in entered_after(SHARDS, mark, since)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-01-01", dt.datetime(2026, 1, 1, tzinfo=dt.UTC)),
        ("2026-01-01T12:00:00+02:00", dt.datetime(2026, 1, 1, 10, tzinfo=dt.UTC)),
        ("2026-01-01T12:00:00Z", NOON),
    ],
)
def test_a_time_without_a_zone_is_utc(text, expected):
    assert parse_time(text) == expected


def test_a_folder_without_a_corpus_is_a_corpus_error(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="no corpus here"):
        CorpusState.read(tmp_path)
