"""Signed download links for produced files: HMAC-SHA256 over (account, conversation, document,
expiry, nonce) with a secret kept under REGNB_HOME.

A token is `<payload>.<signature>`, both base64url: it names what it opens, for which account and
plan, and until when, so the server keeps no table of links; a new nonce makes each fetch's link
new. The link works on its own (a browser or `curl` without a key opens it) until it expires. Any token that is forged,
altered, expired or presented by another account is refused alike, as `not_found`, so that a
refusal tells nothing about what exists.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from regnb.errors import NotFound

__all__ = ["Grant", "Signer", "load_secret"]

SECRET_BYTES = 32
REFUSED = "the download link is invalid or has expired; fetch the document again for a new one"


def load_secret(folder: Path) -> bytes:
    """The server secret in `<folder>/secret` (32 random bytes, mode 0600), made on first use."""
    path = folder / "secret"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".secret.{secrets.token_hex(6)}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, secrets.token_bytes(SECRET_BYTES))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)  # fails if another process made it first: theirs is kept
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    secret = path.read_bytes()
    if len(secret) != SECRET_BYTES:
        raise ValueError(f"{path} is not a {SECRET_BYTES}-byte secret; delete it to make a new one")
    return secret


@dataclass(frozen=True)
class Grant:
    """What a valid token opens."""

    account: str
    conversation_id: str
    document_id: str
    expires: int
    plan: str = "free"  # the plan the link was made under (a link made before plans: the least)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    """Makes and checks download tokens with one secret."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def _mac(self, payload: str) -> str:
        return _b64(hmac.new(self._secret, payload.encode("ascii"), hashlib.sha256).digest())

    def sign(self, grant: Grant) -> str:
        """A new token for `grant` (a fresh nonce each time)."""
        body = {
            "a": grant.account,
            "c": grant.conversation_id,
            "d": grant.document_id,
            "e": grant.expires,
            "p": grant.plan,
            "n": secrets.token_hex(8),
        }
        payload = _b64(json.dumps(body, separators=(",", ":")).encode("utf-8"))
        return f"{payload}.{self._mac(payload)}"

    def verify(self, token: str, account: str | None, now: float) -> Grant:
        """The grant of a token signed here, unexpired at `now`, for `account` (None: whoever
        holds the link); else NotFound."""
        payload, _, mac = token.partition(".")
        if not payload or not mac or not (payload + mac).isascii():
            raise NotFound(REFUSED)
        if not hmac.compare_digest(self._mac(payload), mac):
            raise NotFound(REFUSED)
        try:
            body = json.loads(_unb64(payload))
            grant = Grant(
                str(body["a"]),
                str(body["c"]),
                str(body["d"]),
                int(body["e"]),
                str(body.get("p", "free")),
            )
        except (ValueError, KeyError, TypeError, binascii.Error):
            raise NotFound(REFUSED) from None
        if (account is not None and grant.account != account) or now >= grant.expires:
            raise NotFound(REFUSED)
        return grant
