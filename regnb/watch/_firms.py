"""Which documents are about a watched firm, until the firm entities are merged: a document is
about a firm when a key of the name in one of its catalog firm fields is the watched name's key
(`regnb.ids.firm_names`: "Hospira, Inc." and "Hospira Inc" are one firm), or when the watched
identifier (`FEI 3002806560`, `NDA 021164`) is one of its fields' or its title's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from regnb.errors import InvalidRequest
from regnb.ids import (
    Identifier,
    field_identifiers,
    firm_key,
    firm_names,
    identifiers,
    looks_like_address,
)
from regnb.legacy import COMPANY_FIELDS

__all__ = ["WatchedFirm", "about", "watched_firm"]


@dataclass(frozen=True)
class WatchedFirm:
    """A watched name's key, or the identifiers a watched identifier reads as."""

    text: str
    key: str = ""
    ids: frozenset[tuple[str, str]] = frozenset()


def _id_key(identifier: Identifier) -> tuple[str, str]:
    """An application by its number alone (`NDA 021164` and `021164` are one), the rest as read."""
    if identifier.kind == "application":
        number = identifier.value.rpartition(" ")[2]
        return identifier.kind, number.split("/")[0]
    return identifier.kind, identifier.value


def watched_firm(text: object, where: str) -> WatchedFirm:
    """A firm as a watchlist names it: an identifier, else a name with a key."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidRequest(f"{where} must be a firm's name or identifier", field=where)
    found = identifiers(text)
    if found:
        return WatchedFirm(text, ids=frozenset(_id_key(i) for i in found))
    key = firm_key(text)
    if not key:
        raise InvalidRequest(
            f"{where} {text!r} has no name left once legal suffixes and punctuation go",
            field=where,
        )
    return WatchedFirm(text, key=key)


def about(firm: WatchedFirm, title: str, fields: Mapping[str, Any]) -> bool:
    """Whether a document (its title and catalog fields) is about `firm`."""
    if firm.key:
        return any(
            firm.key in firm_names(value)
            for name in COMPANY_FIELDS
            if isinstance(value := fields.get(name), str) and not looks_like_address(value)
        )
    found = [*field_identifiers(fields), *identifiers(title)]
    return bool(firm.ids & {_id_key(i) for i in found})
