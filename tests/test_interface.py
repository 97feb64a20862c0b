"""The engine interface has one signature per method: the local engine, the sync client and the
async client (and the widgets' test double) take exactly the protocol's parameters, with its
names, kinds, defaults and annotations, and return what it returns (the async client as a
coroutine), so the copies of `search` and the rest cannot drift apart."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

import regnb
from regnb.client import _calls as calls
from regnb.client._aio import AsyncClient
from regnb.client._sync import Client
from regnb.client.paging import AsyncPagingMethods, PagingMethods
from regnb.interface import ConversationAPI, EngineAPI, FirmAPI, SearchAPI
from regnb.request import SearchArgs
from regnb.widgets.testing import ScriptedConversations


def public_methods(protocol: type) -> list[str]:
    """The methods a protocol declares (its attributes, such as `plan`, are not methods)."""
    return sorted(
        name
        for name, value in vars(protocol).items()
        if not name.startswith("_") and inspect.isfunction(value)
    )


PROTOCOL_METHODS = sorted(
    public_methods(SearchAPI) + public_methods(ConversationAPI) + public_methods(FirmAPI)
)
IMPLEMENTATIONS: list[tuple[type, bool]] = [
    (regnb.Engine, False),
    (Client, False),
    (AsyncClient, True),
]
CASES = [
    pytest.param(
        cls,
        is_async,
        name,
        id=f"{cls.__name__}.{name}",
    )
    for cls, is_async in IMPLEMENTATIONS
    for name in PROTOCOL_METHODS
]


def parameters(method: Callable[..., Any]) -> list[tuple[str, Any, Any, Any]]:
    return [
        (p.name, p.kind, p.default, p.annotation)
        for p in inspect.signature(method).parameters.values()
    ]


def test_the_protocol_declares_every_endpoint_method() -> None:
    endpoints = {"check_search", "datasets", "legacy_contents", "legacy_search", "read", "search"}
    endpoints |= {"facets", "matches"}  # extensions of the spec (issue 17)
    endpoints |= {"start_conversation", "send_message", "list_conversations", "read_conversation"}
    endpoints |= {"stop_conversation", "produced_document", "download_document"}
    endpoints |= {"firm", "timeline"}  # extensions of the spec (issue 18)
    assert set(PROTOCOL_METHODS) == endpoints
    assert public_methods(EngineAPI) == []  # it only joins the three


@pytest.mark.parametrize(("cls", "is_async", "name"), CASES)
def test_each_engine_has_the_protocols_signature(cls: type, is_async: bool, name: str) -> None:
    protocol = getattr(EngineAPI, name)
    method = getattr(cls, name)
    assert parameters(method) == parameters(protocol), f"{cls.__name__}.{name} drifted"
    expected = inspect.signature(protocol).return_annotation
    assert inspect.signature(method).return_annotation == expected  # awaited, when async
    assert inspect.iscoroutinefunction(method) is is_async


@pytest.mark.parametrize("name", public_methods(ConversationAPI))
def test_the_widgets_scripted_conversations_have_the_protocols_signatures(name: str) -> None:
    method = getattr(ScriptedConversations, name)
    protocol = getattr(ConversationAPI, name)
    assert inspect.signature(method) == inspect.signature(protocol)


def test_check_search_takes_what_search_takes() -> None:
    search, check = parameters(SearchAPI.search), parameters(SearchAPI.check_search)
    assert [p[:3] for p in check] == [p[:3] for p in search]
    assert check[2:] == search[2:]  # all but `keywords`, which `search` also takes checked


def test_the_clients_search_body_has_the_searchs_defaults() -> None:
    search = {p[0]: p[1:3] for p in parameters(SearchAPI.search)}
    body = {p[0]: p[1:3] for p in parameters(calls.search_body) if p[0] != "args"}
    assert {k: v for k, v in search.items() if k in body} == body
    # the search block travels as `SearchArgs`: every name of it is a parameter of `search`
    assert set(SearchArgs.__annotations__) <= set(search)
    assert set(search) - set(body) - set(SearchArgs.__annotations__) == {"self"}


@pytest.mark.parametrize("name", ["search_all", "read_all"])
def test_paging_is_the_same_in_the_sync_and_the_async_client(name: str) -> None:
    sync, aio = getattr(PagingMethods, name), getattr(AsyncPagingMethods, name)
    assert inspect.signature(aio) == inspect.signature(sync)
    assert inspect.iscoroutinefunction(aio) and not inspect.iscoroutinefunction(sync)
    assert issubclass(Client, PagingMethods)  # the engine pages by delegating: same signature
    assert inspect.signature(getattr(regnb.Engine, name)) == inspect.signature(sync)
    assert issubclass(AsyncClient, AsyncPagingMethods)
