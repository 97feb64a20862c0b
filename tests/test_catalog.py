"""The catalog: `add_datasets` checks every entry, keeps built-in datasets, and makes own ones
searchable."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import regnb
from regnb.catalog import load_catalog

from .conftest import doc

OWN: dict[str, Any] = {
    "id": "acme_sops",
    "name": "ACME SOPs",
    "jurisdiction": "US · ACME",
    "date_field": "effective",
    "fields": ["owner", "grade", "kind", "effective", "title"],
    "filters": {
        "owner": {"type": "string", "description": "keyword match on owner"},
        "grade": {"type": "integer", "description": "grade"},
        "kind": {"type": "string", "description": "kind of SOP", "enum": ["quality", "safety"]},
        "date_from": {"type": "string", "description": "from", "format": "date"},
        "date_to": {"type": "string", "description": "to", "format": "date"},
    },
}
EPAR: dict[str, Any] = {
    "id": "ema_epar",
    "available": True,
    "date_field": "document_date",
    "fields": ["brand_name", "document_date", "title", "url"],
    "filters": {"brand_name": {"type": "string", "description": "keyword match on brand name"}},
}
FDA_483_FILTERS = load_catalog()["fda_483"].filters


def own(**changes: Any) -> dict[str, Any]:
    """The ACME entry with keys changed (a value of `...` drops the key)."""
    entry = {**OWN, **changes}
    return {k: v for k, v in entry.items() if v is not ...}


def own_filter(name: str, spec: object, **changes: Any) -> dict[str, Any]:
    """The ACME entry with one filter set."""
    return own(filters={**OWN["filters"], name: spec}, **changes)


BAD_ENTRIES = [
    # (entries, field at fault, words of the message)
    ([own(fields=[{"name": "owner"}])], "datasets[0].fields[0]", "field name"),
    ([own(), own(id="acme_b"), own(id="acme_c", fields="owner,title")], "datasets[2].fields", "list"),
    ([own(fields=["owner", "owner"])], "datasets[0].fields[1]", "repeats"),
    ([own(fields=["owner name"])], "datasets[0].fields[0]", "field name"),
    ([own(id=...)], "datasets[0].id", "required"),
    ([own(id="Bad Id!")], "datasets[0].id", "lower-case"),
    ([own(id=7)], "datasets[0].id", "string"),
    ([own(), "x"], "datasets[1]", "object"),
    ([own(color="red")], "datasets[0].color", "not a catalog key"),
    ([own(name=5)], "datasets[0].name", "string"),
    ([own(name=" ")], "datasets[0].name", "empty"),
    ([own(jurisdiction=["US"])], "datasets[0].jurisdiction", "string"),
    ([own(available="yes")], "datasets[0].available", "true or false"),
    ([own(enterprise=1)], "datasets[0].enterprise", "true or false"),
    ([own(date_field=3)], "datasets[0].date_field", "field name"),
    ([own(date_field="expiry")], "datasets[0].date_field", "not among its fields"),
    ([own(filters=["owner"])], "datasets[0].filters", "object"),
    ([own_filter("owner", "string")], "datasets[0].filters.owner", "object"),
    ([own_filter("owner", {"description": "x"})], "datasets[0].filters.owner.type", "one of"),
    ([own_filter("owner", {"type": "text"})], "datasets[0].filters.owner.type", "one of"),
    ([own_filter("owner", {"type": "string", "description": 3})], "datasets[0].filters.owner.description", "string"),
    ([own_filter("owner", {"type": "string", "pattern": "^A"})], "datasets[0].filters.owner.pattern", "not allowed"),
    ([own_filter("kind", {"type": "string", "enum": "quality"})], "datasets[0].filters.kind.enum", "list"),
    ([own_filter("kind", {"type": "string", "enum": []})], "datasets[0].filters.kind.enum", "list"),
    ([own_filter("kind", {"type": "string", "enum": ["quality", 1]})], "datasets[0].filters.kind.enum", "strings"),
    ([own_filter("kind", {"type": "string", "enum": ["quality", ""]})], "datasets[0].filters.kind.enum", "strings"),
    ([own_filter("kind", {"type": "string", "enum": ["a", "a"]})], "datasets[0].filters.kind.enum", "repeats"),
    ([own_filter("grade", {"type": "integer", "enum": [1, 2]})], "datasets[0].filters.grade.enum", "only for string"),
    ([own_filter("owner", {"type": "string", "format": "date"})], "datasets[0].filters.owner.format", "date_from"),
    ([own_filter("date_from", {"type": "string"})], "datasets[0].filters.date_from", "format"),
    ([own_filter("date_to", {"type": "integer", "format": "date"})], "datasets[0].filters.date_to", "format"),
    ([own(date_field=None)], "datasets[0].filters.date_from", "date_field"),
    ([own_filter("colour", {"type": "string"})], "datasets[0].filters.colour", "reads no field"),
    ([own_filter("bad name", {"type": "string"})], "datasets[0].filters.bad name", "filter name"),
    ([own(), own()], "datasets[1].id", "twice"),
    ([{"id": "fda_483", "name": "Renamed 483s"}], "datasets[0].name", "built-in"),
    ([{"id": "fda_483", "jurisdiction": "EU"}], "datasets[0].jurisdiction", "built-in"),
    ([{"id": "fda_483", "enterprise": True}], "datasets[0].enterprise", "built-in"),
    ([{"id": "fda_483", "available": False}], "datasets[0].available", "turned off"),
    ([{"id": "fda_483", "filters": {}}], "datasets[0].filters", "built-in"),
    ([{"id": "fda_483", "fields": ["title"], "date_field": None}], "datasets[0].date_field", "built-in"),
    ([{"id": "fda_483", "filters": {**FDA_483_FILTERS, "title": {"type": "boolean"}}}], "datasets[0].filters", "built-in"),
    ([{**EPAR, "name": "EPARs"}], "datasets[0].name", "built-in"),
    ([{**EPAR, "date_field": "decision_date"}], "datasets[0].date_field", "not among its fields"),
]  # fmt: skip


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A corpus folder whose catalog already has the ACME dataset."""
    path = tmp_path / "corpus"
    regnb.add_datasets(path, [OWN])
    return path


