"""Watchlists end to end: documents that enter a corpus (write_corpus, an ingest connector)
appear in `new()` once, until marked seen; a replaced document once more; nothing else."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import regnb
from regnb import ingest
from regnb.corpus import shards
from regnb.errors import InvalidRequest, NotFound, UnknownDataset
from regnb.server.testing import FakeClock
from regnb.watch import COLUMNS, WatchDefinition, Watchlist, summary

from ..conftest import doc

HASHING = regnb.HashingEncoder()
START = 1_790_000_000.0  # 2026-09-21 14:13:20 UTC


def acme(
    title: str,
    page: str,
    *,
    url: str,
    firm: str = "Acme Sterile, Inc.",
    fei: str = "3001234567",
    **kw: Any,
) -> Any:
    fields = {"facility_name": firm, "fei_number": fei}
    return doc(title, ["Form FDA 483 cover page.", page], url=url, fields=fields, **kw)


def first_corpus() -> dict[str, list[dict[str, Any]]]:
    return {
        "fda_483": [
            acme("Acme 483 2021", "The media fill was not representative.", url="u/1"),
            acme("Other 483", "Cleaning validation was incomplete.", url="u/2", firm="Other"),
        ],
        "fda_warning_letters": [
            doc("Letter to Beta", ["Media fill failures at Beta."], url="u/3"),
        ],
    }


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def corpus(tmp_path: Path, clock: FakeClock) -> Path:
    path = tmp_path / "corpus"
    add(path, first_corpus(), clock)
    return path


@pytest.fixture
def eng(corpus: Path) -> Any:
    with regnb.Engine(corpus, encoder=HASHING, progress=False) as engine:
        yield engine


def add(path: Path, docs: dict[str, list[dict[str, Any]]], clock: FakeClock) -> None:
    clock.advance(60)
    regnb.write_corpus(path, docs, encoder=HASHING, progress=False, clock=clock)


def watch(
    eng: Any, clock: FakeClock, name: str = "fills", since: str | None = None, **definition: Any
) -> Watchlist:
    definition = definition or {"keywords": ("media fill",)}
    return Watchlist.create(eng, name, WatchDefinition(**definition), since=since, clock=clock)


def titles(frame: pd.DataFrame) -> list[str]:
    return list(frame["title"])


def test_a_new_watchlist_starts_from_now(eng, clock):
    wl = watch(eng, clock)
    assert titles(wl.new()) == []
    assert list(wl.new().columns) == list(COLUMNS)


def test_documents_written_after_the_mark_appear_once_until_marked_seen(eng, corpus, clock):
    wl = watch(eng, clock)
    add(corpus, {"fda_483": [acme("Acme 483 2024", "Media fill runs failed.", url="u/4")]}, clock)
    first = wl.new()
    assert titles(first) == ["Acme 483 2024"]
    assert titles(wl.new()) == ["Acme 483 2024"]  # new until marked seen
    row = first.iloc[0]
    assert (row["page_num"], row["passage"]) == (2, "Media fill runs failed.")
    assert row["ingested"] == pd.Timestamp(START + 120, unit="s", tz="UTC")
    assert (row["dataset"], row["date"]) == ("fda_483", pd.Timestamp("2020-01-01"))
    assert (row["findings"], row["links"], row["repeat"]) == (
        ["Media fill runs failed."],
        [],
        False,
    )
    other = eng.watchlist("fills")
    assert titles(other.new()) == ["Acme 483 2024"]
    wl.mark_seen()
    assert titles(wl.new()) == []
    assert titles(other.new()) == []  # the mark is saved, and read by every new()


def test_unrelated_and_unchanged_documents_do_not_appear(eng, corpus, clock):
    wl = watch(eng, clock)
    add(
        corpus,
        {
            "fda_483": [acme("Acme 483 2024", "Smoke studies were not done.", url="u/4")],
            "fda_warning_letters": [
                doc("Letter to Beta", ["Media fill failures at Beta."], url="u/3")
            ],
        },
        clock,
    )
    assert titles(wl.new()) == []  # no match; an identical rewrite is skipped


def test_a_replaced_document_appears_once_and_its_old_shard_mates_do_not(eng, corpus, clock):
    wl = watch(eng, clock)
    docs = first_corpus()["fda_483"]
    docs[0] = acme("Acme 483 2021 (amended)", "The media fill was not valid.", url="u/1")
    add(corpus, {"fda_483": docs}, clock)  # one replaced, one the same
    found = wl.new()
    assert titles(found) == ["Acme 483 2021 (amended)"]
    wl.mark_seen()
    assert titles(wl.new()) == []


def test_documents_from_an_ingest_connector_appear(eng, corpus, clock, tmp_path):
    wl = watch(eng, clock, datasets=("fda_483",), keywords=("media fill",))
    source = tmp_path / "more.jsonl"
    records = [
        {"title": "Ingested 483", "date": "2025-02-03", "url": "u/5", "pages": ["A media fill."]},
        {"title": "Ingested other", "date": "2025-02-04", "url": "u/6", "pages": ["Nothing."]},
    ]
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    ingest.jsonl(source, corpus=corpus, dataset="fda_483", encoder=HASHING, progress=False)
    assert titles(wl.new()) == ["Ingested 483"]
    ingest.jsonl(source, corpus=corpus, dataset="fda_483", encoder=HASHING, progress=False)
    assert titles(wl.new()) == ["Ingested 483"]  # a re-run adds nothing: still once
    wl.mark_seen()
    assert titles(wl.new()) == []


def test_mark_seen_marks_what_new_read_not_what_came_after(eng, corpus, clock):
    wl = watch(eng, clock)
    add(corpus, {"fda_483": [acme("Acme 483 2024", "Media fill runs failed.", url="u/4")]}, clock)
    assert titles(wl.new()) == ["Acme 483 2024"]
    add(corpus, {"fda_483": [acme("Acme 483 2025", "The media fill again.", url="u/5")]}, clock)
    wl.mark_seen()
    assert titles(wl.new()) == ["Acme 483 2025"]


def test_new_is_in_date_order_with_several_commits(eng, corpus, clock):
    wl = watch(eng, clock)
    add(corpus, {"fda_483": [acme("B", "Media fill.", url="u/4", date="2024-05-01")]}, clock)
    add(corpus, {"fda_483": [acme("A", "Media fill.", url="u/5", date="2023-01-01")]}, clock)
    add(corpus, {"fda_483": [acme("C", "Media fill.", url="u/6", date=None)]}, clock)
    found = wl.new()
    assert titles(found) == ["A", "B", "C"]  # undated last
    assert found["ingested"].tolist() == [
        pd.Timestamp(START + s, unit="s", tz="UTC") for s in (180, 120, 240)
    ]


def test_since_reports_what_entered_from_then(corpus, clock):
    add(corpus, {"fda_483": [acme("Acme 483 2024", "Media fill runs failed.", url="u/4")]}, clock)
    with regnb.Engine(corpus, encoder=HASHING, progress=False) as eng:
        everything = watch(eng, clock, since="2026-09-21")
        found = titles(everything.new())
        assert sorted(found[:2]) == ["Acme 483 2021", "Letter to Beta"]  # same date: by ingest
        assert found[2] == "Acme 483 2024"
        later = watch(eng, clock, name="later", since="2026-09-21T14:15:00Z")
        assert titles(later.new()) == ["Acme 483 2024"]
        later.mark_seen()
        assert titles(later.new()) == []


def test_saving_a_name_again_keeps_its_mark_unless_since_is_given(eng, corpus, clock):
    watch(eng, clock).mark_seen()
    add(
        corpus, {"fda_483": [acme("Acme 483 2024", "Smoke studies; media fill.", url="u/4")]}, clock
    )
    again = watch(eng, clock, keywords=("smoke studies",))
    assert again.definition.keywords == ("smoke studies",)
    assert titles(again.new()) == ["Acme 483 2024"]
    reset = watch(eng, clock, keywords=("media fill",), since="2000-01-01")
    assert len(reset.new()) == 3


def test_a_corpus_written_before_commits_were_recorded_counts_as_seen(corpus, clock):
    raw = json.loads((corpus / "manifest.json").read_text())
    del raw["commits"]
    for entry in raw["shards"]:
        del entry["commit"], entry["committed"]
    (corpus / "manifest.json").write_text(json.dumps(raw))
    with regnb.Engine(corpus, encoder=HASHING, progress=False) as eng:
        assert titles(watch(eng, clock, name="old", since="1970-01-01").new()) == []
        wl = watch(eng, clock)
        add(corpus, {"fda_483": [acme("New", "Media fill.", url="u/9")]}, clock)
        assert titles(wl.new()) == ["New"]


def test_firms_alone_match_by_name_key_or_identifier(eng, corpus, clock):
    by_name = watch(eng, clock, name="acme", firms=("ACME STERILE INC",))
    by_fei = watch(eng, clock, name="fei", firms=("FEI 3001234567",))
    in_letters = watch(
        eng, clock, name="letters", firms=("Acme Sterile",), datasets=("fda_warning_letters",)
    )
    add(
        corpus,
        {
            "fda_483": [
                acme("Acme 483 2024", "Smoke studies.", url="u/4"),
                acme("Same site", "Smoke studies.", url="u/5", firm="Zeta Labs"),
                acme("Elsewhere", "Smoke studies.", url="u/7", firm="Omega Labs", fei="3009999999"),
            ]
        },
        clock,
    )
    # the site's FEI ties "Zeta Labs" to Acme's firm; another name at another FEI is another firm
    assert sorted(titles(by_name.new())) == ["Acme 483 2024", "Same site"]
    assert sorted(titles(by_fei.new())) == ["Acme 483 2024", "Same site"]
    assert titles(in_letters.new()) == []
    row = by_name.new().iloc[0]
    assert (row["page_num"], row["passage"]) == (1, "Form FDA 483 cover page.")


def test_firms_and_keywords_both_hold(eng, corpus, clock):
    wl = watch(eng, clock, keywords=("media fill",), firms=("Acme Sterile",))
    add(
        corpus,
        {
            "fda_483": [
                acme("Acme fill", "Media fill.", url="u/4"),
                acme("Acme smoke", "Smoke.", url="u/5"),
                acme("Zeta fill", "Media fill.", url="u/6", firm="Zeta Labs", fei="3009999999"),
            ]
        },
        clock,
    )
    assert titles(wl.new()) == ["Acme fill"]


@pytest.mark.parametrize(
    ("date_from", "date_to", "expected"),
    [
        (None, None, ["Old", "Recent", "Undated"]),
        ("2023-01-01", None, ["Recent"]),
        (None, "2022-12-31", ["Old"]),
    ],
)
def test_firms_alone_keep_the_date_bounds(eng, corpus, clock, date_from, date_to, expected):
    wl = watch(eng, clock, firms=("Acme Sterile",), date_from=date_from, date_to=date_to)
    add(
        corpus,
        {
            "fda_483": [
                acme("Old", "x.", url="u/4", date="2021-05-05"),
                acme("Recent", "x.", url="u/5", date="2024-05-05"),
                acme("Undated", "x.", url="u/6", date=None),
            ]
        },
        clock,
    )
    assert titles(wl.new()) == expected


@pytest.mark.parametrize(
    ("definition", "error", "field"),
    [
        ({"keywords": ()}, InvalidRequest, "keywords"),
        ({"query": "media fill?"}, InvalidRequest, "keywords"),
        ({"keywords": ("the",)}, InvalidRequest, "keywords[0]"),
        ({"keywords": ("x",), "datasets": ("fda_48",)}, UnknownDataset, "datasets[0]"),
        ({"firms": ("Acme", "")}, InvalidRequest, "firms[1]"),
        ({"firms": ("(The)",)}, InvalidRequest, "firms[0]"),
        (
            {"firms": ("Acme",), "filters": {"fda_483": {"fei_number": "1"}}},
            InvalidRequest,
            "filters",
        ),
        ({"firms": ("Acme",), "date_from": "2024-13-01"}, InvalidRequest, "date_from"),
        ({"firms": ("Acme",), "datasets": ("nope",)}, UnknownDataset, "datasets[0]"),
    ],
)
def test_a_bad_definition_is_refused_with_its_field(eng, clock, definition, error, field):
    with pytest.raises(error) as info:
        watch(eng, clock, **definition)
    assert info.value.field == field
    assert eng.watchlists().empty


@pytest.mark.parametrize("name", ["", "a b", "../up", ".hidden", "x" * 65, "a/b", 7])
def test_a_bad_name_is_refused(eng, name):
    with pytest.raises(InvalidRequest, match="watchlist name") as info:
        eng.watch(name, ["media fill"])
    assert info.value.field == "name"


def test_engine_methods_save_open_and_list(eng, corpus, regnb_home):
    wl = eng.watch("fills", "media fill", datasets=["fda_483"], firms="Acme Sterile")
    assert wl.definition == WatchDefinition(
        ("media fill",), None, ("fda_483",), None, ("Acme Sterile",)
    )
    assert (regnb_home / "watchlists" / "fills.json").is_file()
    assert eng.watchlist("fills").definition == wl.definition
    listed = eng.watchlists()
    assert listed.columns.tolist() == ["name", "definition", "created", "last_seen"]
    assert listed["definition"].tolist() == [
        'keywords "media fill" | firms Acme Sterile | datasets fda_483'
    ]
    with pytest.raises(InvalidRequest, match="datasets must be a list") as info:
        eng.watch("x", ["y"], datasets="fda_483")
    assert info.value.field == "datasets"


def test_an_unknown_watchlist_lists_the_saved_names(eng):
    with pytest.raises(NotFound, match="none is saved yet"):
        eng.watchlist("fills")
    eng.watch("fills", ["media fill"])
    eng.watch("smoke", ["smoke studies"])
    with pytest.raises(
        NotFound, match=r"no watchlist 'fils'; did you mean 'fills'\?; saved: fills, smoke"
    ):
        eng.watchlist("fils")


def test_last_seen_is_when_the_corpus_was_marked(eng, clock):
    wl = watch(eng, clock)
    assert wl.last_seen() == "2026-09-21T14:14:20.000+00:00"
    clock.advance(3600)
    wl.mark_seen()
    assert wl.last_seen() == "2026-09-21T15:14:20.000+00:00"
    assert eng.watchlists()["last_seen"].tolist() == [pd.Timestamp("2026-09-21 15:14:20", tz="UTC")]


def test_summary_is_lines_and_the_frame_and_marks_nothing(eng, corpus, clock):
    watch(eng, clock)
    assert summary(eng, "fills")[0] == ["watchlist 'fills': nothing new since 2026-09-21 14:14 UTC"]
    add(corpus, {"fda_483": [acme("Acme 483 2024", "Media fill runs failed.", url="u/4")]}, clock)
    lines, frame = summary(eng, "fills")
    assert lines == [
        "watchlist 'fills': 1 new document since 2026-09-21 14:14 UTC",
        "- 2020-01-01 fda_483: Acme 483 2024 (page 2)",
        "  Media fill runs failed.",
    ]
    assert titles(frame) == ["Acme 483 2024"]
    assert titles(summary(eng, "fills")[1]) == ["Acme 483 2024"]


def test_summary_cuts_long_lists(eng, corpus, clock):
    watch(eng, clock)
    docs = [acme(f"483 no. {i}", "Media fill.", url=f"u/{10 + i}") for i in range(4)]
    add(corpus, {"fda_483": docs}, clock)
    lines, frame = summary(eng, "fills", limit=2)
    assert len(frame) == 4 and lines[0].startswith("watchlist 'fills': 4 new documents")
    assert lines[-1] == "… and 2 more" and len(lines) == 1 + 2 * 2 + 1


def test_the_saved_file_is_replaced_whole_and_read_back(eng, clock, regnb_home):
    watch(eng, clock, keywords=("media fill",), query="Which fills failed?").mark_seen()
    folder = regnb_home / "watchlists"
    assert [p.name for p in folder.iterdir()] == ["fills.json"]  # no temporary files left
    saved = json.loads((folder / "fills.json").read_text())
    manifest = shards.Manifest.load(eng.path)
    assert manifest is not None
    assert saved["seen"] == {manifest.salt: {"commit": 2, "at": "2026-09-21T14:14:20.000+00:00"}}
    assert saved["definition"] == {"keywords": ["media fill"], "query": "Which fills failed?"}


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{", "not a readable watchlist"),
        ('{"format": 9}', "not a watchlist of format 1"),
        (
            '{"format": 1, "name": "fills", "created": "x", "since": "x", "definition": {"color": 1}}',
            "unknown keys",
        ),
        (
            '{"format": 1, "name": "fills", "created": "x", "since": "x", "definition": {}, "seen": {"s": {}}}',
            "integer commit",
        ),
    ],
)
def test_a_damaged_file_is_named_in_the_error(eng, regnb_home, content, problem):
    eng.watch("fills", ["media fill"])
    (regnb_home / "watchlists" / "fills.json").write_text(content)
    with pytest.raises(InvalidRequest, match=problem) as info:
        eng.watchlist("fills")
    assert "fills.json" in info.value.message


def test_remove(eng, regnb_home):
    eng.watch("fills", ["media fill"])
    regnb.watch.remove("fills")
    assert eng.watchlists().empty
    with pytest.raises(NotFound):
        regnb.watch.remove("fills")


def test_a_watchlist_has_the_timelines_columns_and_ingested() -> None:
    from regnb.firms.timeline import TIMELINE_COLUMNS

    assert (*TIMELINE_COLUMNS, "ingested") == COLUMNS


@pytest.mark.parametrize(
    ("since", "saved"),
    [
        ("2026-01-02", "2026-01-02T00:00:00.000+00:00"),
        ("2026-01-02T03:04:05", "2026-01-02T03:04:05.000+00:00"),
        ("2026-01-02T03:04:05+02:00", "2026-01-02T01:04:05.000+00:00"),
        (dt.date(2026, 1, 2), "2026-01-02T00:00:00.000+00:00"),
        (dt.datetime(2026, 1, 2, 3, 4, 5), "2026-01-02T03:04:05.000+00:00"),
    ],
)
def test_since_is_saved_as_a_utc_time(eng, clock, since, saved):
    assert watch(eng, clock, since=since).saved.since == saved


@pytest.mark.parametrize("since", ["soon", "2026-13-01", ""])
def test_a_bad_since_is_refused(eng, clock, since):
    with pytest.raises(InvalidRequest, match="since must be an ISO date or time") as info:
        watch(eng, clock, since=since)
    assert info.value.field == "since"


def test_a_watchlist_follows_a_corpus_on_s3(s3_bucket, clock):
    """A corpus on object storage (a moto S3 server on loopback): the watchlist's state stays
    under REGNB_HOME; new documents are read from the bucket's shards."""
    url = f"{s3_bucket}/corpus"
    add(url, first_corpus(), clock)  # type: ignore[arg-type]  # a URL where a folder goes
    with regnb.Engine(url, encoder=HASHING, progress=False) as eng:
        wl = watch(eng, clock)
        add(url, {"fda_483": [acme("Acme 483 2024", "Media fill failed.", url="u/4")]}, clock)  # type: ignore[arg-type]
        assert titles(wl.new()) == ["Acme 483 2024"]
        wl.mark_seen()
        assert titles(wl.new()) == []
        assert list(eng.watchlists()["name"]) == ["fills"]


def test_a_watchlist_refuses_what_it_cannot_keep_and_names_a_misspelled_argument(
    eng: Any,
) -> None:
    with pytest.raises(InvalidRequest, match="plan is not taken here") as err:
        eng.watch("x", ["media fill"], plan="free")
    assert err.value.field == "plan"
    with pytest.raises(InvalidRequest, match=r"unknown argument 'dataset'.*datasets"):
        eng.watch("x", ["media fill"], dataset=["fda_483"])
    with pytest.raises(InvalidRequest, match="unknown argument 'date_form'"):
        eng.search_all(["media fill"], date_form="2020-01-01")
    assert eng.watchlists().empty  # nothing saved
