"""The conversation routes: start, follow-up, list, read with `wait`, stop, produced document,
and the download that a produced document's signed `url` points to; and their OpenAPI paths.

Each handler authenticates, reads its input and calls `ConversationService` (in a worker
thread: a store write may wait for another process), except the read's `wait`, which sleeps on
the event loop and holds no thread. Conversations belong to the caller's account; a download
token works only with a key of the account it was made for, and any refused token answers 404
`not_found`.
"""

from __future__ import annotations

from functools import partial
from typing import Any
from urllib.parse import quote

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from regnb.conversations._checks import LIST_LIMIT_MAX, LIST_STATUSES
from regnb.conversations._views import links_from
from regnb.conversations.service import ConversationService
from regnb.errors import InvalidRequest
from regnb.models import (
    Citation,
    ConversationAccepted,
    ConversationList,
    ConversationRead,
    ConversationStopped,
    ConversationSummary,
    ProducedDocument,
    ProducedDocumentEntry,
    Question,
    Step,
    Turn,
)
from regnb.server._body import MAX_INT, query_int, read_json_object
from regnb.server._links import scope_base_url
from regnb.server._openapi import model_schema
from regnb.server._state import ServerState
from regnb.server.accounts import Caller
from regnb.server.errors import Handler, Style, endpoint, json_response
from regnb.settings import Settings

__all__ = [
    "ConversationRoutes",
    "check_query",
    "content_disposition",
    "conversation_paths",
    "conversation_schemas",
    "http_account",
]

PREFIX = "/api/v3/conversations"


def http_account(caller: Caller) -> str:
    """The store's account of an API key's owner (apart from the notebook's `local`)."""
    return f"account:{caller.account_id}"


def check_query(request: Request, allowed: tuple[str, ...] = ()) -> None:
    """Refuse query parameters the endpoint does not take (a typo such as `wiat` would
    otherwise pass unnoticed)."""
    for name in request.query_params:
        if name not in allowed:
            raise InvalidRequest(f"unknown query parameter {name!r}", field=name)


def content_disposition(filename: str) -> str:
    """`attachment` with an ASCII fallback name and the exact name in RFC 5987 form."""
    fallback = "".join(
        c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in filename
    )
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"