@pytest.mark.parametrize(("entries", "field", "words"), BAD_ENTRIES)
def test_a_bad_entry_is_an_invalid_request_naming_it_and_nothing_is_written(
    corpus: Path, entries: list[Any], field: str, words: str
) -> None:
    before = (corpus / "catalog.json").read_bytes()
    with pytest.raises(regnb.InvalidRequest) as caught:
        regnb.add_datasets(corpus, entries)
    assert caught.value.field == field
    assert words in caught.value.message
    assert caught.value.message.startswith(field.split(".")[0])
    assert (corpus / "catalog.json").read_bytes() == before
    assert sorted(p.name for p in corpus.iterdir()) == ["catalog.json"]


@pytest.mark.parametrize("entries", [{"id": "acme_sops"}, "acme_sops", None])
def test_entries_must_be_a_list(tmp_path: Path, entries: object) -> None:
    with pytest.raises(regnb.InvalidRequest) as caught:
        regnb.add_datasets(tmp_path, entries)  # type: ignore[arg-type]
    assert caught.value.field == "datasets"
    assert not (tmp_path / "catalog.json").exists()


def test_a_new_dataset_is_available_and_its_documents_are_searched(tmp_path: Path) -> None:
    path = tmp_path / "corpus"
    entry = {k: v for k, v in OWN.items() if k != "available"}
    assert regnb.add_datasets(path, [entry])["acme_sops"].available
    fields = {"owner": "QA team", "grade": 2, "kind": "quality"}
    regnb.write_corpus(
        path,
        {"acme_sops": [doc("SOP 1", ["aseptic gowning"], fields=fields)]},
        encoder=regnb.HashingEncoder(),
        progress=False,
    )
    with regnb.Engine(path, encoder=regnb.HashingEncoder(), progress=False) as eng:
        wanted = {"grade": 2, "kind": "quality", "owner": "qa"}
        res = eng.search(["gowning"], datasets=["acme_sops"], filters={"acme_sops": wanted})
    assert res.to_dict()["datasets"]["acme_sops"]["status"] == "ok"
    assert list(res.documents.title) == ["SOP 1"]


