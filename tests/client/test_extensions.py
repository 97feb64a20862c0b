"""regnb serve's extensions over HTTP (query syntax, sort, facets, every match), against servers
played by doubles: one that offers them, one that predates them (its OpenAPI document does not
list them), and one without an OpenAPI document. The client sends an extension only where it
changes the answer, reads the server's document once, and says clearly what is not offered."""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx
import pandas as pd
import pytest

from regnb.client import AsyncClient, Client
from regnb.client._extensions import (
    MatchesPage,
    batch_frames,
    facet_specs,
    matches_frame,
    needed,
    offered,
    uses_syntax,
)
from regnb.errors import FeatureNotOffered, InvalidRequest, UpstreamError
from tests.client_support import search_body

BASE = "http://regnb.test"
ALL = frozenset({"syntax", "sort", "facets", "places", "matches"})


def openapi(extensions: frozenset[str]) -> dict[str, Any]:
    """A server's OpenAPI document, as `regnb serve` lays it out, listing `extensions`."""
    props = {"keywords": {}, "query": {}, "limit": {}, "offset": {}}
    props |= {name: {} for name in extensions - {"matches"}}
    ref = {"$ref": "#/components/schemas/SearchRequest"}
    paths: dict[str, Any] = {
        "/api/v3/search": {
            "post": {"requestBody": {"content": {"application/json": {"schema": ref}}}}
        }
    }
    if "matches" in extensions:
        paths["/api/v3/matches"] = {"post": {}}
    return {"paths": paths, "components": {"schemas": {"SearchRequest": {"properties": props}}}}


def match(i: int) -> dict[str, Any]:
    return {
        "document_id": f"d{i}",
        "dataset": "fda_483",
        "title": f"Form 483 number {i}",
        "date": f"20{10 + i % 10}-01-02",
        "url": f"https://example.test/{i}",
        "cfr": ["21 CFR 211.113"],
        "bm25": 1.5 * i,
        "pages": i % 3 + 1,
        "fields": {"fei_number": f"300{i}"},
    }


class Server:
    """A double of a server: which extensions its document lists (None: no document), the
    search and matches bodies it received, and `n` matches answered in pages of `limit`."""

    def __init__(self, extensions: frozenset[str] | None = ALL, n: int = 7) -> None:
        self.extensions, self.n = extensions, n
        self.paths: list[str] = []
        self.bodies: list[dict[str, Any]] = []
        self.stuck = False  # answer the same next_offset again

    def handle(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        self.paths.append(path)
        if path == "/api/v3/openapi.json" and self.extensions is not None:
            return httpx.Response(200, json=openapi(self.extensions))
        if path == "/api/v3/search":
            body = json.loads(request.content)
            self.bodies.append(body)
            return httpx.Response(200, json=self.search(body))
        if path == "/api/v3/matches" and "matches" in (self.extensions or ()):
            body = json.loads(request.content)
            self.bodies.append(body)
            return httpx.Response(200, json=self.matches(body))
        error = {"code": "not_found", "message": f"no route {path}", "request_id": "req_1"}
        return httpx.Response(404, json={"error": error})

    def search(self, body: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {
            "results": [],
            "datasets": {},
            "total": 0,
            "next_offset": None,
            "ranking": "bm25",
        }
        if "facets" in body:
            names = [f if isinstance(f, str) else f["name"] for f in body["facets"]]
            out["facets"] = {n: [{"value": "2019", "documents": 3, "pages": 5}] for n in names}
        return out

    def matches(self, body: dict[str, Any]) -> dict[str, Any]:
        start, limit = body["offset"], body["limit"]
        end = min(start + limit, self.n)
        after = end if end < self.n else None
        if self.stuck and after is not None:
            after = start
        rows = [match(i) for i in range(start, end)]
        return {"matches": rows, "total": self.n, "next_offset": after}


def client(server: Server) -> Client:
    return Client(BASE, "key", transport=httpx.MockTransport(server.handle))


def async_client(server: Server) -> AsyncClient:
    return AsyncClient(BASE, "key", transport=httpx.MockTransport(server.handle))


@pytest.mark.parametrize(
    ("items", "uses"),
    [
        (["media fill"], False),
        (["510(k)", "21 CFR 211.113(b)", "LA-EP2006", "K123456"], False),
        (["sterility and not aseptic"], False),  # lower case: plain words
        (['"media fill"'], True),
        (['"media fill"~3'], True),
        (["sterility -aseptic"], True),
        (['sterility -"media fill"'], True),
        (["-aseptic"], True),
        (["sterility NOT aseptic"], True),
        (["sterility (aseptic OR media)"], True),
        (["company:hospira"], True),
        (["cfr:211.113"], True),
        (["steril*"], True),
        (["plain", "title:word"], True),
    ],
)
def test_items_that_use_the_query_syntax_are_told_from_plain_words(items: list[str], uses: bool):
    assert uses_syntax(items) is uses


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        ({"keywords": ["media fill"]}, {}),
        ({"keywords": ['"media fill"']}, {"syntax": "query"}),
        ({"keywords": ['"media fill"'], "syntax": "plain"}, {}),
        ({"keywords": ["media fill"], "syntax": "odd"}, {"syntax": "odd"}),  # the server refuses
        ({"keywords": ["x"], "sort": "date"}, {"sort": "date"}),
        ({"keywords": ["x"], "sort": "relevance"}, {}),
        ({"keywords": ["x"], "facets": ("dataset", "year")}, {"facets": ["dataset", "year"]}),
        ({"keywords": ["x"], "facets": []}, {"facets": []}),
        ({"keywords": ["x"], "places": True}, {"places": True}),
        ({"keywords": ["x"], "places": False}, {}),
        ({"keywords": ["x country:IN"]}, {"syntax": "query"}),
    ],
)
def test_the_search_body_carries_an_extension_only_where_it_changes_the_answer(args, extra):
    body = search_body(**args)
    assert body == {"keywords": args["keywords"], "limit": 20, "offset": 0, **extra}
    assert needed(body) == [k for k in ("syntax", "sort", "facets", "places") if k in extra]


