"""A firm as a watchlist names it: checked when the watchlist is saved (a name that keeps a key
once legal suffixes and punctuation go, or an identifier), then resolved to the firm entities it
names outright (`Engine.firm`'s `id`, `identifier` and `name` matches, never a prefix) each time
the watchlist runs, so that a document that enters under a variant of the name, or under the
site's FEI, is about the firm."""

from __future__ import annotations

from dataclasses import dataclass

from regnb.errors import InvalidRequest
from regnb.ids import firm_key, identifiers

__all__ = ["WatchedFirm", "watched_firm"]


@dataclass(frozen=True)
class WatchedFirm:
    """A watched name with its key, or an identifier (`key` empty)."""

    text: str
    key: str = ""


def watched_firm(text: object, where: str) -> WatchedFirm:
    """A firm as a watchlist names it: an identifier, else a name with a key; InvalidRequest
    (field `where`) otherwise."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidRequest(f"{where} must be a firm's name or identifier", field=where)
    if identifiers(text):
        return WatchedFirm(text)
    key = firm_key(text)
    if not key:
        raise InvalidRequest(
            f"{where} {text!r} has no name left once legal suffixes and punctuation go",
            field=where,
        )
    return WatchedFirm(text, key=key)