@pytest.mark.parametrize(
    ("entries", "available"),
    [
        ([OWN], True),
        ([own(available=False)], False),
        ([own(available=False), own(available=...)], False),  # a later change keeps it
        ([own(available=False), own(available=True)], True),
    ],
)
def test_own_datasets_are_available_unless_they_say_not(
    tmp_path: Path, entries: list[dict[str, Any]], available: bool
) -> None:
    for entry in entries:
        catalog = regnb.add_datasets(tmp_path, [entry])
    assert catalog["acme_sops"].available is available
    assert load_catalog(tmp_path)["acme_sops"].available is available


def test_an_own_dataset_saved_without_available_reads_as_available(tmp_path: Path) -> None:
    entry = {k: v for k, v in OWN.items() if k != "available"}
    (tmp_path / "catalog.json").write_text(json.dumps({"datasets": [entry]}), "utf-8")
    assert load_catalog(tmp_path)["acme_sops"].available


def test_an_own_dataset_can_be_renamed_and_widened(corpus: Path) -> None:
    wider = own(name="ACME procedures", fields=[*OWN["fields"], "site"])
    catalog = regnb.add_datasets(corpus, [wider])
    assert catalog["acme_sops"].name == "ACME procedures"
    assert "site" in catalog["acme_sops"].fields


@pytest.mark.parametrize(
    "entry",
    [
        {"id": "fda_483", "available": True},
        {"id": "fda_483", "name": "FDA Form 483 Inspection Observations", "enterprise": False},
        {"id": "fda_483", "filters": FDA_483_FILTERS, "date_field": "record_date"},
    ],
)
def test_a_built_in_dataset_may_be_restated_unchanged(tmp_path: Path, entry: dict) -> None:
    catalog = regnb.add_datasets(tmp_path, [entry])
    assert catalog["fda_483"] == load_catalog()["fda_483"]


def test_a_built_in_dataset_without_fields_is_made_available_with_them(tmp_path: Path) -> None:
    catalog = regnb.add_datasets(tmp_path, [EPAR])
    epar = catalog["ema_epar"]
    assert epar.available
    assert epar.name == load_catalog()["ema_epar"].name
    assert epar.filters == EPAR["filters"]
    assert load_catalog(tmp_path)["ema_epar"] == epar


def test_a_built_in_dataset_stays_unavailable_unless_the_entry_says_available(
    tmp_path: Path,
) -> None:
    entry = {k: v for k, v in EPAR.items() if k != "available"}
    assert not regnb.add_datasets(tmp_path, [entry])["ema_epar"].available


def test_a_corpus_path_with_a_tilde_is_under_the_home_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    regnb.add_datasets("~/regcorpus", [OWN])
    assert (tmp_path / "home" / "regcorpus" / "catalog.json").exists()
    assert not (tmp_path / "~").exists()


@pytest.mark.parametrize("saved", [["x"], [{"name": "no id"}], [{"id": 5}]])
def test_a_corpus_catalog_with_a_broken_entry_is_a_corpus_error(
    tmp_path: Path, saved: list[Any]
) -> None:
    (tmp_path / "catalog.json").write_text(json.dumps({"datasets": saved}), "utf-8")
    with pytest.raises(regnb.CorpusError, match=r"catalog\.json: datasets\[0\]"):
        load_catalog(tmp_path)
