"""The OpenAPI 3.1 document of the whole interface, served at `/api/v3/openapi.json`.

`openapi_document(catalog)` assembles it from one module per group of routes, each giving its
paths and schemas:

    v3.py             search, matches, datasets, document read, this document; the legacy routes
    conversations.py  the conversations and the download of their files
    firms.py          the firm lookup and a firm's timeline
    _schema.py        what they share: references, object schemas, responses, error meanings

The parts read the route modules' prefixes and bounds; no route module imports them (the app
hands the v3 routes `openapi_document`), so the document and the routes form no circle.
"""

from __future__ import annotations

import copy
from typing import Any

from regnb.catalog import Catalog, load_catalog
from regnb.server.openapi._schema import HEADERS, SETTINGS
from regnb.server.openapi.conversations import conversation_paths, conversation_schemas
from regnb.server.openapi.firms import firm_paths, firm_schemas
from regnb.server.openapi.v3 import v3_paths, v3_schemas

__all__ = ["openapi_document"]

INFO = {
    "title": "regnb: regulatory document search",
    "version": "3",
    "description": "The service interface served locally by `regnb serve`. Every v3 response "
    "carries X-Request-Id; every 429 and 503 carries Retry-After. Any other path under "
    f"/api/v3/ answers 404 not_found. Request bodies are at most {SETTINGS['max_body_bytes']:,} "
    "bytes (v3: 413 payload_too_large; legacy: 400).",
}


def openapi_document(catalog: Catalog | None = None) -> dict[str, Any]:
    """The whole interface's document for a server over `catalog` (default: the package's
    catalog), a fresh copy: search, documents, datasets, legacy, conversations and firms."""
    catalog = catalog if catalog is not None else load_catalog()
    return {
        "openapi": "3.1.0",
        "info": dict(INFO),
        "paths": {**v3_paths(), **conversation_paths(), **firm_paths()},
        "components": {
            "securitySchemes": {"apiKey": {"type": "apiKey", "in": "header", "name": "x-api-key"}},
            "headers": copy.deepcopy(HEADERS),
            "schemas": {**v3_schemas(catalog), **conversation_schemas(), **firm_schemas()},
        },
    }
