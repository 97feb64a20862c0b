"""The public API: a curated, sorted `__all__` in every public module, and one error hierarchy."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

import regnb
from regnb import errors
from regnb.server.errors import http_status


def test_all_is_sorted_and_importable():
    assert regnb.__all__ == sorted(regnb.__all__)
    for name in regnb.__all__:
        assert hasattr(regnb, name), name


def _public_modules() -> list[str]:
    """Every module of regnb whose dotted name has no part starting with `_`."""
    package = Path(regnb.__file__).parent
    names = []
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if not any(part.startswith("_") for part in parts):
            names.append(".".join(parts))
    return names


def _isort_order(name: str) -> tuple[int, list[str | int]]:
    """The order of ruff's RUF022 ("isort-style"): SCREAMING_SNAKE_CASE constants first, then
    CamelCase classes, then the rest, each group in natural order (digits as numbers)."""
    kind = 0 if len(name) > 1 and name.isupper() else 1 if name[:1].isupper() else 2
    return kind, [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


def test_the_public_modules_are_found():
    modules = _public_modules()
    assert {
        "regnb",
        "regnb.agent",
        "regnb.documents.cfr",
        "regnb.ids",
        "regnb.search.procedure",
        "regnb.server.errors",
    } <= set(modules)
    assert not [m for m in modules if "._" in m]


# The public modules of the front ends and the engine's parts: the rest of each package is its
# implementation, in modules named with a `_`. A new public module is a decision: add it here.
PUBLIC_IN_PACKAGES = {
    "regnb.agent": {
        "regnb.agent",
        "regnb.agent.agent",
        "regnb.agent.llm",
        "regnb.agent.produce",
        "regnb.agent.types",
    },
    "regnb.client": {"regnb.client", "regnb.client.paging", "regnb.client.testing"},
    "regnb.mcp": {"regnb.mcp"},
    "regnb.conversations": {
        "regnb.conversations",
        "regnb.conversations.agents",
        "regnb.conversations.citations",
        "regnb.conversations.conversation",
        "regnb.conversations.service",
        "regnb.conversations.testing",
    },
    "regnb.server": {
        "regnb.server",
        "regnb.server.accounts",
        "regnb.server.errors",
        "regnb.server.openapi",
        "regnb.server.openapi.conversations",
        "regnb.server.openapi.firms",
        "regnb.server.openapi.v3",
        "regnb.server.testing",
    },
    "regnb.widgets": {"regnb.widgets", "regnb.widgets.testing"},
    "regnb.watch": {"regnb.watch", "regnb.watch.watches"},
}


# The core's layers are packages (`regnb.index`, `regnb.search`...); directly in `regnb/` are the
# public API's modules and the values every layer shares, at most 20 of them.
MAX_TOP_LEVEL_MODULES = 20


def test_at_most_twenty_modules_sit_directly_in_the_package() -> None:
    package = Path(regnb.__file__).parent
    modules = sorted(p.name for p in package.glob("*.py"))
    assert len(modules) <= MAX_TOP_LEVEL_MODULES, modules


@pytest.mark.parametrize("package", sorted(PUBLIC_IN_PACKAGES))
def test_only_the_api_modules_of_a_package_are_public(package: str) -> None:
    found = {m for m in _public_modules() if m == package or m.startswith(f"{package}.")}
    assert found == PUBLIC_IN_PACKAGES[package]


@pytest.mark.parametrize(
    ("package", "names"),
    [
        ("regnb.client", {"AsyncClient", "Client", "ClientSettings", "connect", "connect_async"}),
        ("regnb.conversations", {"ConversationService", "ConversationStore", "LocalConversations"}),
        ("regnb.server", {"create_app", "serving_conversations"}),
    ],
)
def test_a_package_exports_what_its_private_modules_offer_users(
    package: str, names: set[str]
) -> None:
    module = importlib.import_module(package)
    assert names <= set(module.__all__)
    assert all(getattr(module, name) is not None for name in names)


@pytest.mark.parametrize("module_name", _public_modules())
def test_every_public_module_has_a_sorted_all_of_names_it_has(module_name: str) -> None:
    module = importlib.import_module(module_name)
    assert hasattr(module, "__all__"), f"{module_name} has no __all__"
    names = list(module.__all__)
    assert all(isinstance(name, str) for name in names)
    assert len(set(names)) == len(names), f"{module_name}.__all__ repeats a name"
    assert names == sorted(names, key=_isort_order), f"{module_name}.__all__ is not sorted"
    missing = [name for name in names if not hasattr(module, name)]
    assert missing == [], f"{module_name}.__all__ names what it lacks"


SPEC_CODES = {
    "invalid_request": 400,
    "unknown_dataset": 400,
    "invalid_filter": 400,
    "missing_api_key": 401,
    "invalid_api_key": 401,
    "quota_exhausted": 402,
    "forbidden": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "turn_in_flight": 409,
    "idempotency_key_in_use": 409,
    "payload_too_large": 413,
    "idempotency_key_reused": 422,
    "rate_limited": 429,
    "concurrent_search": 429,
    "concurrent_conversations": 429,
    "upstream_error": 502,
    "busy": 503,
    "timeout": 504,
    "internal_error": 500,
}


# Codes beyond the spec's, for what the spec does not describe: a database that does not answer.
EXTENSION_CODES = {"unavailable": 503}


def test_every_spec_code_has_an_error_class():
    found = {code: http_status(errors.error_class(code)) for code in errors.ERROR_CODES}
    assert found == SPEC_CODES | EXTENSION_CODES


def test_error_to_dict_has_field_only_when_set():
    assert regnb.InvalidRequest("bad", field="limit").to_dict() == {
        "code": "invalid_request",
        "message": "bad",
        "field": "limit",
    }
    assert regnb.NotFound("gone").to_dict() == {"code": "not_found", "message": "gone"}


def test_catalog_lists_33_datasets_15_available():
    cat = regnb.load_catalog()
    assert len(cat) == 33 and sum(d.available for d in cat) == 15
    body = cat.to_dict()["datasets"]
    epar = next(d for d in body if d["id"] == "ema_epar")
    assert set(epar) == {"id", "name", "jurisdiction", "available", "enterprise"}
    d483 = next(d for d in body if d["id"] == "fda_483")
    assert d483["date_field"] == "record_date"
    assert set(d483["filters"]) == {"facility_name", "fei_number", "title", "date_from", "date_to"}


@pytest.mark.parametrize("plan", ["free", "paid", "enterprise"])
def test_plans_are_accepted(plan):
    from regnb.validate import check_plan

    assert check_plan(plan) == plan


def test_open_expands_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    regnb.write_corpus(
        tmp_path / "regcorpus",
        {"fda_483": [{"title": "A", "pages": ["alpha"]}]},
        encoder=regnb.HashingEncoder(),
        progress=False,
    )
    with regnb.open("~/regcorpus", encoder=regnb.HashingEncoder()) as eng:
        assert eng.path == tmp_path / "regcorpus"
        assert eng.search(["alpha"]).total == 1


def test_an_encoder_other_than_the_corpus_one_is_refused_with_a_neutral_message(make_engine):
    eng = make_engine({"fda_483": [{"title": "A", "pages": ["alpha"]}]})
    with pytest.raises(regnb.InvalidRequest) as info:
        regnb.open(eng.path, encoder=regnb.HashingEncoder(dim=16))
    assert info.value.field == "encoder"
    assert "hashing-384" in info.value.message and "regnb.open" not in info.value.message


def test_counts_per_dataset_and_the_index_folder(make_engine):
    eng = make_engine(
        {
            "fda_483": [{"title": "A", "pages": ["alpha", "beta"]}],
            "fda_recalls": [{"title": "B", "pages": ["alpha"]}, {"title": "C", "pages": ["x"]}],
        }
    )
    counts = eng.counts()
    assert counts.to_dict("records") == [
        {"dataset": "fda_483", "documents": 1, "pages": 2},
        {"dataset": "fda_recalls", "documents": 2, "pages": 2},
    ]
    assert (eng.index_path / "index.json").exists()


# Public names that two public modules define on purpose: each pair is one thing under one name
# in two roles (a module-level function of `regnb` and the module it hands to), or a term of two
# vocabularies (a CFR term of the index, an identifier term of the query syntax).
SHARED_PUBLIC_NAMES = {
    "ask": {"regnb", "regnb.conversations.conversation"},
    "candidates": {"regnb.documents.cfr", "regnb.ids"},
    "check_datasets": {"regnb.search.legacy", "regnb.validate"},
    "connect": {"regnb", "regnb.text"},
    "Link": {"regnb.firms.links", "regnb.present.excel"},
    "markers": {"regnb.present.markdown", "regnb.present.markers"},
    "query_term": {"regnb.documents.cfr", "regnb.ids"},
    "search": {"regnb", "regnb.search.legacy"},
    "terms": {"regnb.documents.cfr", "regnb.text"},
}


def _defined_names(module: str) -> set[str]:
    """The public functions and classes a module defines itself (not those it imports)."""
    package = Path(regnb.__file__).parent
    parts = module.split(".")[1:]
    path = (
        package.joinpath(*parts, "__init__.py")
        if module == "regnb" or (package.joinpath(*parts).is_dir())
        else package.joinpath(*parts[:-1], f"{parts[-1]}.py")
    )
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and not node.name.startswith("_")
    }


def test_no_two_public_modules_define_the_same_public_name() -> None:
    where: dict[str, set[str]] = {}
    for module in _public_modules():
        for name in _defined_names(module):
            where.setdefault(name, set()).add(module)
    twice = {name: modules for name, modules in where.items() if len(modules) > 1}
    assert twice == SHARED_PUBLIC_NAMES


def test_the_old_paths_of_moved_modules_are_the_moved_modules() -> None:
    from regnb._compat import MOVED

    for old, new in MOVED.items():
        assert importlib.import_module(old) is importlib.import_module(new), old
