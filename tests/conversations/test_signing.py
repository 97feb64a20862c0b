"""Signed download links: valid until they expire, for one account, new at each signing, and
refused alike (not_found) when forged, altered, expired or shown by another account."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from regnb.conversations._signing import Grant, Signer, load_secret
from regnb.errors import NotFound

GRANT = Grant("account:1", "conv_1", "doc_1", 1_000)


@pytest.fixture
def signer(tmp_path: Path) -> Signer:
    return Signer(load_secret(tmp_path))


def test_secret_is_32_random_bytes_readable_only_by_its_owner(tmp_path: Path) -> None:
    secret = load_secret(tmp_path)
    path = tmp_path / "secret"
    assert len(secret) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_secret(tmp_path) == secret
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left


def test_secrets_differ_between_homes(tmp_path: Path) -> None:
    assert load_secret(tmp_path / "a") != load_secret(tmp_path / "b")


def test_a_damaged_secret_file_is_reported(tmp_path: Path) -> None:
    (tmp_path / "secret").write_bytes(b"short")
    with pytest.raises(ValueError, match="32-byte"):
        load_secret(tmp_path)


def test_valid_token_opens_its_grant_until_it_expires(signer: Signer) -> None:
    token = signer.sign(GRANT)
    assert signer.verify(token, "account:1", 999.9) == GRANT
    with pytest.raises(NotFound):
        signer.verify(token, "account:1", 1_000)


def test_token_is_new_at_each_signing(signer: Signer) -> None:
    assert signer.sign(GRANT) != signer.sign(GRANT)


def test_token_of_another_account_is_refused(signer: Signer) -> None:
    with pytest.raises(NotFound):
        signer.verify(signer.sign(GRANT), "account:2", 10)


def test_token_signed_with_another_secret_is_refused(signer: Signer, tmp_path: Path) -> None:
    other = Signer(load_secret(tmp_path / "elsewhere"))
    with pytest.raises(NotFound):
        signer.verify(other.sign(GRANT), "account:1", 10)


def _flip(text: str, at: int) -> str:
    return text[:at] + ("A" if text[at] != "A" else "B") + text[at + 1 :]


@pytest.mark.parametrize(
    "forge",
    [
        lambda t: _flip(t, 3),  # payload altered
        lambda t: _flip(t, len(t) - 2),  # signature altered
        lambda t: t.split(".")[0],  # signature dropped
        lambda t: "." + t.split(".")[1],  # payload dropped
        lambda t: t + "x",
        lambda t: "",
        lambda t: "nonsense",
        lambda t: "é.é",
        lambda t: t.replace(".", ".."),
    ],
)
def test_forged_or_altered_token_is_refused(signer: Signer, forge) -> None:
    with pytest.raises(NotFound) as err:
        signer.verify(forge(signer.sign(GRANT)), "account:1", 10)
    assert "invalid or has expired" in err.value.message


def test_well_signed_token_with_a_broken_payload_is_refused(signer: Signer) -> None:
    payload = "bm90IGpzb24"  # base64url of "not json"
    with pytest.raises(NotFound):
        signer.verify(f"{payload}.{signer._mac(payload)}", "account:1", 10)
