"""Keys sent in a URL by mistake never reach a log: query values named like keys become ***."""

from __future__ import annotations

import logging
import sys

import pytest
from uvicorn.logging import AccessFormatter

from regnb.server._logs import RedactKeys, install_log_filter, is_secret_name, redact


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/api/v3/datasets?api_key=sk_live_1", "/api/v3/datasets?api_key=***"),
        ("/api/v3/datasets?API_KEY=sk_live_1", "/api/v3/datasets?API_KEY=***"),
        ("/x?key=a&limit=5", "/x?key=***&limit=5"),
        ("/x?limit=5&x-api-key=a", "/x?limit=5&x-api-key=***"),
        ("/x?X-Api-Key=a", "/x?X-Api-Key=***"),
        ("/x?token=a;apikey=b", "/x?token=***;apikey=***"),
        ("/x?access_token=a&secret=b&password=c", "/x?access_token=***&secret=***&password=***"),
        ("/x?api%5Fkey=a%20b", "/x?api%5Fkey=***"),
        ("/x?client_secret=a#frag", "/x?client_secret=***#frag"),
        ("/x?key=", "/x?key="),
        ("/x?monkey=banana&keyword=x&tokens=2", "/x?monkey=banana&keyword=x&tokens=2"),
        ("/api/v3/documents/abc?page_from=2", "/api/v3/documents/abc?page_from=2"),
        (
            '1.2.3.4 - "GET /x?api_key=s HTTP/1.1" 200',
            '1.2.3.4 - "GET /x?api_key=*** HTTP/1.1" 200',
        ),
        ("no query at all", "no query at all"),
    ],
)
def test_redact_hides_values_of_key_like_parameters_only(text: str, expected: str) -> None:
    assert redact(text) == expected


KEY = "rnb_" + "AbC-9_x" * 6 + "Z"  # 43 characters, as `Accounts.create_key` makes them


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"/api/v3/datasets?k={KEY}", "/api/v3/datasets?k=rnb_***"),
        (f"/x?limit=5&q={KEY}&offset=2", "/x?limit=5&q=rnb_***&offset=2"),
        (f"/x?note=my%20key%20{KEY}%20ok", "/x?note=my%20key%20rnb_***%20ok"),
        (f"/x?k={KEY.replace('_', '%5F')}", "/x?k=rnb_***"),
        (f"/x?k={KEY.replace('-', '%2d')}", "/x?k=rnb_***"),
        (f"/api/v3/documents/{KEY}", "/api/v3/documents/rnb_***"),
        (f"/api/v3/documents/{KEY}/pages", "/api/v3/documents/rnb_***/pages"),
        (f"/x#{KEY}", "/x#rnb_***"),
        (f"x-api-key: {KEY}", "x-api-key: rnb_***"),
        (f"{KEY.upper()}", "rnb_***"),
        (f"/x?api_key={KEY}", "/x?api_key=***"),
        (f'1.2.3.4 - "GET /x?k={KEY} HTTP/1.1" 200', '1.2.3.4 - "GET /x?k=rnb_*** HTTP/1.1" 200'),
        ("rnb_AbC-9_x…", "rnb_AbC-9_x…"),  # the 8 characters `regnb keys list` shows
        ("/x?k=rnb_short", "/x?k=rnb_short"),
        ("/x?dataset=fda_483&q=turbine_blades", "/x?dataset=fda_483&q=turbine_blades"),
    ],
)
def test_redact_hides_anything_that_looks_like_a_key_whatever_its_place(
    text: str, expected: str
) -> None:
    assert redact(text) == expected


def test_a_key_made_by_accounts_looks_like_a_key(tmp_path) -> None:
    from regnb.server.accounts import Accounts

    with Accounts(tmp_path / "accounts.sqlite3") as accounts:
        key = accounts.create_key("acme").key
    assert redact(f"/x?k={key}") == "/x?k=rnb_***" and redact(key) == "rnb_***"


def test_filter_redacts_a_key_in_a_traceback() -> None:
    try:
        raise ValueError(f"bad link /api/v3/files/x?k={KEY}")
    except ValueError:
        record = logging.LogRecord(
            "regnb.server", logging.ERROR, __file__, 1, "failed", (), sys.exc_info()
        )
    RedactKeys().filter(record)
    line = logging.Formatter().format(record)
    assert KEY not in line and "k=rnb_***" in line and "ValueError" in line


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("api_key", True),
        ("apikey", True),
        ("x-api-key", True),
        ("Key", True),
        ("TOKEN", True),
        ("refresh_token", True),
        ("Password", True),
        ("keys", False),
        ("page_from", False),
        ("q", False),
    ],
)
def test_secret_names(name: str, secret: bool) -> None:
    assert is_secret_name(name) is secret


def access_record(path: str) -> logging.LogRecord:
    """A record as uvicorn's access logger writes it."""
    return logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", path, "1.1", 200),
        None,
    )


def test_filter_rewrites_uvicorns_access_record_and_keeps_its_shape() -> None:
    record = access_record("/api/v3/datasets?api_key=sk_live_1&x=1")
    assert RedactKeys().filter(record) is True
    line = AccessFormatter("%(client_addr)s %(request_line)s %(status_code)s").format(record)
    assert line == "127.0.0.1:5000 GET /api/v3/datasets?api_key=***&x=1 HTTP/1.1 200 OK"


def test_installed_filter_redacts_what_the_access_logger_writes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    logger = logging.getLogger("regnb.test.access")
    install_log_filter(logger.name)
    install_log_filter(logger.name)
    try:
        assert sum(isinstance(f, RedactKeys) for f in logger.filters) == 1
        with caplog.at_level(logging.INFO, logger=logger.name):
            logger.info('"GET %s"', "/x?token=sk_live_1")
            logger.info("GET /x?password=hunter2")
        assert "sk_live_1" not in caplog.text and "hunter2" not in caplog.text
        assert caplog.text.count("***") == 2
    finally:
        for f in list(logger.filters):
            logger.removeFilter(f)
