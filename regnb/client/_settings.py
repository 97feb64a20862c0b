"""The remote client's settings (`REGNB_CLIENT_*`) live with every other setting, in
`regnb.settings`; this name stays for code that imports it."""

from __future__ import annotations

from regnb.settings import ClientSettings

__all__ = ["ClientSettings"]