@pytest.mark.parametrize(
    ("by", "size", "specs"),
    [
        (("dataset", "year"), 20, ["dataset", "year"]),
        ("cfr", 20, ["cfr"]),
        (["company"], 5, [{"name": "company", "size": 5}]),
    ],
)
def test_facets_are_sent_by_name_at_the_default_size_else_as_objects(by, size, specs):
    assert facet_specs(by, size) == specs


@pytest.mark.parametrize(
    ("document", "found"),
    [
        (openapi(ALL), ALL),
        (openapi(frozenset()), frozenset()),
        (openapi(frozenset({"facets"})), frozenset({"facets"})),
        ({}, frozenset()),
        ({"paths": {"/api/v3/search": {"post": {}}}}, frozenset()),
    ],
)
def test_the_extensions_a_server_offers_are_read_from_its_openapi_document(document, found):
    assert offered(document) == found


def test_facets_are_one_search_with_limit_one_and_the_document_is_read_once():
    server = Server()
    with client(server) as eng:
        counts = eng.facets(["sterility"], by=["year", "cfr"], datasets=["fda_483"])
        eng.facets(["aseptic"], by="company", size=5)
        res = eng.search(["sterility"], sort="date", facets=["dataset"])
    assert list(counts) == ["year", "cfr"]
    assert list(counts["year"].columns) == ["value", "documents", "pages"]
    assert counts["year"].documents.tolist() == [3]
    assert server.bodies[0] == {
        "keywords": ["sterility"],
        "datasets": ["fda_483"],
        "limit": 1,
        "offset": 0,
        "facets": ["year", "cfr"],
    }
    assert server.bodies[1]["facets"] == [{"name": "company", "size": 5}]
    assert server.bodies[2]["sort"] == "date" and res.facets["dataset"].pages.tolist() == [5]
    assert server.paths.count("/api/v3/openapi.json") == 1


def test_a_search_of_plain_words_sends_no_extension_and_reads_no_document():
    server = Server(frozenset())
    with client(server) as eng:
        eng.search(["media fill"], datasets=["fda_483"])
    assert server.paths == ["/api/v3/search"]
    assert needed(server.bodies[0]) == []


def test_query_syntax_in_an_item_is_sent_and_read_by_a_server_that_offers_it():
    server = Server()
    with client(server) as eng:
        eng.search(['"media fill" -aseptic'])
    assert server.bodies[0]["syntax"] == "query"


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda eng: eng.facets(["sterility"]), "facets"),
        (lambda eng: eng.search(["sterility"], facets=["year"]), "facets"),
        (lambda eng: eng.search(["sterility"], sort="date"), "sort"),
        (lambda eng: eng.search(['"media fill"']), "syntax"),
        (lambda eng: eng.search(["sterility"], places=True), "places"),
        (lambda eng: eng.matches(["sterility"]), "matches"),
        (lambda eng: eng.matches(["sterility"], batch_size=10), "matches"),
    ],
    ids=["facets", "search-facets", "sort", "syntax", "places", "matches", "matches-batches"],
)
@pytest.mark.parametrize("extensions", [frozenset(), None], ids=["older-server", "no-document"])
def test_a_server_without_an_extension_is_said_not_to_offer_it(call, name, extensions):
    server = Server(extensions)
    with client(server) as eng, pytest.raises(FeatureNotOffered) as info:
        call(eng)
    assert info.value.field == name and info.value.code == "invalid_request"
    assert (
        "does not offer" in info.value.message and "extension of regnb serve" in info.value.message
    )
    assert BASE in info.value.message
    assert "/api/v3/search" not in server.paths and "/api/v3/matches" not in server.paths


def test_plain_syntax_is_the_way_round_a_server_without_it():
    server = Server(frozenset())
    with client(server) as eng:
        with pytest.raises(FeatureNotOffered, match='syntax="plain"'):
            eng.search(['"media fill"'])
        eng.search(['"media fill"'], syntax="plain")
    assert "syntax" not in server.bodies[0]