class ConversationRoutes:
    """Handlers of the conversation endpoints."""

    def __init__(self, state: ServerState) -> None:
        self.state = state

    @property
    def service(self) -> ConversationService:
        service: ConversationService = self.state.conversations
        return service

    def routes(self) -> list[Route]:
        def v3(handler: Handler) -> Handler:
            return endpoint(self.linked(handler), Style.V3)

        return [
            Route(PREFIX, v3(self.collection), methods=["GET", "POST"]),
            Route(PREFIX + "/{conversation_id}", v3(self.read), methods=["GET"]),
            Route(PREFIX + "/{conversation_id}/messages", v3(self.send), methods=["POST"]),
            Route(PREFIX + "/{conversation_id}/stop", v3(self.stop), methods=["POST"]),
            Route(
                PREFIX + "/{conversation_id}/documents/{document_id}",
                v3(self.document),
                methods=["GET"],
            ),
            Route("/api/v3/files/{token}", v3(self.download), methods=["GET"]),
        ]

    def linked(self, handler: Handler) -> Handler:
        """`handler` with the links of its response built on the request's own base URL
        (unless REGNB_PUBLIC_URL names one)."""
        trust = self.state.settings.trust_proxy_headers

        async def run(request: Request) -> Response:
            with links_from(scope_base_url(request.scope, trust)):
                return await handler(request)

        run.__name__ = getattr(handler, "__name__", "endpoint")
        run.__doc__ = handler.__doc__
        return run

    async def collection(self, request: Request) -> Response:
        """POST starts a conversation; GET lists them."""
        if request.method == "POST":
            return await self.start(request)
        return await self.list(request)

    async def start(self, request: Request) -> Response:
        """POST /api/v3/conversations: 202 with the running turn, 200 for a retried key."""
        caller = await self.state.authenticate(request)
        check_query(request)
        body = await read_json_object(request, self.state.settings.max_body_bytes)
        run = partial(
            self.service.start,
            http_account(caller),
            caller.plan,
            body.get("message"),
            request.headers.get("idempotency-key"),
        )
        accepted = await anyio.to_thread.run_sync(run)
        return json_response(accepted.body.to_dict(), 202 if accepted.started else 200)

    async def send(self, request: Request) -> Response:
        """POST /api/v3/conversations/{id}/messages: a follow-up, 202 (200 for a retry)."""
        caller = await self.state.authenticate(request)
        check_query(request)
        body = await read_json_object(request, self.state.settings.max_body_bytes)
        run = partial(
            self.service.send,
            http_account(caller),
            caller.plan,
            request.path_params["conversation_id"],
            body.get("message"),
            request.headers.get("idempotency-key"),
        )
        accepted = await anyio.to_thread.run_sync(run)
        return json_response(accepted.body.to_dict(), 202 if accepted.started else 200)

    async def list(self, request: Request) -> Response:
        """GET /api/v3/conversations: summaries, most recent activity first."""
        caller = await self.state.authenticate(request)
        check_query(request, ("status", "limit", "offset"))
        status = request.query_params.get("status", "all")
        limit = query_int(request, "limit", 20)
        offset = query_int(request, "offset", 0)
        run = partial(self.service.list_conversations, http_account(caller), status, limit, offset)
        return json_response((await anyio.to_thread.run_sync(run)).to_dict())

    async def read(self, request: Request) -> Response:
        """GET /api/v3/conversations/{id}?wait=: as soon as it leaves `running`, or at `wait`."""
        caller = await self.state.authenticate(request)
        check_query(request, ("wait",))
        conversation_id = request.path_params["conversation_id"]
        wait = request.query_params.get("wait", "0")
        body = await self.service.read_async(http_account(caller), conversation_id, wait)
        return json_response(body.to_dict())

    async def stop(self, request: Request) -> Response:
        """POST /api/v3/conversations/{id}/stop: `stopped` false when nothing ran."""
        caller = await self.state.authenticate(request)
        check_query(request)
        run = partial(
            self.service.stop, http_account(caller), request.path_params["conversation_id"]
        )
        return json_response((await anyio.to_thread.run_sync(run)).to_dict())

    async def document(self, request: Request) -> Response:
        """GET /api/v3/conversations/{id}/documents/{doc}: text inline, files by signed URL."""
        caller = await self.state.authenticate(request)
        check_query(request)
        run = partial(
            self.service.document,
            http_account(caller),
            caller.plan,
            request.path_params["conversation_id"],
            request.path_params["document_id"],
        )
        return json_response((await anyio.to_thread.run_sync(run)).to_dict())

    async def download(self, request: Request) -> Response:
        """GET /api/v3/files/{token}: the file, for a key of the account the link was made for."""
        caller = await self.state.authenticate(request)
        check_query(request)
        run = partial(
            self.service.download, http_account(caller), caller.plan, request.path_params["token"]
        )
        file = await anyio.to_thread.run_sync(run)
        headers = {"Content-Disposition": content_disposition(file.filename)}
        return Response(file.data, 200, headers=headers, media_type=file.media_type)


# --- OpenAPI ------------------------------------------------------------------------------

WHY = {
    "400": "Invalid request: message, Idempotency-Key, wait, status, limit, offset, or a query "
    "parameter the endpoint does not take",
    "401": "Missing or invalid API key",
    "402": "The free plan's monthly questions are used up (quota_exhausted)",
    "403": "A Word, Excel or PowerPoint file needs a paid plan",
    "404": "No such conversation or produced document in the account, a refused download link, "
    "or a produced file deleted from disk",
    "405": "The route does not take this method",
    "409": "The conversation is running (turn_in_flight), or the key's first request is still "
    "being processed (idempotency_key_in_use)",
    "413": "Request body over the size limit",
    "422": "The Idempotency-Key was used with a different message (idempotency_key_reused)",
    "429": "Rate limit (rate_limited) or 3 conversations running (concurrent_conversations)",
    "500": "Failure on the service's side",
}
STATUSES = ["running", "completed", "needs_input", "stopped", "error"]
ID = {"type": "string"}
STAMP = {"type": "string", "format": "date-time"}
KEY: list[dict[str, list[str]]] = [{"apiKey": []}]
REQUEST_ID = {"X-Request-Id": {"$ref": "#/components/headers/RequestId"}}
AVAILABLE = {
    "type": "boolean",
    "const": False,
    "description": "regnb's extension: present, and false, only when the file or image was "
    "deleted from the server's disk (its download answers 404 not_found)",
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _obj(required: list[str], props: dict[str, Any], closed: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "required": required, "properties": props}
    if closed:
        out["additionalProperties"] = False
    return out


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "type": [schema["type"], "null"]}


