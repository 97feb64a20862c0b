"""The conversation endpoints' part of the OpenAPI document: start, follow-up, list, read with
`wait`, stop, produced document and the file download, with their schemas; each response
object's properties are its `regnb.models` type's fields."""

from __future__ import annotations

from typing import Any

from regnb.conversations._checks import LIST_LIMIT_MAX, LIST_STATUSES
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
from regnb.server._body import MAX_INT
from regnb.server._conversations import PREFIX
from regnb.server.openapi._schema import (
    KEY,
    error_responses,
    model_schema,
    nullable,
    object_schema,
    ok_response,
    path_parameter,
    ref,
    request_body,
)
from regnb.settings import Settings

__all__ = ["conversation_paths", "conversation_schemas"]

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
AVAILABLE = {
    "type": "boolean",
    "const": False,
    "description": "regnb's extension: present, and false, only when the file or image was "
    "deleted from the server's disk (its download answers 404 not_found)",
}
WAIT_MAX = int(Settings.conversation_wait_max_s)  # the spec's 45: a whole number in the schema
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "a retry with the same key returns the first request's turn (200) and starts "
    "nothing; use a new key for each message",
    "schema": {"type": "string", "pattern": "^[\\x21-\\x7e]{1,255}$"},
}


def _errors(*statuses: str) -> dict[str, Any]:
    """The error responses of `statuses`, as the conversation endpoints mean them."""
    return error_responses(list(statuses), why=WHY)


def conversation_schemas() -> dict[str, Any]:
    """The components/schemas entries of the conversation endpoints (they use `Error` too)."""
    step = model_schema(Step, {"message": ID, "count": {"type": "integer", "minimum": 0}})
    question = model_schema(
        Question, {"question": ID, "options": {"type": "array", "items": {"type": "string"}}}
    )
    document = {
        "id": ID,
        "title": ID,
        "type": {"type": "string", "enum": ["text", "file", "image"]},
        "created_at": nullable("string", format="date-time"),
        "available": AVAILABLE,
    }
    return {
        "ConversationMessage": object_schema(
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
                "title": nullable("string"),
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
                "conversations": {"type": "array", "items": ref("ConversationSummary")},
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
                "date": nullable("string"),
                "page_num": nullable("integer", minimum=1),
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
                "answer": nullable("string"),
                "citations": {"type": "array", "items": ref("Citation")},
                "question": {"oneOf": [{"type": "null"}, question]},
                "submitted_at": nullable("string", format="date-time"),
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
                "turns": {"type": "array", "items": ref("Turn")},
                "documents": {"type": "array", "items": ref("ProducedDocumentEntry")},
                "error": nullable("string"),
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
        "parameters": [*(path_parameter(p) for p in path_params), IDEMPOTENCY_KEY],
        "requestBody": request_body("ConversationMessage"),
        "responses": {
            "200": ok_response("ConversationAccepted", "A retry with a used Idempotency-Key"),
            "202": ok_response("ConversationAccepted", "The run started"),
            **_errors("400", "401", "402", *(["404"] if path_params else []), "405", "409", "413"),
            **_errors("422", "429", "500"),
        },
    }


def conversation_paths() -> dict[str, Any]:
    """The OpenAPI `paths` entries of the conversation endpoints and of the file download."""
    conversation = path_parameter("conversation_id")
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
                    "200": ok_response("ConversationList", "Conversation summaries"),
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
                    "200": ok_response("Conversation", "The conversation"),
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
                    "200": ok_response("ConversationStopped", "stopped is false when nothing ran"),
                    **_errors("400", "401", "404", "405", "429", "500"),
                },
            }
        },
        PREFIX + "/{conversation_id}/documents/{document_id}": {
            "get": {
                "operationId": "producedDocument",
                "summary": "A produced document: text inline, files and images by signed URL",
                "security": KEY,
                "parameters": [conversation, path_parameter("document_id")],
                "responses": {
                    "200": ok_response("ProducedDocument", "The document"),
                    **_errors("400", "401", "403", "404", "405", "429", "500"),
                },
            }
        },
        "/api/v3/files/{token}": {
            "get": {
                "operationId": "downloadFile",
                "summary": "The file a produced document's signed url opens, on its own until it "
                "expires (with a key: only a link of the key's account)",
                "security": [{}, *KEY],
                "parameters": [
                    {
                        **path_parameter("token"),
                        "schema": {
                            "type": "string",
                            "pattern": r"^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$",
                        },
                        "description": "the signed token of the url: payload.signature, base64url",
                    }
                ],
                "responses": {
                    "200": {
                        "description": "The file, as an attachment",
                        "headers": {"X-Request-Id": {"$ref": "#/components/headers/RequestId"}},
                        "content": {"*/*": {"schema": {"type": "string", "format": "binary"}}},
                    },
                    **_errors("400", "401", "403", "404", "405", "429", "500"),
                },
            }
        },
    }