def test_a_matches_path_that_answers_404_is_not_offered_though_listed():
    server = Server(frozenset({"matches"}))
    listed = server.handle

    def gone(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/v3/matches":
            return httpx.Response(404, json={"error": {"code": "not_found", "message": "no"}})
        return listed(request)

    eng = Client(BASE, "key", transport=httpx.MockTransport(gone))
    with eng, pytest.raises(FeatureNotOffered, match="every match"):
        eng.matches(["sterility"])


def test_matches_pages_through_next_offset_into_one_frame():
    server = Server(n=2500)
    with client(server) as eng:
        frame = eng.matches(["sterility"], datasets=["fda_483"], order="bm25")
    assert isinstance(frame, pd.DataFrame) and len(frame) == 2500
    assert frame.document_id.tolist() == [f"d{i}" for i in range(2500)]
    sent = server.bodies
    assert [(b["offset"], b["limit"], b["order"]) for b in sent] == [
        (0, 1000, "bm25"),
        (1000, 1000, "bm25"),
        (2000, 1000, "bm25"),
    ]
    assert sent[0]["datasets"] == ["fda_483"] and "facets" not in sent[0]


def test_matches_in_batches_ask_for_one_batch_at_a_time():
    server = Server(n=7)
    with client(server) as eng:
        batches = eng.matches(["sterility"], batch_size=3)
        assert server.bodies == []  # nothing read before the first batch is asked for
        frames = list(batches)  # type: ignore[arg-type]
    assert [len(f) for f in frames] == [3, 3, 1]
    assert [b["limit"] for b in server.bodies] == [3, 3, 3]
    assert pd.concat(frames).document_id.tolist() == [f"d{i}" for i in range(7)]


def test_a_next_offset_that_does_not_move_on_is_the_servers_fault():
    server = Server(n=5)
    server.stuck = True
    with client(server) as eng, pytest.raises(UpstreamError, match="next_offset"):
        list(eng.matches(["sterility"], batch_size=2))  # type: ignore[arg-type]


def test_a_window_of_the_matches_asks_only_for_its_rows():
    server = Server(n=7)
    with client(server) as eng:
        frame = eng.matches(["sterility"], offset=2, limit=3)
    assert frame.document_id.tolist() == ["d2", "d3", "d4"]  # type: ignore[union-attr]
    assert [(b["offset"], b["limit"]) for b in server.bodies] == [(2, 3)]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [({"limit": 0}, "limit"), ({"offset": -1}, "offset"), ({"limit": 2.5}, "limit")],
)
def test_a_window_out_of_bounds_is_refused(kwargs: dict[str, Any], field: str):
    with client(Server()) as eng, pytest.raises(InvalidRequest) as info:
        eng.matches(["sterility"], **kwargs)
    assert info.value.field == field


@pytest.mark.parametrize("batch_size", [0, -1, 2.5, True, "10"])
def test_a_batch_size_that_is_no_whole_number_is_refused(batch_size: object):
    with client(Server()) as eng, pytest.raises(InvalidRequest) as info:
        eng.matches(["sterility"], batch_size=batch_size)  # type: ignore[arg-type]
    assert info.value.field == "batch_size"


def test_the_matches_frame_has_the_engines_columns_and_types():
    frame = matches_frame([match(1), match(2)])
    assert list(frame.columns) == [
        "document_id",
        "dataset",
        "title",
        "date",
        "url",
        "cfr",
        "bm25",
        "pages",
        "fei_number",
    ]
    assert str(frame.date.dtype) == "datetime64[ns]" and str(frame.pages.dtype) == "int64"
    assert frame.cfr.tolist() == [["21 CFR 211.113"], ["21 CFR 211.113"]]
    assert list(matches_frame([]).columns) == frame.columns[:-1].tolist()


def test_batches_are_cut_across_pages_in_order():
    pages = [[match(0), match(1)], [match(2)], [], [match(3), match(4)]]
    frames = list(batch_frames(iter(pages), 2))
    assert [f.document_id.tolist() for f in frames] == [["d0", "d1"], ["d2", "d3"], ["d4"]]


@pytest.mark.parametrize(
    "body", [{"matches": {}, "total": 1}, {"total": 1}, {"matches": [], "total": "x"}]
)
def test_a_matches_answer_of_another_shape_is_refused(body: dict[str, Any]):
    with pytest.raises((KeyError, TypeError, ValueError)):
        MatchesPage.from_dict(body)


def test_the_async_client_offers_the_same_and_says_the_same():
    async def run() -> None:
        server = Server(n=5)
        async with async_client(server) as eng:
            counts = await eng.facets(["sterility"], by=["year"])
            frame = await eng.matches(["sterility"])
            batches = await eng.matches(["sterility"], batch_size=2)
        assert counts["year"].documents.tolist() == [3]
        assert isinstance(frame, pd.DataFrame) and len(frame) == 5
        assert [len(f) for f in batches] == [2, 2, 1]  # type: ignore[union-attr]
        assert server.paths.count("/api/v3/openapi.json") == 1
        async with async_client(Server(frozenset())) as old:
            with pytest.raises(FeatureNotOffered) as info:
                await old.search(["sterility"], sort="date_asc")
        assert info.value.field == "sort"

    anyio.run(run)