def _ok(schema: str, description: str) -> dict[str, Any]:
    return {
        "description": description,
        "headers": dict(REQUEST_ID),
        "content": {"application/json": {"schema": _ref(schema)}},
    }


def _errors(*statuses: str) -> dict[str, Any]:
    out = {}
    for status in statuses:
        headers: dict[str, Any] = dict(REQUEST_ID)
        if status == "429":
            headers["Retry-After"] = {"$ref": "#/components/headers/RetryAfter"}
        if status == "405":
            headers["Allow"] = {"$ref": "#/components/headers/Allow"}
        out[status] = {
            "description": WHY[status],
            "headers": headers,
            "content": {"application/json": {"schema": _ref("Error")}},
        }
    return out


def _path(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "a retry with the same key returns the first request's turn (200) and starts "
    "nothing; use a new key for each message",
    "schema": {"type": "string", "pattern": "^[\\x21-\\x7e]{1,255}$"},
}


def conversation_schemas() -> dict[str, Any]:
    """The components/schemas entries of the conversation endpoints (they use `Error` too); each
    response object's properties are its `regnb.models` type's fields."""
    step = model_schema(Step, {"message": ID, "count": {"type": "integer", "minimum": 0}})
    question = model_schema(
        Question, {"question": ID, "options": {"type": "array", "items": {"type": "string"}}}
    )
    document = {
        "id": ID,
        "title": ID,
        "type": {"type": "string", "enum": ["text", "file", "image"]},
        "created_at": _nullable(STAMP),
        "available": AVAILABLE,
    }
    return {
        "ConversationMessage": _obj(
            ["message"], {"message": {"type": "string", "minLength": 1, "pattern": "\\S"}}, False
        ),
        "ConversationAccepted": model_schema(
            ConversationAccepted,
            {
                "conversation_id": ID,
                "turn_index": {"type": "integer", "minimum": 0},
                "status": {"type": "string", "enum": STATUSES},
                "url": ID,
            },
        ),
        "ConversationSummary": model_schema(
            ConversationSummary,
            {
                "conversation_id": ID,
                "title": _nullable(ID),
                "status": {"type": "string", "enum": STATUSES},
                "created_at": STAMP,
                "last_activity_at": STAMP,
                "turn_count": {"type": "integer", "minimum": 0},
                "url": ID,
            },
        ),
        "ConversationList": model_schema(
            ConversationList,
            {
                "conversations": {"type": "array", "items": _ref("ConversationSummary")},
                "total": {"type": "integer", "minimum": 0},
                "limit": {"type": "integer", "minimum": 1, "maximum": LIST_LIMIT_MAX},
                "offset": {"type": "integer", "minimum": 0},
            },
        ),
        "Citation": model_schema(
            Citation,
            {
                "index": {"type": "integer", "minimum": 1},
                "name": ID,
                "dataset": ID,
                "date": _nullable(ID),
                "page_num": _nullable({"type": "integer", "minimum": 1}),
                "url": ID,
                "block_id": {"type": "string", "pattern": "^¶[0-9]+(-[0-9]+)?$"},
                "parent_index": {"type": "integer", "minimum": 1},
            },
        ),
        "Turn": model_schema(
            Turn,
            {
                "turn_index": {"type": "integer", "minimum": 0},
                "message": ID,
                "status": {"type": "string", "enum": STATUSES},
                "answer": _nullable(ID),
                "citations": {"type": "array", "items": _ref("Citation")},
                "question": {"oneOf": [{"type": "null"}, question]},
                "submitted_at": _nullable(STAMP),
                "steps": {"type": "array", "items": step},
            },
        ),
        "ProducedDocumentEntry": model_schema(ProducedDocumentEntry, document),
        "Conversation": model_schema(
            ConversationRead,
            {
                "conversation_id": ID,
                "status": {"type": "string", "enum": STATUSES},
                "url": ID,
                "turns": {"type": "array", "items": _ref("Turn")},
                "documents": {"type": "array", "items": _ref("ProducedDocumentEntry")},
                "error": _nullable(ID),
            },
        ),
        "ConversationStopped": model_schema(
            ConversationStopped, {"conversation_id": ID, "stopped": {"type": "boolean"}}
        ),
        "ProducedDocument": model_schema(
            ProducedDocument,
            {
                **document,
                "content": {"type": "string", "description": "only for text: markdown"},
                "url": {"type": "string", "description": "only for files and images"},
                "filename": ID,
                "expires_in": {"type": "integer", "minimum": 1},
            },
        ),
    }


def _message_op(operation_id: str, summary: str, path_params: list[str]) -> dict[str, Any]:
    return {
        "operationId": operation_id,
        "summary": summary,
        "security": KEY,
        "parameters": [*(_path(p) for p in path_params), IDEMPOTENCY_KEY],
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": _ref("ConversationMessage")}},
        },
        "responses": {
            "200": _ok("ConversationAccepted", "A retry with a used Idempotency-Key"),
            "202": _ok("ConversationAccepted", "The run started"),
            **_errors("400", "401", "402", *(["404"] if path_params else []), "405", "409", "413"),
            **_errors("422", "429", "500"),
        },
    }


WAIT_MAX = int(Settings.conversation_wait_max_s)  # the spec's 45: a whole number in the schema


def conversation_paths() -> dict[str, Any]:
    """The OpenAPI `paths` entries of the conversation endpoints and of the file download."""
    conversation = _path("conversation_id")
    return {
        PREFIX: {
            "post": _message_op("startConversation", "Start a conversation (returns at once)", []),
            "get": {
                "operationId": "listConversations",
                "summary": "The key owner's conversations, most recent activity first",
                "security": KEY,
                "parameters": [
                    {
                        "name": "status",
                        "in": "query",
                        "schema": {"type": "string", "enum": list(LIST_STATUSES), "default": "all"},
                    },
                    {
                        "name": "limit",
                        "in": "query",
                        "schema": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": LIST_LIMIT_MAX,
                            "default": 20,
                        },
                    },
                    {
                        "name": "offset",
                        "in": "query",
                        "schema": {
                            "type": "integer",
                            "minimum": 0,
                            "maximum": MAX_INT,
                            "default": 0,
                        },
                    },
                ],
                "responses": {
                    "200": _ok("ConversationList", "Conversation summaries"),
                    **_errors("400", "401", "405", "429", "500"),
                },
            },
        },
        PREFIX + "/{conversation_id}": {
            "get": {
                "operationId": "readConversation",
                "summary": "The conversation with every turn; waits up to `wait` s while running",
                "security": KEY,
                "parameters": [
                    conversation,
                    {
                        "name": "wait",
                        "in": "query",
                        "schema": {
                            "type": "number",
                            "minimum": 0,
                            "maximum": WAIT_MAX,
                            "default": 0,
                        },
                    },
                ],
                "responses": {
                    "200": _ok("Conversation", "The conversation"),
                    **_errors("400", "401", "404", "405", "429", "500"),
                },
            }
        },
        PREFIX + "/{conversation_id}/messages": {
            "post": _message_op(
                "sendMessage", "Send a follow-up or a reply (returns at once)", ["conversation_id"]
            )
        },
        PREFIX + "/{conversation_id}/stop": {
            "post": {
                "operationId": "stopConversation",
                "summary": "Stop the running message; it and its documents are removed",
                "security": KEY,
                "parameters": [conversation],
                "responses": {
                    "200": _ok("ConversationStopped", "stopped is false when nothing ran"),
                    **_errors("400", "401", "404", "405", "429", "500"),
                },
            }
        },
        PREFIX + "/{conversation_id}/documents/{document_id}": {
            "get": {
                "operationId": "producedDocument",
                "summary": "A produced document: text inline, files and images by signed URL",
                "security": KEY,
                "parameters": [conversation, _path("document_id")],
                "responses": {
                    "200": _ok("ProducedDocument", "The document"),
                    **_errors("400", "401", "403", "404", "405", "429", "500"),
                },
            }
        },
        "/api/v3/files/{token}": {
            "get": {
                "operationId": "downloadFile",
                "summary": "The file a produced document's signed url opens (same account's key)",
                "security": KEY,
                "parameters": [_path("token")],
                "responses": {
                    "200": {
                        "description": "The file, as an attachment",
                        "headers": dict(REQUEST_ID),
                        "content": {"*/*": {"schema": {"type": "string", "format": "binary"}}},
                    },
                    **_errors("400", "401", "403", "404", "405", "429", "500"),
                },
            }
        },
    }
